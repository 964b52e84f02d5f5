// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * Query parameters of GET /fred/series: FRED API v1's, with FRED's meanings and defaults. Any other parameter, or a bad value, is FRED's error document (400) naming it.
 */
export interface FREDSeriesParameters {
  /**
   * The registry id of the series (CPI_ALL_ITEMS); an unknown id is FRED's 400 `The series … does not exist.`
   */
  series_id: string;
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
