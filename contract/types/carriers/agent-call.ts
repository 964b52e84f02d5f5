// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * Body of POST /api/mcp (application/json, at most 64 KB). search_carrier is public; get_carrier_profile needs the same key as GET /api/carrier/{carrier_id} and counts against the same allowance; get_changes needs a key and is not counted, as GET /api/changes.
 */
export interface CarrierToolCall {
  tool: "search_carrier" | "get_carrier_profile" | "get_changes";
  /**
   * Validated against the tool's input_schema (GET /api/mcp).
   */
  args: {
    [k: string]: unknown | undefined;
  };
}
