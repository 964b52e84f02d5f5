// The facilities service's MCP endpoint, `POST /api/v1/mcp` (docs/contracts/facilities.md): search, the
// record, the statistics and the change feed as read-only tools, each answering what its REST route answers,
// with the build's provenance; the transport and its guards are server/core/mcp.ts's, as for economy's /mcp.
import type { JsonSchemaType, McpServer, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { Manifest } from '../../contract/core/manifest.ts';
import { PUBLIC_CACHE } from '../../contract/core/layout.ts';
import { notFound } from '../../contract/core/problem.ts';
import { isSpineId } from '../../contract/facilities/ids.ts';
import { answerChanges, type ChangeHistory } from '../core/changes.ts';
import { advertised, LOCAL_HOSTS, type McpSdk, mcpEndpoint, toolResult } from '../core/mcp.ts';
import { type ArgumentsSchema, queryArguments, selfContainedSchema, toQuery } from '../core/mcp-schemas.ts';
import { parseQuery } from '../core/params.ts';
import type { Payload } from '../core/payload.ts';
import type { Routes, ServiceState } from '../core/service.ts';
import { checkSearchQuery, search, type SearchData, type SearchQuery } from './search.ts';

type Json = Record<string, unknown>;

/** What the tools read of the service's data (routes.ts's FacilitiesData): the search index and the change record. */
type Data = SearchData & { changes: ChangeHistory };

export interface FacilitiesMcpOptions {
  /** Hostnames (no port; IPv6 in brackets) `Host` and a browser's `Origin` may name; LOCAL_HOSTS by default. */
  allowedHosts?: readonly string[];
}

/** How long a client may keep the tool list: the routes' `max-age` (PUBLIC_CACHE, 300 s). */
const TOOL_LIST_TTL_MS = Number(/max-age=(\d+)/.exec(PUBLIC_CACHE)?.[1] ?? 0) * 1000;

const INSTRUCTIONS =
  "Facilities reporting greenhouse gases to Ontario's registry (O. Reg. 390/18) and to Canada's federal GHGRP, " +
  'linked into one spine of facilities with stable ids (ONF-000123). Find facilities with search_facilities (name ' +
  'words and filters; facets gives counts of values among all matches), then get_facility with a spine_id from ' +
  'the results; get_stats says how well the two programs match and agree; get_changes says what changed per ' +
  'facility between builds. Every result carries the provenance of the build: data_version, built_at, the ' +
  'sources with the licence and attribution each asks for, and on a demo build a note that the data are generated.';

const DEMO_NOTE = 'demo build: generated facilities and figures in the upstream formats, not real data';

type ToolName = 'search_facilities' | 'get_facility' | 'get_stats' | 'get_changes';

const TOOLS: Record<ToolName, { title: string; description: string; output: string }> = {
  search_facilities: {
    title: 'Search facilities',
    description:
      'Facilities by name words, city, tier, program, NAICS code, year, gas, emissions range and flag, sorted and paged, with facet counts when asked, as GET /api/v1/search answers them (JSON; limit, offset and year as JSON integers, min_emissions and max_emissions as numbers). Each result has the spine_id get_facility takes.',
    output: 'facilities/search',
  },
  get_facility: {
    title: 'Facility record',
    description:
      "One facility's full record by spine id: names and ids in both programs, totals and the provincial − federal delta, yearly series, coordinates, emissions by gas, buildings of its city and flags with their reasons, as GET /api/v1/facility/{id} answers it.",
    output: 'facilities/record',
  },
  get_stats: {
    title: 'Match statistics',
    description:
      'How the two programs match for the comparison year: match counts, the funnel from the raw inputs to anchored facilities, the top emitters, agreement buckets and the largest disagreements, as GET /api/v1/stats answers them.',
    output: 'facilities/stats',
  },
  get_changes: {
    title: 'Changes between builds',
    description:
      'What changed per facility between builds (added, removed, revised: tier, program, name, place, totals, flags), oldest first, as GET /api/v1/changes answers it (limit and offset as JSON integers).',
    output: 'core/changes',
  },
};

const ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const PROVENANCE = {
  type: 'object',
  description:
    'The build that answered: its data_version and time, whether its inputs are the generated demo data, and the sources it read, each with the licence and the attribution that licence asks for.',
  required: ['data_version', 'built_at', 'demo', 'sources'],
  properties: {
    data_version: { type: 'string' },
    built_at: { type: 'string', format: 'date-time' },
    demo: { type: 'boolean' },
    note: { type: 'string', description: 'Present on a demo build: the facilities and figures are generated.' },
    sources: {
      type: 'array',
      items: {
        type: 'object',
        required: ['title', 'publisher', 'url', 'licence', 'attribution'],
        properties: {
          title: { type: 'string' },
          publisher: { type: 'string' },
          url: { type: 'string', description: 'Where the publisher offers the dataset.' },
          licence: {
            type: 'object',
            required: ['name', 'url'],
            properties: { name: { type: 'string' }, url: { type: 'string' } },
          },
          attribution: { type: 'string' },
        },
      },
    },
  },
};

interface Prepared {
  input: Record<ToolName, ArgumentsSchema>;
  advertised: Record<ToolName, StandardSchemaWithJSON<Json>>;
  output: Record<ToolName, StandardSchemaWithJSON<Json>>;
}

/** The arguments of each tool: the route's query parameters, read from its schema when the endpoint is first asked. */
function toolArguments(): Record<ToolName, ArgumentsSchema> {
  const object = (properties: Record<string, Json>, required: string[] = []): ArgumentsSchema => ({
    type: 'object',
    properties,
    required,
    additionalProperties: false,
  });
  return {
    // The CSV is a download, not an answer for an agent.
    search_facilities: object(queryArguments('facilities/search-query', ['format'])),
    get_facility: object(
      { id: { type: 'string', description: 'A spine id, ONF- and 6 digits, as search_facilities gives it.' } },
      ['id'],
    ),
    get_stats: object({}),
    get_changes: object(queryArguments('core/changes-query')),
  };
}

/** A response schema with the result's `provenance` beside the REST document's members. */
function withProvenance(schema: Json): Json {
  const { properties, required } = schema as { properties: Json; required: string[] };
  return { ...schema, required: [...required, 'provenance'], properties: { ...properties, provenance: PROVENANCE } };
}

/** Made on the first MCP request (fromJsonSchema compiles with ajv), shared by every server. */
function prepare(sdk: McpSdk): Prepared {
  const input = toolArguments();
  const prepared = { input, advertised: {}, output: {} } as Prepared;
  for (const name of Object.keys(TOOLS) as ToolName[]) {
    prepared.advertised[name] = advertised(input[name]);
    const output = withProvenance(selfContainedSchema(TOOLS[name].output));
    prepared.output[name] = sdk.server.fromJsonSchema<Json>(output as JsonSchemaType);
  }
  return prepared;
}

/** Where the build's data come from, once per build: its version and time, and each source once. */
export function toProvenance(manifest: Manifest): Json {
  const seen = new Set<string>();
  const sources = manifest.sources.flatMap(({ title, publisher, url, licence, attribution }) => {
    if (seen.has(url)) return [];
    seen.add(url);
    return [{ title, publisher, url, licence, attribution }];
  });
  return {
    data_version: manifest.data_version,
    built_at: manifest.built_at,
    demo: manifest.demo,
    ...(manifest.demo && { note: DEMO_NOTE }),
    sources,
  };
}

const documentOf = (payload: Payload): Json => JSON.parse(payload.body.toString('utf8')) as Json;

/**
 * Mounts `POST {base}/mcp`. `base` is the routes' (`/api/v1`): the tools read the documents the routes serve
 * from under it. One SDK handler per loaded state, so a request that began on the old build ends on it.
 */
export function mountFacilitiesMcp<D extends Data>(
  r: Routes<D>,
  base: string,
  options: FacilitiesMcpOptions = {},
): void {
  const label = `[facilities] ${base}/mcp`;
  const hosts = [...(options.allowedHosts ?? LOCAL_HOSTS)];
  let prepared: Prepared | undefined;
  const endpoint = mcpEndpoint<D>({
    label,
    allowedHosts: hosts,
    allowedOrigins: hosts,
    servers(sdk, state) {
      prepared ??= prepare(sdk);
      const p = prepared;
      const provenance = toProvenance(state.build.manifest);
      return () => toServer(sdk, p, state, { base, label, provenance });
    },
  });
  r.post(`${base}/mcp`, (req, res, state) => endpoint.serve(req, res, state));
}

function toServer<D extends Data>(
  sdk: McpSdk,
  prepared: Prepared,
  state: ServiceState<D>,
  at: { base: string; label: string; provenance: Json },
): McpServer {
  const { base, label, provenance } = at;
  // One server per request: the tool list never changes under a client.
  const hint = { ttlMs: TOOL_LIST_TTL_MS, cacheScope: 'public' as const };
  const server = new sdk.server.McpServer(
    {
      name: 'shardline-facilities',
      title: 'Ontario GHG facilities, provincial and federal',
      version: state.build.manifest.data_version,
    },
    {
      capabilities: { tools: { listChanged: false } },
      cacheHints: { 'tools/list': hint, 'server/discover': hint },
      instructions: INSTRUCTIONS,
    },
  );
  const payloads = state.build.payloads;
  const run: Record<ToolName, (query: Record<string, string>) => Json | Promise<Json>> = {
    search_facilities(raw) {
      // What GET /api/v1/search runs: the same checks (so the same 400), the same index, the same bytes.
      const query = parseQuery<SearchQuery>(raw, 'facilities/search-query', (q) =>
        checkSearchQuery(q, state.data.years),
      );
      return documentOf(search(state.data, query, payloads.get(`${base}/search`)));
    },
    get_facility({ id = '' }) {
      // The words of GET /api/v1/facility/{id}.
      if (!isSpineId(id)) throw notFound(`${id} is not a facility id (ONF- and 6 digits)`);
      const payload = payloads.get(`${base}/facility/${id}`);
      if (!payload) throw notFound(`no facility ${id}`);
      return documentOf(payload);
    },
    get_stats() {
      const payload = payloads.get(`${base}/stats`);
      if (!payload) throw new Error(`the build has no ${base}/stats`);
      return documentOf(payload);
    },
    async get_changes(raw) {
      const { query: _, ...doc } = await answerChanges(state.data.changes, raw, state.build.manifest.data_version);
      return doc;
    },
  };
  for (const name of Object.keys(TOOLS) as ToolName[]) {
    const { title, description } = TOOLS[name];
    server.registerTool(
      name,
      {
        title,
        description,
        inputSchema: prepared.advertised[name],
        outputSchema: prepared.output[name],
        annotations: ANNOTATIONS,
      },
      (args) =>
        toolResult(label, async () => ({
          ...(await run[name](toQuery(prepared.input[name], args))),
          provenance,
        })),
    );
  }
  return server;
}
