// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * Query parameters of GET /fred/category/series: FRED API v1's, with FRED's meanings and defaults. Any other parameter, or a bad value, is FRED's error document (400) naming it.
 */
export interface FREDCategorySeriesParameters {
  /**
   * 0 is the root; 1–8 are the categories in the contract's order.
   */
  category_id?: number;
  /**
   * series/search: search_rank (default), series_id, title; category/series: series_id (default), title.
   */
  order_by?: string;
  /**
   * asc (default; desc for search_rank).
   */
  sort_order?: "asc" | "desc";
  /**
   * Rows at most (observations 100,000; vintage dates 10,000; series lists 1,000).
   */
  limit?: number;
  /**
   * Rows skipped.
   */
  offset?: number;
  /**
   * First day of the real-time period (YYYY-MM-DD); default today.
   */
  realtime_start?: string;
  /**
   * Last day of the real-time period (YYYY-MM-DD, 9999-12-31 for now); default today. Given alone in the past it is after the default start (today): FRED's 400.
   */
  realtime_end?: string;
  /**
   * Accepted and ignored: FRED clients always send one.
   */
  api_key?: string;
  /**
   * xml (FRED's default) or json.
   */
  file_type?: "xml" | "json";
  [k: string]: unknown | undefined;
}
