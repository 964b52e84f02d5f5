// The economy service as npm start runs it (server/economy/routes.ts): a demo build, the built-in demo
// upstream behind the 24-hour cache, vintages, and the MCP tools answering the same data as REST.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEconomyService } from '../../server/economy/routes.ts';
import { waitFor } from '../helpers/wait.ts';
import { buildEconomyFixture, ECONOMY_CLOCK } from '../helpers/economy.ts';
import { startServerProcess } from '../helpers/process.ts';
import { startService } from '../helpers/server.ts';
import { startFakeUpstream } from '../helpers/upstream.ts';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are untyped JSON, read field by field in assertions
type Json = Record<string, any>;

let built: Awaited<ReturnType<typeof buildEconomyFixture>>;
let srv: Awaited<ReturnType<typeof startService>>;
const get = async (path: string): Promise<Json> => {
  const res = await fetch(srv.base + path);
  expect(res.status, path).toBe(200);
  return (await res.json()) as Json;
};

beforeAll(async () => {
  built = await buildEconomyFixture({ demo: true });
  srv = await startService(
    createEconomyService({ stateDir: join(built.root.path, 'state'), env: {}, now: ECONOMY_CLOCK }),
    built.outDir,
  );
});
afterAll(async () => {
  await srv.close();
  await built.root.remove();
});

describe('economy service on a demo build', () => {
  it('pulls observations once from the demo upstream, then serves them cached, labelled demo', async () => {
    const first = await get('/api/observations?series=CPI_ALL_ITEMS&from=2020-01-01');
    expect(first.source).toMatch(/\(demo\)$/);
    expect(first.cached).toBe(false);
    expect(first.observations.length).toBeGreaterThan(12);
    expect(first.observations.every((o: Json) => o.date >= '2020-01-01' && typeof o.value === 'number')).toBe(true);
    const again = await get('/api/observations?series=CPI_ALL_ITEMS&from=2020-01-01');
    expect(again).toMatchObject({ cached: true, asOf: first.asOf });
    expect(again.observations).toEqual(first.observations);
  });

  it('lists the day of the pull as a vintage and serves it', async () => {
    await get('/api/observations?series=FX_USD_CAD');
    const v = await get('/api/vintages?series=FX_USD_CAD');
    expect(v).toEqual({ series: 'FX_USD_CAD', snapshots: ['2026-11-22'] });
    const snap = await get('/api/observations?series=FX_USD_CAD&vintage=2026-11-22');
    expect(snap.observations.length).toBeGreaterThan(100);
  });

  it('answers bad parameters with 400 and unknown series with 404', async () => {
    expect((await fetch(`${srv.base}/api/observations?series=CPI_ALL_ITEMS&from=2024-02-30`)).status).toBe(400);
    expect((await fetch(`${srv.base}/api/observations?series=NOPE`)).status).toBe(404);
    expect((await fetch(`${srv.base}/api/observations`)).status).toBe(400);
  });

  it('answers the MCP tools with the same data as REST (2026-07-28 request, no handshake)', async () => {
    const res = await fetch(`${srv.base}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'get_observations',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'get_observations',
          arguments: { series: 'CPI_ALL_ITEMS', from: '2020-01-01' },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    const rest = await get('/api/observations?series=CPI_ALL_ITEMS&from=2020-01-01');
    expect(body.result.isError).toBeFalsy();
    expect(body.result.structuredContent.observations).toEqual(rest.observations);
    expect(body.result.content).toHaveLength(1);
    expect(body.result.content[0].text).toContain('provenance');
    // The values came from the demo upstream, and the provenance says so, as `source` does.
    const provenance = JSON.parse(body.result.content[0].text.slice(body.result.content[0].text.indexOf('{')))
      .provenance as Json;
    expect(provenance.series[0].sourceUrl).toBe('https://www150.statcan.gc.ca/t1/tbl1/en/tv.action?pid=1810000401');
    expect(provenance.series[0].note).toMatch(/^demo build: generated values/);
  });

  const callTool = async (name: string, args: Json) => {
    const res = await fetch(`${srv.base}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': name,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: {
          name,
          arguments: args,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    return ((await res.json()) as Json).result as Json;
  };

  it('gives an agent the newest 1,000 observations of a long series, says it truncated, and pages as REST does', async () => {
    const rest = await get('/api/observations?series=FX_USD_CAD');
    expect(rest.count).toBeGreaterThan(1000);
    const capped = await callTool('get_observations', { series: 'FX_USD_CAD' });
    expect(capped.isError).toBeFalsy();
    const doc = capped.structuredContent as Json;
    expect(doc).toMatchObject({ truncated: true, limit: 1000, offset: rest.count - 1000, count: rest.count });
    expect(doc.observations).toEqual(rest.observations.slice(-1000));
    // With a limit, the agent's page and REST's are the same; integers are taken as JSON numbers.
    const page = await callTool('get_observations', {
      series: 'FX_USD_CAD',
      units: 'pc1',
      sort_order: 'desc',
      limit: 5,
    });
    const restPage = await get('/api/observations?series=FX_USD_CAD&units=pc1&sort_order=desc&limit=5');
    expect((page.structuredContent as Json).observations).toEqual(restPage.observations);
    expect((page.structuredContent as Json).truncated).toBeUndefined();
    // A short series is not truncated.
    const short = (await callTool('get_observations', { series: 'CPI_ALL_ITEMS', frequency: 'a' }))
      .structuredContent as Json;
    expect(short.truncated).toBeUndefined();
    expect(short.frequency).toBe('a');
    const badType = await callTool('get_observations', { series: 'FX_USD_CAD', limit: '5' });
    expect(badType.isError).toBe(true);
    expect(badType.content[0].text).toBe('limit must be integer');
    const badValue = await callTool('get_observations', { series: 'FX_USD_CAD', units: 'pct' });
    const restBad = (await (await fetch(`${srv.base}/api/observations?series=FX_USD_CAD&units=pct`)).json()) as Json;
    expect(badValue.isError).toBe(true);
    expect(badValue.content[0].text).toBe(restBad.detail);
  });

  it('answers get_observations as known on a day and get_series_updates as REST does', async () => {
    await get('/api/observations?series=CPI_ALL_ITEMS');
    const day = (await get('/api/vintages?series=CPI_ALL_ITEMS')).snapshots.at(-1) as string;
    const args = { series: 'CPI_ALL_ITEMS', realtime_end: day, output_type: 1, limit: 3, sort_order: 'desc' };
    const known = await callTool('get_observations', args);
    expect(known.isError).toBeFalsy();
    const rest = await get(
      `/api/observations?series=CPI_ALL_ITEMS&realtime_end=${day}&output_type=1&limit=3&sort_order=desc`,
    );
    const { provenance: _, ...doc } = known.structuredContent as Json;
    expect(doc).toEqual(rest);
    expect(rest.observations[0]).toMatchObject({ realtime_start: day, realtime_end: day });
    const before = await callTool('get_observations', { series: 'CPI_ALL_ITEMS', realtime_end: '2000-01-01' });
    expect(before.isError).toBe(true);
    expect(before.content[0].text).toContain(`the archive of CPI_ALL_ITEMS starts on`);

    const updates = await callTool('get_series_updates', { since: '2000-01-01T00:00:00Z' });
    const { provenance, ...found } = updates.structuredContent as Json;
    expect(found).toEqual(await get('/api/updates?since=2000-01-01T00:00:00Z'));
    expect(found.results.map((u: Json) => u.id)).toContain('CPI_ALL_ITEMS');
    expect(provenance.series.map((p: Json) => p.id)).toEqual(found.results.map((u: Json) => u.id));
  });
});

describe('economy server process on SIGTERM', () => {
  it('answers a request waiting on a hanging upstream before it exits, within the drain window', async () => {
    const real = await buildEconomyFixture({ demo: false });
    const upstream = await startFakeUpstream(() => {}); // never answers
    const server = await startServerProcess('economy', {
      dataDir: real.outDir,
      stateDir: join(real.root.path, 'state'),
      env: { STATCAN_WDS_URL: `${upstream.base}/wds`, BOC_VALET_URL: `${upstream.base}/valet` },
    });
    try {
      const started = Date.now();
      const waiting = fetch(`${server.base}/api/observations?series=CPI_ALL_ITEMS`);
      await waitFor('the pull reached the upstream', () => upstream.requests.length > 0);
      server.child.kill('SIGTERM');
      const res = await waiting;
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/shutting down/);
      expect(await server.exited).toBe(0);
      expect(Date.now() - started).toBeLessThan(8_000);
    } finally {
      await server.stop();
      await upstream.close();
      await real.root.remove();
    }
  }, 30_000);
});
