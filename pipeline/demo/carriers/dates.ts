// Dates. Day numbers count UTC days since 1970-01-01; FMCSA writes DD-MON-YY (shared/data/carriers/README.md §1).
// The timeline is the window SMS measures, ending asOf, with its time weights.
import { DAY_MS } from '../../../contract/core/dates.ts';

const MONTH_NAMES = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
export const FIRST_ADD_DATE = '1974-06-01';

export function toDay(iso: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  const day = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / DAY_MS : NaN;
  if (!m || !Number.isInteger(day) || new Date(day * DAY_MS).toISOString().slice(0, 10) !== iso)
    throw new Error(`demo: asOf must be an ISO date (YYYY-MM-DD), got ${iso}`);
  return day;
}

/** The same day of the month `months` earlier, clamped to the month's length (31 Oct − 6 months = 30 Apr). */
export function toMonthsBefore(day: number, months: number): number {
  const d = new Date(day * DAY_MS);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() - months;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return Date.UTC(y, m, Math.min(d.getUTCDate(), last)) / DAY_MS;
}

export const yearOf = (day: number) => new Date(day * DAY_MS).getUTCFullYear();

/** At most ~20k distinct days (1974 to asOf), so the cache stays small. */
const ddMonYy: string[] = [];
export function toDdMonYy(day: number): string {
  let s = ddMonYy[day];
  if (s === undefined) {
    const d = new Date(day * DAY_MS);
    s = `${String(d.getUTCDate()).padStart(2, '0')}-${MONTH_NAMES[d.getUTCMonth()]}-${String(d.getUTCFullYear() % 100).padStart(2, '0')}`;
    ddMonYy[day] = s;
  }
  return s;
}

export interface Timeline {
  asOfDay: number;
  /** First day inside the window (the day after asOf − months). */
  firstDay: number;
  /** Time weight 3 from this day on (≤ 6 months old), 2 from `tw2` (≤ 12 months), else 1 (methodology §B.3). */
  tw3: number;
  tw2: number;
  months: number;
  asOfYear: number;
  /** The earliest add_date, given to the lowest DOT number. */
  addFirst: number;
  /**
   * The days events are drawn over: the first edition's window and the months of the editions after it, so
   * each edition holds the same events where their windows overlap. Those outside the window are drawn (the
   * random stream stays the same) but not written.
   */
  drawFirst: number;
  drawLast: number;
  /** The first edition's asOf: inside every edition's window of more than 12 months. */
  firstAsOfDay: number;
}

export function timeWeight(w: Timeline, day: number): number {
  return day >= w.tw3 ? 3 : day >= w.tw2 ? 2 : 1;
}
