// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * GET /api/observations?series=A,B,C (at most 20): the series side by side, one row per date on the union of their dates, each series aggregated, transformed and selected by the query's other parameters on its own, then sorted, offset and limited as rows.
 */
export interface ObservationsOfSeveralSeries {
  /**
   * The series ids asked for, in the order asked: each is a key of every row.
   *
   * @minItems 2
   * @maxItems 20
   */
  series: string[];
  /**
   * One row per date any of the series has, in sort_order: { date, <id>: value, … }, null where a series has no value on that date (or, with include_missing=true, where it was published without one).
   */
  observations: {
    /**
     * Start of the reference period (YYYY-MM-DD).
     */
    date: string;
    [k: string]: number | null | string | undefined;
  }[];
  /**
   * The units transform applied to each series.
   */
  units: "lin" | "chg" | "ch1" | "pch" | "pc1" | "pca" | "cch" | "cca" | "log";
  /**
   * The frequency every series was aggregated to, when asked; absent otherwise (each series keeps its own: sources.<id>.frequency).
   */
  frequency?: "w" | "m" | "q" | "sa" | "a";
  /**
   * Rows before offset and limit.
   */
  count: number;
  /**
   * The limit applied to rows.
   */
  limit: number;
  /**
   * The offset applied to rows.
   */
  offset: number;
  /**
   * Each series' provenance, by id: who published it, the pull its values come from, and its own frequency.
   */
  sources: {
    [k: string]:
      | {
          /**
           * Statistics Canada or Bank of Canada, with (demo) on demo data.
           */
          source: string;
          /**
           * True when no upstream pull was made for this answer.
           */
          cached: boolean;
          /**
           * ISO 8601 time of the pull these values come from.
           */
          asOf: string;
          /**
           * Present only when a pull failed and the cached copy was served.
           */
          stale?: true;
          /**
           * The series' own frequency, or the one aggregated to.
           */
          frequency: "d" | "w" | "m" | "q" | "sa" | "a";
        }
      | undefined;
  };
  /**
   * Real-time answers only: the day the values are as known on (first day).
   */
  realtime_start?: string;
  /**
   * Real-time answers only: the day the values are as known on (last day).
   */
  realtime_end?: string;
  /**
   * Real-time answers only: 1 (as known on the day) or 4 (first releases).
   */
  output_type?: 1 | 4;
}
