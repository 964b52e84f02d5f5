// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * Query parameters of GET /api/v1/search. Every parameter may be given at most once; unknown parameters are ignored. q absent means no name filter; q present but without a letter or digit (`*`, blanks, an emoji) is a 400, as is a city with text but no letters or digits once normalized (`---`, `(Toronto)`); an empty or blank city constrains nothing.
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
  limit?: number;
  /**
   * Matches skipped before the page, in ranking order (stable: pages never overlap or skip); past the end gives an empty page.
   */
  offset?: number;
  /**
   * json (the document) or csv: the same page as RFC 4180 CSV (text/csv; charset=utf-8, CRLF line ends, as an attachment named facilities-search.csv), a header row spine_id,name,city,tier,program,naics,year,ontario_total,federal_total,delta_tonnes,delta_pct,emissions (schema facilities/spine-row) then one row per result, in ranking order; total, limit and offset are not in the CSV.
   */
  format?: "json" | "csv";
  [k: string]: unknown | undefined;
}
