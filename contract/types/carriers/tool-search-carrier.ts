// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * Arguments of the search_carrier tool of POST /api/mcp; the result is exactly the body of GET /api/search?q={query}&limit={limit}.
 */
export interface SearchCarrierArguments {
  /**
   * A carrier number (digits, optionally after USDOT, DOT or US DOT, with or without spaces or #) looks that carrier up; anything else matches legal and DBA names: every word must match the start of a word, case- and accent-insensitively.
   */
  query: string;
  /**
   * Most results returned.
   */
  limit?: number;
}
