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
 * index/search.json: the serialized lunr index over every name variant, and the facilities in ranking order. Loaded by the server at start; usable by a browser client from a CDN.
 */
export interface SearchIndex {
  facilities: {
    spine_id: string;
    name: string;
    city: string | null;
    city_key: string;
    /**
     * anchored: normalized name and city equal between programs in some year.
     */
    tier: "anchored" | "unmatched";
    program: "both" | "ontario_only" | "federal_only";
    totals: Totals;
    emissions: number | null;
    naics: string | null;
    /**
     * Where the facility is, in decimal degrees (WGS 84, as the federal files give them): from the newest federal row with usable coordinates (the emissions-by-gas file before the indicator table in the same year); null where no input locates it (linear facilities such as pipelines have none, the indicator table writes 0, 0 for unknown). Coordinates that are not numbers, out of range or outside Ontario are left out and counted in the build's warnings.
     */
    coordinates: null | {
      latitude: number;
      longitude: number;
      /**
       * The program whose input gave them; Ontario's registry files carry no coordinates today.
       */
      source: "federal" | "ontario";
    };
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
    flags: Flags;
    series: Series;
    /**
     * Per gas, the years (ascending) in which either program reports it: what the gas filter reads.
     */
    gases: {
      co2: number[];
      ch4: number[];
      n2o: number[];
      hfc: number[];
      pfc: number[];
      sf6: number[];
    };
  }[];
  /**
   * lunr.Index#toJSON output (lunr 2.x).
   */
  lunr: {
    version: string;
    fields: unknown[];
    fieldVectors: unknown[];
    invertedIndex: unknown[];
    pipeline: unknown[];
    [k: string]: unknown | undefined;
  };
  /**
   * The build's comparison year: the year of every document's totals, emissions and delta.
   */
  year: number;
  /**
   * Every year in which both programs report some total, and the comparison year, ascending: the values the year parameter takes.
   *
   * @minItems 1
   */
  years: number[];
}
/**
 * Comparison-year totals in t CO2e. ontario is the registry total minus CO2 from biomass (the federal basis); federal is the GHGRP total.
 */
export interface Totals {
  year: number;
  ontario: number | null;
  federal: number | null;
}
/**
 * The record's flags without their reasons (GET /facility/{id} has them).
 */
export interface Flags {
  methane: boolean;
  anomaly: boolean;
}
