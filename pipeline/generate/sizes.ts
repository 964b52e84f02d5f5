// What `npm run generate` calls full size, and how a fraction of it maps onto the demo generators' own knobs.
// `--scale` is always a fraction of full: 1 (`full`) is the size below, 0.1 a tenth of it.

/**
 * Carriers at real size: FMCSA's census has about 2.1 M carriers (shared/data/carriers/README.md §1: the
 * 2025-09-15 SMS input census had 2.09 M rows), and 24 months of SMS input hold about 7 M inspections, 10 M
 * violations and 150 k crashes. The demo generator gives 3,000 carriers per unit of its scale and was tuned so
 * that its scale 700 gives these totals (counted at 210,000 carriers: 0.70 M inspections, 1.02 M violations,
 * 14.6 k crashes, i.e. 6.99 M / 10.2 M / 146 k at full size).
 */
export const CARRIERS_FULL = {
  carriers: 2_100_000,
  inspections: 7_000_000,
  violations: 10_000_000,
  crashes: 150_000,
} as const;
export const CARRIERS_DEMO_SCALE_AT_FULL = 700;

/**
 * Facilities at ten times the real files (shared/data/facilities/README.md): the Ontario registry 2,557 rows,
 * the federal GHGRP emissions-by-gas file about 18,771 rows (all provinces), the ECCC indicator table 1,732
 * rows (all provinces), EWRB 3,491 buildings.
 */
export const FACILITIES_REAL = {
  ontarioRows: 2_557,
  byGasRows: 18_771,
  indicatorRows: 1_732,
  ewrbRows: 3_491,
} as const;
export const FACILITIES_FULL_FACTOR = 10;
/**
 * The demo generator's scale whose Ontario file has 10 × 2,557 rows: it writes about 1,490 registry rows per
 * unit of scale (15 reporting years, 2010–2024; counted: 23,848 rows at 16, 25,492 at 17.15).
 */
export const FACILITIES_DEMO_SCALE_AT_FULL = 17.15;
/**
 * Share of the by-gas rows outside Ontario: the real file is all of Canada, where Ontario holds about a
 * fifth of the facilities (382 of 1,732 in the indicator table). 0.846 brings the demo's by-gas file to
 * 10 × 18,771 rows at full size (counted: 186,238).
 */
export const FACILITIES_OTHER_PROVINCE_SHARE = 0.846;

/** Economy: the reviewed registry has 43 series; full size is ten times as many. */
export const ECONOMY_FULL_FACTOR = 10;

/** `full` or a positive number up to 10 (ten times full); undefined for anything else. */
export function parseScale(text: string): number | undefined {
  if (text === 'full') return 1;
  if (!/^(?:\d+\.?\d*|\.\d+)(?:e-?\d+)?$/i.test(text)) return undefined;
  const n = Number(text);
  return n > 0 && n <= 10 ? n : undefined;
}

export interface FacilitiesGeneratorOptions {
  scale: number;
  otherProvinceShare: number;
  ewrbRows: number;
}

/** The demo generators' options for a fraction of full size. */
export function toCarriersDemoScale(fraction: number): number {
  return CARRIERS_DEMO_SCALE_AT_FULL * fraction;
}

export function toFacilitiesOptions(fraction: number): FacilitiesGeneratorOptions {
  return {
    scale: FACILITIES_DEMO_SCALE_AT_FULL * fraction,
    otherProvinceShare: FACILITIES_OTHER_PROVINCE_SHARE,
    // The generator needs at least 20 buildings to plant its cases.
    ewrbRows: Math.max(20, Math.round(FACILITIES_REAL.ewrbRows * FACILITIES_FULL_FACTOR * fraction)),
  };
}

/** Series in a generated registry of `realCount` reviewed series. */
export function toEconomySeriesCount(fraction: number, realCount: number): number {
  return Math.max(1, Math.round(realCount * ECONOMY_FULL_FACTOR * fraction));
}
