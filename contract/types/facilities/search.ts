// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * GET /api/v1/search: total counts every match; results are the page from offset, at most limit of them, ranked by emissions descending (facilities with none last), ties by spine_id.
 */
export interface SearchResults {
  total: number;
  limit: number;
  offset: number;
  results: {
    spine_id: string;
    name: string;
    city: string | null;
    /**
     * anchored: normalized name and city equal between programs in some year.
     */
    tier: "anchored" | "unmatched";
    program: "both" | "ontario_only" | "federal_only";
    totals: Totals;
    /**
     * Federal total of the comparison year where present, else the biomass-adjusted provincial total.
     */
    emissions: number | null;
    /**
     * The facility's six-digit NAICS code (newest Ontario, else federal), or null.
     */
    naics: string | null;
  }[];
}
/**
 * Comparison-year totals in t CO2e. ontario is the registry total minus CO2 from biomass (the federal basis); federal is the GHGRP total.
 */
export interface Totals {
  year: number;
  ontario: number | null;
  federal: number | null;
}
