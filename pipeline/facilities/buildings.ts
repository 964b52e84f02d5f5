// Large-building context per city from Ontario's EWRB data. EWRB carries no facility names or ids, so a
// facility only gets the figures of the buildings in its (normalized) city.
import { median, round } from '../../contract/core/values.ts';
import { normalizeCity } from '../../contract/facilities/normalize-names.ts';
import type { Buildings } from '../../contract/facilities/record.ts';
import type { BuildingRow } from './rows.ts';

/**
 * The EWRB data year: buildings report the previous calendar year, and the data-quality check runs during
 * the reporting season, so the year is the most common check year minus one (checks dated 2021 → 2020).
 */
export function toEwrbYear(rows: readonly BuildingRow[]): number | null {
  const counts = new Map<number, number>();
  for (const r of rows) if (r.checkYear !== null) counts.set(r.checkYear, (counts.get(r.checkYear) ?? 0) + 1);
  const top = [...counts].sort(([ya, a], [yb, b]) => b - a || yb - ya)[0];
  return top ? top[0] - 1 : null;
}

export function toBuildingsByCity(rows: readonly BuildingRow[]): Map<string, Buildings> {
  const year = toEwrbYear(rows);
  const groups = new Map<string, BuildingRow[]>();
  for (const r of rows) {
    const key = normalizeCity(r.city);
    if (!key) continue;
    (groups.get(key) ?? groups.set(key, []).get(key)!).push(r);
  }
  const out = new Map<string, Buildings>();
  for (const [key, list] of groups) {
    // The most common spelling names the city (`Toronto` over `TORONTO`).
    const spellings = new Map<string, number>();
    for (const r of list) spellings.set(r.city, (spellings.get(r.city) ?? 0) + 1);
    const city = [...spellings].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))[0]![0];
    const med = (pick: (r: BuildingRow) => number | null) => {
      const m = median(list.map(pick).filter((v): v is number => v !== null));
      return m === null ? null : round(m, 3);
    };
    out.set(key, {
      year,
      city,
      count: list.length,
      median_site_eui_gj_m2: med((r) => r.siteEui),
      median_ghg_intensity_kg_m2: med((r) => r.ghgIntensity),
      median_water_m3_m2: med((r) => r.water),
    });
  }
  return out;
}
