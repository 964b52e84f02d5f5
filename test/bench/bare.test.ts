// The bench's yardstick (bench/bare.ts) must answer exactly what the app answers, head and body, or the
// ratio to bare would compare two different responses.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureInto, createBareHandler, toBareHeaders, type BareTable } from '../../bench/bare.ts';
import { getLocal } from '../../bench/http.ts';
import { type buildCarriersFixture, readOnlyCarriersFixture, serveCarriers } from '../helpers/carriers.ts';

type Built = Awaited<ReturnType<typeof buildCarriersFixture>>;

describe('bare yardstick', () => {
  let built: Built;
  let app: Awaited<ReturnType<typeof serveCarriers>>;
  let bare: Server;
  let appPort: number;
  let barePort: number;
  let key: string;
  const publicPaths = ['/api/search?q=alpha', '/api/search?q=USDOT%201000002&limit=5', '/api/openapi', '/healthz'];

  beforeAll(async () => {
    built = await readOnlyCarriersFixture();
    app = await serveCarriers(built);
    key = (await app.accounts().createKey('premium', 'bench test', new Date())).key;
    appPort = Number(new URL(app.base).port);
    const table: BareTable = new Map();
    await captureInto(table, appPort, publicPaths);
    await captureInto(table, appPort, ['/api/carrier/1000001'], { authorization: `Bearer ${key}` });
    bare = createServer(createBareHandler(table));
    await new Promise<void>((res) => bare.listen(0, '127.0.0.1', res));
    barePort = (bare.address() as AddressInfo).port;
  });

  afterAll(async () => {
    bare?.closeAllConnections();
    await new Promise((res) => bare?.close(res));
    await app?.close();
    await built?.root.remove();
  });

  const compare = async (path: string, headers: Record<string, string> = {}) => {
    const [a, b] = await Promise.all([getLocal(appPort, path, headers), getLocal(barePort, path, headers)]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.body.equals(a.body)).toBe(true);
    // Every header the app chose, in its order and spelling; Node's own (Date, Connection, Keep-Alive) aside.
    expect(toBareHeaders(b.rawHeaders)).toEqual(toBareHeaders(a.rawHeaders));
    return toBareHeaders(a.rawHeaders);
  };

  it('answers public paths with the app head and body', async () => {
    for (const path of publicPaths) {
      const head = await compare(path);
      expect(head).toContain('X-Data-Version');
      expect(head).toContain('Cache-Control');
    }
  });

  it('answers a signed-in profile with the app head and body', async () => {
    const head = await compare('/api/carrier/1000001', { authorization: `Bearer ${key}` });
    expect(head).toContain('ETag');
  });

  it('leaves out only the headers node:http writes itself', () => {
    expect(
      toBareHeaders([
        'Date',
        'x',
        'ETag',
        '"1"',
        'connection',
        'keep-alive',
        'Keep-Alive',
        'timeout=5',
        'Vary',
        'Accept-Encoding',
      ]),
    ).toEqual(['ETag', '"1"', 'Vary', 'Accept-Encoding']);
  });

  it('answers 404 to a path it did not capture', async () => {
    expect((await getLocal(barePort, '/api/search?q=other')).status).toBe(404);
  });
});
