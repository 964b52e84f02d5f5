// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * Query parameters of GET /api/watchlists/{id}/changes. Every parameter may be given at most once; unknown parameters are ignored.
 */
export interface WatchlistChangesParameters {
  /**
   * A next_cursor (or the list's cursor) from an earlier answer: the changes after it. Absent: from the list's creation. One older than the kept history is a 410 history_expired.
   */
  cursor?: string;
  [k: string]: unknown | undefined;
}
