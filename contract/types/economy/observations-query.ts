// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * Query parameters of GET /api/observations (and the arguments of the MCP tool get_observations), with the FRED API's names and meanings. Every parameter may be given at most once, and an unknown parameter is a 400 naming it (a misspelled realtime_end must never answer today's data), except api_key and file_type, which FRED clients always send. A series id that is not in the registry is a 404 not_found; a malformed or impossible date (2024-02-30), `from` after `to`, realtime_start after realtime_end, both names of one parameter (from and observation_start), an unknown value, or a frequency higher than the series' own is a 400 invalid_parameter listing every bad parameter. Order of work: frequency aggregation, then units, on the whole series as known on each real-time day; then from/to, sort_order, offset and limit.
 */
export interface ObservationParameters {
  /**
   * Series id from /api/series (upper case letters, digits and underscores, e.g. CPI_ALL_ITEMS), or up to 20 ids separated by commas (CPI_ALL_ITEMS,UNEMPLOYMENT_RATE): several series answer one document aligned by date (economy/observations-of-several), each series transformed and selected by the other parameters on its own. With several series, a real-time query must name one day (realtime_end alone, or output_type=4); vintage_dates and real-time periods take one series.
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
   * FRED's name for `from`; giving both is a 400.
   */
  observation_start?: string;
  /**
   * FRED's name for `to`; giving both is a 400.
   */
  observation_end?: string;
  /**
   * Answer from the snapshot pulled on this UTC day (YYYY-MM-DD) instead of the current data: the observations as they were then. 404 when no snapshot of that day exists; /api/vintages lists them.
   */
  vintage?: string;
  /**
   * ALFRED's real-time period, first day (YYYY-MM-DD): answer the values that were the published ones at some time from this day to realtime_end, each with the period in which it was (see output_type). Defaults to realtime_end, or to the latest snapshot. A day before the archive's first snapshot of the series is a 404 saying when the archive starts. Must not be after realtime_end.
   */
  realtime_start?: string;
  /**
   * ALFRED's real-time period, last day (YYYY-MM-DD; 9999-12-31 is allowed and means 'to now'). Given alone, realtime_start is the same day: the values as known on that day, answered from the latest snapshot on or before it. Defaults to the latest snapshot, i.e. today's data.
   */
  realtime_end?: string;
  /**
   * 1 (default): each value with the real-time period in which it was the published value, {date, value, realtime_start, realtime_end}, clipped to the asked period; a value revised within it appears once per value it had. 4: each date's value as first published (first seen in the archive), among the dates published by realtime_end, with the period it lasted. Only with a real-time parameter (realtime_start, realtime_end, vintage_dates, output_type), which makes the observations carry realtime_start and realtime_end; a plain request answers {date, value} as before.
   */
  output_type?: 1 | 4;
  /**
   * Comma-separated days (YYYY-MM-DD, at most 200): the values as known on each of them, a date's value merged over the consecutive days on which it was the same (realtime_start and realtime_end name those days). Each day must be on or after the archive's first snapshot; not with realtime_start or realtime_end.
   */
  vintage_dates?: string;
  /**
   * true keeps the points the upstream published without a value as {date, value: null, status} (status: StatCan's .., ..., F or x; Valet's .. or e:<code>); by default they are left out. Points a transform cannot compute are left out either way.
   */
  include_missing?: "true" | "false";
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
  /**
   * Accepted and ignored: FRED clients always send one. No key is needed here.
   */
  api_key?: string;
  /**
   * Accepted and ignored (FRED clients send file_type=json); `format` chooses JSON or CSV here.
   */
  file_type?: string;
}
