// The carriers tools over MCP on `POST /api/mcp` (docs/contracts/carriers.md, "Agent route"): the endpoint of
// server/core/mcp.ts with the route's two tools, each running what the `{"tool", "args"}` call runs, so its
// result is the REST route's body. Sign-in failures stay HTTP's 401 (the key is at fault, not the call); what
// concerns the call (bad arguments, unknown carrier, used-up allowance) is a tool error the model can read.
import type { CallToolResult, JsonSchemaType, McpServer, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { AGENT_PATH, SIGNED_IN_TOOLS, type ToolName, toAgentListing } from '../../contract/carriers/agent-tools.ts';
import { PUBLIC_CACHE } from '../../contract/core/layout.ts';
import { HttpError, invalidParameters } from '../../contract/core/problem.ts';
import { schemas } from '../../contract/core/schemas.ts';
import {
  advertised,
  batchRefusal,
  jsonRpcMessages,
  type McpSdk,
  mcpEndpoint,
  refuseBatch,
  toolFailure,
  toolSuccess,
} from '../core/mcp.ts';
import type { RouteRequest, ServiceState } from '../core/service.ts';
import { type AgentDeps, type AgentMcp, checkArgs, isObject, type Tool, toolsOf } from './agent.ts';

type Json = Record<string, unknown>;

export interface AgentMcpOptions {
  /** Hostnames (no port; IPv6 in brackets) `Host` and a browser's `Origin` may name (MCP_ALLOWED_HOSTS). */
  allowedHosts: readonly string[];
}

const LABEL = `[carriers] ${AGENT_PATH}`;

/** The tool whose calls sign in. */
const PROFILE_TOOL: ToolName = 'get_carrier_profile';

/** The REST route's response schema, each tool's `outputSchema`. */
const OUTPUT: Record<ToolName, string> = {
  search_carrier: 'carriers/search',
  get_carrier_profile: 'carriers/profile',
  get_changes: 'core/changes',
};

const TITLES: Record<ToolName, string> = {
  search_carrier: 'Search carriers',
  get_carrier_profile: 'Carrier profile',
  get_changes: 'Changes between builds',
};

const ANNOTATIONS: Record<ToolName, Json> = {
  search_carrier: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  // A free key's call counts one lookup of its monthly allowance: the same call again is not free of effect.
  get_carrier_profile: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  get_changes: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

/** How long a client may keep the tool list: GET /api/mcp's `max-age` (PUBLIC_CACHE, 300 s). */
const TOOL_LIST_TTL_MS = Number(/max-age=(\d+)/.exec(PUBLIC_CACHE)?.[1] ?? 0) * 1000;

const INSTRUCTIONS =
  "US motor carriers (USDOT numbers) ranked against their peers from FMCSA's public census, inspection and crash data. " +
  'Find carriers with search_carrier (a USDOT number, or words of a legal or DBA name), then get_carrier_profile with a ' +
  'carrier_id from the results. get_carrier_profile needs an API key sent as Authorization: Bearer <key>; a free key has ' +
  'a monthly allowance of profile lookups, and its results say what is left in _meta.ratelimit. Percentiles are a ' +
  "recomputation from FMCSA public data, not FMCSA's published values. get_changes (the same key, not counted) says what " +
  'changed per carrier between builds, such as alerts that started or ended.';

interface Prepared {
  listing: ReturnType<typeof toAgentListing>['tools'];
  output: Record<ToolName, StandardSchemaWithJSON<Json>>;
}

/** The MCP face of `/api/mcp`, for mountAgent. */
export function agentMcp<D>(deps: AgentDeps<D>, options: AgentMcpOptions): AgentMcp<D> {
  const tools = toolsOf<D>();
  // Made on the first MCP request (fromJsonSchema compiles with ajv), shared by every server.
  let prepared: Prepared | undefined;
  const endpoint = mcpEndpoint<D>({
    label: LABEL,
    allowedHosts: [...options.allowedHosts],
    allowedOrigins: [...options.allowedHosts],
    servers(sdk, state) {
      prepared ??= prepare(sdk);
      const p = prepared;
      return (req) => toServer(sdk, p, (name, args) => call(deps, tools[name], name, req, state, args), state);
    },
  });
  return {
    async answer(req, res, state, bytes, body) {
      if (!(await endpoint.admits(req, res))) return;
      // An answer to this one caller: never stored by a cache (the 2025 leg's event stream says no-cache).
      res.setHeader('Cache-Control', 'no-store');
      // Before sign-in: an oversized batch is refused whoever sends it, and counts as no failed sign-in.
      const refusal = batchRefusal(req.headers['mcp-protocol-version'], body);
      if (refusal) return refuseBatch(res, refusal);
      // As the profile route, sign-in first: its 401 (or 400 for two keys) as a problem, nothing counted.
      if (jsonRpcMessages(body).some(callsSignedIn)) await deps.signIn(req);
      await endpoint.answer(req, res, state, bytes);
    },
  };
}

function callsSignedIn(message: Json): boolean {
  return (
    message.method === 'tools/call' && isObject(message.params) && SIGNED_IN_TOOLS.has(message.params.name as ToolName)
  );
}

function prepare(sdk: McpSdk): Prepared {
  const output = {} as Prepared['output'];
  for (const name of Object.keys(OUTPUT) as ToolName[])
    output[name] = sdk.server.fromJsonSchema<Json>(selfContained(OUTPUT[name]) as JsonSchemaType);
  return { listing: toAgentListing().tools, output };
}

function toServer<D>(
  sdk: McpSdk,
  prepared: Prepared,
  run: (name: ToolName, args: Json) => Promise<CallToolResult>,
  state: ServiceState<D>,
): McpServer {
  // One server per request: the tool list never changes under a client.
  const hint = { ttlMs: TOOL_LIST_TTL_MS, cacheScope: 'public' as const };
  const server = new sdk.server.McpServer(
    { name: 'shardline-carriers', title: 'US motor carriers', version: state.build.manifest.data_version },
    {
      capabilities: { tools: { listChanged: false } },
      cacheHints: { 'tools/list': hint, 'server/discover': hint },
      instructions: INSTRUCTIONS,
    },
  );
  // The tools GET /api/mcp lists, in its order, with its descriptions and argument schemas.
  for (const { name, description, input_schema } of prepared.listing) {
    server.registerTool(
      name,
      {
        title: TITLES[name],
        description,
        inputSchema: advertised(input_schema),
        outputSchema: prepared.output[name],
        annotations: ANNOTATIONS[name],
      },
      (args) => run(name, args),
    );
  }
  return server;
}

/**
 * One call: the arguments checked against the tool's schema (as the `{"tool", "args"}` call checks them),
 * then the tool's own function; any refusal an `isError` result.
 */
async function call<D>(
  deps: AgentDeps<D>,
  tool: Tool<D>,
  name: ToolName,
  req: RouteRequest,
  state: ServiceState<D>,
  args: Json,
): Promise<CallToolResult> {
  // What a free key has left, for a refusal that counts nothing (as the route's 400 says it).
  let allowance: Record<string, string> = {};
  try {
    if (name === PROFILE_TOOL) allowance = await deps.signIn(req);
    const errors = checkArgs(tool, args, '');
    if (errors.length) throw invalidParameters(errors);
    const answer = await tool.run(deps, req, state, args);
    const text = typeof answer.body === 'string' ? answer.body : answer.body.toString('utf8');
    return withAllowance(toolSuccess(JSON.parse(text) as Json, text), answer.headers);
  } catch (err) {
    const headers = err instanceof HttpError ? { ...allowance, ...err.headers } : allowance;
    return withAllowance(toolFailure(LABEL, asToolArguments(err)), headers);
  }
}

/** A 400 whose parameters are named as the `{"tool", "args"}` call names them (`args.query`), named as the tool does. */
function asToolArguments(err: unknown): unknown {
  if (!(err instanceof HttpError) || !err.errors?.some((e) => e.parameter.startsWith('args.'))) return err;
  const renamed = invalidParameters(err.errors.map((e) => ({ ...e, parameter: e.parameter.replace(/^args\./, '') })));
  return new HttpError(err.status, err.code, renamed.detail, renamed.errors, err.headers);
}

/** `result` with the RateLimit-* of a free key's answer as `_meta.ratelimit`; unchanged for premium. */
function withAllowance(result: CallToolResult, headers: Record<string, string>): CallToolResult {
  const limit = headers['RateLimit-Limit'];
  if (limit === undefined) return result;
  return {
    ...result,
    _meta: {
      ratelimit: {
        limit: Number(limit),
        remaining: Number(headers['RateLimit-Remaining']),
        reset: Number(headers['RateLimit-Reset']),
      },
    },
  };
}

/** Keywords whose values are data, not schemas: never searched for `$ref`. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);

/**
 * A schema of schemas/ a client can compile alone: no `$id`/`$schema`, refs to other files inlined (an inlined
 * file must have no `#/$defs` refs of its own). Closed tuples become `items: {anyOf}` with their length kept,
 * because 2025-era clients validate with draft-07 ajv, where `prefixItems` means nothing.
 */
export function selfContained(id: string): Json {
  const { $id: _id, $schema: _schema, ...body } = schemas().schema(id);
  return inline(body, id, false) as Json;
}

function inline(node: unknown, fromId: string, inlined: boolean): unknown {
  if (Array.isArray(node)) return node.map((n) => inline(n, fromId, inlined));
  if (!isObject(node)) return node;
  const out: Json = {};
  if (Array.isArray(node.prefixItems)) {
    if (node.items !== false)
      throw new Error(`${fromId}: only a closed tuple (items: false) can be described to 2025-era clients`);
    const { prefixItems, items: _items, ...rest } = node;
    return inline({ ...rest, items: { anyOf: prefixItems } }, fromId, inlined);
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string') {
      if (value.startsWith('#')) {
        if (inlined) throw new Error(`${fromId}: a schema brought into another cannot have $ref ${value}`);
        out.$ref = value;
        continue;
      }
      const target = new URL(value, `https://schemas.invalid/${fromId}`).pathname.slice(1);
      const { $id: _id, $schema: _schema, ...body } = schemas().schema(target);
      Object.assign(out, inline(body, target, true));
    } else out[key] = DATA_KEYWORDS.has(key) ? value : inline(value, fromId, inlined);
  }
  return out;
}
