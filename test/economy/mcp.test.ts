// The economy MCP endpoint on a real socket, driven by real clients of both protocol eras: the 2025-era
// `@modelcontextprotocol/sdk` Client (initialize, then tools/*) and the v2 `@modelcontextprotocol/client`
// pinned to 2026-07-28 (server/discover, per-request _meta, no initialize), plus raw HTTP for the
// transport's edges (Host/Origin, methods, parse errors, body size). The deps are fakes over a few
// series; a tiny REST route over the same fakes shows the tool errors carry the REST message.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { openSink } from '../../pipeline/core/sink.ts';
import { toManifest } from '../../contract/core/manifest.ts';
import type { ServiceDefinition } from '../../server/core/service.ts';
import { queryOf } from '../../server/core/params.ts';
import { jsonPayload, sendPayload } from '../../server/core/payload.ts';
import { HttpError, invalidParameters, notFound } from '../../contract/core/problem.ts';
import { mountMcp, type McpDeps } from '../../server/economy/mcp.ts';
import { answerChanges, type ChangeHistory } from '../../server/core/changes.ts';
import { startService, tempDir, type Running } from '../helpers/server.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const MODERN = '2026-07-28';
const BUILT_AT = new Date('2026-03-01T00:00:00.000Z');
const PULLED_AT = '2026-03-02T12:00:00.000Z';

const RECORDS = [
  {
    id: 'CPI_ALL_ITEMS',
    title: 'Consumer Price Index, all-items',
    source: 'STATCAN',
    sourceLabel: 'Statistics Canada',
    tableId: '18-10-0004-01',
    units: '2002=100',
    frequency: 'monthly',
    category: 'prices',
    description: 'Consumer prices, not seasonally adjusted.',
  },
  {
    id: 'FXUSDCAD',
    title: 'US dollar in Canadian dollars',
    source: 'BOC',
    sourceLabel: 'Bank of Canada',
    tableId: null,
    units: 'CAD per USD',
    frequency: 'daily',
    category: 'exchange-rates',
    description: 'Daily exchange rate.',
  },
] as const;

const UPSTREAM: Record<string, { sourceUrl: string; upstream: unknown }> = {
  CPI_ALL_ITEMS: {
    sourceUrl: 'https://www150.statcan.gc.ca/t1/tbl1/en/tv.action?pid=1810000401',
    upstream: { kind: 'statcan-wds', tableId: '18-10-0004-01', vectorIds: [41690973] },
  },
  FXUSDCAD: {
    sourceUrl: 'https://www.bankofcanada.ca/valet/observations/FXUSDCAD/json',
    upstream: { kind: 'boc-valet', seriesNames: ['FXUSDCAD'] },
  },
};

const OBSERVATIONS: Record<string, { date: string; value: number }[]> = {
  CPI_ALL_ITEMS: [
    { date: '2024-01-01', value: 158.3 },
    { date: '2024-02-01', value: 158.8 },
    { date: '2024-03-01', value: 159.8 },
  ],
  FXUSDCAD: [{ date: '2024-01-02', value: 1.3316 }],
};

/** Stands in for the REST route's checks, so both faces throw the same HttpError. */
function isRealDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** Two builds: the second revised CPI's March value. */
const REVISION = {
  data_version: 'b2',
  built_at: '2026-02-02T00:00:00.000Z',
  id: 'CPI_ALL_ITEMS',
  name: 'Consumer Price Index, all-items',
  kind: 'changed' as const,
  fields: [{ path: '/observations/2024-03-01', from: 159.8, to: 159.9 }],
  notable: ['value_revised'],
};
const HISTORY: ChangeHistory = {
  builds: [
    {
      data_version: 'b1',
      previous: null,
      built_at: '2026-01-01T00:00:00.000Z',
      demo: false,
      counts: { added: 0, removed: 0, changed: 0 },
      href: 'b1.json',
    },
    {
      data_version: 'b2',
      previous: 'b1',
      built_at: REVISION.built_at,
      demo: false,
      counts: { added: 0, removed: 0, changed: 1 },
      href: 'b2.json',
    },
  ],
  truncated: false,
  // The second build's one change, as a served record lists it.
  list: async (from, notable, offset, limit) => {
    const all = from <= 1 && (notable === undefined || REVISION.notable.includes(notable)) ? [REVISION] : [];
    return { total: all.length, results: all.slice(offset, offset + limit) };
  },
  ofEntity: async (id) => (id === REVISION.id ? [REVISION] : undefined),
};

const deps: McpDeps = {
  searchSeries(query) {
    if (query.trim() === '') throw invalidParameters([{ parameter: 'q', message: 'must not be blank' }]);
    const q = query.toLowerCase();
    return RECORDS.filter((r) => r.id.toLowerCase().startsWith(q) || r.title.toLowerCase().includes(q));
  },
  async getObservations({ series = '', from, to }) {
    if (series === 'BROKEN') throw new Error('disk on fire');
    if (series === 'DOWN')
      throw new HttpError(
        503,
        'upstream_unavailable',
        'Statistics Canada did not answer and nothing is cached',
        undefined,
        { 'Retry-After': '60' },
      );
    const errors = [];
    if (from !== undefined && !isRealDate(from))
      errors.push({ parameter: 'from', message: 'must be a real date YYYY-MM-DD' });
    if (to !== undefined && !isRealDate(to))
      errors.push({ parameter: 'to', message: 'must be a real date YYYY-MM-DD' });
    if (errors.length) throw invalidParameters(errors);
    if (from && to && from > to) throw invalidParameters([{ parameter: 'from', message: 'must not be after to' }]);
    const rows = OBSERVATIONS[series];
    if (!rows) throw notFound(`no series ${series}`);
    const observations = rows.filter((o) => (!from || o.date >= from) && (!to || o.date <= to));
    return {
      series,
      observations,
      source: series === 'FXUSDCAD' ? 'Bank of Canada' : 'Statistics Canada',
      cached: true,
      asOf: PULLED_AT,
    };
  },
  listCategories: () => [
    { slug: 'prices', name: 'Prices and inflation', seriesCount: 1, examples: ['Consumer Price Index, all-items'] },
    { slug: 'exchange-rates', name: 'Exchange rates', seriesCount: 1, examples: ['US dollar in Canadian dollars'] },
  ],
  provenance: (id) => UPSTREAM[id],
  getChanges: async (args) => {
    const { query: _, ...doc } = await answerChanges(HISTORY, args, 'b2');
    return doc;
  },
  getSeriesUpdates: async ({ since }) => {
    if (since !== undefined && Number.isNaN(Date.parse(since)))
      throw invalidParameters([{ parameter: 'since', message: 'must match format "date-time"' }]);
    const results = [{ id: 'CPI_ALL_ITEMS', title: RECORDS[0]!.title, updated_at: PULLED_AT, added: 1, revised: 2 }];
    return { since: since ?? '2026-01-01T00:00:00.000Z', results };
  },
};

const service: ServiceDefinition<null> = {
  name: 'economy',
  basePath: '/api',
  load: () => null,
  routes(r) {
    // The REST face over the same fakes, to compare messages with.
    r.get('/api/observations', async (req, res) => {
      const { series, from, to } = queryOf(req) as Record<string, string | undefined>;
      if (series === undefined) throw invalidParameters([{ parameter: 'series', message: 'is required' }]);
      const doc = await deps.getObservations({
        series,
        ...(from !== undefined && { from }),
        ...(to !== undefined && { to }),
      });
      sendPayload(req, res, jsonPayload(doc), { cacheControl: 'no-store' });
    });
    mountMcp(r, deps, {
      allowedHosts: ['127.0.0.1', 'localhost'],
      allowedOrigins: ['127.0.0.1', 'localhost'],
      cacheTtlMs: DAY_MS,
    });
  },
};

let server: Running<null>;
let dir: Awaited<ReturnType<typeof tempDir>>;
let mcpUrl: URL;

beforeAll(async () => {
  dir = await tempDir('mcp');
  const sink = await openSink({ service: 'economy', outDir: dir.path, compress: false });
  await sink.publish(
    toManifest({
      service: 'economy',
      demo: true,
      sources: [],
      options: {},
      counts: {},
      codeHash: 'test',
      builtAt: BUILT_AT,
    }),
  );
  server = await startService(service, dir.path);
  mcpUrl = new URL('/mcp', server.base);
});

afterAll(async () => {
  await server?.close();
  await dir?.remove();
});

interface ToolResult {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content: { type: string; text?: string }[];
}

/** The one text item, parsed, must be the structured content. */
function expectSameJson(result: ToolResult): Record<string, unknown> {
  expect(result.isError ?? false).toBe(false);
  expect(result.content).toHaveLength(1);
  expect(result.content[0]!.type).toBe('text');
  expect(JSON.parse(result.content[0]!.text!)).toEqual(result.structuredContent);
  return result.structuredContent!;
}

function expectToolError(result: ToolResult, message: string) {
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  expect(result.content).toEqual([{ type: 'text', text: message }]);
}

async function restDetail(query: string): Promise<string> {
  const res = await fetch(`${server.base}/api/observations?${query}`);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  return ((await res.json()) as { detail: string }).detail;
}

// Both clients must behave the same on every tool call: one table of cases, run once per era.
const toolCases: {
  name: string;
  tool: string;
  args: Record<string, unknown>;
  check(r: ToolResult): void | Promise<void>;
}[] = [
  {
    name: 'search_series returns the REST records with their provenance',
    tool: 'search_series',
    args: { query: 'cpi' },
    check(r) {
      const doc = expectSameJson(r);
      expect(doc.series).toEqual([RECORDS[0]]);
      expect(doc.provenance).toEqual({
        asOf: BUILT_AT.toISOString(),
        dataVersion: server.app.state().build.manifest.data_version,
        series: [{ id: 'CPI_ALL_ITEMS', ...UPSTREAM.CPI_ALL_ITEMS }],
      });
    },
  },
  {
    name: 'get_observations returns the observations object with source URL, upstream ids and asOf',
    tool: 'get_observations',
    args: { series: 'CPI_ALL_ITEMS', from: '2024-02-01' },
    check(r) {
      const doc = expectSameJson(r);
      expect(doc).toMatchObject({
        series: 'CPI_ALL_ITEMS',
        source: 'Statistics Canada',
        cached: true,
        asOf: PULLED_AT,
      });
      expect(doc.observations).toEqual(OBSERVATIONS.CPI_ALL_ITEMS!.slice(1));
      expect(doc.provenance).toMatchObject({
        asOf: PULLED_AT,
        series: [{ id: 'CPI_ALL_ITEMS', ...UPSTREAM.CPI_ALL_ITEMS }],
      });
    },
  },
  {
    name: 'list_categories returns the categories',
    tool: 'list_categories',
    args: {},
    check(r) {
      const doc = expectSameJson(r);
      expect(doc.categories).toEqual(deps.listCategories());
      expect(doc.provenance).toMatchObject({ asOf: BUILT_AT.toISOString(), series: [] });
    },
  },
  {
    name: 'get_changes answers what the changes route answers',
    tool: 'get_changes',
    args: { since: 'b1', notable: 'value_revised', limit: 10 },
    check(r) {
      const doc = expectSameJson(r);
      expect(doc).toMatchObject({ since: 'b1', until: 'b2', total: 1, limit: 10, offset: 0, results: [REVISION] });
      expect(doc.provenance).toMatchObject({ series: [{ id: 'CPI_ALL_ITEMS', ...UPSTREAM.CPI_ALL_ITEMS }] });
    },
  },
  {
    name: 'get_changes since a build the history never had is a tool error naming it',
    tool: 'get_changes',
    args: { since: 'b0' },
    check(r) {
      expectToolError(r, 'no build b0 in the change history');
    },
  },
  {
    name: 'get_series_updates answers what the updates route answers, with each series’ provenance',
    tool: 'get_series_updates',
    args: { since: '2026-01-01T00:00:00Z' },
    check(r) {
      const doc = expectSameJson(r);
      expect(doc.results).toEqual([
        { id: 'CPI_ALL_ITEMS', title: RECORDS[0]!.title, updated_at: PULLED_AT, added: 1, revised: 2 },
      ]);
      expect(doc.provenance).toMatchObject({ series: [{ id: 'CPI_ALL_ITEMS', ...UPSTREAM.CPI_ALL_ITEMS }] });
    },
  },
  {
    name: 'get_series_updates with a bad time is a tool error with the REST message',
    tool: 'get_series_updates',
    args: { since: 'yesterday' },
    check: (r) => expectToolError(r, 'since must match format "date-time"'),
  },
  {
    name: 'an impossible date is a tool error with the REST message',
    tool: 'get_observations',
    args: { series: 'CPI_ALL_ITEMS', from: '2024-02-30' },
    async check(r) {
      const rest = await restDetail('series=CPI_ALL_ITEMS&from=2024-02-30');
      expect(rest).toBe('from must be a real date YYYY-MM-DD');
      expectToolError(r, rest);
    },
  },
  {
    name: 'a missing series is a tool error with the REST message',
    tool: 'get_observations',
    args: {},
    async check(r) {
      expectToolError(r, await restDetail(''));
    },
  },
  {
    name: 'an unknown series (HttpError 404 from deps) is a tool error with the REST message',
    tool: 'get_observations',
    args: { series: 'NOPE' },
    async check(r) {
      expectToolError(r, await restDetail('series=NOPE'));
    },
  },
  {
    name: 'an upstream outage (503) is a tool error with the REST message',
    tool: 'get_observations',
    args: { series: 'DOWN' },
    check: (r) => expectToolError(r, 'Statistics Canada did not answer and nothing is cached'),
  },
  {
    name: 'a blank query is a tool error with the REST message',
    tool: 'search_series',
    args: { query: '  ' },
    check: (r) => expectToolError(r, 'q must not be blank'),
  },
  {
    name: 'arguments of the wrong type or unknown ones are tool errors in the REST wording',
    tool: 'get_observations',
    args: { series: 5, form: '2024-01-01' },
    check: (r) => expectToolError(r, 'form is not an argument of this tool; series must be string'),
  },
  {
    name: 'our own failure is a tool error that does not leak its message',
    tool: 'get_observations',
    args: { series: 'BROKEN' },
    check: (r) => expectToolError(r, 'the server failed to answer this request'),
  },
];

function checkToolList(
  tools: { name: string; inputSchema: Record<string, unknown>; outputSchema?: Record<string, unknown> }[],
) {
  expect(tools.map((t) => t.name).sort()).toEqual([
    'get_changes',
    'get_observations',
    'get_series_updates',
    'list_categories',
    'search_series',
  ]);
  // The real-time arguments, with the REST route's descriptions.
  expect(Object.keys(tools.find((t) => t.name === 'get_observations')!.inputSchema.properties as object)).toEqual(
    expect.arrayContaining(['realtime_start', 'realtime_end', 'output_type', 'vintage']),
  );
  const byName = new Map(tools.map((t) => [t.name, t]));
  expect(byName.get('search_series')!.inputSchema).toMatchObject({
    type: 'object',
    required: ['query'],
    properties: { query: { type: 'string' } },
  });
  expect(byName.get('get_observations')!.inputSchema).toMatchObject({
    type: 'object',
    required: ['series'],
    properties: {
      series: { type: 'string' },
      from: { type: 'string', format: 'date' },
      to: { type: 'string', format: 'date' },
    },
    additionalProperties: false,
  });
  expect(byName.get('list_categories')!.inputSchema).toEqual({
    type: 'object',
    properties: {},
    required: [],
    additionalProperties: false,
  });
  for (const t of tools) {
    expect(t.outputSchema).toMatchObject({ type: 'object' });
    expect((t.outputSchema!.required as string[]).includes('provenance')).toBe(true);
  }
  expect(byName.get('get_observations')!.outputSchema!.required).toEqual([
    'series',
    'observations',
    'source',
    'cached',
    'asOf',
    'provenance',
  ]);
}

describe('a 2025-era client (@modelcontextprotocol/sdk 1.x, initialize handshake)', () => {
  let client: LegacyClient;
  beforeAll(async () => {
    client = new LegacyClient({ name: 'legacy-test', version: '1.0.0' });
    await client.connect(new LegacyTransport(mcpUrl));
  });
  afterAll(() => client?.close());

  it('initializes without a session and learns the server', () => {
    expect(client.getServerVersion()).toMatchObject({
      name: 'shardline-economy',
      version: server.app.state().build.manifest.data_version,
    });
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: false });
    expect(client.getInstructions()).toMatch(/search_series/);
  });

  it('lists the four tools with input and output schemas', async () => {
    const { tools } = await client.listTools();
    checkToolList(tools as Parameters<typeof checkToolList>[0]);
  });

  for (const c of toolCases) {
    it(c.name, async () => {
      await c.check((await client.callTool({ name: c.tool, arguments: c.args })) as ToolResult);
    });
  }
});

describe('a 2026-07-28 client (@modelcontextprotocol/client v2, no handshake)', () => {
  let client: Client;
  const sent: {
    method: string;
    headers: Headers;
    body: { method?: string; params?: { _meta?: Record<string, unknown> } };
  }[] = [];
  beforeAll(async () => {
    client = new Client({ name: 'modern-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
    const recording = async (input: string | URL, init?: RequestInit) => {
      sent.push({
        method: init?.method ?? 'GET',
        headers: new Headers(init?.headers),
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : {},
      });
      return fetch(input, init);
    };
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { fetch: recording }));
  });
  afterAll(() => client?.close());

  it('negotiates the modern era through server/discover, never initialize', async () => {
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getDiscoverResult()?.supportedVersions).toContain(MODERN);
    await client.listTools();
    const methods = sent.filter((s) => s.method === 'POST').map((s) => s.body.method);
    expect(methods).toContain('server/discover');
    expect(methods).not.toContain('initialize');
    for (const s of sent.filter((x) => x.method === 'POST' && x.body.method)) {
      expect(s.headers.get('mcp-protocol-version')).toBe(MODERN);
      expect(s.headers.get('mcp-method')).toBe(s.body.method);
      expect(s.body.params?._meta?.['io.modelcontextprotocol/protocolVersion']).toBe(MODERN);
    }
  });

  it('lists the four tools with input and output schemas', async () => {
    const { tools } = await client.listTools();
    checkToolList(tools as Parameters<typeof checkToolList>[0]);
  });

  for (const c of toolCases) {
    it(c.name, async () => {
      await c.check((await client.callTool({ name: c.tool, arguments: c.args })) as ToolResult);
    });
  }
});

// ---- raw HTTP ---------------------------------------------------------------------------------------------

const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const ACCEPT = 'application/json, text/event-stream';

async function modern(method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const name: Record<string, string> = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
  const res = await fetch(mcpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: ACCEPT,
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...name,
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: META } }),
  });
  return {
    status: res.status,
    headers: res.headers,
    body: (await res.json()) as { result?: Record<string, unknown>; error?: { code: number; message: string } },
  };
}

/** node:http, because fetch will not send a Host of our choosing or a body without Content-Length. */
function raw(options: {
  method?: string;
  headers?: Record<string, string>;
  chunks?: (string | Buffer)[];
}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(mcpUrl, { method: options.method ?? 'POST', headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    for (const c of options.chunks ?? []) req.write(c);
    req.end();
  });
}

describe('raw 2026-07-28 requests', () => {
  it('answers server/discover with the modern version, capabilities and a cache hint', async () => {
    const { status, body } = await modern('server/discover');
    expect(status).toBe(200);
    expect(body.result).toMatchObject({
      supportedVersions: [MODERN],
      capabilities: { tools: {} },
      ttlMs: DAY_MS,
      cacheScope: 'public',
    });
  });

  it('puts the 24 h cache hint on tools/list', async () => {
    const { status, body } = await modern('tools/list');
    expect(status).toBe(200);
    expect(body.result).toMatchObject({ resultType: 'complete', ttlMs: DAY_MS, cacheScope: 'public' });
    expect((body.result!.tools as unknown[]).length).toBe(5);
  });

  it('calls a tool with no initialize before it', async () => {
    const { status, headers, body } = await modern('tools/call', {
      name: 'get_observations',
      arguments: { series: 'FXUSDCAD' },
    });
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    expect(body.result).toMatchObject({
      resultType: 'complete',
      structuredContent: { series: 'FXUSDCAD', provenance: { series: [{ id: 'FXUSDCAD' }] } },
    });
  });

  it('refuses a Mcp-Name that disagrees with the body', async () => {
    const { status, body } = await modern(
      'tools/call',
      { name: 'list_categories', arguments: {} },
      { 'mcp-name': 'search_series' },
    );
    expect(status).toBe(400);
    expect(body.error?.code).toBe(-32020);
  });

  it('answers an unknown method with -32601 and 404', async () => {
    const { status, body } = await modern('economy/nonsense');
    expect(status).toBe(404);
    expect(body.error?.code).toBe(-32601);
  });
});

describe('raw HTTP edges', () => {
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  const headers = { 'content-type': 'application/json', accept: ACCEPT };

  it('refuses a foreign Origin with 403 (DNS rebinding) and lets an allowed one and none through', async () => {
    const evil = await raw({ headers: { ...headers, origin: 'http://evil.example' }, chunks: [initialize] });
    expect(evil.status).toBe(403);
    expect(JSON.parse(evil.body)).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Invalid Origin: evil.example' },
      id: null,
    });
    const local = await raw({ headers: { ...headers, origin: 'http://localhost:5173' }, chunks: [initialize] });
    expect(local.status).toBe(200);
    expect((await raw({ headers, chunks: [initialize] })).status).toBe(200);
  });

  it('refuses a foreign Host with 403', async () => {
    const res = await raw({ headers: { ...headers, host: 'evil.example:80' }, chunks: [initialize] });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: -32000, message: 'Invalid Host: evil.example' } });
  });

  it('answers GET, DELETE and PUT with 405 and Allow: POST', async () => {
    for (const method of ['GET', 'DELETE', 'PUT']) {
      const res = await raw({ method, headers: { accept: 'text/event-stream' } });
      expect(res.status, method).toBe(405);
      expect(res.headers.allow).toBe('POST');
      expect(JSON.parse(res.body)).toMatchObject({ code: 'method_not_allowed' });
    }
  });

  it('answers malformed JSON with the JSON-RPC parse error', async () => {
    const res = await raw({ headers, chunks: ['{"jsonrpc":"2.0","id":1,"method":'] });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
  });

  it('answers a body that is not UTF-8 with the JSON-RPC parse error, before the SDK reads it', async () => {
    const call = Buffer.concat([
      Buffer.from(
        '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search_series","arguments":{"query":"caf',
      ),
      Buffer.from([0xe9]),
      Buffer.from('"}}}'),
    ]);
    const res = await raw({ headers, chunks: [call] });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32700, message: 'Parse error: the body is not valid UTF-8' },
      id: null,
    });
  });

  it('refuses a JSON-RPC batch from 2025-06-18 on, and leaves 2025-03-26 batches to the SDK', async () => {
    const batch = JSON.stringify([{ jsonrpc: '2.0', id: 2, method: 'ping' }]);
    for (const version of ['2025-06-18', '2025-11-25']) {
      const res = await raw({ headers: { ...headers, 'mcp-protocol-version': version }, chunks: [batch] });
      expect(res.status, version).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 }, id: null });
      expect(JSON.parse(res.body).error.message).toContain('batches');
    }
    const old = await raw({ headers: { ...headers, 'mcp-protocol-version': '2025-03-26' }, chunks: [batch] });
    expect(old.status).toBe(200);
    // Malformed JSON that starts like an array is still the parse error.
    const broken = await raw({
      headers: { ...headers, 'mcp-protocol-version': '2025-06-18' },
      chunks: ['[{"jsonrpc":'],
    });
    expect(JSON.parse(broken.body)).toMatchObject({ error: { code: -32700 } });
  });

  it('refuses a batch of more than 10 messages under every version, and answers one of 10 where batches exist', async () => {
    const pings = (n: number) =>
      JSON.stringify(Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'ping' })));
    // No MCP-Protocol-Version is 2025-03-26; 2024-11-05 and 2025-03-26 still have batches.
    const versions: (string | undefined)[] = [undefined, '2024-11-05', '2025-03-26', '2025-06-18', MODERN];
    for (const version of versions) {
      const withVersion = version ? { ...headers, 'mcp-protocol-version': version } : headers;
      const res = await raw({ headers: withVersion, chunks: [pings(11)] });
      expect(res.status, version).toBe(400);
      expect(JSON.parse(res.body), version).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 }, id: null });
    }
    const tooMany = await raw({ headers, chunks: [pings(500)] });
    expect(JSON.parse(tooMany.body).error.message).toContain('at most 10 messages; this one has 500');
    for (const version of [undefined, '2025-03-26']) {
      const withVersion = version ? { ...headers, 'mcp-protocol-version': version } : headers;
      const ten = await raw({ headers: withVersion, chunks: [pings(10)] });
      expect(ten.status, version).toBe(200);
      // Every ping answered: ids 1 to 10, each once, whether as JSON or as events.
      const ids = [...ten.body.matchAll(/"id":(\d+)/g)].map((m) => Number(m[1])).sort((a, b) => a - b);
      expect(ids, version).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    }
  });

  it('answers a body that is not JSON-typed with 415', async () => {
    const res = await raw({ headers: { ...headers, 'content-type': 'text/plain' }, chunks: [initialize] });
    expect(res.status).toBe(415);
  });

  it('refuses a body over 64 KB with a 413 problem, announced or streamed', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(70_000) } });
    const announced = await fetch(mcpUrl, { method: 'POST', headers, body: big });
    expect(announced.status).toBe(413);
    expect(announced.headers.get('content-type')).toBe('application/problem+json');
    expect(await announced.json()).toMatchObject({ status: 413, code: 'payload_too_large' });
    // Chunked: no Content-Length, so the limit is found while reading.
    const streamed = await raw({
      headers: { ...headers, 'transfer-encoding': 'chunked' },
      chunks: [big.slice(0, 40_000), big.slice(40_000)],
    });
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body)).toMatchObject({ code: 'payload_too_large' });
  });
});
