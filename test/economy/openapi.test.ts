// The economy routes the shared contract suite does not call (observations through the cache, vintages,
// revisions, the MCP endpoint) against the OpenAPI document the build wrote: every answer must have the
// status, Content-Type, body schema and headers the document gives for it. A second service, whose
// upstreams refuse connections, answers the 503.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../pipeline/core/openapi.ts';
import { toDocumentFile } from '../../contract/core/layout.ts';
import { OPENAPI_PATH } from '../../pipeline/economy/openapi.ts';
import { createEconomyService } from '../../server/economy/routes.ts';
import { conformingFetch, OpenApiChecker } from '../http-contract/openapi-check.ts';
import { buildEconomyFixture, ECONOMY_CLOCK } from '../helpers/economy.ts';
import { startService } from '../helpers/server.ts';

let demo: Awaited<ReturnType<typeof buildEconomyFixture>>;
let live: Awaited<ReturnType<typeof buildEconomyFixture>>;
let srv: Awaited<ReturnType<typeof startService>>;
let down: Awaited<ReturnType<typeof startService>>;
let checker: OpenApiChecker | undefined;
const fetch = conformingFetch(() => checker, OPENAPI_PATH);

beforeAll(async () => {
  demo = await buildEconomyFixture({ demo: true });
  srv = await startService(
    createEconomyService({ stateDir: join(demo.root.path, 'state'), env: {}, now: ECONOMY_CLOCK }),
    demo.outDir,
  );
  // Port 9 (discard) on loopback: nothing listens there, so every pull fails at once.
  const closed = { STATCAN_WDS_URL: 'http://127.0.0.1:9/wds', BOC_VALET_URL: 'http://127.0.0.1:9/valet' };
  live = await buildEconomyFixture({ demo: false });
  down = await startService(
    createEconomyService({ stateDir: join(live.root.path, 'state'), env: closed, now: ECONOMY_CLOCK }),
    live.outDir,
  );
  checker = new OpenApiChecker(
    JSON.parse(readFileSync(join(demo.buildDir, toDocumentFile(OPENAPI_PATH)), 'utf8')) as OpenApiDocument,
  );
});
afterAll(async () => {
  await srv.close();
  await down.close();
  await demo.root.remove();
  await live.root.remove();
});

const MODERN = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'openapi-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const ACCEPT = 'application/json, text/event-stream';

describe('economy answers as its OpenAPI document says', () => {
  it('observations, vintages and revisions: 200, 304, 400, 404', async () => {
    expect((await fetch(`${srv.base}/api/observations?series=CPI_ALL_ITEMS&from=2020-01-01`)).status).toBe(200);
    // The first answer pulled (`cached: false`); the second is the cached one, which stays the same.
    const obs = await fetch(`${srv.base}/api/observations?series=CPI_ALL_ITEMS&from=2020-01-01`);
    expect(obs.status).toBe(200);
    expect(
      (
        await fetch(`${srv.base}/api/observations?series=CPI_ALL_ITEMS&from=2020-01-01`, {
          headers: { 'If-None-Match': obs.headers.get('etag')! },
        })
      ).status,
    ).toBe(304);
    expect((await fetch(`${srv.base}/api/observations?series=CPI_ALL_ITEMS&vintage=2026-11-22`)).status).toBe(200);
    expect((await fetch(`${srv.base}/api/observations?series=CPI_ALL_ITEMS&vintage=2026-11-01`)).status).toBe(404);
    expect((await fetch(`${srv.base}/api/observations?series=CPI_ALL_ITEMS&from=2024-02-30`)).status).toBe(400);
    expect((await fetch(`${srv.base}/api/observations?series=NOPE`)).status).toBe(404);
    expect((await fetch(`${srv.base}/api/observations`)).status).toBe(400);
    expect((await fetch(`${srv.base}/api/vintages?series=CPI_ALL_ITEMS`)).status).toBe(200);
    expect((await fetch(`${srv.base}/api/vintages`)).status).toBe(400);
    expect((await fetch(`${srv.base}/api/vintages?series=NOPE`)).status).toBe(404);
    expect((await fetch(`${srv.base}/api/revisions?series=CPI_ALL_ITEMS&from=2026-11-22&to=2026-11-22`)).status).toBe(
      200,
    );
    expect((await fetch(`${srv.base}/api/revisions?series=CPI_ALL_ITEMS&from=2026-11-01&to=2026-11-22`)).status).toBe(
      404,
    );
    expect((await fetch(`${srv.base}/api/revisions?series=CPI_ALL_ITEMS&from=2026-11-22&to=2026-11-01`)).status).toBe(
      400,
    );
  });

  it('observations with FRED transforms, paging and CSV; the registry paged: each answer as documented', async () => {
    const base = `${srv.base}/api/observations?series=CPI_ALL_ITEMS`;
    for (const query of [
      '&units=pch',
      '&units=pc1&frequency=q&aggregation_method=eop',
      '&frequency=a&aggregation_method=sum&units=log',
      '&sort_order=desc&limit=12&offset=3',
      '&units=cca&format=csv',
      '&vintage=2026-11-22&units=chg&format=csv',
    ]) {
      const res = await fetch(`${base}${query}`);
      expect(res.status, query).toBe(200);
      if (query.includes('format=csv')) expect(res.headers.get('content-type'), query).toMatch(/^text\/csv/);
    }
    for (const query of [
      '&units=pct',
      '&frequency=x',
      '&frequency=d',
      '&aggregation_method=median',
      '&sort_order=up',
      '&limit=0',
      '&limit=100001',
      '&offset=-1',
      '&format=xml',
    ]) {
      const res = await fetch(`${base}${query}`);
      expect(res.status, query).toBe(400);
      const body = (await res.json()) as { errors: { parameter: string }[] };
      const name = query.slice(1, query.indexOf('='));
      expect(
        body.errors.map((e) => e.parameter),
        query,
      ).toContain(name);
    }
    const page = await fetch(`${srv.base}/api/series?limit=2&offset=1`);
    expect(page.status).toBe(200);
    expect(Number(page.headers.get('x-total-count'))).toBeGreaterThan(2);
    expect((await fetch(`${srv.base}/api/series?offset=10001`)).status).toBe(400);
    expect((await fetch(`${srv.base}/api/series?q=*`)).status).toBe(400);
  });

  it('503 with Retry-After when the upstream is down and nothing is cached', async () => {
    const res = await fetch(`${down.base}/api/observations?series=CPI_ALL_ITEMS`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('POST /mcp: JSON and event-stream answers, 202, and each refusal', async () => {
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${srv.base}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    const modern = { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' };
    const list = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } }, modern);
    expect(list.status).toBe(200);
    expect(list.headers.get('content-type')).toMatch(/^application\/json/);
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'openapi-test', version: '1' } },
    };
    const legacy = await post(initialize);
    expect(legacy.status).toBe(200);
    expect(legacy.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    expect((await post('{"jsonrpc":"2.0","id":1,"method":')).status).toBe(400);
    expect((await post(initialize, { origin: 'http://evil.example' })).status).toBe(403);
    expect(
      (
        await post(
          { jsonrpc: '2.0', id: 2, method: 'economy/nonsense', params: { _meta: META } },
          { ...modern, 'mcp-method': 'economy/nonsense' },
        )
      ).status,
    ).toBe(404);
    expect((await post(initialize, { accept: 'text/html' })).status).toBe(406);
    expect(
      (await post({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(70_000) } })).status,
    ).toBe(413);
    expect((await post(initialize, { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await fetch(`${srv.base}/mcp`)).status).toBe(405);
  });
});
