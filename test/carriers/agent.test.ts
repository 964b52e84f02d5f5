// The carriers tool route, GET and POST /api/mcp, over the fixture build on a real socket: the tool list
// and its schemas, results identical to the REST routes, one allowance shared with the profile route, and
// every way a call can be refused.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemas } from '../../contract/core/schemas.ts';
import {
  type buildCarriersFixture,
  readOnlyCarriersFixture,
  serveCarriers,
  expectProblem as problem,
} from '../helpers/carriers.ts';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are untyped JSON, read field by field in assertions
type Json = Record<string, any>;

let built: Awaited<ReturnType<typeof buildCarriersFixture>>;
let srv: Awaited<ReturnType<typeof serveCarriers>>;
let premium = '';
const NOW = new Date('2026-11-22T00:00:00Z');
const ALLOWANCE = 3;

beforeAll(async () => {
  built = await readOnlyCarriersFixture();
  // The server's clock is this test's: the allowance month it counts in is NOW's, whatever the date today.
  srv = await serveCarriers(built, { freeLookups: ALLOWANCE, now: () => NOW });
  premium = (await srv.accounts().createKey('premium', 'tool premium', NOW)).key;
});
afterAll(async () => {
  await srv.close();
  await built.root.remove();
});

const url = () => `${srv.base}/api/mcp`;
const auth = (key?: string): Record<string, string> => (key ? { Authorization: `Bearer ${key}` } : {});
const freeKey = async (label: string) => (await srv.accounts().createKey('free', label, NOW)).key;

function call(tool: unknown, args: unknown, key?: string): Promise<Response> {
  return fetch(url(), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...auth(key) },
    body: JSON.stringify({ tool, args }),
  });
}
const restProfile = (id: number, key?: string) => fetch(`${srv.base}/api/carrier/${id}`, { headers: auth(key) });
const agentProfile = (id: number, key?: string) => call('get_carrier_profile', { carrier_id: id }, key);

/** A POST written chunk by chunk on a raw socket (no Content-Length when chunked). */
function raw(
  headers: Record<string, string>,
  chunks: string[],
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url(), { method: 'POST', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    for (const c of chunks) req.write(c);
    req.end();
  });
}

describe('GET /api/mcp', () => {
  it('lists the three tools with their argument schemas, which compile and are the schema files', async () => {
    const res = await fetch(url());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await res.json()) as Json;
    schemas().assert('carriers/agent-tools', body, 'tool list');
    expect(body.tools.map((t: Json) => t.name)).toEqual(['search_carrier', 'get_carrier_profile', 'get_changes']);
    const files: Record<string, string> = {
      search_carrier: 'carriers/tool-search-carrier',
      get_carrier_profile: 'carriers/tool-get-carrier-profile',
      get_changes: 'carriers/tool-get-changes',
    };
    for (const tool of body.tools as Json[]) {
      expect(tool.description.length).toBeGreaterThan(20);
      const { $id: _id, $schema: _schema, ...file } = schemas().schema(files[tool.name]!);
      expect(tool.input_schema).toEqual(file);
      // A client's own validator, strict: the advertised schema stands on its own.
      expect(() => new Ajv2020({ strict: true, allErrors: true }).compile(tool.input_schema)).not.toThrow();
    }
    const search = new Ajv2020({ strict: true }).compile(body.tools[0].input_schema);
    expect([search({ query: 'alpha', limit: 10 }), search({ query: ' ' }), search({ query: 'a', limit: 101 })]).toEqual(
      [true, false, false],
    );
  });

  it("is a document of the build: api/mcp.json with its .br and .gz, answered with that file's bytes and tag", async () => {
    const file = readFileSync(join(built.buildDir, 'api', 'mcp.json'));
    const sums = (
      JSON.parse(readFileSync(join(built.buildDir, 'checksums.json'), 'utf8')) as { files: Record<string, string> }
    ).files;
    expect(
      Object.keys(sums)
        .filter((f) => f.startsWith('api/mcp.json'))
        .sort(),
    ).toEqual(['api/mcp.json', 'api/mcp.json.br', 'api/mcp.json.gz']);
    const res = await fetch(url(), { headers: { 'Accept-Encoding': 'identity' } });
    expect(Buffer.from(await res.arrayBuffer()).equals(file)).toBe(true);
    expect(res.headers.get('etag')).toBe(`"${sums['api/mcp.json']!.slice(0, 32)}"`);
    const asFile = await fetch(`${srv.base}/api/mcp.json`, { headers: { 'Accept-Encoding': 'identity' } });
    expect(Buffer.from(await asFile.arrayBuffer()).equals(file)).toBe(true);
  });

  it('names the same tools the call schema allows', async () => {
    const body = (await (await fetch(url())).json()) as Json;
    const call = schemas().schema('carriers/agent-call') as Json;
    expect(call.properties.tool.enum).toEqual(body.tools.map((t: Json) => t.name));
  });

  it('answers HEAD, and 405 with Allow for other methods', async () => {
    expect((await fetch(url(), { method: 'HEAD' })).status).toBe(200);
    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      const res = await fetch(url(), { method });
      expect(res.headers.get('allow')).toBe('GET, HEAD, POST');
      await problem(res, 405, 'method_not_allowed');
    }
  });
});

describe('search_carrier', () => {
  it.each([
    ['alpha', 10],
    ['alpha', 1],
    ['USDOT 1000001', 5],
    ['a', 2],
    ['zebra', 100],
  ])('%j limit %d gives exactly the body of GET /api/search, without a key', async (query, limit) => {
    const rest = await fetch(`${srv.base}/api/search?q=${encodeURIComponent(query)}&limit=${limit}`);
    const restText = await rest.text();
    const res = await call('search_carrier', { query, limit });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = await res.text();
    // Byte for byte: the stored body spliced into the envelope.
    expect(text).toBe(`{"tool":"search_carrier","result":${restText}}`);
    const body = JSON.parse(text) as Json;
    expect(body.result).toEqual(JSON.parse(restText));
    schemas().assert('carriers/agent-result', body, 'search result');
  });

  it('uses the REST default limit when none is given', async () => {
    const rest = await (await fetch(`${srv.base}/api/search?q=a`)).json();
    const body = (await (await call('search_carrier', { query: 'a' })).json()) as Json;
    expect(body).toEqual({ tool: 'search_carrier', result: rest });
  });

  it.each([
    [{ query: 'alpha', state: 'tx' }, 'q=alpha&state=tx'],
    [{ query: 'alpha', state: 'OK', limit: 1 }, 'q=alpha&state=OK&limit=1'],
    [{ query: 'alpha', offset: 1, limit: 1 }, 'q=alpha&offset=1&limit=1'],
    [{ query: 't', state: 'Tx', offset: 1 }, 'q=t&state=Tx&offset=1'],
    [{ query: 'alpha', offset: 10_000 }, 'q=alpha&offset=10000'],
    [{ query: '1000001', state: 'MA' }, 'q=1000001&state=MA'],
  ])('%j gives exactly the body of GET /api/search?%s', async (args, query) => {
    const restText = await (await fetch(`${srv.base}/api/search?${query}`)).text();
    const text = await (await call('search_carrier', args)).text();
    expect(text).toBe(`{"tool":"search_carrier","result":${restText}}`);
    schemas().assert('carriers/agent-result', JSON.parse(text), 'search result');
  });
});

describe('get_carrier_profile', () => {
  it('takes the carrier id as a string of digits too, as the path does', async () => {
    const asNumber = await (await agentProfile(1000001, premium)).text();
    const asString = await call('get_carrier_profile', { carrier_id: '1000001' }, premium);
    expect(asString.status).toBe(200);
    expect(await asString.text()).toBe(asNumber);
  });

  it.each([1000001, 1000003])('gives exactly the body of GET /api/carrier/%d', async (id) => {
    const restText = await (await restProfile(id, premium)).text();
    const res = await agentProfile(id, premium);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('ratelimit-limit')).toBeNull();
    const text = await res.text();
    expect(text).toBe(`{"tool":"get_carrier_profile","result":${restText}}`);
    const body = JSON.parse(text) as Json;
    schemas().assert('carriers/agent-result', body, 'profile result');
    schemas().assert('carriers/profile', body.result, 'profile');
    expect(body.result.carrier_id).toBe(id);
  });

  it.each([
    ['no key', undefined, 'Bearer'],
    ['a malformed key', 'not-a-key', 'Bearer error="invalid_token"'],
    ['an unknown key', `sl_${'A'.repeat(43)}`, 'Bearer error="invalid_token"'],
  ])('401 with WWW-Authenticate for %s, as the REST route', async (_label, key, challenge) => {
    const res = await agentProfile(1000001, key);
    expect(res.headers.get('www-authenticate')).toBe(challenge);
    const rest = await restProfile(1000001, key);
    expect(rest.headers.get('www-authenticate')).toBe(challenge);
    expect(await problem(res, 401, 'unauthorized')).toEqual(await problem(rest, 401, 'unauthorized'));
  });

  it('401 for a revoked key', async () => {
    const k = await srv.accounts().createKey('premium', 'tool revoked', NOW);
    expect((await agentProfile(1000001, k.key)).status).toBe(200);
    await srv.accounts().revokeKey(k.id, NOW);
    await problem(await agentProfile(1000001, k.key), 401, 'unauthorized');
  });

  it('404 for an unknown carrier, which does not count against the allowance', async () => {
    const key = await freeKey('tool 404');
    const body = await problem(await agentProfile(99999999, key), 404, 'not_found');
    expect(body.detail).toContain('99999999');
    // 0 is well formed, as in the route's path, and no carrier's.
    await problem(await agentProfile(0, key), 404, 'not_found');
    const ok = await agentProfile(1000001, key);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('ratelimit-remaining')).toBe(String(ALLOWANCE - 1));
  });
});

describe('one allowance for both routes', () => {
  it('counts profile lookups through either route and stops at exactly the allowance', async () => {
    const key = await freeKey('tool mixed');
    const calls = [() => restProfile(1000001, key), () => agentProfile(1000002, key), () => restProfile(1000001, key)];
    const remaining: string[] = [];
    for (const c of calls) {
      const res = await c();
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe(String(ALLOWANCE));
      expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
      remaining.push(res.headers.get('ratelimit-remaining')!);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    for (const res of [await agentProfile(1000001, key), await restProfile(1000001, key)]) {
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(res.headers.get('ratelimit-remaining')).toBe('0');
      await problem(res, 429, 'quota_exhausted');
    }
    // Search stays open to the same key with the allowance used up.
    expect((await call('search_carrier', { query: 'alpha' }, key)).status).toBe(200);
    const usage = await srv.accounts().usage((await srv.accounts().findKey(key))!.id, NOW.toISOString().slice(0, 7));
    expect(usage).toBe(ALLOWANCE);
  });

  it('gives exactly one 200 to concurrent calls on both routes with one lookup left', async () => {
    const key = await freeKey('tool race');
    expect((await agentProfile(1000001, key)).status).toBe(200);
    expect((await restProfile(1000001, key)).status).toBe(200);
    const statuses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        (i % 2 === 0 ? agentProfile(1000001, key) : restProfile(1000001, key)).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 429)).toHaveLength(29);
  });
});

describe('refused calls', () => {
  it('lists every bad argument of search_carrier', async () => {
    const body = await problem(
      await call('search_carrier', { query: '   ', limit: 0, page: 2 }),
      400,
      'invalid_parameter',
    );
    expect(body.errors).toEqual(
      expect.arrayContaining([
        { parameter: 'args.query', message: 'must not be blank' },
        { parameter: 'args.limit', message: 'must be >= 1' },
        { parameter: 'args.page', message: 'is not a known parameter' },
      ]),
    );
    expect(body.errors).toHaveLength(3);
    for (const name of ['args.query', 'args.limit', 'args.page']) expect(body.detail).toContain(name);
  });

  it.each([
    [{ query: 'x'.repeat(201), limit: 101 }, ['args.limit', 'args.query']],
    [{ limit: '10' }, ['args.limit', 'args.query']],
    [{ query: 7 }, ['args.query']],
    [{ query: '*.*' }, ['args.query']],
    [{ query: '\u200b' }, ['args.query']],
    [{ query: 'alpha', state: 'TEX', offset: 10_001 }, ['args.offset', 'args.state']],
    [{ query: 'alpha', state: 7, offset: '1' }, ['args.offset', 'args.state']],
  ])('search_carrier %j → errors for %j', async (args, names) => {
    const body = await problem(await call('search_carrier', args), 400, 'invalid_parameter');
    expect(body.errors.map((e: Json) => e.parameter).sort()).toEqual(names);
  });

  it.each([
    {},
    { carrier_id: 'x1' },
    { carrier_id: '123456789' },
    { carrier_id: -1 },
    { carrier_id: 100000000 },
    { carrier_id: 1.5 },
  ])('get_carrier_profile %j → 400 before sign-in or counting', async (args) => {
    const key = await freeKey('tool bad args');
    const body = await problem(await call('get_carrier_profile', args, key), 400, 'invalid_parameter');
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0].parameter).toBe('args.carrier_id');
    expect(await srv.accounts().usage((await srv.accounts().findKey(key))!.id, NOW.toISOString().slice(0, 7))).toBe(0);
  });

  it.each([{}, { carrier_id: 'x' }, { carrier_id: 1000001, extra: 1 }])(
    'get_carrier_profile %j without a key → 401 first, as the route signs in before it reads the id',
    async (args) => {
      const res = await call('get_carrier_profile', args);
      await problem(res, 401, 'unauthorized');
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      await problem(await call('get_carrier_profile', args, 'sl_not-a-key'), 401, 'unauthorized');
    },
  );

  it('lists the known tools for an unknown one', async () => {
    const body = await problem(await call('get_carrier', { carrier_id: 1 }), 400, 'invalid_parameter');
    expect(body.errors).toEqual([
      { parameter: 'tool', message: 'must be one of: search_carrier, get_carrier_profile, get_changes' },
    ]);
    expect(body.detail).toContain('search_carrier, get_carrier_profile');
  });

  it('lists every fault of the envelope at once', async () => {
    const res = await fetch(url(), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ tool: 42, args: [], extra: 1 }),
    });
    const body = await problem(res, 400, 'invalid_parameter');
    expect(body.errors.map((e: Json) => e.parameter).sort()).toEqual(['args', 'extra', 'tool']);
    const missing = await problem(
      await fetch(url(), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }),
      400,
      'invalid_parameter',
    );
    expect(missing.errors.map((e: Json) => e.parameter).sort()).toEqual(['args', 'tool']);
    expect(missing.detail).toContain('search_carrier, get_carrier_profile');
  });

  it.each([
    '{"tool": "search_carrier", "args": {',
    'tool=search_carrier',
    '',
    '{"tool":"search_carrier","args":{"query":"a"}} x',
  ])('400 for malformed JSON %j', async (text) => {
    const res = await fetch(url(), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: text });
    const body = await problem(res, 400, 'invalid_parameter');
    expect(body.errors).toEqual([{ parameter: 'body', message: 'is not valid JSON' }]);
  });

  it('400 for a body that is not UTF-8, rather than a search for U+FFFD', async () => {
    const body = Buffer.concat([
      Buffer.from('{"tool":"search_carrier","args":{"query":"caf'),
      Buffer.from([0xe9]),
      Buffer.from('"}}'),
    ]);
    const res = await fetch(url(), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    const problemBody = await problem(res, 400, 'invalid_parameter');
    expect(problemBody.errors).toEqual([{ parameter: 'body', message: 'is not valid UTF-8' }]);
  });

  it.each(['[]', 'null', '"search_carrier"', '42'])('400 for a JSON body that is not an object: %s', async (text) => {
    const res = await fetch(url(), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: text });
    const body = await problem(res, 400, 'invalid_parameter');
    expect(body.errors[0].parameter).toBe('body');
  });

  it.each([
    ['text/plain', 'text/plain'],
    ['a form', 'application/x-www-form-urlencoded'],
    ['another charset', 'application/json; charset=iso-8859-1'],
  ])('415 with Accept-Post for %s', async (_label, type) => {
    const res = await fetch(url(), {
      method: 'POST',
      headers: { 'Content-Type': type },
      body: JSON.stringify({ tool: 'search_carrier', args: { query: 'alpha' } }),
    });
    expect(res.headers.get('accept-post')).toBe('application/json');
    await problem(res, 415, 'unsupported_media_type');
  });

  it('415 for a body with no Content-Type', async () => {
    const res = await raw({}, [JSON.stringify({ tool: 'search_carrier', args: { query: 'alpha' } })]);
    expect(res.status).toBe(415);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'unsupported_media_type' });
  });

  it.each(['application/json; charset=utf-8', 'application/json;charset="UTF-8"', 'application/vnd.api+json'])(
    'accepts Content-Type %s',
    async (type) => {
      const res = await fetch(url(), {
        method: 'POST',
        headers: { 'Content-Type': type },
        body: JSON.stringify({ tool: 'search_carrier', args: { query: 'alpha' } }),
      });
      expect(res.status).toBe(200);
    },
  );

  it('413 for a body over 64 KB, announced or streamed', async () => {
    const big = JSON.stringify({ tool: 'search_carrier', args: { query: 'alpha' }, pad: 'x'.repeat(65 * 1024) });
    const announced = await fetch(url(), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: big,
    });
    expect(announced.headers.get('connection')).toBe('close');
    await problem(announced, 413, 'payload_too_large');
    const streamed = await raw({ 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, [
      big.slice(0, 40_000),
      big.slice(40_000),
    ]);
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body)).toMatchObject({ status: 413, code: 'payload_too_large' });
    // A body of exactly the limit is read.
    const prefix = JSON.stringify({ tool: 'search_carrier', args: { query: 'alpha' } });
    const atLimit = `${prefix}${' '.repeat(64 * 1024 - prefix.length)}`;
    expect(
      (await fetch(url(), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: atLimit })).status,
    ).toBe(200);
  });
});
