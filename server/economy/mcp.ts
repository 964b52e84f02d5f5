// The economy service's MCP endpoint (docs/contracts/economy.md, "MCP"): read-only tools over the REST
// routes' lookups; the transport and its guards are server/core/mcp.ts's. `structuredContent` must be an
// object, hence `{ series: [...] }`.
import type { JsonSchemaType, McpServer, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { CATEGORIES } from '../../contract/economy/types.ts';
import { paramSchemas } from '../../contract/core/schemas.ts';
import type { LoadedBuild } from '../core/build.ts';
import type { Routes, ServiceState } from '../core/service.ts';
import { advertised, type McpSdk, mcpEndpoint, toolResult } from '../core/mcp.ts';
import { invalidParameters, type ParameterError } from '../../contract/core/problem.ts';

export interface McpDeps {
  /** The `/api/series?q=` records for a query (throws HttpError 400 with the REST message for bad input). */
  searchSeries(query: string): unknown[];
  /** The `/api/observations` object; throws HttpError (400/404/503) exactly as the REST route would. */
  getObservations(args: Record<string, string>): Promise<Record<string, unknown>>;
  /** The `/api/categories` array. */
  listCategories(): unknown[];
  /** The `/api/changes` object; throws HttpError (400/404/410) exactly as the REST route would. */
  getChanges(args: Record<string, string>): Promise<Record<string, unknown>>;
  /** The `/api/updates` object; throws HttpError 400 exactly as the REST route would. */
  getSeriesUpdates(args: Record<string, string>): Promise<Record<string, unknown>>;
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
  /** Largest request body accepted; defaults to MCP_MAX_BODY_BYTES (server/core/mcp.ts). */
  maxBodyBytes?: number;
}

export const MCP_PATH = '/mcp';

/** What starts the lines this endpoint writes to stderr. */
const LABEL = `[economy] ${MCP_PATH}`;

/**
 * Mounts `POST /mcp`. `deps` is either fixed or derived from the loaded state (so the lookups follow a
 * reload); one SDK handler is made per loaded state, so a request that began on the old build ends on it.
 */
export function mountMcp<D>(
  r: Routes<D>,
  deps: McpDeps | ((state: ServiceState<D>) => McpDeps),
  options: McpOptions,
): void {
  // Compiled once, on the first request (fromJsonSchema compiles with ajv), shared by every server.
  let schemas: ToolSchemas | undefined;
  const endpoint = mcpEndpoint<D>({
    label: LABEL,
    allowedHosts: options.allowedHosts,
    allowedOrigins: options.allowedOrigins,
    ...(options.maxBodyBytes !== undefined && { maxBodyBytes: options.maxBodyBytes }),
    servers(sdk, state) {
      schemas ??= toolSchemas(sdk);
      const compiled = schemas;
      const d = typeof deps === 'function' ? deps(state) : deps;
      const manifest = state.build.manifest;
      return () => toServer(sdk, d, manifest, compiled, options.cacheTtlMs);
    },
  });
  r.post(MCP_PATH, (req, res, state) => endpoint.serve(req, res, state));
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
  const names = ['units', 'frequency', 'aggregation_method', 'sort_order', 'limit', 'offset', 'vintage'];
  for (const name of [...names, 'realtime_start', 'realtime_end', 'output_type']) {
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

/** get_changes' arguments: the REST route's (schemas/core/changes-query), defaults left to the route. */
function changesArguments(): Record<string, Json> {
  const { properties } = paramSchemas().schema('core/changes-query') as { properties: Record<string, Json> };
  return Object.fromEntries(Object.entries(properties).map(([name, { default: _, ...spec }]) => [name, spec]));
}

type ToolName = 'search_series' | 'get_observations' | 'list_categories' | 'get_changes' | 'get_series_updates';

const INPUT: Record<ToolName, ArgumentsSchema> = {
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
  get_changes: { type: 'object', properties: changesArguments(), required: [], additionalProperties: false },
  get_series_updates: {
    type: 'object',
    properties: {
      since: (paramSchemas().schema('economy/updates-query') as { properties: Record<string, Json> }).properties.since!,
    },
    required: [],
    additionalProperties: false,
  },
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
          properties: {
            date: { type: 'string' },
            value: { type: ['number', 'null'] },
            status: { type: 'string' },
            realtime_start: { type: 'string', description: 'With a real-time argument: first day this was the value.' },
            realtime_end: { type: 'string', description: 'With a real-time argument: last day this was the value.' },
          },
        },
      },
      source: { type: 'string' },
      cached: { type: 'boolean' },
      asOf: { type: 'string', format: 'date-time' },
      stale: { type: 'boolean' },
      realtime_start: { type: 'string' },
      realtime_end: { type: 'string' },
      output_type: { enum: [1, 4] },
      provenance: PROVENANCE,
    },
  },
  get_series_updates: {
    type: 'object',
    required: ['since', 'results', 'provenance'],
    properties: {
      since: { type: 'string', format: 'date-time' },
      results: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id', 'title', 'updated_at', 'added', 'revised'],
          properties: {
            id: { type: 'string' },
            title: { type: 'string' },
            updated_at: { type: 'string', format: 'date-time' },
            added: { type: 'integer', minimum: 0 },
            revised: { type: 'integer', minimum: 0 },
          },
        },
      },
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
  get_changes: {
    type: 'object',
    required: ['since', 'until', 'total', 'limit', 'offset', 'results', 'provenance'],
    properties: {
      since: { type: 'string' },
      until: { type: 'string', description: 'The data_version served.' },
      total: { type: 'integer', minimum: 0 },
      limit: { type: 'integer' },
      offset: { type: 'integer' },
      results: {
        type: 'array',
        items: {
          type: 'object',
          required: ['data_version', 'built_at', 'id', 'name', 'kind', 'fields', 'notable'],
          properties: {
            data_version: { type: 'string' },
            built_at: { type: 'string', format: 'date-time' },
            id: { type: 'string' },
            name: { type: 'string' },
            kind: { enum: ['added', 'removed', 'changed'] },
            fields: { type: 'array', items: { type: 'object', required: ['path', 'from', 'to'] } },
            notable: { type: 'array', items: { type: 'string' } },
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
function toolSchemas(sdk: McpSdk): ToolSchemas {
  const input = {} as ToolSchemas['input'];
  const output = {} as ToolSchemas['output'];
  for (const name of Object.keys(INPUT) as (keyof typeof INPUT)[]) {
    input[name] = advertised(INPUT[name]);
    output[name] = sdk.server.fromJsonSchema<Json>(OUTPUT[name] as JsonSchemaType);
  }
  return { input, output };
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

function toServer(
  sdk: McpSdk,
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
        'list_categories, then get_observations (pulled from the upstream at most once per 24 hours; realtime_end gives the ' +
        'values as known on a past day, from the archive of daily snapshots). get_series_updates lists the series revised ' +
        'or extended lately. Every result carries its provenance: source URL, upstream ids and asOf.',
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
      toolResult(LABEL, () => {
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
        'The dated values of one series, oldest first, optionally between two inclusive dates, as GET /api/observations does. With realtime_end (and realtime_start, output_type), the values as they were known on past days, each with the days it was the published value (ALFRED); with vintage, that day’s snapshot exactly.',
      inputSchema: schemas.input.get_observations,
      outputSchema: schemas.output.get_observations,
      annotations: { ...annotations, openWorldHint: true },
    },
    (args) =>
      toolResult(LABEL, async () => {
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
      toolResult(LABEL, () => {
        toArguments(INPUT.list_categories, args);
        // Categories are counted from the registry: no upstream of their own, so no series entries.
        return { categories: deps.listCategories(), provenance: provenanceOf([], manifest.built_at) };
      }),
  );

  server.registerTool(
    'get_changes',
    {
      title: 'Get changes',
      description:
        'What changed in the series between builds (registry metadata; observations revised, added or withdrawn between nightly snapshots), oldest first, as GET /api/changes does.',
      inputSchema: schemas.input.get_changes,
      outputSchema: schemas.output.get_changes,
      annotations: { ...annotations, openWorldHint: false },
    },
    (args) =>
      toolResult(LABEL, async () => {
        const doc = await deps.getChanges(toArguments(INPUT.get_changes, args));
        const ids = [...new Set((doc.results as { id: string }[]).map((c) => c.id))];
        return { ...doc, provenance: provenanceOf(ids, manifest.built_at) };
      }),
  );
  server.registerTool(
    'get_series_updates',
    {
      title: 'Get series updates',
      description:
        'The series whose values were revised or extended after a time (default: the last seven days), newest first, as GET /api/updates does.',
      inputSchema: schemas.input.get_series_updates,
      outputSchema: schemas.output.get_series_updates,
      annotations: { ...annotations, openWorldHint: false },
    },
    (args) =>
      toolResult(LABEL, async () => {
        const doc = await deps.getSeriesUpdates(toArguments(INPUT.get_series_updates, args));
        const ids = (doc.results as { id: string }[]).map((u) => u.id);
        return { ...doc, provenance: provenanceOf(ids, manifest.built_at) };
      }),
  );
  return server;
}
