// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * Query parameters of GET /api/v1/search. Every parameter may be given at most once; unknown parameters are ignored; filters combine with AND. q absent means no name filter; q present but without a letter or digit (`*`, blanks, an emoji) is a 400, as is a city with text but no letters or digits once normalized (`---`, `(Toronto)`), a year neither in the build's years, a facet name that is not one, and min_emissions above max_emissions; an empty or blank city, and an empty facets, constrain nothing.
 */
export interface SearchParameters {
  /**
   * Words matched case- and accent-insensitively against every name variant; each word must match the start of a word of some name. Must hold at least one letter or digit.
   */
  q?: string;
  /**
   * Exact city after normalization (accents, case, punctuation, ST/STE/SAINT/SAINTE, bracketed parts).
   */
  city?: string;
  tier?: "anchored" | "unmatched";
  program?: "both" | "ontario_only" | "federal_only";
  /**
   * A NAICS code of 2 to 6 digits: facilities whose six-digit code starts with it (32 manufacturing, 3273 cement and concrete, 327310 cement).
   */
  naics?: string;
  /**
   * The answer's year: any year both programs report (the index's years; the build's comparison year by default). Keeps the facilities with a total that year; every figure, the ranking and the gas and emissions filters are that year's.
   */
  year?: number;
  /**
   * Facilities for which either program reports this gas in the answer's year.
   */
  gas?: "co2" | "ch4" | "n2o" | "hfc" | "pfc" | "sf6";
  /**
   * Facilities whose emissions (the federal total of the answer's year, else the biomass-adjusted provincial one) are at least this many t CO2e; those without emissions are left out.
   */
  min_emissions?: number;
  /**
   * Facilities whose emissions are at most this many t CO2e; those without emissions are left out.
   */
  max_emissions?: number;
  /**
   * Facilities carrying this flag (the record's flags, of the comparison year).
   */
  flag?: "methane" | "anomaly";
  /**
   * The order of the matches: a leading - means descending; facilities without the value come last either way; ties by spine_id. Names sort case- and accent-insensitively.
   */
  sort?: "-emissions" | "emissions" | "name" | "-name" | "delta_pct" | "-delta_pct";
  /**
   * Comma-separated facet names among tier, program, naics2 (the 2-digit NAICS sector), city and flags: the answer gains facets, each value's count among all matches (before paging), most frequent first, at most 30 values each (datasette's facet_results).
   */
  facets?: string;
  limit?: number;
  /**
   * Matches skipped before the page, in ranking order (stable: pages never overlap or skip); past the end gives an empty page.
   */
  offset?: number;
  /**
   * json (the document) or csv: the same page as RFC 4180 CSV (text/csv; charset=utf-8, CRLF line ends, as an attachment named facilities-search.csv), a header row spine_id,name,city,tier,program,naics,year,ontario_total,federal_total,delta_tonnes,delta_pct,emissions,latitude,longitude (schema facilities/spine-row) then one row per result, in ranking order; total, limit and offset are not in the CSV.
   */
  format?: "json" | "csv";
  [k: string]: unknown | undefined;
}
