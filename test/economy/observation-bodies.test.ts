// Kept /api/observations bodies (server/economy/bodies.ts): a body is keyed by the cache entry it was made
// from, so a pull that replaces the entry, or a failed pull that turns it stale, is never answered with the
// old "fresh" bytes.
// The route is tested on a real socket against a fake WDS (node:http on 127.0.0.1) with a pinned clock.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Observation, RegistryEntry } from '../../contract/economy/types.ts';
import type { ServiceDefinition } from '../../server/core/service.ts';
import { toPayload } from '../../server/core/payload.ts';
import { createObservationCache, type ObservationCache } from '../../server/economy/cache.ts';
import { BodyMemo, toBodyKey } from '../../server/economy/bodies.ts';
import { observationRoutes } from '../../server/economy/observations-routes.ts';
import { type ObservationsAnswer, toView } from '../../server/economy/observations.ts';
import { createStatcanClient } from '../../contract/economy/upstream/statcan.ts';
import { createValetClient } from '../../contract/economy/upstream/valet.ts';
import { createRealtimeArchive } from '../../server/economy/realtime-archive.ts';
import { publishEmptyEconomyBuild } from '../helpers/economy-routes.ts';
import { createVintageArchive } from '../../server/economy/vintages.ts';
import { startService, tempDir, type Running } from '../helpers/server.ts';

const DAY = 86_400_000;
const START = Date.parse('2026-05-04T10:00:00.000Z');

const entryOf = (id: string, vectorId: number): RegistryEntry => ({
  id,
  title: id,
  source: 'STATCAN',
  tableId: '18-10-0004-01',
  units: 'Index, 2002=100',
  unitsDetail: '',
  frequency: 'monthly',
  category: 'prices',
  description: '',
  vectorIds: [vectorId],
  seriesNames: [],
  scalarFactorCode: 0,
  lastVerified: '2026-05-01',
});
const CPI = entryOf('CPI_ALL_ITEMS', 41690973);
const IPPI = entryOf('IPPI_TOTAL', 1230996350);

const obs = (...values: number[]): Observation[] => values.map((value, i) => ({ date: `2025-0${i + 1}-01`, value }));

describe('BodyMemo', () => {
  const payload = (text: string) => toPayload(text, 'application/json', false);
  const answer = (observations: Observation[], flags: Partial<ObservationsAnswer> = {}): ObservationsAnswer => ({
    series: CPI.id,
    frequency: 'monthly',
    view: toView({ series: CPI.id }),
    observations,
    missing: [],
    start: 0,
    end: observations.length,
    source: 'Statistics Canada',
    cached: true,
    asOf: new Date(START).toISOString(),
    ...flags,
  });

  it('keys a body by the copy it was made from, so a copy the cache replaced is never answered for the new one', () => {
    const memo = new BodyMemo(1 << 20);
    const old = obs(1, 2);
    memo.set(toBodyKey(answer(old)), payload('old'));
    memo.set(toBodyKey(answer(old, { start: 1 })), payload('old, from'));
    expect(memo.get(toBodyKey(answer(old)))?.body.toString()).toBe('old');
    expect(memo.size).toBe(2);

    // An equal but new array is another copy: a pull made it.
    const fresh = obs(1, 2);
    expect(memo.get(toBodyKey(answer(fresh)))).toBeUndefined();
    expect(memo.get(toBodyKey(answer(fresh, { start: 1 })))).toBeUndefined();
    // The flags the document carries are part of the key too.
    expect(toBodyKey(answer(old, { cached: false }))).not.toBe(toBodyKey(answer(old)));
    expect(toBodyKey(answer(old, { stale: true }))).not.toBe(toBodyKey(answer(old)));
  });

  it('makes a body once for concurrent requests of one key', async () => {
    const memo = new BodyMemo(1 << 20);
    let made = 0;
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    const make = async () => {
      made++;
      await held;
      return payload('made');
    };
    // All ten ask while the first body is still being made.
    const asked = Array.from({ length: 10 }, () => memo.getOrMake('k', make));
    release();
    const all = await Promise.all(asked);
    expect(made).toBe(1);
    expect(new Set(all).size).toBe(1);
    expect(await memo.getOrMake('k', make)).toBe(all[0]);
    expect(made).toBe(1);
  });

  it('stays within its byte budget, evicting the least recently used', () => {
    const body = 'x'.repeat(1000);
    const one = new BodyMemo(1 << 20);
    one.set('k', payload(body));
    const itemBytes = one.bytes;
    expect(itemBytes).toBeGreaterThan(1000);

    const memo = new BodyMemo(itemBytes * 3);
    for (const k of ['a', 'b', 'c']) memo.set(k, payload(body));
    expect(memo.size).toBe(3);
    memo.get('a'); // a is now the most recently used
    memo.set('d', payload(body));
    expect(memo.size).toBe(3);
    expect(memo.bytes).toBeLessThanOrEqual(itemBytes * 3);
    expect(memo.get('b')).toBeUndefined();
    expect(['a', 'c', 'd'].every((k) => memo.get(k) !== undefined)).toBe(true);

    // A payload larger than the whole budget is not kept, and pushes nothing else out for nothing.
    memo.set('huge', payload('y'.repeat(itemBytes * 4)));
    expect(memo.get('huge')).toBeUndefined();
    expect(memo.bytes).toBeLessThanOrEqual(itemBytes * 3);
  });
});

interface FakeWds {
  base: string;
  pulls: number;
  values: number[];
  failing: boolean;
  close(): Promise<void>;
}

/** getDataFromVectorsAndLatestNPeriods for whatever vector is asked, monthly from 2025-01, 20 ms late. */
async function startFakeWds(): Promise<FakeWds> {
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      fake.pulls++;
      setTimeout(() => {
        if (fake.failing) {
          res.writeHead(503).end('<html>Service Unavailable</html>');
          return;
        }
        const vectorId = (JSON.parse(body) as { vectorId: number }[])[0]?.vectorId;
        const vectorDataPoint = fake.values.map((value, i) => ({
          refPer: `2025-0${i + 1}-01`,
          value,
          decimals: 1,
          scalarFactorCode: 0,
          symbolCode: 0,
          statusCode: 0,
          securityLevelCode: 0,
        }));
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(
          JSON.stringify([
            {
              status: 'SUCCESS',
              object: {
                responseStatusCode: 0,
                productId: 18100004,
                coordinate: '1.1.0.0.0.0.0.0.0.0',
                vectorId,
                vectorDataPoint,
              },
            },
          ]),
        );
      }, 20);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const fake: FakeWds = {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    pulls: 0,
    values: [160.1, 160.5],
    failing: false,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  return fake;
}

describe('cached observation responses', () => {
  let root: Awaited<ReturnType<typeof tempDir>>;
  let fake: FakeWds;
  let cache: ObservationCache;
  let running: Running<Map<string, RegistryEntry>>;
  let t = START;
  const now = () => new Date(t);
  const get = async (query: string) => {
    const res = await fetch(`${running.base}/api/observations${query}`);
    return {
      res,
      etag: res.headers.get('etag'),
      body: (await res.json()) as { observations: Observation[]; cached: boolean; asOf: string; stale?: boolean },
    };
  };

  beforeAll(async () => {
    root = await tempDir('economy-payloads');
    fake = await startFakeWds();
    const outDir = join(root.path, 'dist-data');
    await publishEmptyEconomyBuild(outDir, new Date(START));
    const dir = join(root.path, 'state', 'economy');
    const vintages = createVintageArchive(dir);
    cache = createObservationCache({
      dir,
      upstreams: {
        STATCAN: createStatcanClient({ baseUrl: fake.base }),
        BOC: createValetClient({ baseUrl: fake.base }),
      },
      now,
      vintages,
      retryBaseMs: 60_000,
      log: () => {},
    });
    const def: ServiceDefinition<Map<string, RegistryEntry>> = {
      name: 'economy',
      basePath: '/api',
      load: () => new Map([CPI, IPPI].map((e) => [e.id, e])),
      routes: (r) =>
        observationRoutes(r, {
          entry: (id, s) => s.data.get(id),
          entries: (s) => s.data.values(),
          stores: () => ({ cache, vintages, realtime: createRealtimeArchive(vintages) }),
          now,
        }),
    };
    running = await startService(def, outDir);
  });
  afterAll(async () => {
    await running?.close();
    await fake?.close();
    await root?.remove();
  });

  it('peeks only at a fresh copy already in memory', async () => {
    expect(cache.peek(IPPI)).toBeUndefined();
    const got = await cache.get(IPPI);
    expect(cache.peek(IPPI)).toEqual({ ...got, cached: true });
    expect(cache.peek(IPPI)?.observations).toBe(got.observations);
    // Other upstream identifiers: not this copy.
    expect(cache.peek({ ...IPPI, vectorIds: [1] })).toBeUndefined();
  });

  it('never answers a replaced or stale entry with the payload of the fresh one', async () => {
    const q = '?series=CPI_ALL_ITEMS&from=2025-01-01';
    const t0 = new Date(t).toISOString();
    const first = await get(q);
    expect(first.body).toMatchObject({ cached: false, asOf: t0, observations: obs(160.1, 160.5) });
    const second = await get(q);
    const third = await get(q);
    expect(second.body).toMatchObject({ cached: true, asOf: t0 });
    expect(third.body).toEqual(second.body);
    expect(third.etag).toBe(second.etag);
    expect(fake.pulls).toBe(2); // CPI once, IPPI once in the test before

    // A day later the upstream has revised; the next request pulls and says so.
    fake.values = [160.2, 160.6];
    t += DAY + 60_000;
    const t1 = new Date(t).toISOString();
    const pulled = await get(q);
    expect(pulled.body).toMatchObject({ cached: false, asOf: t1, observations: obs(160.2, 160.6) });
    const after = await get(q);
    expect(after.body).toMatchObject({ cached: true, asOf: t1, observations: obs(160.2, 160.6) });
    expect(after.etag).not.toBe(third.etag);
    expect(fake.pulls).toBe(3);

    // Another day, and the upstream is down: the copy is served as stale with its own asOf, never as fresh.
    fake.failing = true;
    t += DAY + 60_000;
    const stale = await get(q);
    expect(stale.res.headers.get('cache-control')).toBe('public, max-age=60');
    expect(stale.body).toMatchObject({ cached: true, stale: true, asOf: t1, observations: obs(160.2, 160.6) });
    expect((await get(q)).body).toMatchObject({ stale: true, asOf: t1 });

    // Back up after the back-off: a new pull, and the stale answer is gone.
    fake.failing = false;
    fake.values = [160.3, 160.7];
    t += 2 * 60_000;
    const t2 = new Date(t).toISOString();
    expect((await get(q)).body).toMatchObject({ cached: false, asOf: t2, observations: obs(160.3, 160.7) });
    const fresh = await get(q);
    expect(fresh.res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(fresh.body).toEqual({
      series: 'CPI_ALL_ITEMS',
      observations: obs(160.3, 160.7),
      source: 'Statistics Canada',
      cached: true,
      asOf: t2,
      units: 'lin',
      frequency: 'm',
      count: 2,
      limit: 100000,
      offset: 0,
    });
  });

  it('drops the payloads of an entry replaced by a pull made elsewhere (the MCP tool) before serving the query again', async () => {
    const q = '?series=IPPI_TOTAL';
    await get(q);
    const before = await get(q);
    expect(before.body.cached).toBe(true);
    fake.values = [99.5, 99.9];
    t += DAY + 60_000;
    // The cache is pulled through its own interface, as the MCP tool does, not through this route.
    const pulled = await cache.get(IPPI);
    expect(pulled.cached).toBe(false);
    const next = await get(q);
    expect(next.body).toMatchObject({ cached: true, asOf: pulled.asOf, observations: obs(99.5, 99.9) });
    expect(next.etag).not.toBe(before.etag);
  });
});
