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
   * Observations in sort_order (ascending by date unless asked otherwise), limited to from/to, then offset and limit. A point the upstream published without a value (.., F, x, empty) is left out unless include_missing=true, and never written as 0; a point a transform cannot compute is left out.
   */
  observations: {
    /**
     * Start of the reference period (YYYY-MM-DD): the 1st of the month for monthly data, of the quarter's first month for quarterly data (StatCan refPer).
     */
    date: string;
    /**
     * The value in base units: StatCan's scalar factor is applied (value × 10^scalarFactorCode, as /api/series/{id} gives it in scalar_factor), so a GDP published as 2500680 millions is 2500680000000. null only with include_missing=true, for a point published without a value (its status says why).
     */
    value: number | null;
    /**
     * The upstream's flags on the point as its tables print them, space-separated: StatCan's status (A to E data quality, 0s, <LOD; .., ..., F, x without a value) then its symbol (p preliminary, r revised); Valet's .. (empty) or e:<code> (an error cell) without a value. Absent when there is none, and on transformed or aggregated points.
     */
    status?: string;
    /**
     * Real-time answers only: the first day, within the asked real-time period, on which this was the published value (the day of the snapshot that first had it, or the period's start).
     */
    realtime_start?: string;
    /**
     * Real-time answers only: the last day, within the asked real-time period, on which this was the published value (the day before the snapshot that changed it, or the period's end; 9999-12-31 while it is still the value).
     */
    realtime_end?: string;
    /**
     * Real-time answers only: Statistics Canada's releaseTime of the value (Ottawa local time, YYYY-MM-DDTHH:MM), where the upstream gives one.
     */
    released?: string;
    /**
     * An aggregated point (frequency=) whose period misses observations: fewer than the series' own periods in it (a monthly series' quarter with two months), or a point of it published without a value. Absent when complete.
     */
    incomplete?: true;
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
   * Real-time answers only: the real-time period answered, first day.
   */
  realtime_start?: string;
  /**
   * Real-time answers only: the real-time period answered, last day.
   */
  realtime_end?: string;
  /**
   * Real-time answers only: 1 (values by real-time period) or 4 (first release).
   */
  output_type?: 1 | 4;
  /**
   * Answers to vintage_dates= only: the days asked, ascending.
   */
  vintage_dates?: string[];
  /**
   * MCP get_observations only: present when the default cap (the newest 1,000 observations, without a limit) left some out; page with limit and offset, or narrow with from/to.
   */
  truncated?: true;
}
