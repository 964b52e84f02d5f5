// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * Query parameters of GET …/changes. Every parameter may be given at most once; unknown parameters are ignored.
 */
export interface ChangesParameters {
  /**
   * A data_version (the builds after it) or a UTC day `YYYY-MM-DD` (the builds made after that day). Absent: the builds of the last 30 days. A data_version no longer in the kept history, or a day before it, is a 410 `history_expired`; an unknown data_version a 404.
   */
  since?: string;
  /**
   * Only the changes of this entity.
   */
  id?: string;
  /**
   * Only the changes that name this word in `notable` (facilities: tier_changed, program_changed, name_changed, moved, total_revised, methane_flagged, anomaly_flagged; economy: value_revised, observations_added, observations_withdrawn, metadata_changed).
   */
  notable?: string;
  limit?: number;
  offset?: number;
  [k: string]: unknown | undefined;
}
