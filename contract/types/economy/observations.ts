// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * GET /api/observations: the observations of one series, pulled from its upstream (Statistics Canada WDS or Bank of Canada Valet) at most once a day and cached.
 */
export interface ObservationsOfASeries {
  /**
   * The series id asked for.
   */
  series: string;
  /**
   * Observations ascending by date, limited to from/to when given. A value the upstream does not publish (.., F, x, empty) is left out, never written as 0.
   */
  observations: {
    /**
     * Start of the reference period (YYYY-MM-DD): the 1st of the month for monthly data, of the quarter's first month for quarterly data (StatCan refPer).
     */
    date: string;
    /**
     * The value in base units: StatCan's scalar factor is applied (value × 10^scalarFactorCode, as /api/series/{id} gives it in scalar_factor), so a GDP published as 2500680 millions is 2500680000000.
     */
    value: number;
  }[];
  /**
   * Who published the data: Statistics Canada or Bank of Canada, followed by (demo) when the service runs on generated demo data.
   */
  source: string;
  /**
   * True when this answer was served without an upstream pull (from the cache, or from a vintage snapshot).
   */
  cached: boolean;
  /**
   * ISO 8601 time of the upstream pull that produced these observations.
   */
  asOf: string;
  /**
   * Present only when the latest pull failed and the cached copy (older than a day) was served instead.
   */
  stale?: true;
}
