// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * Query parameters of GET /api/series. Each may be given at most once; unknown parameters are ignored. A q that is empty or holds no letters or digits constrains nothing (the full list).
 */
export interface SeriesSearchParameters {
  /**
   * Words matched case- and accent-insensitively: first the exact id (words joined by underscores), then id prefixes, then series whose title holds a word starting with every query word, then those matched through their description.
   */
  q?: string;
}
