// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * Query parameters of GET /api/observations. Every parameter may be given at most once; unknown parameters are ignored. A series id that is not in the registry is a 404 not_found; a malformed or impossible date (2024-02-30) or `from` after `to` is a 400 invalid_parameter listing every bad parameter.
 */
export interface ObservationParameters {
  /**
   * Series id from /api/series (upper case letters, digits and underscores, e.g. CPI_ALL_ITEMS).
   */
  series: string;
  /**
   * First observation date to include (YYYY-MM-DD, inclusive). Observations are dated at the start of their period: 2026-01-01 is January 2026, or 2026Q1 for a quarterly series.
   */
  from?: string;
  /**
   * Last observation date to include (YYYY-MM-DD, inclusive); must not be before `from`.
   */
  to?: string;
  /**
   * Answer from the snapshot pulled on this UTC day (YYYY-MM-DD) instead of the current data: the observations as they were then. 404 when no snapshot of that day exists; /api/vintages lists them.
   */
  vintage?: string;
  [k: string]: unknown | undefined;
}
