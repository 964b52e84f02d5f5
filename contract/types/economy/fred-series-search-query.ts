// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * Query parameters of GET /fred/series/search: FRED API v1's, with FRED's meanings and defaults. Any other parameter, or a bad value, is FRED's error document (400) naming it.
 */
export interface FREDSearchParameters {
  /**
   * Words or an id, ranked as /api/series?q= ranks them.
   */
  search_text: string;
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
   * Accepted and ignored: FRED clients always send one.
   */
  api_key?: string;
  /**
   * xml (FRED's default) or json.
   */
  file_type?: "xml" | "json";
  [k: string]: unknown | undefined;
}
