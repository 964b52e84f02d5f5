/** A setting (an environment variable) the server cannot use: start-up stops with its message, no stack. */
export class ConfigError extends Error {}

/**
 * A whole-number setting, `fallback` when unset or empty. Decimal digits as written: Number() would also
 * read 0x10, 1e1 and ' 7'. Otherwise a ConfigError: "<name> must be <what>, not <raw>".
 */
export function wholeNumberSetting(name: string, raw: string | undefined, fallback: number, min: number, what: string): number {
  if (raw === undefined || raw === '') return fallback;
  const n = /^[0-9]+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min) throw new ConfigError(`${name} must be ${what}, not ${raw}`);
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
