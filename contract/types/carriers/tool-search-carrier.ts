// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * Arguments of the search_carrier tool of POST /api/mcp; the result is exactly the body of GET /api/search?q={query}&limit={limit}&offset={offset}&state={state}.
 */
export interface SearchCarrierArguments {
  /**
   * A carrier number (digits, optionally after USDOT, DOT or US DOT, with or without spaces or #) looks that carrier up; a docket (MC 123456, MC-123456, mc123456, FF…, MX…) looks the docket up, its current holder first; anything else matches legal and DBA names: every word must match the start of a word, case- and accent-insensitively.
   */
  query: string;
  /**
   * Most results returned.
   */
  limit?: number;
  /**
   * Matches skipped before the page, in result order (stable: pages never overlap or skip); past the end gives an empty page.
   */
  offset?: number;
  /**
   * Only carriers whose physical address is in this state or province: two letters, any case (as GET /api/search's state: checked for its form only; a code no carrier has gives no results).
   */
  state?: string;
}
