// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * Arguments of the get_carrier_profile tool of POST /api/mcp; the result is exactly the body of GET /api/carrier/{carrier_id}, with the same key, allowance and errors.
 */
export interface GetCarrierProfileArguments {
  /**
   * USDOT number: 1 to 8 digits, as a JSON integer or a string of digits (`"843932"`), as in the profile route's path (0 is well formed and no carrier's: 404).
   */
  carrier_id: number | string;
}
