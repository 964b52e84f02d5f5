// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * GET /api/revisions?series&from=A&to=B: how the snapshot of day B differs from the snapshot of day A, matched by observation date.
 */
export interface RevisionsBetweenTwoVintages {
  /**
   * The series id asked for.
   */
  series: string;
  /**
   * The earlier vintage compared (YYYY-MM-DD).
   */
  from: string;
  /**
   * The later vintage compared (YYYY-MM-DD).
   */
  to: string;
  /**
   * Dates present in both vintages whose value was revised, ascending.
   */
  changes: {
    /**
     * Start of the reference period (YYYY-MM-DD).
     */
    date: string;
    /**
     * The value in vintage `from`.
     */
    before: number;
    /**
     * The value in vintage `to`.
     */
    after: number;
  }[];
  /**
   * Observations only in vintage `to` (a new period, or a value that was missing before), ascending.
   */
  added: Observation[];
  /**
   * Observations only in vintage `from` (withdrawn or now missing), with their old value, ascending.
   */
  removed: Observation[];
}
/**
 * This interface was referenced by `RevisionsBetweenTwoVintages`'s JSON-Schema
 * via the `definition` "observation".
 */
export interface Observation {
  /**
   * Start of the reference period (YYYY-MM-DD).
   */
  date: string;
  /**
   * The value in base units (scalar factor applied).
   */
  value: number;
}
