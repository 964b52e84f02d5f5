// HTTP-date (RFC 9110 §5.6.7): IMF-fixdate, and the two obsolete forms a recipient must still read.
// Date.parse is no parser for it: it reads `1` as the year 2001 and `2999-01-01` as a date.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** `Sun, 06 Nov 1994 08:49:37 GMT` */
const IMF_FIXDATE =
  /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
/** `Sunday, 06-Nov-94 08:49:37 GMT` */
const RFC850_DATE =
  /^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\d{2})-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
/** `Sun Nov  6 08:49:37 1994` */
const ASCTIME_DATE =
  /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/;

/** Day, month name, year and time of a date in one of the three forms, or undefined. */
function toParts(value: string): [string, string, number, string, string, string] | undefined {
  const imf = IMF_FIXDATE.exec(value);
  if (imf) return [imf[1]!, imf[2]!, Number(imf[3]), imf[4]!, imf[5]!, imf[6]!];
  const rfc850 = RFC850_DATE.exec(value);
  if (rfc850) {
    // A two-digit year that looks more than 50 years ahead is in the past century (RFC 9110 §5.6.7).
    const yy = Number(rfc850[3]);
    const year = 2000 + yy > new Date().getUTCFullYear() + 50 ? 1900 + yy : 2000 + yy;
    return [rfc850[1]!, rfc850[2]!, year, rfc850[4]!, rfc850[5]!, rfc850[6]!];
  }
  const asc = ASCTIME_DATE.exec(value);
  if (asc) return [asc[2]!.trim(), asc[1]!, Number(asc[6]), asc[3]!, asc[4]!, asc[5]!];
  return undefined;
}

/** Milliseconds since the epoch of an HTTP-date, or undefined for anything else (an invalid one is ignored). */
export function parseHttpDate(value: string | undefined): number | undefined {
  if (value === undefined || value.length > 40) return undefined;
  const parts = toParts(value);
  if (!parts) return undefined;
  const [day, month, year, ...time] = parts;
  const [h, min, s] = time.map(Number) as [number, number, number];
  const d = Number(day);
  if (d < 1 || d > 31 || h > 23 || min > 59 || s > 60) return undefined;
  const ms = Date.UTC(year, MONTHS.indexOf(month), d, h, min, Math.min(s, 59));
  // 31 Feb and the like roll over into the next month: not a date.
  return new Date(ms).getUTCDate() === d ? ms : undefined;
}

/**
 * Whether a representation last modified at `modifiedMs` is unchanged since If-Modified-Since: its time
 * to the second (an HTTP-date's precision) is not after the date. Only when If-None-Match is absent and the
 * date is valid (RFC 9110 §13.1.3); the caller checks the method.
 */
export function unmodifiedSince(
  headers: { 'if-none-match'?: string; 'if-modified-since'?: string },
  modifiedMs: number,
): boolean {
  if (headers['if-none-match'] !== undefined) return false;
  const since = parseHttpDate(headers['if-modified-since']);
  return since !== undefined && Math.floor(modifiedMs / 1000) * 1000 <= since;
}
