// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * Query parameters of GET /api/revisions?series&from=A&to=B: the values of a series that changed between the snapshots of days A and B (both from /api/vintages). Neither Statistics Canada nor the Bank of Canada publishes this view. A missing snapshot is a 404 not_found; a malformed or impossible date or `from` after `to` is a 400 invalid_parameter listing every bad parameter. Unknown parameters are ignored.
 */
export interface RevisionParameters {
  /**
   * Series id from /api/series (e.g. CPI_ALL_ITEMS).
   */
  series: string;
  /**
   * The earlier vintage (YYYY-MM-DD): the snapshot the values are compared from.
   */
  from: string;
  /**
   * The later vintage (YYYY-MM-DD): the snapshot the values are compared to; must not be before `from`.
   */
  to: string;
  [k: string]: unknown | undefined;
}
