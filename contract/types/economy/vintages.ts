// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * GET /api/vintages: the days on which a snapshot of the series was pulled and archived; each can be read with /api/observations?vintage=.
 */
export interface VintagesOfASeries {
  /**
   * The series id asked for.
   */
  series: string;
  /**
   * Snapshot days (UTC, YYYY-MM-DD), ascending; empty when the series was never pulled.
   *
   * Items: A day with a snapshot.
   */
  snapshots: string[];
}
