// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * Query parameters of GET /fred/series/observations: FRED API v1's, with FRED's meanings and defaults. Any other parameter, or a bad value, is FRED's error document (400) naming it.
 */
export interface FREDObservationParameters {
  /**
   * The registry id of the series (CPI_ALL_ITEMS); an unknown id is FRED's 400 `The series … does not exist.`
   */
  series_id: string;
  /**
   * First observation date (YYYY-MM-DD).
   */
  observation_start?: string;
  /**
   * Last observation date (YYYY-MM-DD).
   */
  observation_end?: string;
  /**
   * First day of the real-time period (YYYY-MM-DD); default today.
   */
  realtime_start?: string;
  /**
   * Last day of the real-time period (YYYY-MM-DD, 9999-12-31 for now); default today. Given alone in the past it is after the default start (today): FRED's 400.
   */
  realtime_end?: string;
  /**
   * FRED's units transform.
   */
  units?: "lin" | "chg" | "ch1" | "pch" | "pc1" | "pca" | "cch" | "cca" | "log";
  /**
   * Aggregate to a lower frequency.
   */
  frequency?: "w" | "m" | "q" | "sa" | "a";
  /**
   * How frequency aggregates.
   */
  aggregation_method?: "avg" | "sum" | "eop";
  /**
   * 1: observations by real-time period; 4: initial release only. FRED's 2 and 3 (by vintage date, wide) are not offered: a 400.
   */
  output_type?: 1 | 4;
  /**
   * Comma-separated YYYY-MM-DD: the values as known on each.
   */
  vintage_dates?: string;
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
