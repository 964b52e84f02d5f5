// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * Ascending by year, every year either program reported; a missing value is null. Provincial values exclude CO2 from biomass.
 */
export type Series = {
  year: number;
  ontario: number | null;
  federal: number | null;
}[];

/**
 * GET /api/v1/spine: every facility, ascending by spine_id, without flags and delta.
 */
export interface Spine {
  count: number;
  facilities: {
    spine_id: string;
    /**
     * anchored: normalized name and city equal between programs in some year.
     */
    tier: "anchored" | "unmatched";
    program: "both" | "ontario_only" | "federal_only";
    name: string;
    city: string | null;
    names: Names;
    source_ids: SourceIds;
    naics: string | null;
    totals: Totals;
    series: Series;
    /**
     * Large-building context (Ontario EWRB) for the facility's city; null where the city has no EWRB buildings. year is the data year (the year before the data-quality check).
     */
    buildings: null | {
      year: number | null;
      city: string;
      count: number;
      median_site_eui_gj_m2: number | null;
      median_ghg_intensity_kg_m2: number | null;
      median_water_m3_m2: number | null;
    };
  }[];
}
export interface Names {
  /**
   * Every name the program used, newest first.
   */
  ontario: string[];
  federal: string[];
}
export interface SourceIds {
  ontario: string[];
  federal: string[];
}
/**
 * Comparison-year totals in t CO2e. ontario is the registry total minus CO2 from biomass (the federal basis); federal is the GHGRP total.
 */
export interface Totals {
  year: number;
  ontario: number | null;
  federal: number | null;
}
