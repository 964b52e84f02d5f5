// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * Query parameters of GET /api/carrier/{carrier_id}/export (premium). Every parameter may be given at most once; unknown parameters are ignored.
 */
export interface CarrierExportParameters {
  /**
   * `json`: the profile plus inspection and crash counts by month (schema carriers/export). `csv`: RFC 4180, a header row then one row per BASIC; a text field beginning with =, +, -, @, a tab or a CR gets a leading apostrophe (spreadsheet formula guard).
   */
  format?: "json" | "csv";
  [k: string]: unknown | undefined;
}
