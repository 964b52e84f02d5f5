// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * Query parameters of GET /api/carrier/{carrier_id}/inspections (signed in; a free key's answer counts one profile lookup). Every parameter may be given at most once; unknown parameters are ignored.
 */
export interface CarrierInspectionsParameters {
  /**
   * Inspections in the page.
   */
  limit?: number;
  /**
   * Inspections skipped, newest first; an offset past the end is an empty page.
   */
  offset?: number;
  [k: string]: unknown | undefined;
}
