// CSV text (RFC 4180), written by the pipeline (downloads, demo inputs) and the server (format=csv answers).
// One writer: minimal quoting, as the upstream registries write their files and spreadsheets expect.

export type CsvValue = string | number | null;

/** The media type of every CSV the server sends (RFC 4180 §3; the project writes UTF-8). */
export const CSV_TYPE = 'text/csv; charset=utf-8';

/** RFC 4180 §2 rule 1: every record, the last included, ends in CRLF. */
export const CSV_EOL = '\r\n';

/**
 * One field: null is empty, a number its shortest decimal form, text quoted only when it holds a comma, a
 * double quote or a line break, with each double quote doubled (§2 rules 5–7).
 */
export function toCsvField(v: CsvValue): string {
  if (v === null) return '';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`${v} has no CSV form`);
    return String(v);
  }
  return /[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v;
}

/** The fields of one record, without its line end. */
export const toCsvLine = (fields: readonly CsvValue[]) => fields.map(toCsvField).join(',');

/** A whole file: the header record, then one record per row, each ending in CRLF. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  let out = toCsvLine(header) + CSV_EOL;
  for (const row of rows) out += toCsvLine(row) + CSV_EOL;
  return out;
}

/**
 * Text a spreadsheet would run as a formula (OWASP, "CSV Injection": a first character of `=`, `+`, `-`,
 * `@`, a tab or a CR) gets a leading apostrophe, so the cell shows the text. For free text filed by others
 * (names, cities); never for numbers, whose minus sign is data.
 */
export function guardFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}
