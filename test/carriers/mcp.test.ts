// The carriers tools over MCP on POST /api/mcp, over the fixture build on a real socket, driven by real
// clients of both protocol eras: the 2025-era `@modelcontextprotocol/sdk` Client (initialize, then tools/*)
// and the v2 `@modelcontextprotocol/client` pinned to 2026-07-28 (server/discover, no initialize); raw HTTP
// for the edges: sign-in before the SDK, the allowance shared with the REST route, the GET that asks for an
// event stream, and the `{"tool", "args"}` form next to MCP on the same route.
import { request as httpRequest } from 'node:http';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemas } from '../../contract/core/schemas.ts';
import { toMonth } from '../../server/carriers/quota.ts';
import {
  type buildCarriersFixture,
  readOnlyCarriersFixture,
  expectProblem as problem,
  serveCarriers,
  type Json,
} from '../helpers/carriers.ts';

const MODERN = '2026-07-28';
const NOW = new Date('2026-11-22T00:00:00Z');
const ALLOWANCE = 3;
const ACCEPT = 'application/json, text/event-stream';

let built: Awaited<ReturnType<typeof buildCarriersFixture>>;
let srv: Awaited<ReturnType<typeof serveCarriers>>;
let url: URL;
let premium = '';

beforeAll(async () => {
  built = await readOnlyCarriersFixture();
  srv = await serveCarriers(built, { freeLookups: ALLOWANCE });
  url = new URL('/api/mcp', srv.base);
  premium = (await srv.accounts().createKey('premium', 'mcp premium', NOW)).key;
});
afterAll(async () => {
  await srv?.close();
  await built?.root.remove();
});

const freeKey = async (label: string) => (await srv.accounts().createKey('free', label, NOW)).key;
/** The key's lookups this month, by the server's clock (the real one). */
const usage = async (key: string) => srv.accounts().usage((await srv.accounts().findKey(key))!.id, toMonth(new Date()));
const auth = (key?: string): Record<string, string> => (key ? { Authorization: `Bearer ${key}` } : {});
const rest = (path: string, key?: string) => fetch(`${srv.base}${path}`, { headers: auth(key) });

interface ToolResult {
  isError?: boolean;
  structuredContent?: Json;
  content: { type: string; text?: string }[];
  _meta?: Json;
}

/** A result whose one text item is exactly `body` (the REST route's bytes) and whose structured content is its JSON. */
function expectRestBody(result: ToolResult, body: string) {
  expect(result.isError ?? false).toBe(false);
  expect(result.content).toEqual([{ type: 'text', text: body }]);
  expect(result.structuredContent).toEqual(JSON.parse(body));
}

function expectToolError(result: ToolResult, message: string) {
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  expect(result.content).toEqual([{ type: 'text', text: message }]);
}

/**
 * Both eras' clients, each signed in with `key` (or none), behind one interface. Each lists the tools once
 * connected, as the MCP inspector does, so that it checks every result against the tool's `outputSchema`
 * with its own validator (draft-07 ajv in the 1.x SDK).
 */
interface Era {
  name: string;
  connect(key?: string): Promise<{
    listTools(): Promise<{ tools: Json[] }>;
    callTool(name: string, args: Json): Promise<ToolResult>;
    close(): Promise<void>;
  }>;
}

const ERAS: Era[] = [
  {
    name: 'a 2025-era client (@modelcontextprotocol/sdk 1.x, initialize handshake)',
    async connect(key) {
      const client = new LegacyClient({ name: 'carriers-legacy-test', version: '1.0.0' });
      await client.connect(new LegacyTransport(url, { requestInit: { headers: auth(key) } }));
      await client.listTools();
      return {
        listTools: async () => (await client.listTools()) as { tools: Json[] },
        callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as ToolResult,
        close: () => client.close(),
      };
    },
  },
  {
    name: 'a 2026-07-28 client (@modelcontextprotocol/client v2, no handshake)',
    async connect(key) {
      const client = new Client(
        { name: 'carriers-modern-test', version: '1.0.0' },
        { versionNegotiation: { mode: { pin: MODERN } } },
      );
      await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: auth(key) } }));
      expect(client.getProtocolEra()).toBe('modern');
      await client.listTools();
      return {
        listTools: async () => (await client.listTools()) as unknown as { tools: Json[] },
        callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as unknown as ToolResult,
        close: () => client.close(),
      };
    },
  },
];

for (const era of ERAS) {
  describe(era.name, () => {
    it('lists the three tools with the argument schemas of GET /api/mcp and the REST schemas as output', async () => {
      const client = await era.connect();
      try {
        const { tools } = await client.listTools();
        const listing = (await (await fetch(url)).json()) as { tools: Json[] };
        expect(tools.map((t) => t.name)).toEqual(['search_carrier', 'get_carrier_profile', 'get_changes']);
        for (const [i, tool] of tools.entries()) {
          expect(tool.description).toBe(listing.tools[i]!.description);
          expect(tool.inputSchema).toEqual(listing.tools[i]!.input_schema);
          expect(tool.outputSchema).toMatchObject({ type: 'object' });
          expect(tool.annotations).toMatchObject({ readOnlyHint: true });
        }
        expect(tools[0]!.outputSchema!.required).toEqual(schemas().schema('carriers/search').required);
        expect(tools[1]!.outputSchema!.required).toEqual(schemas().schema('carriers/profile').required);
        expect(tools[2]!.outputSchema!.required).toEqual(schemas().schema('core/changes').required);
      } finally {
        await client.close();
      }
    });

    it('search_carrier answers the body of GET /api/search, without a key', async () => {
      const client = await era.connect();
      try {
        for (const [query, limit] of [
          ['alpha', 10],
          ['USDOT 1000001', 5],
          ['a', 2],
        ] as const) {
          const body = await (await rest(`/api/search?q=${encodeURIComponent(query)}&limit=${limit}`)).text();
          expectRestBody(await client.callTool('search_carrier', { query, limit }), body);
        }
        const defaults = await (await rest('/api/search?q=a')).text();
        expectRestBody(await client.callTool('search_carrier', { query: 'a' }), defaults);
      } finally {
        await client.close();
      }
    });

    it('get_carrier_profile answers the body of GET /api/carrier/{id}, the id as a number or a string of digits', async () => {
      const client = await era.connect(premium);
      try {
        for (const id of [1000001, 1000003]) {
          const body = await (await rest(`/api/carrier/${id}`, premium)).text();
          const result = await client.callTool('get_carrier_profile', { carrier_id: id });
          expectRestBody(result, body);
          // A premium key has no allowance to report.
          expect(result._meta?.ratelimit).toBeUndefined();
          expectRestBody(await client.callTool('get_carrier_profile', { carrier_id: String(id) }), body);
        }
      } finally {
        await client.close();
      }
    });

    it('refuses bad arguments and an unknown carrier as tool errors in the REST words, counting nothing', async () => {
      const key = await freeKey(`mcp refusals ${era.name}`);
      const client = await era.connect(key);
      try {
        expectToolError(await client.callTool('search_carrier', { query: '   ' }), 'query must not be blank');
        expectToolError(
          await client.callTool('search_carrier', { query: '*.*' }),
          'query has no letters or digits to search for',
        );
        expectToolError(
          await client.callTool('search_carrier', { query: 'alpha', limit: 0, page: 2 }),
          'page is not a known parameter; limit must be >= 1',
        );
        const bad = await client.callTool('get_carrier_profile', { carrier_id: 'x1' });
        expect(bad.isError).toBe(true);
        expect(bad.content[0]!.text).toMatch(/^carrier_id /);
        // A free key's refusal still says what is left, as the route's 400 and 404 do.
        expect(bad._meta?.ratelimit).toMatchObject({ limit: ALLOWANCE, remaining: ALLOWANCE });
        const missing = await client.callTool('get_carrier_profile', { carrier_id: 99999999 });
        const restMissing = await problem(await rest('/api/carrier/99999999', key), 404, 'not_found');
        expectToolError(missing, restMissing.detail);
        expect(await usage(key)).toBe(0);
      } finally {
        await client.close();
      }
    });

    it('counts each profile in the allowance the REST route uses, and stops at it', async () => {
      const key = await freeKey(`mcp allowance ${era.name}`);
      const client = await era.connect(key);
      try {
        const remaining: unknown[] = [];
        for (const id of [1000001, 1000002]) {
          const result = await client.callTool('get_carrier_profile', { carrier_id: id });
          expect(result.isError ?? false).toBe(false);
          expect(result._meta?.ratelimit).toMatchObject({ limit: ALLOWANCE, reset: expect.any(Number) });
          remaining.push((result._meta!.ratelimit as Json).remaining);
        }
        expect(remaining).toEqual([2, 1]);
        const viaRest = await rest('/api/carrier/1000001', key);
        expect(viaRest.status).toBe(200);
        expect(viaRest.headers.get('ratelimit-remaining')).toBe('0');
        const exhausted = await client.callTool('get_carrier_profile', { carrier_id: 1000001 });
        const restExhausted = await problem(await rest('/api/carrier/1000001', key), 429, 'quota_exhausted');
        expectToolError(exhausted, restExhausted.detail);
        expect(exhausted._meta?.ratelimit).toMatchObject({ limit: ALLOWANCE, remaining: 0 });
        expect(await usage(key)).toBe(ALLOWANCE);
        // Search stays open to the same key.
        expect((await client.callTool('search_carrier', { query: 'alpha' })).isError ?? false).toBe(false);
      } finally {
        await client.close();
      }
    });

    it('a profile call without a valid key is refused over HTTP (401), search is not', async () => {
      for (const key of [undefined, 'not-a-key']) {
        const client = await era.connect(key);
        try {
          expect((await client.callTool('search_carrier', { query: 'alpha' })).isError ?? false).toBe(false);
          await expect(client.callTool('get_carrier_profile', { carrier_id: 1000001 })).rejects.toThrow(/401/);
        } finally {
          await client.close();
        }
      }
    });
  });
}

// ---- raw HTTP ---------------------------------------------------------------------------------------------

const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A 2026-07-28 request: no handshake, the method and tool name in headers too. */
function modern(method: string, params: Json = {}, headers: Record<string, string> = {}) {
  const name: Record<string, string> = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
  return fetch(url, {
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
}

const profileCall = (id: unknown, headers: Record<string, string> = {}) =>
  modern('tools/call', { name: 'get_carrier_profile', arguments: { carrier_id: id } }, headers);

/** node:http, for a request fetch will not send (a Host of our choosing). */
function raw(
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('raw MCP requests on POST /api/mcp', () => {
  it('answers tools/list and a search with no key, as JSON that no cache keeps', async () => {
    const list = await modern('tools/list');
    expect(list.status).toBe(200);
    expect(list.headers.get('content-type')).toMatch(/^application\/json/);
    expect(list.headers.get('cache-control')).toBe('no-store');
    const listed = (await list.json()) as Json;
    expect(listed.result).toMatchObject({ resultType: 'complete', ttlMs: 300_000, cacheScope: 'public' });
    const search = await modern('tools/call', { name: 'search_carrier', arguments: { query: 'alpha' } });
    expect(search.status).toBe(200);
    const body = await (await rest('/api/search?q=alpha')).text();
    expect(((await search.json()) as Json).result.content).toEqual([{ type: 'text', text: body }]);
  });

  it('answers get_changes with the body of GET /api/changes to a signed-in key, not counted, and 401 without one', async () => {
    const key = await freeKey('changes over mcp');
    const since = built.summary.data_version;
    const call = (args: Json, headers: Record<string, string> = {}) =>
      modern('tools/call', { name: 'get_changes', arguments: args }, headers);
    expect((await call({ since })).status).toBe(401);
    const res = await call({ since, limit: 5 }, auth(key));
    expect(res.status).toBe(200);
    const body = await (await rest(`/api/changes?since=${since}&limit=5`, key)).text();
    expectRestBody(((await res.json()) as Json).result, body);
    schemas().assert('core/changes', JSON.parse(body), 'changes');
    // A bad argument is the route's 400 as a tool error; an unknown build its 404.
    const bad = ((await (await call({ since: 'NOT A VERSION' }, auth(key))).json()) as Json).result;
    expect(bad.isError).toBe(true);
    const unknown = ((await (await call({ since: 'ffffffffffffffff' }, auth(key))).json()) as Json).result;
    expect(unknown.isError).toBe(true);
    expect(unknown.content[0].text).toMatch(/no build ffffffffffffffff/);
    expect(await usage(key)).toBe(0);
  });

  it.each([
    ['no key', {}, 'Bearer'],
    ['a malformed key', { authorization: 'Bearer not-a-key' }, 'Bearer error="invalid_token"'],
    ['an unknown key', { authorization: `Bearer sl_${'A'.repeat(43)}` }, 'Bearer error="invalid_token"'],
  ])(
    'answers a profile call with %s as the profile route does: 401 problem, whatever the arguments',
    async (_label, headers, challenge) => {
      for (const id of [1000001, 'x']) {
        const res = await profileCall(id, headers);
        expect(res.headers.get('www-authenticate')).toBe(challenge);
        const body = await problem(res, 401, 'unauthorized');
        const viaRest = await fetch(`${srv.base}/api/carrier/1000001`, { headers });
        expect(body).toEqual(await problem(viaRest, 401, 'unauthorized'));
      }
    },
  );

  it('signs in for a profile call inside a 2025-03-26 batch too', async () => {
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'get_carrier_profile', arguments: { carrier_id: 1 } },
      },
    ];
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT, 'mcp-protocol-version': '2025-03-26' },
      body: JSON.stringify(batch),
    });
    await problem(res, 401, 'unauthorized');
  });

  it('refuses a batch of more than 10 messages under every version, before sign-in, and answers one of 10', async () => {
    const calls = (n: number) =>
      JSON.stringify(
        Array.from({ length: n }, (_, i) => ({
          jsonrpc: '2.0',
          id: i + 1,
          method: 'tools/call',
          params: { name: 'search_carrier', arguments: { query: `alpha ${i}` } },
        })),
      );
    const post = (body: string, version?: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: ACCEPT,
          ...(version ? { 'mcp-protocol-version': version } : {}),
        },
        body,
      });
    for (const version of [undefined, '2024-11-05', '2025-03-26', '2025-06-18', MODERN]) {
      const res = await post(calls(11), version);
      expect(res.status, version).toBe(400);
      expect(await res.json(), version).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 }, id: null });
    }
    // A batch of profile calls with no key: refused for its size, not asked to sign in.
    const profiles = JSON.stringify(
      Array.from({ length: 11 }, (_, i) => ({
        jsonrpc: '2.0',
        id: i + 1,
        method: 'tools/call',
        params: { name: 'get_carrier_profile', arguments: { carrier_id: 1000001 } },
      })),
    );
    const refused = await post(profiles, '2025-03-26');
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as Json).error.message).toContain('at most 10 messages; this one has 11');
    const ten = await post(calls(10), '2025-03-26');
    expect(ten.status).toBe(200);
    const ids = [...(await ten.text()).matchAll(/"id":(\d+)/g)].map((m) => Number(m[1])).sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
  });

  it('gives exactly one profile to concurrent calls with one lookup left', async () => {
    const key = await freeKey('mcp race');
    for (let i = 0; i < ALLOWANCE - 1; i++) expect((await rest('/api/carrier/1000001', key)).status).toBe(200);
    const results = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const res = await profileCall(1000001, auth(key));
        expect(res.status).toBe(200);
        return ((await res.json()) as Json).result as ToolResult;
      }),
    );
    expect(results.filter((r) => !r.isError)).toHaveLength(1);
    expect(results.filter((r) => r.isError)).toHaveLength(19);
    expect(await usage(key)).toBe(ALLOWANCE);
  });

  it('refuses a foreign Origin or Host with 403 (DNS rebinding), before sign-in', async () => {
    const evil = await profileCall(1000001, { origin: 'http://evil.example' });
    expect(evil.status).toBe(403);
    expect(await evil.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    const host = await raw(
      'POST',
      { host: 'evil.example', 'content-type': 'application/json', accept: ACCEPT },
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    );
    expect(host.status).toBe(403);
  });

  it('refuses a JSON-RPC body over 64 KB with the 413 problem, as the route does', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(70_000) } });
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT },
      body: big,
    });
    await problem(res, 413, 'payload_too_large');
  });

  it('keeps the {"tool", "args"} form, next to MCP, as it was', async () => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth(premium) },
      body: JSON.stringify({ tool: 'get_carrier_profile', args: { carrier_id: '1000001' } }),
    });
    expect(res.status).toBe(200);
    const body = await (await rest('/api/carrier/1000001', premium)).text();
    expect(await res.text()).toBe(`{"tool":"get_carrier_profile","result":${body}}`);
    // A body that only looks like JSON-RPC is still the tool form's 400.
    const notRpc = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ tool: 'search_carrier', args: { query: 'a' } }]),
    });
    await problem(notRpc, 400, 'invalid_parameter');
  });
});

describe('GET /api/mcp', () => {
  it.each(['text/event-stream', 'application/json;q=0.5, text/event-stream'])(
    'is 405 with Allow when it asks for an event stream (%s): MCP has no stream to listen on',
    async (accept) => {
      for (const method of ['GET', 'HEAD']) {
        const res = await fetch(url, { method, headers: { accept } });
        expect(res.status, method).toBe(405);
        expect(res.headers.get('allow')).toBe('GET, HEAD, POST');
        expect(res.headers.get('cache-control')).toBe('no-store');
        if (method === 'GET') await problem(res, 405, 'method_not_allowed');
      }
    },
  );

  it.each([undefined, 'application/json', '*/*', 'text/event-stream;q=0'])(
    'is the tool list for Accept %s, which varies with Accept',
    async (accept) => {
      const res = await fetch(url, { headers: accept ? { accept } : {} });
      expect(res.status).toBe(200);
      expect(res.headers.get('vary')).toMatch(/\bAccept\b/);
      schemas().assert('carriers/agent-tools', await res.json(), 'tool list');
    },
  );
});
