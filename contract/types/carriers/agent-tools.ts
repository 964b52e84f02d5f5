// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * GET /api/mcp: the tools POST /api/mcp accepts, each with the JSON Schema of its arguments.
 */
export interface CarrierTools {
  tools: {
    name: "search_carrier" | "get_carrier_profile" | "get_changes";
    description: string;
    /**
     * JSON Schema (draft 2020-12) of the tool's args: the contents of tool-search-carrier or tool-get-carrier-profile.
     */
    input_schema: {
      [k: string]: unknown | undefined;
    };
  }[];
}
