// The every-year download (docs/contracts/facilities.md, "What FLIGHT and datasette users do next"):
// api/v1/emissions.csv, one row per facility, year, program and gas, with the facility's place. Pure; the
// build writes it through the sink, and the SQLite file takes its gas rows from the same function.
import { CSV_EOL, guardFormula, toCsvLine } from '../../contract/core/csv.ts';
import type { BaseRecord } from '../../contract/facilities/record.ts';
import { GASES } from './gases.ts';

export const EMISSIONS_CSV_PATH = '/api/v1/emissions.csv';

export const EMISSIONS_COLUMNS = [
  'spine_id',
  'name',
  'city',
  'naics',
  'latitude',
  'longitude',
  'year',
  'program',
  'gas',
  'tonnes_co2e',
] as const;

export const EMISSIONS_CSV_HEADER = toCsvLine(EMISSIONS_COLUMNS) + CSV_EOL;

/** In the file's order: federal before ontario. */
export const EMISSIONS_PROGRAMS = ['federal', 'ontario'] as const;
export type EmissionsProgram = (typeof EMISSIONS_PROGRAMS)[number];

/**
 * The `gas` column's vocabulary, in the file's order. `total` is a program's figure for a year in which it
 * reports no gas at all (the federal large-facilities indicator table prints only totals): it never stands
 * beside gas rows of the same facility, year and program, so the rows of a facility and year sum without
 * counting anything twice.
 */
export const EMISSIONS_GASES = [...GASES, 'total'] as const;
export type EmissionsGas = (typeof EMISSIONS_GASES)[number];

export interface EmissionsRow {
  spine_id: string;
  name: string;
  city: string | null;
  naics: string | null;
  latitude: number | null;
  longitude: number | null;
  year: number;
  program: EmissionsProgram;
  gas: EmissionsGas;
  tonnes_co2e: number;
}

export type EmissionsSource = Pick<
  BaseRecord,
  'spine_id' | 'name' | 'city' | 'naics' | 'coordinates' | 'series' | 'by_gas'
>;

/**
 * One facility's rows, ascending by year, then program, then gas in EMISSIONS_GASES' order: each gas a
 * program's `by_gas` gives a figure for (0 included, null left out), else the program's total of that year
 * from `series` as gas `total`, else nothing.
 */
export function toEmissionsRows(r: EmissionsSource): EmissionsRow[] {
  const place = {
    spine_id: r.spine_id,
    name: r.name,
    city: r.city,
    naics: r.naics,
    latitude: r.coordinates?.latitude ?? null,
    longitude: r.coordinates?.longitude ?? null,
  };
  const split = {
    federal: new Map(r.by_gas.federal.map((g) => [g.year, g])),
    ontario: new Map(r.by_gas.ontario.map((g) => [g.year, g])),
  };
  const totals = new Map(r.series.map((p) => [p.year, p]));
  const years = [...new Set([...totals.keys(), ...split.federal.keys(), ...split.ontario.keys()])].sort(
    (a, b) => a - b,
  );
  const out: EmissionsRow[] = [];
  for (const year of years) {
    for (const program of EMISSIONS_PROGRAMS) {
      const gases = split[program].get(year);
      if (gases) {
        for (const gas of GASES) {
          const v = gases[gas];
          if (v !== null) out.push({ ...place, year, program, gas, tonnes_co2e: v });
        }
        continue;
      }
      const total = totals.get(year)?.[program] ?? null;
      if (total !== null) out.push({ ...place, year, program, gas: 'total', tonnes_co2e: total });
    }
  }
  return out;
}

/** The row as one CSV record with its CRLF; the free-text name and city guarded against formulas. */
export function toEmissionsCsvRecord(row: EmissionsRow): string {
  return (
    toCsvLine(
      EMISSIONS_COLUMNS.map((c) => {
        const v = row[c];
        return (c === 'name' || c === 'city') && typeof v === 'string' ? guardFormula(v) : v;
      }),
    ) + CSV_EOL
  );
}

/** api/v1/emissions.csv: the header, then every facility's rows in the order given (ascending spine_id). */
export function toEmissionsCsv(records: readonly EmissionsSource[]): { text: string; rows: number } {
  let text = EMISSIONS_CSV_HEADER;
  let rows = 0;
  for (const r of records) {
    for (const row of toEmissionsRows(r)) {
      text += toEmissionsCsvRecord(row);
      rows++;
    }
  }
  return { text, rows };
}
