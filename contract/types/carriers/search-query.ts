// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * Query parameters of GET /api/search. Every parameter may be given at most once; unknown parameters are ignored.
 */
export interface CarrierSearchParameters {
  /**
   * A carrier number (digits, optionally after USDOT, DOT or US DOT, with or without spaces or #) looks that carrier up; anything else matches legal and DBA names: every word must match the start of a word, case- and accent-insensitively. Ranked by exactness (whole name first), then power units descending, then carrier_id. A q with no letters or digits at all is a 400, as a blank one is.
   */
  q: string;
  limit?: number;
  [k: string]: unknown | undefined;
}
