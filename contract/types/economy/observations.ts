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
   * Observations in sort_order (ascending by date unless asked otherwise), limited to from/to, then offset and limit. A value the upstream does not publish (.., F, x, empty) is left out, never written as 0; so is a point a transform cannot compute.
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
  /**
   * The units transform applied (lin: as published).
   */
  units: "lin" | "chg" | "ch1" | "pch" | "pc1" | "pca" | "cch" | "cca" | "log";
  /**
   * Frequency of the observations answered: the series' own (d daily, w weekly, m monthly, q quarterly, a annual) or the one aggregated to.
   */
  frequency: "d" | "w" | "m" | "q" | "sa" | "a";
  /**
   * Observations before offset and limit.
   */
  count: number;
  /**
   * The limit applied.
   */
  limit: number;
  /**
   * The offset applied.
   */
  offset: number;
  /**
   * MCP get_observations only: present when the default cap (the newest 1,000 observations, without a limit) left some out; page with limit and offset, or narrow with from/to.
   */
  truncated?: true;
}
