// The carriers agent route's tools (docs/contracts/carriers.md, "Agent route"): names, descriptions and the
// schemas of their arguments. `GET /api/mcp` lists them; the build writes that listing into the static tree
// (api/mcp.json, as every GET without a query is), and the server answers the build's document.
import { schemas } from '../core/schemas.ts';

export const AGENT_PATH = '/api/mcp';

export type ToolName = 'search_carrier' | 'get_carrier_profile' | 'get_changes';

export const AGENT_TOOLS: Record<ToolName, { schema: string; description: string }> = {
  search_carrier: {
    schema: 'carriers/tool-search-carrier',
    description:
      'Finds US motor carriers by USDOT number, docket or name, as GET /api/search does: a number (optionally after USDOT or DOT) ' +
      'looks that carrier up; a docket from a rate confirmation (MC 123456, MC-123456, FF…, MX…) looks the docket up, its ' +
      'current holder first; words match the start of words in legal and DBA names. Each result says its dockets and whether ' +
      'it is allowed to operate. `state` (two letters) keeps the carriers based there; `offset` pages through the matches. ' +
      'Public; no key needed.',
  },
  get_carrier_profile: {
    schema: 'carriers/tool-get-carrier-profile',
    description:
      "One carrier's profile, as GET /api/carrier/{carrier_id} returns it: whether it may operate (operating_status, with the " +
      'reasons), its authority per docket, insurance on file against what is required and out-of-service orders; census ' +
      'details; inspections and crashes over 24 months; its BASIC percentiles against its peer group, and when each would ' +
      'step down if nothing new happened (step_down). Needs an API key (Authorization: Bearer) and counts against the same ' +
      'monthly allowance as the REST route.',
  },
  get_changes: {
    schema: 'carriers/tool-get-changes',
    description:
      'What changed per carrier between builds, oldest first, as GET /api/changes returns it: carriers added to or removed ' +
      'from the census, names, fleet, inspections and crashes, out-of-service rates, and each BASIC percentile (a move of ' +
      '0.5 point or more) and alert; `notable` names what a person would act on (alert_started, alert_ended, name_changed, authority_revoked, out_of_service_order, insurance_lapsed). ' +
      '`since` is a data_version or a UTC day (default: the last 30 days); `id` keeps one carrier. Needs an API key; not ' +
      'counted against the allowance.',
  },
};

/** The tools whose calls sign in first, as their REST routes do. */
export const SIGNED_IN_TOOLS: ReadonlySet<ToolName> = new Set(['get_carrier_profile', 'get_changes']);

/** A schema file as a tool's `input_schema`: its contents without `$id`/`$schema`, which only place it in schemas/. */
function toInputSchema(id: string): Record<string, unknown> {
  const { $id: _id, $schema: _schema, ...rest } = schemas().schema(id);
  return rest;
}

/** The body of GET /api/mcp (schemas/carriers/agent-tools.schema.json). */
export function toAgentListing(): {
  tools: { name: ToolName; description: string; input_schema: Record<string, unknown> }[];
} {
  return {
    tools: (Object.keys(AGENT_TOOLS) as ToolName[]).map((name) => ({
      name,
      description: AGENT_TOOLS[name].description,
      input_schema: toInputSchema(AGENT_TOOLS[name].schema),
    })),
  };
}
