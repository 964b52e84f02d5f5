// The carriers routes the shared contract suite does not call (signed-in profiles, the premium routes, the
// tool route) against the OpenAPI document the build wrote: every answer, success or problem, must have
// the status, Content-Type, body schema and headers the document gives for it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_PATH } from '../../contract/carriers/layout.ts';
import type { OpenApiDocument } from '../../pipeline/core/openapi.ts';
import { toDocumentFile } from '../../contract/core/layout.ts';
import { conformingFetch, OpenApiChecker } from '../http-contract/openapi-check.ts';
import { type buildCarriersFixture, readOnlyCarriersFixture, serveCarriers } from '../helpers/carriers.ts';
import { rawRequest, toRequest } from '../helpers/raw-http.ts';

// biome-ignore lint/suspicious/noExplicitAny: documents and bodies are untyped JSON, read field by field in assertions
type Json = Record<string, any>;
const NOW = new Date('2026-11-22T00:00:00Z');
let built: Awaited<ReturnType<typeof buildCarriersFixture>>;
let srv: Awaited<ReturnType<typeof serveCarriers>>;
let checker: OpenApiChecker | undefined;
let premium = '';
let free = '';
const fetch = conformingFetch(() => checker, OPENAPI_PATH);
const auth = (key?: string): Record<string, string> => (key ? { Authorization: `Bearer ${key}` } : {});
const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(srv.base + path, { method: 'POST', headers, body });
const json = { 'Content-Type': 'application/json' };

beforeAll(async () => {
  built = await readOnlyCarriersFixture();
  srv = await serveCarriers(built, { freeLookups: 2 });
  checker = new OpenApiChecker(
    JSON.parse(readFileSync(join(built.buildDir, toDocumentFile(OPENAPI_PATH)), 'utf8')) as OpenApiDocument,
  );
  premium = (await srv.accounts().createKey('premium', 'openapi premium', NOW)).key;
  free = (await srv.accounts().createKey('free', 'openapi free', NOW)).key;
});
afterAll(async () => {
  await srv.close();
  await built.root.remove();
});

describe('carriers answers as its OpenAPI document says', () => {
  it('GET /api/search: the page and state parameters as documented, their 200s and 400s', async () => {
    const op = checker!.doc.paths['/api/search']!.get as { parameters: { name: string; schema: Json }[] };
    const params = Object.fromEntries(op.parameters.map((p) => [p.name, p.schema]));
    expect(params.offset).toMatchObject({ type: 'integer', minimum: 0, maximum: 10000, default: 0 });
    expect(params.state).toMatchObject({ type: 'string', pattern: '^[A-Za-z]{2}$' });
    for (const query of [
      'q=alpha&state=tx',
      'q=alpha&state=TX&limit=1&offset=0',
      'q=t&offset=1&limit=1',
      'q=alpha&offset=10000',
      'q=1000001&state=ma',
    ]) {
      const res = await fetch(`${srv.base}/api/search?${query}`);
      expect(res.status, query).toBe(200);
      const body = (await res.json()) as Json;
      expect(body, query).toHaveProperty('offset');
      expect(body, query).toHaveProperty('limit');
    }
    for (const query of ['q=alpha&state=t', 'q=alpha&state=tx1', 'q=alpha&offset=10001', 'q=alpha&offset=-5'])
      expect((await fetch(`${srv.base}/api/search?${query}`)).status, query).toBe(400);
  });

  it('GET /api/carrier/{carrier_id}: 200 (free with RateLimit-*, premium without), 304, 400, 401, 404, 429', async () => {
    const ok = await fetch(`${srv.base}/api/carrier/1000001`, { headers: auth(premium) });
    expect(ok.status).toBe(200);
    expect(
      (
        await fetch(`${srv.base}/api/carrier/1000001`, {
          headers: { ...auth(premium), 'If-None-Match': ok.headers.get('etag')! },
        })
      ).status,
    ).toBe(304);
    expect((await fetch(`${srv.base}/api/carrier/1000001`, { method: 'HEAD', headers: auth(premium) })).status).toBe(
      200,
    );
    expect((await fetch(`${srv.base}/api/carrier/abc`, { headers: auth(premium) })).status).toBe(400);
    expect((await fetch(`${srv.base}/api/carrier/1000001`)).status).toBe(401);
    expect(
      (await fetch(`${srv.base}/api/carrier/1000001`, { headers: { Authorization: 'Bearer not-a-key' } })).status,
    ).toBe(401);
    expect((await fetch(`${srv.base}/api/carrier/99999999`, { headers: auth(premium) })).status).toBe(404);
    // A free key's 400 and 404 count nothing and say what is left.
    for (const path of ['/api/carrier/abc', '/api/carrier/99999999']) {
      const refused = await fetch(`${srv.base}${path}`, { headers: auth(free) });
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(refused.headers.get('ratelimit-limit'), path).toBe('2');
      expect(refused.headers.get('ratelimit-remaining'), path).toBe('2');
      expect(refused.headers.get('ratelimit-reset'), path).toMatch(/^\d+$/);
    }
    const first = await fetch(`${srv.base}/api/carrier/1000001`, { headers: auth(free) });
    expect(first.headers.get('ratelimit-remaining')).toBe('1');
    const after = await fetch(`${srv.base}/api/carrier/99999999`, { headers: auth(free) });
    expect(after.headers.get('ratelimit-remaining')).toBe('1');
    expect((await fetch(`${srv.base}/api/carrier/1000002`, { headers: auth(free) })).status).toBe(200);
    const exhausted = await fetch(`${srv.base}/api/carrier/1000001`, { headers: auth(free) });
    expect(exhausted.status).toBe(429);
    expect(exhausted.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it.each([
    ['GET', '/api/carrier/1000001'],
    ['POST', '/api/carrier/1000001/explain'],
    ['GET', '/api/carrier/1000001/export'],
  ])('%s %s with two Authorization headers: the 400 bad_request the document describes', async (method, path) => {
    const port = Number(new URL(srv.base).port);
    const headers: [string, string][] = [
      ['Authorization', `Bearer ${premium}`],
      ['Authorization', `Bearer ${free}`],
    ];
    const { response } = await rawRequest(port, toRequest(method, path, headers, method === 'POST' ? '' : undefined));
    expect(response?.status).toBe(400);
    expect(response?.headers['www-authenticate']).toBe('Bearer error="invalid_request"');
    const observed = {
      method,
      path,
      status: response!.status,
      headers: new Headers(response!.headers),
      body: response!.body.toString('utf8'),
    };
    expect(checker!.check(observed)).toEqual([]);
    expect(JSON.parse(observed.body)).toMatchObject({ code: 'bad_request' });
  });

  it('POST /api/carrier/{carrier_id}/explain: 200 (fresh and cached), 400, 401, 403, 404, 413', async () => {
    expect((await post('/api/carrier/1000001/explain', '', auth(premium))).status).toBe(200);
    const cached = await post('/api/carrier/1000001/explain', '{}', { ...json, ...auth(premium) });
    expect(((await cached.json()) as { cached: boolean }).cached).toBe(true);
    expect((await post('/api/carrier/1000001/explain', '{"x":1}', { ...json, ...auth(premium) })).status).toBe(400);
    expect((await post('/api/carrier/x/explain', '', auth(premium))).status).toBe(400);
    expect((await post('/api/carrier/1000001/explain', '')).status).toBe(401);
    const freeKey = (await srv.accounts().createKey('free', 'openapi free 2', NOW)).key;
    expect((await post('/api/carrier/1000001/explain', '', auth(freeKey))).status).toBe(403);
    expect((await post('/api/carrier/99999999/explain', '', auth(premium))).status).toBe(404);
    expect((await post('/api/carrier/1000001/explain', 'x'.repeat(70_000), auth(premium))).status).toBe(413);
  });

  it('GET /api/carrier/{carrier_id}/export: JSON and CSV attachments, 304, 400, 403, 404', async () => {
    const asJson = await fetch(`${srv.base}/api/carrier/1000001/export`, { headers: auth(premium) });
    expect(asJson.status).toBe(200);
    expect(asJson.headers.get('content-disposition')).toBe('attachment; filename="carrier-1000001.json"');
    const csv = await fetch(`${srv.base}/api/carrier/1000001/export?format=csv`, { headers: auth(premium) });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(
      (
        await fetch(`${srv.base}/api/carrier/1000001/export?format=csv`, {
          headers: { ...auth(premium), 'If-None-Match': csv.headers.get('etag')! },
        })
      ).status,
    ).toBe(304);
    expect((await fetch(`${srv.base}/api/carrier/1000001/export?format=xml`, { headers: auth(premium) })).status).toBe(
      400,
    );
    expect((await fetch(`${srv.base}/api/carrier/1000001/export`, { headers: auth(free) })).status).toBe(403);
    expect((await fetch(`${srv.base}/api/carrier/99999999/export`, { headers: auth(premium) })).status).toBe(404);
  });

  it('GET and POST /api/mcp: the tools, results, and every refusal', async () => {
    expect((await fetch(`${srv.base}/api/mcp`)).status).toBe(200);
    const call = (body: unknown, headers: Record<string, string> = {}) =>
      post('/api/mcp', JSON.stringify(body), { ...json, ...headers });
    expect((await call({ tool: 'search_carrier', args: { query: 'alpha', limit: 5 } })).status).toBe(200);
    expect((await call({ tool: 'get_carrier_profile', args: { carrier_id: 1000001 } }, auth(premium))).status).toBe(
      200,
    );
    expect((await call({ tool: 'get_carrier_profile', args: { carrier_id: 1000001 } })).status).toBe(401);
    expect((await call({ tool: 'get_carrier_profile', args: { carrier_id: 99999999 } }, auth(premium))).status).toBe(
      404,
    );
    expect((await call({ tool: 'get_carrier_profile', args: { carrier_id: 1000001 } }, auth(free))).status).toBe(429);
    // A free key's bad arguments count nothing, and the 400 says what is left, as the route's 400 does.
    const badArgs = await call({ tool: 'get_carrier_profile', args: { carrier_id: 'abc' } }, auth(free));
    expect(badArgs.status).toBe(400);
    expect(badArgs.headers.get('ratelimit-remaining')).toBe('0');
    expect(badArgs.headers.get('ratelimit-limit')).toBe('2');
    expect(
      (await call({ tool: 'get_carrier_profile', args: { carrier_id: 'abc' } }, auth(premium))).headers.get(
        'ratelimit-limit',
      ),
    ).toBeNull();
    expect((await call({ tool: 'nope', args: {} })).status).toBe(400);
    expect((await post('/api/mcp', '{', json)).status).toBe(400);
    expect((await post('/api/mcp', '{}', { 'Content-Type': 'text/plain' })).status).toBe(415);
    expect((await post('/api/mcp', 'x'.repeat(70_000), json)).status).toBe(413);
    expect((await fetch(`${srv.base}/api/mcp`, { method: 'DELETE' })).status).toBe(405);
  });

  it('POST /api/mcp as MCP: JSON and event-stream answers, 202, and each refusal; GET for a stream is 405', async () => {
    const MODERN = '2026-07-28';
    const META = {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientInfo': { name: 'openapi-test', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const rpc = (body: unknown, headers: Record<string, string> = {}) =>
      post('/api/mcp', typeof body === 'string' ? body : JSON.stringify(body), {
        ...json,
        accept: 'application/json, text/event-stream',
        ...headers,
      });
    const modern = (method: string, params: Record<string, unknown>, headers: Record<string, string> = {}) =>
      rpc(
        { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: META } },
        {
          'mcp-protocol-version': MODERN,
          'mcp-method': method,
          ...(typeof params.name === 'string' && { 'mcp-name': params.name }),
          ...headers,
        },
      );
    const list = await modern('tools/list', {});
    expect(list.status).toBe(200);
    expect(list.headers.get('content-type')).toMatch(/^application\/json/);
    const profile = await modern(
      'tools/call',
      { name: 'get_carrier_profile', arguments: { carrier_id: 1000001 } },
      auth(premium),
    );
    expect(profile.status).toBe(200);
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'openapi-test', version: '1' } },
    };
    const legacy = await rpc(initialize);
    expect(legacy.status).toBe(200);
    expect(legacy.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect((await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    expect((await modern('tools/call', { name: 'get_carrier_profile', arguments: { carrier_id: 1 } })).status).toBe(
      401,
    );
    expect((await rpc(initialize, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await modern('carriers/nonsense', {})).status).toBe(404);
    expect((await rpc(initialize, { accept: 'text/html' })).status).toBe(406);
    expect((await rpc([initialize], { 'mcp-protocol-version': '2025-06-18' })).status).toBe(400);
    expect((await rpc({ ...initialize, params: { pad: 'x'.repeat(70_000) } })).status).toBe(413);
    expect((await rpc(initialize, { 'content-type': 'text/plain' })).status).toBe(415);
    for (const method of ['GET', 'HEAD'])
      expect((await fetch(`${srv.base}/api/mcp`, { method, headers: { accept: 'text/event-stream' } })).status).toBe(
        405,
      );
  });
});
