// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * Query parameters of GET /api/v1/search. Every parameter may be given at most once; unknown parameters are ignored. q that is empty or holds no letters or digits, and an empty or blank city, constrain nothing; a city with other text but no letters or digits once normalized (`---`, `(Toronto)`) is a 400.
 */
export interface SearchParameters {
  /**
   * Words matched case- and accent-insensitively against every name variant; each word must match the start of a word of some name.
   */
  q?: string;
  /**
   * Exact city after normalization (accents, case, punctuation, ST/STE/SAINT/SAINTE, bracketed parts).
   */
  city?: string;
  tier?: "anchored" | "unmatched";
  program?: "both" | "ontario_only" | "federal_only";
  limit?: number;
  [k: string]: unknown | undefined;
}
