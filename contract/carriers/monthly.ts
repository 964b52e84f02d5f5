// The record of the private/monthly store (contract/carriers/layout.ts): a carrier's inspection and crash
// counts by calendar month, for the premium export (docs/contracts/carriers.md, "Export"). Little-endian,
// one entry per month with events, ascending:
//   u16 month number (year × 12 + month − 1), u32 inspections, u32 crashes      (10 bytes an entry)
// Written by pipeline/carriers/monthly.ts; read back with `toMonthlyCounts`.

export const ENTRY_BYTES = 10;

/**
 * `YYYY-MM…` → year × 12 + month − 1, from the character codes (called once per event). Written out, not
 * with a helper closure: under tsx every arrow function is wrapped to keep its name, and a closure made per
 * call cost 30 times the arithmetic (7 s for 7 M events).
 */
export function toMonthNumber(iso: string): number {
  const year =
    (iso.charCodeAt(0) - 48) * 1000 +
    (iso.charCodeAt(1) - 48) * 100 +
    (iso.charCodeAt(2) - 48) * 10 +
    (iso.charCodeAt(3) - 48);
  return year * 12 + (iso.charCodeAt(5) - 48) * 10 + (iso.charCodeAt(6) - 48) - 1;
}

/** year × 12 + month − 1 → `YYYY-MM`. */
export function toMonthLabel(n: number): string {
  return `${String(Math.floor(n / 12)).padStart(4, '0')}-${String((n % 12) + 1).padStart(2, '0')}`;
}

export interface MonthCount {
  month: string;
  inspections: number;
  crashes: number;
}

/**
 * Every calendar month from `from` to `to` (ISO dates, inclusive), oldest first, with the record's counts
 * and zeros elsewhere; `record` undefined means no events. Throws on a record that is not whole entries.
 */
export function toMonthlyCounts(record: Uint8Array | undefined, from: string, to: string): MonthCount[] {
  const first = toMonthNumber(from);
  const last = toMonthNumber(to);
  const out: MonthCount[] = [];
  for (let n = first; n <= last; n++) out.push({ month: toMonthLabel(n), inspections: 0, crashes: 0 });
  if (!record) return out;
  if (record.length % ENTRY_BYTES !== 0)
    throw new Error(`a monthly record of ${record.length} bytes is not whole ${ENTRY_BYTES}-byte entries`);
  const view = new DataView(record.buffer, record.byteOffset, record.byteLength);
  for (let at = 0; at < record.length; at += ENTRY_BYTES) {
    const entry = out[view.getUint16(at, true) - first];
    if (!entry) throw new Error(`a monthly record has a month outside ${from} to ${to}`);
    entry.inspections = view.getUint32(at + 2, true);
    entry.crashes = view.getUint32(at + 6, true);
  }
  return out;
}
