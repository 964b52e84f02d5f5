// Browsers and other origins (docs/contracts/common.md): `*` on public routes, the listed origins only on
// signed-in ones, OPTIONS preflights, nosniff on every response and a same-origin CSP on HTML pages. On a
// real socket, against the carriers fixture (public and signed-in routes, the static tree, /docs) and the
// facilities and economy fixtures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corsOriginsSetting, PREFLIGHT_MAX_AGE } from '../../server/core/cors.ts';
import { PAGE_POLICY } from '../../server/core/payload.ts';
import { ConfigError } from '../../contract/core/settings.ts';
import { type buildCarriersFixture, readOnlyCarriersFixture, serveCarriers } from '../helpers/carriers.ts';
import { serveFixture } from '../helpers/facilities.ts';
import { serveEconomyFixture } from '../helpers/economy.ts';
import { rawRequest, toRequest } from '../helpers/raw-http.ts';

const APP = 'https://app.example.com';
const OTHER = 'https://elsewhere.example.org';
const NOW = new Date('2026-11-22T12:00:00.000Z');

describe('CORS_ORIGINS', () => {
  it('reads origins separated by commas, blanks and a trailing slash forgiven', () => {
    expect([...corsOriginsSetting(' https://a.example.com, http://localhost:5173/ ,')]).toEqual([
      'https://a.example.com',
      'http://localhost:5173',
    ]);
    expect(corsOriginsSetting(undefined).size).toBe(0);
    expect(corsOriginsSetting('').size).toBe(0);
  });

  it.each(['*', 'app.example.com', 'https://app.example.com/path', 'ftp://files.example.com'])(
    'refuses %j, naming the setting',
    (raw) => {
      expect(() => corsOriginsSetting(raw)).toThrow(ConfigError);
      expect(() => corsOriginsSetting(raw)).toThrow(/CORS_ORIGINS/);
    },
  );
});

describe('carriers: public and signed-in routes', () => {
  let built: Awaited<ReturnType<typeof buildCarriersFixture>>;
  let srv: Awaited<ReturnType<typeof serveCarriers>>;
  let key: string;

  beforeAll(async () => {
    built = await readOnlyCarriersFixture();
    srv = await serveCarriers(built, { corsOrigins: new Set([APP]) });
    key = (await srv.accounts().createKey('premium', 'cors test', NOW)).key;
  });
  afterAll(async () => {
    await srv?.close();
    await built?.root.remove();
  });

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${srv.base}${path}`, { headers });
  const options = (path: string, headers: Record<string, string>) =>
    fetch(`${srv.base}${path}`, { method: 'OPTIONS', headers });

  it('a public route answers any origin with *, and lets it read the validator and data version', async () => {
    for (const path of ['/api/search?q=freight', '/api/openapi', '/api/mcp', '/manifest.json', '/healthz']) {
      const res = await get(path, { Origin: OTHER });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
      expect(res.headers.get('access-control-expose-headers'), path).toMatch(/\bETag\b.*\bX-Data-Version\b/);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('vary') ?? '', path).not.toMatch(/Origin/);
    }
  });

  it('a 304 and a problem on a public route carry the same headers', async () => {
    const first = await get('/api/search?q=freight');
    const again = await get('/api/search?q=freight', { 'If-None-Match': first.headers.get('etag')! });
    expect(again.status).toBe(304);
    expect(again.headers.get('access-control-allow-origin')).toBe('*');
    expect(again.headers.get('x-content-type-options')).toBe('nosniff');
    const bad = await get('/api/search?q=*');
    expect(bad.status).toBe(400);
    expect(bad.headers.get('access-control-allow-origin')).toBe('*');
    expect(bad.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('a signed-in route names a listed origin, with Vary: Origin, and no other origin', async () => {
    const auth = { Authorization: `Bearer ${key}` };
    const listed = await get('/api/carrier/1000001', { ...auth, Origin: APP });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('access-control-allow-origin')).toBe(APP);
    expect(listed.headers.get('vary')).toMatch(/\bOrigin\b/);
    expect(listed.headers.get('x-content-type-options')).toBe('nosniff');
    const other = await get('/api/carrier/1000001', { ...auth, Origin: OTHER });
    expect(other.status).toBe(200);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(other.headers.get('vary')).toMatch(/\bOrigin\b/);
    // A refusal of the listed origin is readable by its page too (401 with its problem body).
    const refused = await get('/api/carrier/1000001', { Origin: APP });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(APP);
    const exported = await get('/api/carrier/1000001/export?format=csv', { ...auth, Origin: APP });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('access-control-allow-origin')).toBe(APP);
    expect(exported.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('a preflight for a public route: 204, any origin, GET and HEAD, a max age', async () => {
    const res = await options('/api/search', {
      Origin: OTHER,
      'Access-Control-Request-Method': 'GET',
      'Access-Control-Request-Headers': 'if-none-match',
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD');
    expect(res.headers.get('access-control-allow-headers')).toMatch(/If-None-Match/);
    expect(res.headers.get('access-control-max-age')).toBe(String(PREFLIGHT_MAX_AGE));
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toBe('');
    const file = await options('/manifest.json', { Origin: OTHER, 'Access-Control-Request-Method': 'GET' });
    expect(file.status).toBe(204);
    expect(file.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('a preflight for a signed-in route grants a listed origin Authorization, and nothing to another', async () => {
    const ask = { 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' };
    const listed = await options('/api/carrier/1000001', { ...ask, Origin: APP });
    expect(listed.status).toBe(204);
    expect(listed.headers.get('access-control-allow-origin')).toBe(APP);
    expect(listed.headers.get('access-control-allow-headers')).toMatch(/^Authorization\b/);
    expect(listed.headers.get('access-control-allow-methods')).toBe('GET, HEAD');
    expect(listed.headers.get('vary')).toMatch(/Origin/);
    const other = await options('/api/carrier/1000001', { ...ask, Origin: OTHER });
    expect(other.status).toBe(204);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(other.headers.get('access-control-allow-methods')).toBeNull();
    // /api/mcp: the tool list is public, running a tool is signed-in.
    const list = await options('/api/mcp', { Origin: OTHER, 'Access-Control-Request-Method': 'GET' });
    expect(list.headers.get('access-control-allow-origin')).toBe('*');
    expect(list.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    const run = await options('/api/mcp', { Origin: APP, 'Access-Control-Request-Method': 'POST' });
    expect(run.headers.get('access-control-allow-origin')).toBe(APP);
    expect(run.headers.get('access-control-allow-methods')).toBe('POST');
  });

  it('OPTIONS without a preflight is 204 with Allow; on a path nothing has, 404', async () => {
    const plain = await options('/api/openapi', {});
    expect(plain.status).toBe(204);
    expect(plain.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
    const missing = await options('/api/nothing-here', { Origin: OTHER, 'Access-Control-Request-Method': 'GET' });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/problem+json');
    const hidden = await options('/private/profiles.bin', { Origin: OTHER, 'Access-Control-Request-Method': 'GET' });
    expect(hidden.status).toBe(404);
  });

  it('the docs page allows only its own origin; the OpenAPI document is JSON with nosniff', async () => {
    const page = await get('/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const policy = page.headers.get('content-security-policy');
    expect(policy).toBe(PAGE_POLICY);
    expect(policy).toMatch(/default-src 'self'/);
    expect(policy).not.toMatch(/https?:|\*/);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const doc = await get('/api/openapi');
    expect(doc.headers.get('content-security-policy')).toBeNull();
  });

  it('a request refused before routing carries nosniff too', async () => {
    const port = Number(new URL(srv.base).port);
    const twoHosts = toRequest('GET', '/api/search?q=a', [
      ['Host', 'a.example.com'],
      ['Host', 'b.example.com'],
    ]);
    const { response } = await rawRequest(port, twoHosts);
    expect(response?.status).toBe(400);
    expect(response?.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('facilities and economy: every route public', () => {
  it('facilities answers any origin on a record, a search and stats', async () => {
    const srv = await serveFixture();
    try {
      for (const path of ['/api/v1/facility/ONF-000001', '/api/v1/search?q=steel', '/api/v1/stats']) {
        const res = await fetch(`${srv.base}${path}`, { headers: { Origin: OTHER } });
        expect(res.status, path).toBe(200);
        expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
        expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      }
      const missing = await fetch(`${srv.base}/api/v1/facility/ONF-999999`);
      expect(missing.status).toBe(404);
      expect(missing.headers.get('access-control-allow-origin')).toBe('*');
    } finally {
      await srv.close();
    }
  });

  it('economy exposes X-Total-Count to pages paging through the series', async () => {
    const srv = await serveEconomyFixture();
    try {
      const res = await fetch(`${srv.base}/api/series?limit=1`, { headers: { Origin: OTHER } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-expose-headers')).toMatch(/X-Total-Count/);
      expect(Number(res.headers.get('x-total-count'))).toBeGreaterThan(1);
    } finally {
      await srv.close();
    }
  });
});
