// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * Arguments of the get_changes tool of POST /api/mcp: the query parameters of GET /api/changes, with the same meaning, defaults and errors; the result is exactly that route's body.
 */
export interface GetChangesArguments {
  /**
   * A data_version (the builds after it) or a UTC day YYYY-MM-DD (the builds made after that day). Absent: the builds of the last 30 days.
   */
  since?: string;
  /**
   * Only the changes of this carrier (USDOT number).
   */
  id?: number | string;
  /**
   * Only the changes that name this word in `notable` (alert_started, alert_ended, name_changed, authority_revoked, out_of_service_order, insurance_lapsed).
   */
  notable?: string;
  limit?: number;
  offset?: number;
}
