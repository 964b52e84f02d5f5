// One facility as a row of the downloads (schemas/facilities/spine-row.schema.json): the pipeline writes every
// facility's into api/v1/spine.csv and spine.geojson, the server a search page's into search?format=csv, so
// both halves give a facility the same row.
import { CSV_EOL, guardFormula, toCsvLine } from '../core/csv.ts';
import type { SpineRow } from '../types/facilities/spine-row.ts';
import { toDelta } from './record.ts';
import type { SearchDoc } from './search.ts';

export type { SpineRow };

/** The URL paths of the whole-registry downloads, files of the build's tree. */
export const SPINE_CSV_PATH = '/api/v1/spine.csv';
export const SPINE_GEOJSON_PATH = '/api/v1/spine.geojson';

/** The columns, in the contract's order (docs/contracts/facilities.md, "Paging, filters, downloads, …"). */
export const SPINE_COLUMNS = [
  'spine_id',
  'name',
  'city',
  'tier',
  'program',
  'naics',
  'year',
  'ontario_total',
  'federal_total',
  'delta_tonnes',
  'delta_pct',
  'emissions',
  'latitude',
  'longitude',
] as const satisfies readonly (keyof SpineRow)[];

export const SPINE_CSV_HEADER = toCsvLine(SPINE_COLUMNS) + CSV_EOL;

export type SpineRowSource = Pick<
  SearchDoc,
  'spine_id' | 'name' | 'city' | 'tier' | 'program' | 'naics' | 'totals' | 'emissions' | 'coordinates'
>;

/** A facility's row: its comparison-year figures from `totals`, the delta as the record computes it. */
export function toSpineRow(d: SpineRowSource): SpineRow {
  const delta = toDelta(d.totals);
  return {
    spine_id: d.spine_id,
    name: d.name,
    city: d.city,
    tier: d.tier,
    program: d.program,
    naics: d.naics,
    year: d.totals.year,
    ontario_total: d.totals.ontario,
    federal_total: d.totals.federal,
    delta_tonnes: delta?.tonnes ?? null,
    delta_pct: delta?.pct ?? null,
    emissions: d.emissions,
    latitude: d.coordinates?.latitude ?? null,
    longitude: d.coordinates?.longitude ?? null,
  };
}

/** The row as one CSV record with its CRLF; the free-text name and city guarded against formulas. */
export function toSpineCsvRecord(row: SpineRow): string {
  return (
    toCsvLine(
      SPINE_COLUMNS.map((c) => {
        const v = row[c];
        return (c === 'name' || c === 'city') && typeof v === 'string' ? guardFormula(v) : v;
      }),
    ) + CSV_EOL
  );
}
