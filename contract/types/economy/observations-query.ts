// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * Query parameters of GET /api/observations (and the arguments of the MCP tool get_observations), with the FRED API's names and meanings. Every parameter may be given at most once; unknown parameters are ignored. A series id that is not in the registry is a 404 not_found; a malformed or impossible date (2024-02-30), `from` after `to`, an unknown value, or a frequency higher than the series' own is a 400 invalid_parameter listing every bad parameter. Order of work: frequency aggregation, then units, on the whole series; then from/to, sort_order, offset and limit.
 */
export interface ObservationParameters {
  /**
   * Series id from /api/series (upper case letters, digits and underscores, e.g. CPI_ALL_ITEMS).
   */
  series: string;
  /**
   * First observation date to include (YYYY-MM-DD, inclusive). Observations are dated at the start of their period: 2026-01-01 is January 2026, or 2026Q1 for a quarterly series.
   */
  from?: string;
  /**
   * Last observation date to include (YYYY-MM-DD, inclusive); must not be before `from`.
   */
  to?: string;
  /**
   * Answer from the snapshot pulled on this UTC day (YYYY-MM-DD) instead of the current data: the observations as they were then. 404 when no snapshot of that day exists; /api/vintages lists them.
   */
  vintage?: string;
  /**
   * FRED's units transform: lin (as published), chg (change), ch1 (change from a year ago), pch (% change), pc1 (% change from a year ago), pca (compounded annual rate of change), cch (continuously compounded rate of change), cca (continuously compounded annual rate of change), log (natural log). x(t−1) is the previous period's observation (a daily series' previous observation); a year ago is the observation of the same period one year earlier; a point that cannot be computed (no such earlier point, a division by zero, the log of a value not above zero) is left out.
   */
  units?: "lin" | "chg" | "ch1" | "pch" | "pc1" | "pca" | "cch" | "cca" | "log";
  /**
   * Aggregate to weekly (Monday to Sunday), monthly, quarterly, semiannual or annual observations, each dated by its period's first day (2020-04-01 for 2020Q2), from the observations present in it; never higher than the series' own frequency. The newest period is left out while it is not over at the series' last observation.
   */
  frequency?: "w" | "m" | "q" | "sa" | "a";
  /**
   * How `frequency` aggregates: the average, the sum, or the period's last observation (end of period). Ignored without `frequency`.
   */
  aggregation_method?: "avg" | "sum" | "eop";
  /**
   * Observations by date, ascending or descending; applied before offset and limit.
   */
  sort_order?: "asc" | "desc";
  /**
   * At most this many observations, after `offset`.
   */
  limit?: number;
  /**
   * Observations skipped (in sort order) before `limit`; past the end gives an empty list.
   */
  offset?: number;
  /**
   * json (the document) or csv: RFC 4180, text/csv; charset=utf-8, header date,value, as an attachment named <series>.csv.
   */
  format?: "json" | "csv";
  [k: string]: unknown | undefined;
}
