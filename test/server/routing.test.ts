// Routing (server/core/app.ts): every request goes through polka. A handler sees the request polka gives
// it, checked by asking the same URLs of the app and of a plain polka app with the same route patterns;
// paths match exactly; HEAD, 405 with Allow, errors and the request log behave alike on every route.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import polka, { type Request } from 'polka';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteRequest, Routes, ServiceDefinition } from '../../server/core/service.ts';
import { queryOf } from '../../server/core/params.ts';
import { HttpError } from '../../contract/core/problem.ts';
import { readOnlyFixture } from '../helpers/facilities.ts';
import { rawRequest, toRequest, type RawOptions } from '../helpers/raw-http.ts';
import { startService, type Running } from '../helpers/server.ts';

/** The exact bytes of `target` sent to the server at `base` (fetch would normalize `//echo` and `#frag`). */
const send = (base: string, method: string, target: string, options?: RawOptions) =>
  rawRequest(Number(new URL(base).port), toRequest(method, target), options);

/** What a handler sees of its request, as JSON: a route's query is queryOf(req), plain polka's is req.query. */
function echoRoutes(r: Pick<Routes<unknown>, 'get'>, query: (req: RouteRequest) => object = queryOf): void {
  const send = (req: RouteRequest, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        path: req.path,
        url: req.url,
        search: req.search,
        query: { ...query(req) },
        params: { ...req.params },
      }),
    );
  };
  r.get('/echo', (req, res) => send(req, res));
  r.get('/echo/:id', (req, res) => send(req, res));
  r.get('/deep/list/:item', (req, res) => send(req, res));
}

const service: ServiceDefinition<unknown> = {
  // The facilities fixture build stands in for any build: these routes never read it.
  name: 'facilities',
  basePath: '/',
  load: () => ({}),
  routes(r) {
    echoRoutes(r);
    r.get('/fails/:how', (req) => {
      if (req.params.how === 'sync') throw new HttpError(404, 'not_found', 'thrown at once');
      return Promise.reject(new HttpError(404, 'not_found', 'rejected later'));
    });
    r.post('/only-post', (_req, res) => {
      res.end('posted');
    });
  },
};

/** URLs whose handling must not differ from polka's, however they are spelled. */
const URLS = [
  '/echo',
  '/echo?x=1&x=2&y=&z',
  '/echo?q=a%20b+c&empty',
  '/echo?',
  '/echo/abc',
  '/echo/abc?limit=5&q=%C3%A9t%C3%A9',
  '/echo/a%62c',
  '/echo/%E2%82%AC',
  '/echo/a/b',
  '/echo/a:b',
  '/echo/a.json',
  '/deep/list/x',
  '/deep/list/',
  '/deep/x',
  '//echo/abc',
  '/echo/abc#frag',
  '/nothing',
];

/**
 * Spellings polka's own patterns accept (any case, a trailing slash) that the service refuses: a route
 * matches its path exactly, as a static host serving the same tree does (server/core/app.ts, exactRoute).
 */
const INEXACT = ['/echo/', '/echo/abc/', '/ECHO/abc', '/Echo', '/echo/ABC/'];

describe('routing', () => {
  let app: Running<unknown>;
  let reference: Server;
  let referenceBase: string;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const built = await readOnlyFixture();
    app = await startService(service, built.outDir);
    const plain = polka();
    echoRoutes(
      { get: (path, h) => plain.get(path, (req, res) => h(req, res, undefined as never)) },
      (req) => (req as Request).query,
    );
    reference = createServer(plain.handler as unknown as (req: IncomingMessage, res: ServerResponse) => void);
    await new Promise<void>((res) => reference.listen(0, '127.0.0.1', res));
    referenceBase = `http://127.0.0.1:${(reference.address() as AddressInfo).port}`;
    cleanup = async () => {
      await app.close();
      reference.closeAllConnections();
      await new Promise((res) => reference.close(res));
      await built.root.remove();
    };
  });
  afterAll(() => cleanup());

  it.each(URLS)('%s: the request a handler sees is the one polka gives it', async (url) => {
    const [ours, theirs] = await Promise.all([send(app.base, 'GET', url), send(referenceBase, 'GET', url)]);
    expect(theirs.response).toBeDefined();
    const expected = theirs.response!;
    expect(ours.response?.status).toBe(expected.status);
    if (expected.status === 200)
      expect(JSON.parse(ours.response!.body.toString())).toEqual(JSON.parse(expected.body.toString()));
  });

  it.each(INEXACT)('%s: polka matches it, the service answers the canonical 404', async (url) => {
    const [ours, theirs] = await Promise.all([send(app.base, 'GET', url), send(referenceBase, 'GET', url)]);
    expect(theirs.response?.status).toBe(200);
    expect(ours.response?.status).toBe(404);
    expect(JSON.parse(ours.response!.body.toString())).toMatchObject({ code: 'not_found' });
  });

  it('passes a parameter that is percent-encoded, decoded, and answers 405 with Allow on an exact path', async () => {
    const encoded = await send(app.base, 'GET', '/echo/a%62c');
    expect(JSON.parse(encoded.response!.body.toString()).params).toEqual({ id: 'abc' });
    const post = await send(app.base, 'POST', '/echo/abc');
    expect(post.response?.status).toBe(405);
    expect(post.response?.headers.allow).toBe('GET, HEAD');
    expect((await send(app.base, 'POST', '/echo/abc/')).response?.status).toBe(404);
  });

  it('answers HEAD with the GET route, without a body', async () => {
    const r = await send(app.base, 'HEAD', '/echo/abc', { head: true });
    expect(r.response?.status).toBe(200);
    expect(r.response?.body.length).toBe(0);
  });

  it('turns a thrown error and a rejected promise into the same problem+json', async () => {
    for (const [how, detail] of [
      ['sync', 'thrown at once'],
      ['async', 'rejected later'],
    ] as const) {
      const r = await fetch(`${app.base}/fails/${how}`);
      expect(r.status).toBe(404);
      expect(r.headers.get('content-type')).toContain('application/problem+json');
      expect(r.headers.get('x-data-version')).toBe(app.app.state().build.manifest.data_version);
      expect(((await r.json()) as { detail: string }).detail).toBe(detail);
    }
  });

  it('answers another method on a known path with 405 and Allow', async () => {
    const r = await fetch(`${app.base}/echo`, { method: 'DELETE' });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, HEAD');
    const g = await fetch(`${app.base}/only-post`);
    expect(g.status).toBe(405);
    expect(g.headers.get('allow')).toBe('POST');
  });

  it('logs every request once, by its path without the query: routes, 405s, 404s and refusals', async () => {
    app.logs.length = 0;
    await fetch(`${app.base}/echo/xyz?a=1`);
    await fetch(`${app.base}/echo/x%79z?key=secret`);
    await fetch(`${app.base}/echo`, { method: 'DELETE' });
    await fetch(`${app.base}/nothing?key=secret`);
    const twoHosts = toRequest('GET', '/echo?key=secret', [
      ['Host', '127.0.0.1'],
      ['Host', 'example.org'],
    ]);
    await rawRequest(Number(new URL(app.base).port), twoHosts);
    expect(app.logs.map((l) => [l.method, l.path, l.status, l.service])).toEqual([
      ['GET', '/echo/xyz', 200, 'facilities'],
      ['GET', '/echo/x%79z', 200, 'facilities'],
      ['DELETE', '/echo', 405, 'facilities'],
      ['GET', '/nothing', 404, 'facilities'],
      ['GET', '/echo', 400, 'facilities'],
    ]);
    for (const l of app.logs) expect(l.ms).toBeGreaterThanOrEqual(0);
  });

  it('answers a path two routes match with the route registered first, as polka does', async () => {
    const built = await readOnlyFixture();
    try {
      const ordered: ServiceDefinition<unknown> = {
        ...service,
        routes(r) {
          r.get('/items/special', (_req, res) => void res.end('special'));
          r.get('/items/:id', (_req, res) => void res.end('item'));
        },
      };
      const running = await startService(ordered, built.outDir);
      try {
        expect(await (await fetch(`${running.base}/items/special`)).text()).toBe('special');
        expect(await (await fetch(`${running.base}/items/other`)).text()).toBe('item');
      } finally {
        await running.close();
      }
    } finally {
      await built.root.remove();
    }
  });
});
