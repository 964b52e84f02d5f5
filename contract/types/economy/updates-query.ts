// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * Query parameters of GET /api/updates (and the arguments of the MCP tool get_series_updates), FRED's series/updates for this registry. Unknown parameters are ignored.
 */
export interface SeriesUpdateParameters {
  /**
   * ISO 8601 date-time with its offset (2026-11-27T00:00:00Z): the series whose latest snapshot that changed anything was pulled after it. Default: seven days before the request.
   */
  since?: string;
  [k: string]: unknown | undefined;
}
