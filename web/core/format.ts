// Numbers and dates as the explorer prints them: Canadian English grouping, a fixed number of decimals per
// kind of figure, and a dash for a missing value (never 0).

export const MISSING = '–';

const formats = new Map<number, Intl.NumberFormat>();

/** `v` with at most `digits` decimals and thousands separators (1,661,815.4), or a dash for null. */
export function num(v: number | null | undefined, digits = 0): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return MISSING;
  let f = formats.get(digits);
  if (!f) {
    f = new Intl.NumberFormat('en-CA', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
    formats.set(digits, f);
  }
  return f.format(v);
}

/** Tonnes of CO2 equivalent, to the tenth. */
export const tonnes = (v: number | null | undefined) => (v === null || v === undefined ? MISSING : `${num(v, 1)} t`);

/** A share 0–1 as a percentage (0.271 → 27.1 %). */
export const share = (v: number | null | undefined, digits = 1) =>
  v === null || v === undefined ? MISSING : `${num(v * 100, digits)} %`;

/** A percentage already in percent (0.38 → 0.38 %). */
export const pct = (v: number | null | undefined, digits = 2) =>
  v === null || v === undefined ? MISSING : `${num(v, digits)} %`;

/** Seconds as the largest whole unit a person reads ("3 days", "5 minutes"). */
export function duration(seconds: number): string {
  const units: [number, string][] = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
    [1, 'second'],
  ];
  for (const [size, name] of units) {
    if (seconds >= size) {
      const n = Math.round(seconds / size);
      return `${n} ${name}${n === 1 ? '' : 's'}`;
    }
  }
  return 'a moment';
}

/** `YYYY-MM-DD` as UTC seconds since the epoch (chart x values). */
export const isoToSeconds = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 1000;
