// Calendar dates as upstream files write them, to ISO 8601 calendar dates (`YYYY-MM-DD`). Pure: no clock, no
// time zone. A parse returns one of three things, so an empty field and a broken one stay apart:
//   - the ISO string for a real calendar date,
//   - `null` for an empty field (blank or whitespace only),
//   - `undefined` for text that is not a real date (`31-FEB-24`, `2024-13-01`, `hello`).

/** Milliseconds in a UTC day. */
export const DAY_MS = 86_400_000;

/** ISO date; `null` empty; `undefined` not a valid date. */
export type DateParse = string | null | undefined;

const MONTHS: Record<string, number> = {
  JAN: 1,
  FEB: 2,
  MAR: 3,
  APR: 4,
  MAY: 5,
  JUN: 6,
  JUL: 7,
  AUG: 8,
  SEP: 9,
  OCT: 10,
  NOV: 11,
  DEC: 12,
};

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

const isLeap = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

export function daysInMonth(year: number, month: number): number {
  return month === 2 ? (isLeap(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Years 1000–9999 only: four digits as ISO 8601 writes them without expansion, and no year-0 sentinel
 * (`00000000`) passes as a date.
 */
function toIso(year: number, month: number, day: number): string | undefined {
  if (!Number.isInteger(year) || year < 1000 || year > 9999) return undefined;
  if (!Number.isInteger(month) || month < 1 || month > 12) return undefined;
  if (!Number.isInteger(day) || day < 1 || day > daysInMonth(year, month)) return undefined;
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** `YYYY-MM-DD` naming a real calendar day (no time, no offset). */
export function isValidIsoDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  return m !== null && toIso(Number(m[1]), Number(m[2]), Number(m[3])) === s;
}

/**
 * `YYYY-MM-DD` naming a real day of any four-digit year (RFC 3339 full-date, proleptic Gregorian): what a
 * request parameter may be. `from=0001-01-01` means "from the beginning"; upstream files are held to
 * isValidIsoDate's years 1000–9999.
 */
export function isCalendarDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m === null) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** Throws when `s` is not a valid ISO date; `what` names the value in the message (e.g. `reference date`). */
export function assertIsoDate(s: string, what: string): void {
  // Normalizers assert the same reference date once per row, millions of times: remember the last good one.
  if (s === lastValid) return;
  if (!isValidIsoDate(s)) throw new Error(`${what} ${JSON.stringify(s)} is not a valid YYYY-MM-DD date`);
  lastValid = s;
}
let lastValid = '';

function parts(iso: string): [number, number, number] {
  assertIsoDate(iso, 'date');
  return [Number(iso.slice(0, 4)), Number(iso.slice(5, 7)), Number(iso.slice(8, 10))];
}

const blank = (s: string | undefined): s is undefined => s === undefined || s.trim() === '';

/**
 * `date` plus `months` calendar months (negative goes back); a day past the end of the target month is
 * clamped to its last day: 2024-01-31 + 1 → 2024-02-29, 2024-02-29 + 12 → 2025-02-28.
 */
export function addMonths(date: string, months: number): string {
  if (!Number.isInteger(months)) throw new Error(`addMonths: ${months} is not a whole number of months`);
  const [y, m, d] = parts(date);
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12 + 1;
  const iso = toIso(year, month, Math.min(d, daysInMonth(year, month)));
  if (iso === undefined) throw new Error(`addMonths: ${date} + ${months} months leaves years 1000–9999`);
  return iso;
}

/**
 * Whole calendar months from `from` to `to`: the largest n with addMonths(from, n) ≤ to, so 2024-01-15 →
 * 2024-07-14 is 5 and → 2024-07-15 is 6 (the SMS time-weight bands, "within 6 months", count this way).
 * Negative when `to` precedes `from`: −monthsBetween(to, from).
 */
export function monthsBetween(from: string, to: string): number {
  if (to < from) return -monthsBetween(to, from);
  const [fy, fm] = parts(from);
  const [ty, tm] = parts(to);
  let n = (ty - fy) * 12 + (tm - fm);
  if (addMonths(from, n) > to) n--;
  return n;
}

/**
 * Oracle `DD-MON-YY` (`01-OCT-19`), as FMCSA's census and SMS Input files write dates, or `DD-MON-YYYY`.
 * A two-digit year is 20YY unless that falls more than a year after `reference` (the snapshot's date), then
 * 19YY: the margin keeps slightly-future entries in this century, and MCMIS starts in the 1970s.
 */
export function parseOracleDate(s: string | undefined, reference: string): DateParse {
  if (blank(s)) return null;
  assertIsoDate(reference, 'reference date');
  const m = /^(\d{1,2})-([A-Za-z]{3})-(\d{2}|\d{4})$/.exec(s.trim());
  if (m === null) return undefined;
  const month = MONTHS[m[2]!.toUpperCase()];
  if (month === undefined) return undefined;
  const day = Number(m[1]);
  const yy = m[3]!;
  if (yy.length === 4) return toIso(Number(yy), month, day);
  const latest = addMonths(reference, 12);
  // Compared as text: same-width ISO strings sort like the dates, even for an impossible day such as Feb 30
  // (which toIso then rejects).
  const candidate = `20${yy}-${pad(month)}-${pad(day)}`;
  return toIso(candidate > latest ? 1900 + Number(yy) : 2000 + Number(yy), month, day);
}

/** `YYYYMMDD` (`20240130`), as the MCMIS crash and inspection files write dates. */
export function parseCompactDate(s: string | undefined): DateParse {
  if (blank(s)) return null;
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(s.trim());
  return m === null ? undefined : toIso(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** `MM/DD/YYYY` (`06/26/2024`; one-digit month and day too: `9/6/2024`), as L&I files write dates. */
export function parseUsDate(s: string | undefined): DateParse {
  if (blank(s)) return null;
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s.trim());
  return m === null ? undefined : toIso(Number(m[3]), Number(m[1]), Number(m[2]));
}

/**
 * `YYYY-MM-DD`, optionally followed by a time as Socrata CSV exports write date columns
 * (`2024-01-30T00:00:00.000`). The date is taken as written; an offset, if any, is not applied.
 */
export function parseIsoDate(s: string | undefined): DateParse {
  if (blank(s)) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(s.trim());
  return m === null ? undefined : toIso(Number(m[1]), Number(m[2]), Number(m[3]));
}

/**
 * Any of the four forms above, chosen by shape (the shapes do not overlap), so a text that has a form's shape
 * but names no real day is `undefined` rather than retried as another form.
 */
export function parseAnyDate(s: string | undefined, reference: string): DateParse {
  if (blank(s)) return null;
  // Millions of SMS rows share a few hundred dates: each distinct text is parsed once per reference.
  if (reference !== cacheReference || dateCache.size >= DATE_CACHE_MAX) {
    dateCache.clear();
    cacheReference = reference;
  }
  const cached = dateCache.get(s);
  if (cached !== undefined || dateCache.has(s)) return cached;
  const parsed = parseAnyDateUncached(s, reference);
  dateCache.set(s, parsed);
  return parsed;
}

const DATE_CACHE_MAX = 50_000;
const dateCache = new Map<string, DateParse>();
let cacheReference = '';

function parseAnyDateUncached(s: string, reference: string): DateParse {
  const t = s.trim();
  if (/^\d{4}-/.test(t)) return parseIsoDate(t);
  if (/^\d{8}$/.test(t)) return parseCompactDate(t);
  if (t.includes('/')) return parseUsDate(t);
  return parseOracleDate(t, reference);
}
