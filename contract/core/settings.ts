/** A setting (an environment variable) the server cannot use: start-up stops with its message, no stack. */
export class ConfigError extends Error {}

/**
 * A whole-number setting, `fallback` when unset or empty. Decimal digits as written: Number() would also
 * read 0x10, 1e1 and ' 7'. Otherwise a ConfigError: "<name> must be <what>, not <raw>".
 */
export function wholeNumberSetting(
  name: string,
  raw: string | undefined,
  fallback: number,
  min: number,
  what: string,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (raw === undefined || raw === '') return fallback;
  const n = /^[0-9]+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new ConfigError(`${name} must be ${what}, not ${raw}`);
  return n;
}

/**
 * A yes/no setting: `true` or `false` in any case, false when unset or empty. Anything else (`1`, `yes`,
 * a typo) is a ConfigError rather than a quiet false: SHOW_RESTRICTED_PERCENTILES=1 must not publish a
 * build without the percentiles its operator asked for.
 */
export function flagSetting(name: string, raw: string | undefined): boolean {
  if (raw === undefined || raw === '') return false;
  const value = raw.toLowerCase();
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new ConfigError(`${name} must be true or false, not ${raw}`);
}

/**
 * An upstream base URL setting: unset or empty is the default; otherwise an absolute http(s) URL, or a
 * ConfigError naming the variable (not a network error on the first request, hours into a job).
 */
export function urlSetting(name: string, raw: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new ConfigError(`${name} must be an http:// or https:// address, not ${raw}`);
  return url;
}
