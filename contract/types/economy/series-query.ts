// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * Query parameters of GET /api/series. Each may be given at most once; unknown parameters are ignored. q absent means the full list; q present but without a letter or digit (`*`, blanks, an emoji) is a 400. The answer stays a plain array; X-Total-Count gives the number of matches before limit and offset.
 */
export interface SeriesSearchParameters {
  /**
   * Words matched case- and accent-insensitively: first the exact id (words joined by underscores), then id prefixes, then series whose title holds a word starting with every query word, then those matched through their description. Must hold at least one letter or digit.
   */
  q?: string;
  /**
   * At most this many series, after offset (default: all of them).
   */
  limit?: number;
  /**
   * Series skipped before the page, in the answer's order; past the end gives an empty array.
   */
  offset?: number;
}
