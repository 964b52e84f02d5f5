// GET /api/carrier/{carrier_id}/export's bodies (docs/contracts/carriers.md, "Export"), pure: the JSON
// export (schema carriers/export) is the stored profile spliced in as it is plus the monthly counts the
// build stored (null for an input the build lacked) and every inspection and crash of the window; the CSV is RFC 4180 with one row per BASIC, where an
// unknown measure, percentile or violation count is an empty field.
import { toMonthsBefore } from '../../contract/carriers/methodology.ts';
import { toMonthlyCounts } from '../../contract/carriers/monthly.ts';
import type { Profile } from '../../contract/carriers/profile.ts';
import Papa from 'papaparse';

export type ExportFormat = 'json' | 'csv';

export const EXPORT_TYPES: Record<ExportFormat, string> = { json: 'application/json', csv: 'text/csv; charset=utf-8' };

/** `attachment; filename="carrier-<id>.<format>"` (RFC 6266 §4.1); the name is digits and a dot only, so it needs no escaping. */
export function toContentDisposition(carrierId: number, format: ExportFormat): string {
  return `attachment; filename="carrier-${carrierId}.${format}"`;
}

/**
 * The JSON export: `{"profile": <the stored profile bytes>, "monthly": {...}, "inspections": [...],
 * "crashes": [...]}`. `monthlyRecord` is the carrier's record of the build's monthly store, undefined when it
 * had no inspection or crash in the window; `lists` is `toListsJson` of every inspection, undefined for a
 * build made before the lists (the keys are then left out).
 */
export function toExportJson(
  profileBody: Buffer,
  profile: Profile,
  monthlyRecord: Buffer | undefined,
  lists: string | undefined,
): string {
  const to = profile.data_as_of;
  const windowMonths = profile.inspections.window_months;
  const from = toMonthsBefore(to, windowMonths);
  // A month's count of an input the build lacked is unknown, as the profile's totals are: null, not 0.
  const noInspections = profile.data_gaps.includes('inspections');
  const noCrashes = profile.data_gaps.includes('crashes');
  const months = toMonthlyCounts(monthlyRecord, from, to).map((c) => ({
    month: c.month,
    inspections: noInspections ? null : c.inspections,
    crashes: noCrashes ? null : c.crashes,
  }));
  const monthly = { window_months: windowMonths, from, to, months };
  return `{"profile":${profileBody.toString('utf8')},"monthly":${JSON.stringify(monthly)}${lists === undefined ? '' : `,${lists}`}}`;
}

export const CSV_COLUMNS = [
  'carrier_id',
  'legal_name',
  'category',
  'measure',
  'percentile',
  'threshold',
  'alert',
  'violations',
  'peer_group',
  'data_as_of',
] as const;

/**
 * Text fields that a spreadsheet would read as a formula: those beginning with `=`, `+`, `-`, `@`, a tab or
 * a CR (OWASP, "CSV Injection"). A legal name comes from the FMCSA census as filed; opened in a spreadsheet,
 * `=HYPERLINK(...)` would run. papaparse puts an apostrophe before such a field and quotes it, so a
 * spreadsheet shows the text; the JSON export keeps the name as filed. Its own pattern misses a field with
 * a line break after the first character (`.` stops at it), hence this one.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * The CSV export (RFC 4180): the header row, then the seven BASICs in the profile's order; every line ends
 * in CRLF (§2 rule 1), fields holding a comma, a double quote or a line break are quoted with each double
 * quote doubled (rules 5-7), null is an empty field, formula-like text starts with an apostrophe.
 */
export function toExportCsv(profile: Profile): string {
  const rows = profile.categories.map((c) => [
    profile.carrier_id,
    profile.legal_name,
    c.category,
    c.measure,
    c.percentile,
    c.threshold,
    c.alert,
    c.violations,
    c.peer_group,
    profile.data_as_of,
  ]);
  return `${Papa.unparse({ fields: [...CSV_COLUMNS], data: rows }, { newline: '\r\n', escapeFormulae: FORMULA_START })}\r\n`;
}
