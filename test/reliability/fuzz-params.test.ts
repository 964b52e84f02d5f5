// Long values of every kind of character (test/helpers/hostile-values.ts) in every parameter of every route
// of the three services' real processes: each query and path parameter their OpenAPI documents list, and
// each argument of each tool (carriers' {"tool","args"} call, economy's MCP tools/call). 16 KB values, and
// values just under the 4 KiB query limit so that they reach the schema and the routes. Every answer is a
// normal one, a 400 or a 414; errors are problem+json (JSON-RPC's own errors for MCP); never a 5xx, and
// the processes are still up at the end.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../server/core/store.ts';
import { MAX_QUERY_BYTES } from '../../server/core/params.ts';
import { readOnlyCarriersFixture } from '../helpers/carriers.ts';
import { readOnlyEconomyFixture } from '../helpers/economy.ts';
import { readOnlyFixture } from '../helpers/facilities.ts';
import {
  CHAR_CLASSES,
  parameterTargets,
  toHostileText,
  toHostileValue,
  type ParameterTarget,
} from '../helpers/hostile-values.ts';
import { startServerProcess, type ServerProcess } from '../helpers/process.ts';
import { rawRequest, toRequest, type RawResponse } from '../helpers/raw-http.ts';

/** A value the route answers normally, for each path and required parameter (and tool argument). */
const ORDINARY: Record<string, Record<string, string>> = {
  facilities: { id: 'ONF-000001', type: 'invalid-parameter' },
  carriers: { carrier_id: '1000001', q: 'alpha', type: 'invalid-parameter', query: 'alpha', id: 'wl_0000000000000000' },
  economy: {
    id: 'CPI_ALL_ITEMS',
    series: 'CPI_ALL_ITEMS',
    from: '2026-01-01',
    to: '2026-01-02',
    type: 'invalid-parameter',
    query: 'cpi',
    // FRED's parameters under /fred (and ALFRED's on /api/observations): values each path takes.
    series_id: 'CPI_ALL_ITEMS',
    search_text: 'cpi',
    file_type: 'json',
    observation_start: '2020-01-01',
    observation_end: '2020-12-31',
    realtime_start: new Date().toISOString().slice(0, 10),
    realtime_end: '9999-12-31',
    vintage_dates: new Date().toISOString().slice(0, 10),
    units: 'lin',
    frequency: 'a',
    aggregation_method: 'avg',
    sort_order: 'asc',
    order_by: 'series_id',
    output_type: '1',
    start_time: '202601010000',
    end_time: '202612312359',
    include_missing: 'true',
  },
};
const OPENAPI: Record<string, string> = {
  facilities: '/api/v1/openapi.json',
  carriers: '/api/openapi',
  economy: '/api/openapi',
};
/** Statuses a route gives to a request it reads: a page, a bad parameter, an unknown id or a too-long query. */
const NORMAL = new Set([200, 400, 404, 414]);
const SIZES = [16_000, MAX_QUERY_BYTES - 200];
const CONCURRENCY = 4;

interface Service {
  name: string;
  server: ProcessLike;
  headers: [string, string][];
  remove(): Promise<void>;
}
type ProcessLike = Pick<ServerProcess, 'port' | 'base' | 'stop' | 'child' | 'stderr'>;

const services: Service[] = [];

beforeAll(async () => {
  const [fa, ca, ec] = await Promise.all([readOnlyFixture(), readOnlyCarriersFixture(), readOnlyEconomyFixture()]);
  const store = openSqliteStore(ca.stateDir);
  const premium = await store.createKey('premium', 'fuzz-params premium', new Date());
  await store.close();
  const economyState = join(ec.root.path, 'state');
  const facilitiesState = join(fa.root.path, 'state');
  const [f, c, e] = await Promise.all([
    startServerProcess('facilities', { dataDir: fa.outDir, stateDir: facilitiesState }),
    startServerProcess('carriers', { dataDir: ca.outDir, stateDir: ca.stateDir }),
    startServerProcess('economy', { dataDir: ec.outDir, stateDir: economyState }),
  ]);
  services.push(
    { name: 'facilities', server: f, headers: [], remove: () => fa.root.remove() },
    {
      name: 'carriers',
      server: c,
      headers: [['Authorization', `Bearer ${premium.key}`]],
      remove: () => ca.root.remove(),
    },
    { name: 'economy', server: e, headers: [], remove: () => ec.root.remove() },
  );
}, 120_000);

afterAll(async () => {
  for (const s of services) {
    await s.server.stop();
    await s.remove();
  }
});

interface Sent {
  label: string;
  response?: RawResponse;
  error?: string;
}

async function inParallel<T, R>(items: readonly T[], run: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await run(items[i]!);
      }
    }),
  );
  return out;
}

/** What is wrong with an answer, or undefined. `jsonRpc`: a 200 may carry a JSON-RPC error. */
function faultOf(sent: Sent): string | undefined {
  const r = sent.response;
  if (!r) return `${sent.label}: no answer (${sent.error})`;
  if (!NORMAL.has(r.status)) return `${sent.label}: status ${r.status}`;
  // /fred answers FRED's own error document, XML or JSON, with the status in it; a request target over the
  // limit is refused by the app before any route (414, a problem).
  if (r.status >= 400 && r.status !== 414 && sent.label.includes(' /fred/')) {
    const body = r.body.toString('utf8');
    const fredError =
      body.includes(`<error code="${r.status}" message="`) || body.includes(`"error_code":${r.status},`);
    return fredError ? undefined : `${sent.label}: ${r.status} without FRED's error document`;
  }
  if (r.status >= 400) {
    if (r.headers['content-type'] !== 'application/problem+json')
      return `${sent.label}: ${r.status} as ${r.headers['content-type']}`;
    const body = JSON.parse(r.body.toString('utf8')) as { status?: number; code?: string };
    if (body.status !== r.status || typeof body.code !== 'string') return `${sent.label}: not a problem body`;
  }
  return undefined;
}

async function openApiOf(s: Service): Promise<Parameters<typeof parameterTargets>[0]> {
  const res = await fetch(`${s.server.base}${OPENAPI[s.name]}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Parameters<typeof parameterTargets>[0];
}

describe('16 KB values of every kind in every parameter of every route', () => {
  it.each(['facilities', 'carriers', 'economy'])(
    '%s: a normal answer, a 400 or a 414, never a 5xx',
    async (name) => {
      const s = services.find((x) => x.name === name)!;
      const { targets, missing } = parameterTargets(await openApiOf(s), ORDINARY[name]!);
      // A new route's path or required parameter needs an ordinary value above.
      expect(missing).toEqual([]);
      expect(targets.filter((t) => t.in === 'query').length).toBeGreaterThan(0);
      expect(targets.filter((t) => t.in === 'path').length).toBeGreaterThan(0);

      // Each target with ordinary values answers normally to begin with.
      const plain = await inParallel(targets, (t) => send(s, t, ORDINARY[name]![t.parameter] ?? '1'));
      expect(plain.map(faultOf).filter(Boolean)).toEqual([]);

      const cases = targets.flatMap((t) =>
        CHAR_CLASSES.flatMap((cls) => SIZES.map((size) => ({ t, value: toHostileValue(cls, size), cls: cls.name }))),
      );
      const sent = await inParallel(cases, (c) => send(s, c.t, c.value, `${c.cls}, ${c.value.length} bytes`));
      const statuses = new Set(sent.map((x) => x.response?.status));
      expect(sent.map(faultOf).filter(Boolean).slice(0, 20)).toEqual([]);
      // Both the 414 and the schema's 400 were reached.
      expect(statuses.has(414) && statuses.has(400)).toBe(true);
      expect(s.server.child.exitCode, s.server.stderr().slice(0, 2000)).toBeNull();
      expect((await fetch(`${s.server.base}/healthz`)).status).toBe(200);
    },
    180_000,
  );

  it('carriers: every argument of every {"tool","args"} tool, 16 KB of each kind: a 200 or a 400 problem', async () => {
    const s = services.find((x) => x.name === 'carriers')!;
    const listing = (await (await fetch(`${s.server.base}/api/mcp`)).json()) as {
      tools: { name: string; input_schema: { properties: Record<string, unknown>; required?: string[] } }[];
    };
    expect(listing.tools.length).toBeGreaterThan(0);
    const cases = listing.tools.flatMap((tool) =>
      Object.keys(tool.input_schema.properties).flatMap((arg) =>
        CHAR_CLASSES.map((cls) => {
          const args: Record<string, string> = {};
          for (const r of tool.input_schema.required ?? []) args[r] = ORDINARY.carriers![r] ?? '1';
          args[arg] = toHostileText(cls, 16_000);
          return { label: `${tool.name} ${arg} ${cls.name}`, body: JSON.stringify({ tool: tool.name, args }) };
        }),
      ),
    );
    const sent = await inParallel(cases, async (c) => {
      const headers: [string, string][] = [...s.headers, ['Content-Type', 'application/json']];
      const { response, error } = await rawRequest(s.server.port, toRequest('POST', '/api/mcp', headers, c.body));
      return { label: c.label, response, error };
    });
    expect(sent.map(faultOf).filter(Boolean).slice(0, 20)).toEqual([]);
    expect(sent.some((x) => x.response?.status === 400)).toBe(true);
  });

  it('economy: every argument of every MCP tool, 16 KB of each kind: an answer, never a 5xx', async () => {
    const s = services.find((x) => x.name === 'economy')!;
    const list = await mcp(s, 'tools/list', {});
    const tools = (list.body as { result: { tools: { name: string; inputSchema: ToolSchema }[] } }).result.tools;
    expect(tools.length).toBeGreaterThan(0);
    const cases = tools.flatMap((tool) =>
      Object.keys(tool.inputSchema.properties ?? {}).flatMap((arg) =>
        CHAR_CLASSES.map((cls) => {
          const args: Record<string, string> = {};
          for (const r of tool.inputSchema.required ?? []) args[r] = ORDINARY.economy![r] ?? '1';
          args[arg] = toHostileText(cls, 16_000);
          return { label: `${tool.name} ${arg} ${cls.name}`, name: tool.name, args };
        }),
      ),
    );
    expect(cases.length).toBeGreaterThan(0);
    const sent = await inParallel(cases, (c) => mcp(s, 'tools/call', { name: c.name, arguments: c.args }));
    const faults = sent.flatMap((r, i) => {
      const label = cases[i]!.label;
      if (r.status !== 200 && r.status !== 400) return [`${label}: status ${r.status}`];
      if (r.status === 400 && r.type !== 'application/problem+json') return [`${label}: 400 as ${r.type}`];
      const body = r.body as { result?: { isError?: boolean }; error?: { code: number } };
      if (r.status === 200 && body.result === undefined && body.error === undefined) return [`${label}: no result`];
      return [];
    });
    expect(faults.slice(0, 20)).toEqual([]);
    // The long arguments were refused as tool errors, not answered.
    expect(sent.some((r) => (r.body as { result?: { isError?: boolean } }).result?.isError === true)).toBe(true);
  });
});

interface ToolSchema {
  properties?: Record<string, unknown>;
  required?: string[];
}

async function send(s: Service, t: ParameterTarget, value: string, what = 'ordinary'): Promise<Sent> {
  const label = `${s.name} ${t.method} ${t.path} ${t.parameter} (${what})`;
  const { response, error } = await rawRequest(s.server.port, toRequest(t.method, t.target(value), s.headers));
  return { label, response, error };
}

const MCP_VERSION = '2026-07-28';

async function mcp(
  s: Service,
  method: string,
  params: Record<string, unknown>,
): Promise<{ status: number; type: string; body: unknown }> {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': MCP_VERSION,
    'io.modelcontextprotocol/clientInfo': { name: 'fuzz-params', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const res = await fetch(`${s.server.base}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MCP_VERSION,
      'mcp-method': method,
      ...(typeof params.name === 'string' && { 'mcp-name': params.name }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } }),
  });
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: await res.json() };
}
