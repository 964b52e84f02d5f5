// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * This interface was referenced by `FacilityRecord`'s JSON-Schema
 * via the `definition` "spine_id".
 */
export type SpineId = string;
/**
 * Large-building context (Ontario EWRB) for the facility's city; null where the city has no EWRB buildings. year is the data year (the year before the data-quality check).
 *
 * This interface was referenced by `FacilityRecord`'s JSON-Schema
 * via the `definition` "buildings".
 */
export type Buildings = null | {
  year: number | null;
  city: string;
  count: number;
  median_site_eui_gj_m2: number | null;
  median_ghg_intensity_kg_m2: number | null;
  median_water_m3_m2: number | null;
};

/**
 * GET /api/v1/facility/{id}: one canonical facility linking Ontario GHG registry ids and federal GHGRP ids.
 */
export interface FacilityRecord {
  spine_id: SpineId;
  /**
   * anchored: normalized name and city equal between programs in some year.
   */
  tier: "anchored" | "unmatched";
  program: "both" | "ontario_only" | "federal_only";
  /**
   * Newest Ontario name, else newest federal name.
   */
  name: string;
  /**
   * Newest spelling with lower-case letters, else the newest in title case.
   */
  city: string | null;
  names: {
    /**
     * Every name the program used, newest first.
     */
    ontario: string[];
    federal: string[];
  };
  source_ids: {
    ontario: string[];
    federal: string[];
  };
  naics: string | null;
  totals: Totals;
  /**
   * Provincial minus federal for the comparison year; null unless both totals exist.
   */
  delta: null | {
    year: number;
    tonnes: number;
    /**
     * tonnes / federal × 100, rounded to 2 decimals.
     */
    pct: number;
  };
  /**
   * Ascending by year, every year either program reported; a missing value is null. Provincial values exclude CO2 from biomass.
   */
  series: {
    year: number;
    ontario: number | null;
    federal: number | null;
  }[];
  buildings: Buildings;
  flags: {
    /**
     * CH4 is at least 10 % of CO2e (biomass CO2 excluded) in a program's latest year with a methane figure, or at least 25,000 t CO2e.
     */
    methane: boolean;
    /**
     * A year-over-year change of more than 50 % in either program, or a comparison-year disagreement of more than 10 %.
     */
    anomaly: boolean;
    /**
     * Each rule that fired, with its figures.
     */
    reasons: string[];
  };
}
/**
 * Comparison-year totals in t CO2e. ontario is the registry total minus CO2 from biomass (the federal basis); federal is the GHGRP total.
 *
 * This interface was referenced by `FacilityRecord`'s JSON-Schema
 * via the `definition` "totals".
 */
export interface Totals {
  year: number;
  ontario: number | null;
  federal: number | null;
}
