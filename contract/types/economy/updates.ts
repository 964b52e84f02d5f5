// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * GET /api/updates: the series whose latest change in the vintage archive came after `since`, newest first (FRED's series/updates). A snapshot changes a series when it adds a date with a value (a new period, or one published without a value before) or revises one; a flag that changes alone does not. A series' first snapshot adds every date.
 */
export interface SeriesUpdates {
  /**
   * The time asked for (or its default), as ISO 8601 in UTC.
   */
  since: string;
  /**
   * Newest updated_at first; ties by id.
   */
  results: {
    /**
     * The series id.
     */
    id: string;
    /**
     * The series title.
     */
    title: string;
    /**
     * ISO 8601 time of the pull whose snapshot changed the series last.
     */
    updated_at: string;
    /**
     * Dates that snapshot has a value for and the one before did not.
     */
    added: number;
    /**
     * Dates whose value that snapshot changed.
     */
    revised: number;
  }[];
}
