// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * Query parameters of GET /fred/series/updates: FRED API v1's, with FRED's meanings and defaults. Any other parameter, or a bad value, is FRED's error document (400) naming it.
 */
export interface FREDUpdateParameters {
  /**
   * YYYYMMDDHhmm (UTC here): updated at or after; default two weeks ago.
   */
  start_time?: string;
  /**
   * YYYYMMDDHhmm (UTC here): updated at or before.
   */
  end_time?: string;
  /**
   * Accepted; every series is Canadian, so all are listed.
   */
  filter_value?: string;
  /**
   * First day of the real-time period (YYYY-MM-DD); default today.
   */
  realtime_start?: string;
  /**
   * Last day of the real-time period (YYYY-MM-DD, 9999-12-31 for now); default today. Given alone in the past it is after the default start (today): FRED's 400.
   */
  realtime_end?: string;
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
