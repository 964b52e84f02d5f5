// Generated from schemas/ by `npm run types`: edit the schema, not this file.
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
}
/**
 * Comparison-year totals in t CO2e. ontario is the registry total minus CO2 from biomass (the federal basis); federal is the GHGRP total.
 */
export interface Totals {
  year: number;
  ontario: number | null;
  federal: number | null;
}
