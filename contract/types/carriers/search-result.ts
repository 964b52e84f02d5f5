// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * One carrier as search lists it; stored per carrier at build time.
 */
export interface CarrierSearchResult {
  carrier_id: number;
  legal_name: string;
  dba_name: string | null;
  city: string | null;
  state: string | null;
  power_units: number | null;
  /**
   * The operating-authority dockets the carrier holds now (L&I), in docket order; [] when it holds none or the build had no L&I input.
   */
  dockets: string[];
  /**
   * The profile's `operating_status.allowed_to_operate`: null when the build had neither L&I nor out-of-service-order input.
   */
  allowed_to_operate: boolean | null;
}
