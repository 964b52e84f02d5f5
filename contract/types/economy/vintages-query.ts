// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * Query parameters of GET /api/vintages. Unknown parameters are ignored; a series id not in the registry is a 404 not_found.
 */
export interface VintageListParameters {
  /**
   * Series id from /api/series (e.g. CPI_ALL_ITEMS).
   */
  series: string;
  [k: string]: unknown | undefined;
}
