// The facilities MCP endpoint (POST /api/v1/mcp) on a real socket, over two fixture builds (the second drops a
// facility, so the change feed has something to say), driven by real clients of both protocol eras: the
// 2025-era `@modelcontextprotocol/sdk` Client (initialize, then tools/*) and the v2 `@modelcontextprotocol/client`
// pinned to 2026-07-28 (server/discover, no initialize). Every tool's answer is compared with its REST route's
// JSON, every refusal with the REST route's problem detail; raw HTTP covers Host, Origin, body size and methods.
import { request as httpRequest } from 'node:http';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Manifest } from '../../contract/core/manifest.ts';
import { paramSchemas } from '../../contract/core/schemas.ts';
import { buildFacilities } from '../../pipeline/facilities/index.ts';
import { toProvenance } from '../../server/facilities/mcp.ts';
import { facilities } from '../../server/facilities/routes.ts';
import { SERVICES } from '../../server/services.ts';
import { FIXTURE_YEAR, writeFacilitiesFixture } from '../fixtures/facilities.ts';
import { buildFixture } from '../helpers/facilities.ts';
import { startService } from '../helpers/server.ts';

// biome-ignore lint/suspicious/noExplicitAny: results are untyped JSON, read field by field in assertions
type Json = Record<string, any>;

const MODERN = '2026-07-28';
const TOOLS = ['get_changes', 'get_facility', 'get_stats', 'search_facilities'];

let built: Awaited<ReturnType<typeof buildFixture>>;
let srv: Awaited<ReturnType<typeof startService>>;
let mcpUrl: URL;
let first = '';
let manifest: Manifest;

beforeAll(async () => {
  built = await buildFixture();
  first = built.summary.data_version;
  // The next edition: Greenhouse & Co (Ontario 2005) is gone.
  await rm(built.input, { recursive: true });
  await writeFacilitiesFixture(built.input, { dropOntario: [2005] });
  await buildFacilities({
    input: built.input,
    outDir: built.outDir,
    year: FIXTURE_YEAR,
    now: () => new Date('2026-02-02T00:00:00.000Z'),
  });
  srv = await startService(facilities, built.outDir);
  mcpUrl = new URL('/api/v1/mcp', srv.base);
  manifest = (await rest('/manifest.json')) as Manifest;
});
afterAll(async () => {
  await srv?.close();
  await built?.root.remove();
});

async function rest(path: string): Promise<Json> {
  const res = await fetch(srv.base + path);
  expect(res.status, path).toBe(200);
  return (await res.json()) as Json;
}

/** The problem detail of a refused REST request. */
async function restDetail(path: string, status: number): Promise<string> {
  const res = await fetch(srv.base + path);
  expect(res.status, path).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  return ((await res.json()) as { detail: string }).detail;
}

interface ToolResult {
  isError?: boolean;
  structuredContent?: Json;
  content: { type: string; text?: string }[];
}

/** The result's document without its provenance; its one text item must be its structured content. */
function documentOf(result: ToolResult): Json {
  expect(result.isError ?? false, result.content[0]?.text).toBe(false);
  expect(result.content).toHaveLength(1);
  expect(JSON.parse(result.content[0]!.text!)).toEqual(result.structuredContent);
  const { provenance, ...doc } = result.structuredContent!;
  expect(provenance).toEqual({
    data_version: manifest.data_version,
    built_at: manifest.built_at,
    demo: false,
    sources: expect.any(Array),
  });
  // Each source the build read, once, with its licence and attribution.
  expect(new Set(provenance.sources.map((s: Json) => s.url))).toEqual(new Set(manifest.sources.map((s) => s.url)));
  expect(provenance.sources).toHaveLength(new Set(manifest.sources.map((s) => s.url)).size);
  for (const s of provenance.sources as Json[]) expect(manifest.sources).toContainEqual(expect.objectContaining(s));
  return doc;
}

function expectToolError(result: ToolResult, message: string) {
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  expect(result.content).toEqual([{ type: 'text', text: message }]);
}

// Both clients must get the same answer to every call: one table, run once per era.
const cases: { name: string; tool: string; args: Json; check(r: ToolResult): Promise<void> }[] = [
  {
    name: 'search_facilities without arguments answers GET /api/v1/search',
    tool: 'search_facilities',
    args: {},
    async check(r) {
      const doc = documentOf(r);
      expect(doc.results.length).toBeGreaterThan(0);
      expect(doc).toEqual(await rest('/api/v1/search'));
    },
  },
  {
    name: 'search_facilities with words, facets and a page answers what the route does',
    tool: 'search_facilities',
    args: { q: 'cement', facets: 'tier,program,city', limit: 2, offset: 1 },
    async check(r) {
      const doc = documentOf(r);
      expect(doc.results).toHaveLength(2);
      expect(Object.keys(doc.facets)).toEqual(['tier', 'program', 'city']);
      expect(doc).toEqual(await rest('/api/v1/search?q=cement&facets=tier,program,city&limit=2&offset=1'));
    },
  },
  {
    name: 'search_facilities with year, emissions bounds as numbers and a sort answers what the route does',
    tool: 'search_facilities',
    args: { year: FIXTURE_YEAR, min_emissions: 12000.5, max_emissions: 1000000, sort: 'name', program: 'both' },
    async check(r) {
      const doc = documentOf(r);
      expect(doc.results.length).toBeGreaterThan(0);
      expect(doc).toEqual(
        await rest(
          `/api/v1/search?year=${FIXTURE_YEAR}&min_emissions=12000.5&max_emissions=1000000&sort=name&program=both`,
        ),
      );
    },
  },
  {
    name: 'bad search arguments are a tool error with the REST 400 detail',
    tool: 'search_facilities',
    args: { limit: 0, tier: 'nope', q: '***', min_emissions: 5, max_emissions: 1 },
    async check(r) {
      const detail = await restDetail('/api/v1/search?limit=0&tier=nope&q=***&min_emissions=5&max_emissions=1', 400);
      expect(detail).toMatch(
        /^limit must be >= 1; min_emissions .*; q must hold a letter or digit.*; tier must be one of/,
      );
      expectToolError(r, detail);
    },
  },
  {
    name: 'a year the build does not have is a tool error with the REST 400 detail',
    tool: 'search_facilities',
    args: { year: 1999 },
    async check(r) {
      expectToolError(r, await restDetail('/api/v1/search?year=1999', 400));
    },
  },
  {
    name: 'arguments of the wrong JSON type, and format or unknown ones, are tool errors naming each',
    tool: 'search_facilities',
    args: { limit: '5', min_emissions: 'lots', format: 'csv', colour: 'red' },
    async check(r) {
      expectToolError(
        r,
        'colour is not an argument of this tool; format is not an argument of this tool; limit must be integer; min_emissions must be number',
      );
    },
  },
  {
    name: 'get_facility answers GET /api/v1/facility/{id}',
    tool: 'get_facility',
    args: { id: 'ONF-000001' },
    async check(r) {
      const doc = documentOf(r);
      expect(doc.spine_id).toBe('ONF-000001');
      expect(doc).toEqual(await rest('/api/v1/facility/ONF-000001'));
    },
  },
  {
    name: 'an unknown facility is a tool error with the REST 404 detail',
    tool: 'get_facility',
    args: { id: 'ONF-999999' },
    async check(r) {
      expectToolError(r, await restDetail('/api/v1/facility/ONF-999999', 404));
    },
  },
  {
    name: 'a malformed facility id is a tool error with the REST 404 detail',
    tool: 'get_facility',
    args: { id: 'onf-1' },
    async check(r) {
      expectToolError(r, await restDetail('/api/v1/facility/onf-1', 404));
    },
  },
  {
    name: 'get_facility without an id is a tool error naming it',
    tool: 'get_facility',
    args: {},
    async check(r) {
      expectToolError(r, 'id is required');
    },
  },
  {
    name: 'get_stats answers GET /api/v1/stats',
    tool: 'get_stats',
    args: {},
    async check(r) {
      const doc = documentOf(r);
      expect(doc.year).toBe(FIXTURE_YEAR);
      expect(doc).toEqual(await rest('/api/v1/stats'));
    },
  },
  {
    name: 'get_changes answers GET /api/v1/changes: the facility the second build dropped',
    tool: 'get_changes',
    args: { since: '', limit: 10 },
    async check(r) {
      // `since` is the first build's version, filled in when the case runs.
      const doc = documentOf(r);
      expect(doc.results).toContainEqual(expect.objectContaining({ kind: 'removed', name: 'Greenhouse & Co' }));
      expect(doc).toEqual(await rest(`/api/v1/changes?since=${first}&limit=10`));
    },
  },
  {
    name: 'get_changes since a build the history never had is a tool error with the REST 404 detail',
    tool: 'get_changes',
    args: { since: 'abc123' },
    async check(r) {
      expectToolError(r, await restDetail('/api/v1/changes?since=abc123', 404));
    },
  },
  {
    name: 'a bad get_changes limit is a tool error with the REST 400 detail',
    tool: 'get_changes',
    args: { limit: 5000 },
    async check(r) {
      expectToolError(r, await restDetail('/api/v1/changes?limit=5000', 400));
    },
  },
];

/** The case's arguments, with the first build's version where it asks for one. */
const argsOf = (c: (typeof cases)[number]) => (c.args.since === '' ? { ...c.args, since: first } : c.args);

function checkToolList(tools: Json[]) {
  expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
  const byName = new Map(tools.map((t) => [t.name, t]));
  // search_facilities takes the search route's parameters, read from its schema, but format; no defaults.
  const { properties } = paramSchemas().schema('facilities/search-query') as { properties: Json };
  const search = byName.get('search_facilities')!.inputSchema;
  expect(Object.keys(search.properties).sort()).toEqual(
    Object.keys(properties)
      .filter((n) => n !== 'format')
      .sort(),
  );
  expect(search.properties.sort).toEqual({ ...properties.sort, default: undefined });
  expect(search).toMatchObject({ type: 'object', additionalProperties: false });
  expect(byName.get('get_facility')!.inputSchema).toMatchObject({ required: ['id'], properties: { id: {} } });
  expect(Object.keys(byName.get('get_changes')!.inputSchema.properties).sort()).toEqual([
    'id',
    'limit',
    'notable',
    'offset',
    'since',
  ]);
  for (const t of tools) {
    expect(t.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(t.outputSchema.required).toContain('provenance');
    // Self-contained: a 2025-era client compiles it with nothing to resolve.
    expect(JSON.stringify(t.outputSchema)).not.toMatch(/"\$ref"|"\$defs"|"\$id"|"\$schema"|"prefixItems"/);
  }
  expect(byName.get('get_facility')!.outputSchema.required).toEqual(
    expect.arrayContaining(['spine_id', 'totals', 'coordinates', 'identifiers', 'provenance']),
  );
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
      name: 'shardline-facilities',
      version: manifest.data_version,
    });
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: false });
    expect(client.getInstructions()).toMatch(/search_facilities/);
  });

  it('lists the four tools with their input and output schemas', async () => {
    checkToolList((await client.listTools()).tools as Json[]);
  });

  for (const c of cases)
    it(c.name, async () => {
      await c.check((await client.callTool({ name: c.tool, arguments: argsOf(c) })) as ToolResult);
    });
});

describe('a 2026-07-28 client (@modelcontextprotocol/client v2, no handshake)', () => {
  let client: Client;
  const methods: string[] = [];
  beforeAll(async () => {
    client = new Client({ name: 'modern-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
    const recording = async (input: string | URL, init?: RequestInit) => {
      if (typeof init?.body === 'string') methods.push((JSON.parse(init.body) as { method: string }).method);
      return fetch(input, init);
    };
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { fetch: recording }));
  });
  afterAll(() => client?.close());

  it('negotiates the modern era through server/discover, never initialize', async () => {
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getDiscoverResult()?.supportedVersions).toContain(MODERN);
    checkToolList((await client.listTools()).tools as Json[]);
    expect(methods).toContain('server/discover');
    expect(methods).not.toContain('initialize');
  });

  for (const c of cases)
    it(c.name, async () => {
      await c.check((await client.callTool({ name: c.tool, arguments: argsOf(c) })) as ToolResult);
    });
});

// ---- raw HTTP ---------------------------------------------------------------------------------------------

const ACCEPT = 'application/json, text/event-stream';
const JSON_HEADERS = { 'content-type': 'application/json', accept: ACCEPT };
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** node:http, because fetch will not send a Host of our choosing. */
function raw(options: { method?: string; headers?: Record<string, string>; body?: string }) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>(
    (resolve, reject) => {
      const req = httpRequest(mcpUrl, { method: options.method ?? 'POST', headers: options.headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end(options.body);
    },
  );
}

describe('raw HTTP', () => {
  it('refuses a foreign Host with 403 (DNS rebinding)', async () => {
    const res = await raw({ headers: { ...JSON_HEADERS, host: 'evil.example:8081' }, body: INITIALIZE });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: -32000, message: 'Invalid Host: evil.example' } });
  });

  it('answers the public host MCP_ALLOWED_HOSTS names, as the server starts the service', async () => {
    const named = await startService(
      SERVICES.facilities!.create({ stateDir: built.outDir, env: { MCP_ALLOWED_HOSTS: 'data.example' } }),
      built.outDir,
    );
    try {
      const url = new URL('/api/v1/mcp', named.base);
      const post = (host: string) =>
        new Promise<number>((resolve, reject) => {
          const req = httpRequest(url, { method: 'POST', headers: { ...JSON_HEADERS, host } }, (res) => {
            res.resume();
            resolve(res.statusCode!);
          });
          req.on('error', reject);
          req.end(INITIALIZE);
        });
      expect(await post('data.example:443')).toBe(200);
      expect(await post('127.0.0.1')).toBe(403);
    } finally {
      await named.close();
    }
  });

  it('refuses a foreign Origin with 403, and lets a local one and none through', async () => {
    const evil = await raw({ headers: { ...JSON_HEADERS, origin: 'https://evil.example' }, body: INITIALIZE });
    expect(evil.status).toBe(403);
    expect(JSON.parse(evil.body)).toMatchObject({ error: { code: -32000, message: 'Invalid Origin: evil.example' } });
    const local = await raw({ headers: { ...JSON_HEADERS, origin: 'http://localhost:5173' }, body: INITIALIZE });
    expect(local.status).toBe(200);
    expect((await raw({ headers: JSON_HEADERS, body: INITIALIZE })).status).toBe(200);
  });

  it('puts the routes’ 300 s cache hint on the 2026-07-28 tools/list', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const res = await fetch(mcpUrl, {
      method: 'POST',
      headers: { ...JSON_HEADERS, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: meta } }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-data-version')).toBe(manifest.data_version);
    const { result } = (await res.json()) as { result: Json };
    expect(result).toMatchObject({ ttlMs: 300_000, cacheScope: 'public' });
    expect(result.tools.map((t: Json) => t.name).sort()).toEqual(TOOLS);
  });

  it('refuses a body over 64 KB with a 413 problem', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(70_000) } });
    const res = await fetch(mcpUrl, { method: 'POST', headers: JSON_HEADERS, body: big });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ status: 413, code: 'payload_too_large' });
  });

  it('answers GET with 405 and Allow: POST', async () => {
    const res = await raw({ method: 'GET', headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
  });
});

describe('provenance', () => {
  it('names each source once and, on a demo build, says the data are generated', () => {
    const twice = { ...manifest, demo: true, sources: [...manifest.sources, ...manifest.sources] };
    const p = toProvenance(twice);
    expect(p).toMatchObject({
      data_version: manifest.data_version,
      demo: true,
      note: expect.stringMatching(/^demo build/),
    });
    expect((p.sources as Json[]).map((s) => s.url)).toEqual([...new Set(manifest.sources.map((s) => s.url))]);
    expect(toProvenance(manifest)).not.toHaveProperty('note');
  });
});
