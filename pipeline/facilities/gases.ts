// A record's `by_gas` (docs/contracts/facilities.md, "Paging, filters, downloads, places and gases"): per
// program and year, the gases the inputs report, in t CO2e as each program computed them. Pure.
import { round } from '../../contract/core/values.ts';
import type { FacilityRecord, Gases } from '../../contract/facilities/record.ts';
import type { FederalRow, OntarioRow } from './rows.ts';

export const GASES = ['co2', 'ch4', 'n2o', 'hfc', 'pfc', 'sf6'] as const;

type GasFigures = Pick<Gases, (typeof GASES)[number]>;

/**
 * Gas figures summed per year (several ids of one program), ascending by year. A gas no row reports in a
 * year stays null, as empty is not zero; a year in which no row reports any gas (the indicator table's rows)
 * is left out. A single figure is kept as printed; sums are rounded to 6 decimals, as the series are.
 */
export function toGasesByYear(rows: readonly (GasFigures & { year: number })[]): Gases[] {
  const byYear = new Map<number, Gases>();
  for (const r of rows) {
    if (GASES.every((g) => r[g] === null)) continue;
    let out = byYear.get(r.year);
    if (!out) {
      out = { year: r.year, co2: null, ch4: null, n2o: null, hfc: null, pfc: null, sf6: null };
      byYear.set(r.year, out);
    }
    for (const g of GASES) {
      const v = r[g];
      if (v === null) continue;
      const prev = out[g];
      out[g] = prev === null ? v : round(prev + v);
    }
  }
  return [...byYear.values()].sort((a, b) => a.year - b.year);
}

export function toByGas(ontario: readonly OntarioRow[], federal: readonly FederalRow[]): FacilityRecord['by_gas'] {
  return { federal: toGasesByYear(federal), ontario: toGasesByYear(ontario) };
}
