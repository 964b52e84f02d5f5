// The economy service's MCP endpoint (shared/contracts/economy.md, "MCP"): three read-only tools over the
// same lookups the REST routes use, served with the official v2 TypeScript SDK. `createMcpHandler` answers
// both protocol eras from one per-request server factory: 2026-07-28 requests (per-request `_meta`
// envelope, `MCP-Protocol-Version`/`Mcp-Method`/`Mcp-Name` headers, `server/discover`) on its modern leg,
// and 2025-era clients (`initialize`, then `tools/*`) through its stateless legacy fallback, with no
// sessions. `toNodeHandler` adapts it to the (req, res) Polka hands us.
//
// What the SDK does and we rely on (checked against @modelcontextprotocol/server 2.4.0 and
// @modelcontextprotocol/node 2.1.2):
// - Host/Origin: `hostHeaderValidation` / `originValidation` compare the hostname only (any port; for
//   Origin any of http/https) with the allow-lists and answer 403 with a JSON-RPC error body themselves
//   (`{"jsonrpc":"2.0","error":{"code":-32000,"message":"Invalid Origin: evil.example"},"id":null}`). A
//   request without Origin passes: non-browser MCP clients send none (transports spec, "Security").
// - Malformed JSON → -32700 (HTTP 400), unknown method → -32601 (HTTP 404 on the modern leg), a POST
//   that is not `application/json` → 415, a modern request whose headers disagree with its body →
//   -32020 (HTTP 400). The legacy leg answers requests as a one-event SSE stream, the modern one as JSON.
// - Tool output: `structuredContent` is validated against the advertised `outputSchema` (a mismatch is
//   an `isError` result, never bad data), and must be an object, hence `{ series: [...] }`.
// - Cache hint: `cacheHints['tools/list']` becomes `ttlMs`/`cacheScope` on 2026-07-28 `tools/list`
//   results (the 2025 wire has no such fields; without a hint the SDK sends `ttlMs: 0, private`).
//
// GET and DELETE (2025 session operations) are not registered, so createApp answers them 405 with
// `Allow: POST`, as a stateless server may (transports spec, "Listening for Messages from the Server").
import { isUtf8 } from 'node:buffer';
import { setStampedHeaders } from '../core/stamp.ts';
import type { NodeIncomingMessageLike, NodeMcpRequestHandler } from '@modelcontextprotocol/node';
import type { CallToolResult, JsonSchemaType, McpServer, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { CATEGORIES } from '../../contract/economy/types.ts';
import { paramSchemas } from '../../contract/core/schemas.ts';
import type { LoadedBuild } from '../core/build.ts';
import type { RouteRequest, Routes, ServiceState } from '../core/service.ts';
import { readBody } from '../core/body.ts';
import {
  describeFailure,
  HttpError,
  invalidParameters,
  toProblem,
  type ParameterError,
} from '../../contract/core/problem.ts';

export interface McpDeps {
  /** The `/api/series?q=` records for a query (throws HttpError 400 with the REST message for bad input). */
  searchSeries(query: string): unknown[];
  /** The `/api/observations` object; throws HttpError (400/404/503) exactly as the REST route would. */
  getObservations(args: Record<string, string>): Promise<Record<string, unknown>>;
  /** The `/api/categories` array. */
  listCategories(): unknown[];
  /** Provenance for a series id: source URL and upstream ids. */
  provenance(series: string): { sourceUrl: string; upstream: unknown; note?: string } | undefined;
}

export interface McpOptions {
  /** Hostnames (no port; IPv6 in brackets) the `Host` header may name: DNS-rebinding protection. */
  allowedHosts: string[];
  /** Hostnames (no scheme or port) a browser `Origin` may name, or `<scheme>://*` entries. */
  allowedOrigins: string[];
  /** How long a client may cache the tool list (`ttlMs`); the observation cache's lifetime, 24 h. */
  cacheTtlMs: number;
  /** Largest request body accepted; defaults to MCP_MAX_BODY_BYTES. */
  maxBodyBytes?: number;
}

/** One JSON-RPC message with a few short string arguments is far below this. */
export const MCP_MAX_BODY_BYTES = 64 * 1024;

export const MCP_PATH = '/mcp';

/**
 * Mounts `POST /mcp`. `deps` is either fixed or derived from the loaded state (so the lookups follow a
 * reload); one SDK handler is made per loaded state, so a request that began on the old build ends on it.
 */
interface Sdk {
  node: typeof import('@modelcontextprotocol/node');
  server: typeof import('@modelcontextprotocol/server');
}
let sdk: Promise<Sdk> | undefined;
/**
 * The SDK is imported on the first request to /mcp, not at start-up: its modules (and zod's) took about
 * 80 ms of every start, also for the other services and for servers nobody asks over MCP.
 */
const loadSdk = (): Promise<Sdk> =>
  (sdk ??= Promise.all([import('@modelcontextprotocol/node'), import('@modelcontextprotocol/server')]).then(
    ([node, server]) => ({ node, server }),
  ));

export function mountMcp<D>(
  r: Routes<D>,
  deps: McpDeps | ((state: ServiceState<D>) => McpDeps),
  options: McpOptions,
): void {
  const maxBodyBytes = options.maxBodyBytes ?? MCP_MAX_BODY_BYTES;
  let mounted:
    | Promise<{
        sdk: Sdk;
        schemas: ToolSchemas;
        validHost: ReturnType<Sdk['node']['hostHeaderValidation']>;
        validOrigin: ReturnType<Sdk['node']['originValidation']>;
      }>
    | undefined;
  const mount = () =>
    (mounted ??= loadSdk().then((sdk) => ({
      sdk,
      schemas: toolSchemas(sdk),
      validHost: sdk.node.hostHeaderValidation(options.allowedHosts),
      validOrigin: sdk.node.originValidation(options.allowedOrigins),
    })));
  // The SDK reports rejected requests here too (bad headers, wrong Content-Type): one line each. Our own
  // tool failures are logged with their stack by `toResult`.
  const onerror = (err: Error) => process.stderr.write(`[economy] ${MCP_PATH}: ${err.message}\n`);
  const handlers = new WeakMap<ServiceState<D>, NodeMcpRequestHandler>();
  const handlerFor = (state: ServiceState<D>, sdk: Sdk, schemas: ToolSchemas): NodeMcpRequestHandler => {
    let handler = handlers.get(state);
    if (!handler) {
      const d = typeof deps === 'function' ? deps(state) : deps;
      const manifest = state.build.manifest;
      const mcp = sdk.server.createMcpHandler(() => toServer(sdk, d, manifest, schemas, options.cacheTtlMs), {
        legacy: 'stateless',
        // responseMode stays 'auto': a tool that emits nothing before its result (all three) is answered
        // with one JSON body; 'json' would say the same and print a warning at start-up.
        maxRequestBodySize: maxBodyBytes,
        onerror,
      });
      handler = sdk.node.toNodeHandler(mcp, { maxRequestBodySize: maxBodyBytes, onerror });
      handlers.set(state, handler);
    }
    return handler;
  };

  r.post(MCP_PATH, async (req, res, state) => {
    // The guards and the SDK's transport write their own heads: the data version goes in before they do.
    setStampedHeaders(res);
    const { sdk, schemas, validHost, validOrigin } = await mount();
    // The guards answer 403 themselves when they return false.
    if (!validHost(req, res) || !validOrigin(req, res)) return;
    // Read here, not by the SDK, so an oversized body is our 413 problem (the SDK's own limit answers
    // with a JSON-RPC body).
    const body = await readBody(req, maxBodyBytes);
    if (!isUtf8(body)) {
      // JSON-RPC's parse error: the SDK would read such bytes as U+FFFD and run the call on other text.
      res.writeHead(400, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          error: { code: -32700, message: 'Parse error: the body is not valid UTF-8' },
          id: null,
        }),
      );
      return;
    }
    const version = req.headers['mcp-protocol-version'];
    if (typeof version === 'string' && version >= BATCHLESS_SINCE && isJsonArray(body)) {
      // The SDK's stateless legacy leg still answers batches whatever the version; 2025-06-18 removed them.
      const message = `Invalid Request: MCP ${version} has no JSON-RPC batches (removed in ${BATCHLESS_SINCE}); send one message per request`;
      res.writeHead(400, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message }, id: null }));
      return;
    }
    await handlerFor(state, sdk, schemas)(replay(req, body), res);
  });
}

/** The protocol version that removed JSON-RPC batching (mcp-transport.md); versions are dates, so they sort as text. */
const BATCHLESS_SINCE = '2025-06-18';

/** Whether a body is a JSON array (a batch). Malformed JSON is not: the SDK answers it with its parse error. */
function isJsonArray(body: Buffer): boolean {
  let i = 0;
  while (i < body.length && (body[i] === 0x20 || body[i] === 0x09 || body[i] === 0x0a || body[i] === 0x0d)) i++;
  if (body[i] !== 0x5b) return false;
  try {
    return Array.isArray(JSON.parse(body.toString('utf8')));
  } catch {
    return false;
  }
}

/** The request again, its body from memory: `toNodeHandler` reads the body by iterating the request. */
function replay(req: RouteRequest, body: Buffer): NodeIncomingMessageLike {
  return {
    method: req.method,
    url: req.url,
    headers: req.headers,
    async *[Symbol.asyncIterator]() {
      if (body.length > 0) yield body;
    },
  };
}

// ---- tools ----------------------------------------------------------------------------------------------

type Json = Record<string, unknown>;

/** A tool's arguments schema: strings (as REST query parameters are) and integers. */
interface ArgumentsSchema extends Json {
  type: 'object';
  properties: Record<string, Json>;
  required: string[];
  additionalProperties: false;
}

const DATE_ARGUMENT = { type: 'string', format: 'date', description: 'An inclusive ISO date, YYYY-MM-DD.' };

/** get_observations' FRED parameters: the REST route's (schemas/economy/observations-query), but format. */
function observationArguments(): Record<string, Json> {
  const { properties } = paramSchemas().schema('economy/observations-query') as { properties: Record<string, Json> };
  const out: Record<string, Json> = {};
  for (const name of ['units', 'frequency', 'aggregation_method', 'sort_order', 'limit', 'offset']) {
    const { default: _, ...spec } = properties[name]!;
    out[name] = spec;
  }
  out.limit = {
    ...out.limit,
    description: `${out.limit!.description} Without it, the newest ${MCP_OBSERVATIONS} observations at most, with "truncated": true when some were left out.`,
  };
  return out;
}

/** What get_observations answers without a limit: an agent's context is no place for a daily series' history. */
export const MCP_OBSERVATIONS = 1000;

const INPUT: Record<'search_series' | 'get_observations' | 'list_categories', ArgumentsSchema> = {
  search_series: {
    type: 'object',
    properties: {
      query: {
        type: 'string',
        description: 'Words or a series id; ranked exact id, id prefix, title words, description words.',
      },
    },
    required: ['query'],
    additionalProperties: false,
  },
  get_observations: {
    type: 'object',
    properties: {
      series: { type: 'string', description: 'A series id from search_series, such as CPI_ALL_ITEMS.' },
      from: DATE_ARGUMENT,
      to: DATE_ARGUMENT,
      ...observationArguments(),
    },
    required: ['series'],
    additionalProperties: false,
  },
  list_categories: { type: 'object', properties: {}, required: [], additionalProperties: false },
};

const UPSTREAM = {
  description: 'The upstream identifiers, as /api/series/{id} gives them.',
  oneOf: [
    {
      type: 'object',
      required: ['kind', 'tableId', 'vectorIds'],
      properties: {
        kind: { const: 'statcan-wds' },
        tableId: { type: 'string' },
        vectorIds: { type: 'array', items: { type: 'integer' } },
      },
    },
    {
      type: 'object',
      required: ['kind', 'seriesNames'],
      properties: { kind: { const: 'boc-valet' }, seriesNames: { type: 'array', items: { type: 'string' } } },
    },
  ],
};

const PROVENANCE = {
  type: 'object',
  description:
    'Where the data comes from: asOf is the time of the upstream pull (observations) or of the registry build.',
  required: ['asOf', 'dataVersion', 'series'],
  properties: {
    asOf: { type: 'string', format: 'date-time' },
    dataVersion: { type: 'string' },
    series: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'sourceUrl', 'upstream'],
        properties: {
          id: { type: 'string' },
          sourceUrl: {
            type: 'string',
            format: 'uri',
            description: "The upstream's public page or document for the series.",
          },
          upstream: UPSTREAM,
          note: { type: 'string', description: 'Present on a demo build: the values are generated, not real.' },
        },
      },
    },
  },
};

const SERIES_RECORD = {
  type: 'object',
  required: ['id', 'title', 'source', 'sourceLabel', 'tableId', 'units', 'frequency', 'category', 'description'],
  properties: {
    id: { type: 'string' },
    title: { type: 'string' },
    source: { enum: ['STATCAN', 'BOC'] },
    sourceLabel: { enum: ['Statistics Canada', 'Bank of Canada'] },
    tableId: { type: ['string', 'null'] },
    units: { type: 'string' },
    frequency: { enum: ['daily', 'weekly', 'monthly', 'quarterly', 'annual'] },
    category: { enum: Object.keys(CATEGORIES) },
    description: { type: 'string' },
  },
};

const OUTPUT: Record<keyof typeof INPUT, Json> = {
  search_series: {
    type: 'object',
    required: ['series', 'provenance'],
    properties: { series: { type: 'array', items: SERIES_RECORD }, provenance: PROVENANCE },
  },
  get_observations: {
    type: 'object',
    required: ['series', 'observations', 'source', 'cached', 'asOf', 'provenance'],
    properties: {
      series: { type: 'string' },
      observations: {
        type: 'array',
        items: {
          type: 'object',
          required: ['date', 'value'],
          properties: { date: { type: 'string' }, value: { type: 'number' } },
        },
      },
      source: { type: 'string' },
      cached: { type: 'boolean' },
      asOf: { type: 'string', format: 'date-time' },
      stale: { type: 'boolean' },
      provenance: PROVENANCE,
    },
  },
  list_categories: {
    type: 'object',
    required: ['categories', 'provenance'],
    properties: {
      categories: {
        type: 'array',
        items: {
          type: 'object',
          required: ['slug', 'name', 'seriesCount', 'examples'],
          properties: {
            slug: { enum: Object.keys(CATEGORIES) },
            name: { type: 'string' },
            seriesCount: { type: 'integer', minimum: 0 },
            examples: { type: 'array', maxItems: 3, items: { type: 'string' } },
          },
        },
      },
      provenance: PROVENANCE,
    },
  },
};

interface ToolSchemas {
  input: Record<keyof typeof INPUT, StandardSchemaWithJSON<Record<string, unknown>>>;
  output: Record<keyof typeof INPUT, StandardSchemaWithJSON<Json>>;
}

/**
 * Compiled once per mount (fromJsonSchema compiles with ajv), shared by the server made per request.
 * Output schemas are enforced by the SDK. Input schemas are advertised as written but checked by
 * `toArguments` in the tool itself: the SDK's own check would prefix its message with "Input validation
 * error: …", and the contract wants the REST route's message.
 */
function toolSchemas(sdk: Sdk): ToolSchemas {
  const input = {} as ToolSchemas['input'];
  const output = {} as ToolSchemas['output'];
  for (const name of Object.keys(INPUT) as (keyof typeof INPUT)[]) {
    input[name] = advertised(INPUT[name]);
    output[name] = sdk.server.fromJsonSchema<Json>(OUTPUT[name] as JsonSchemaType);
  }
  return { input, output };
}

function advertised(schema: Json): StandardSchemaWithJSON<Record<string, unknown>> {
  return {
    '~standard': {
      version: 1,
      vendor: 'shardline',
      jsonSchema: { input: () => schema, output: () => schema },
      validate: (value) => ({ value: (value ?? {}) as Record<string, unknown> }),
    },
  };
}

/**
 * The arguments as strings, or a 400 in the words `parseQuery` uses for the same faults
 * (`series is required`). Only the shape is checked here; the values go to the same code the REST
 * route runs, so a bad date or an unknown id gets exactly the REST message. Unknown arguments are
 * refused, as the advertised schema says (REST ignores unknown query parameters; a misspelt `form`
 * here would otherwise silently return the whole range).
 */
function toArguments(schema: ArgumentsSchema, args: Record<string, unknown>): Record<string, string> {
  const errors: ParameterError[] = [];
  const out: Record<string, string> = {};
  for (const name of Object.keys(args)) {
    if (!Object.hasOwn(schema.properties, name))
      errors.push({ parameter: name, message: 'is not an argument of this tool' });
  }
  for (const name of Object.keys(schema.properties)) {
    const value = args[name];
    if (value === undefined) {
      if (schema.required.includes(name)) errors.push({ parameter: name, message: 'is required' });
    } else if (schema.properties[name]?.type === 'integer') {
      if (Number.isSafeInteger(value)) out[name] = String(value);
      else errors.push({ parameter: name, message: 'must be integer' });
    } else if (typeof value !== 'string') errors.push({ parameter: name, message: 'must be string' });
    else out[name] = value;
  }
  if (errors.length)
    throw invalidParameters(
      errors.sort((a, b) => (a.parameter < b.parameter ? -1 : a.parameter > b.parameter ? 1 : 0)),
    );
  return out;
}

/** The tool's JSON as structured content and, the same JSON, as its one text item. */
async function toResult(work: () => Json | Promise<Json>): Promise<CallToolResult> {
  try {
    const doc = await work();
    return { structuredContent: doc, content: [{ type: 'text', text: JSON.stringify(doc) }] };
  } catch (err) {
    // The REST route's message for a client fault; for our own failure, the problem body's generic one.
    const { body } = toProblem(err);
    if (!(err instanceof HttpError)) process.stderr.write(`[economy] ${MCP_PATH}: ${describeFailure(err)}\n`);
    return { isError: true, content: [{ type: 'text', text: body.detail }] };
  }
}

function toServer(
  sdk: Sdk,
  deps: McpDeps,
  manifest: LoadedBuild['manifest'],
  schemas: ToolSchemas,
  cacheTtlMs: number,
): McpServer {
  // One server per request: the tool list never changes under a client.
  const hint = { ttlMs: cacheTtlMs, cacheScope: 'public' as const };
  const server = new sdk.server.McpServer(
    { name: 'shardline-economy', title: 'Canadian economic series', version: manifest.data_version },
    {
      capabilities: { tools: { listChanged: false } },
      cacheHints: { 'tools/list': hint, 'server/discover': hint },
      instructions:
        'Canadian economic series from Statistics Canada and the Bank of Canada. Find a series id with search_series or ' +
        'list_categories, then get_observations (pulled from the upstream at most once per 24 hours). Every result carries ' +
        'its provenance: source URL, upstream ids and asOf.',
    },
  );
  const provenanceOf = (ids: string[], asOf: string) => ({
    asOf,
    dataVersion: manifest.data_version,
    series: ids.flatMap((id) => {
      const p = deps.provenance(id);
      return p
        ? [{ id, sourceUrl: p.sourceUrl, upstream: p.upstream, ...(p.note !== undefined && { note: p.note }) }]
        : [];
    }),
  });
  const annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true };

  server.registerTool(
    'search_series',
    {
      title: 'Search series',
      description: 'Finds economic series by id or words, as GET /api/series?q= does.',
      inputSchema: schemas.input.search_series,
      outputSchema: schemas.output.search_series,
      annotations: { ...annotations, openWorldHint: false },
    },
    (args) =>
      toResult(() => {
        const { query } = toArguments(INPUT.search_series, args);
        const series = deps.searchSeries(query!);
        const ids = series.flatMap((s) => (typeof (s as Json)?.id === 'string' ? [(s as Json).id as string] : []));
        return { series, provenance: provenanceOf(ids, manifest.built_at) };
      }),
  );

  server.registerTool(
    'get_observations',
    {
      title: 'Get observations',
      description:
        'The dated values of one series, oldest first, optionally between two inclusive dates, as GET /api/observations does.',
      inputSchema: schemas.input.get_observations,
      outputSchema: schemas.output.get_observations,
      annotations: { ...annotations, openWorldHint: true },
    },
    (args) =>
      toResult(async () => {
        const given = toArguments(INPUT.get_observations, args);
        const doc = await deps.getObservations(given);
        const id = typeof doc.series === 'string' ? doc.series : given.series!;
        const asOf = typeof doc.asOf === 'string' ? doc.asOf : manifest.built_at;
        return { ...doc, provenance: provenanceOf([id], asOf) };
      }),
  );

  server.registerTool(
    'list_categories',
    {
      title: 'List categories',
      description: 'The eight categories with their series counts and example titles, as GET /api/categories does.',
      inputSchema: schemas.input.list_categories,
      outputSchema: schemas.output.list_categories,
      annotations: { ...annotations, openWorldHint: false },
    },
    (args) =>
      toResult(() => {
        toArguments(INPUT.list_categories, args);
        // Categories are counted from the registry: no upstream of their own, so no series entries.
        return { categories: deps.listCategories(), provenance: provenanceOf([], manifest.built_at) };
      }),
  );
  return server;
}
