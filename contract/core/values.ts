// Field-level conversions shared by every normalizer. Empty is not zero: an empty field is `null`.

const MISSING = new Set(['', 'not available', 'n/a']);

/**
 * A decimal number as upstream files write it: `69652`, `3858475.994`, `3.78544E-05`, `4 111.48` (space or
 * no-break space as thousands separator). `null` for empty or a missing-value marker, `NaN` for anything else.
 */
export function parseNumber(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  const s = raw.trim();
  if (MISSING.has(s.toLowerCase())) return null;
  const compact = s.replace(/[\s\u00a0\u202f]/g, '');
  if (!/^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/.test(compact)) return Number.NaN;
  // `1e400` is a number to the pattern and Infinity to Number(): as malformed as any other.
  const n = Number(compact);
  return Number.isFinite(n) ? n : Number.NaN;
}

export function parseInteger(raw: string | undefined): number | null {
  const n = parseNumber(raw);
  return n === null || Number.isNaN(n) ? n : Number.isInteger(n) ? n : Number.NaN;
}

/** Rounds away binary noise (`0.1 + 0.2`) while keeping every digit the publishers print. */
export function round(n: number, digits = 6): number {
  const f = 10 ** digits;
  const scaled = n * f;
  // A figure too large to scale (above about 1e302) has no binary noise worth rounding away: kept as it is.
  return Number.isFinite(scaled) ? Math.round(scaled) / f : n;
}

/** Trimmed text with inner whitespace collapsed and stray U+FFFD removed; `null` when nothing is left. */
export function cleanText(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const s = raw
    .replace(/\uFFFD/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return s === '' ? null : s;
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * An integer with comma thousands separators (`45,001`), as en-US writes it. Number#toLocaleString goes
 * through ICU and costs microseconds a call, which a build making millions of labels cannot afford.
 */
export function formatCount(n: number): string {
  if (!Number.isInteger(n)) return n.toLocaleString('en-US');
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `a`, `a and b`, `a, b and c` (or `or`): a list as the summaries and reasons write it. */
export function formatList(items: readonly string[], conjunction = 'and'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items.at(-1)}`;
}
