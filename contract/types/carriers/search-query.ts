// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * Query parameters of GET /api/search. Every parameter may be given at most once; unknown parameters are ignored.
 */
export interface CarrierSearchParameters {
  /**
   * A carrier number (digits, optionally after USDOT, DOT or US DOT, with or without spaces or #) looks that carrier up; anything else matches legal and DBA names: every word must match the start of a word, case- and accent-insensitively. Ranked by exactness (whole name first), then power units descending, then carrier_id. A q with no letters or digits at all is a 400, as a blank one is.
   */
  q: string;
  /**
   * Most results in the page.
   */
  limit?: number;
  /**
   * Matches skipped before the page, in result order (stable: pages never overlap or skip); past the end gives an empty page.
   */
  offset?: number;
  /**
   * Only carriers whose physical address (the census's PHY_STATE) is in this state or province: two letters, any case (`tx` is `TX`). Checked for its form only, not against a list of codes: the census uses USPS codes for US states and territories, Canada Post codes for provinces, and FMCSA's own codes for Mexican states (`JA`, `SO`, `TA`, ...), which follow no published standard, so a fixed list would refuse codes the census uses. A well-formed code no carrier has gives an empty page; anything but two letters is a 400. With a carrier number as q, a carrier of another state is no match.
   */
  state?: string;
  [k: string]: unknown | undefined;
}
