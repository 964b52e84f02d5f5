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
