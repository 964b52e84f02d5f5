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
}
