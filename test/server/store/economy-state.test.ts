// Economy's state stores (server/economy/state.ts): one suite, run against the embedded stores (files under
// STATE_DIR and in-process leases) and against PostgreSQL (server/economy/state-postgres.ts) on a real
// server (test/helpers/postgres.ts). Then the observation cache over each, and what only a shared store
// does: several caches (servers) over one database pull a series once, take over the lease of one that
// died, and keep each other's back-off.
import { CPI } from '../../fixtures/economy.ts';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Observation } from '../../../contract/economy/types.ts';
import type { SeriesUpstream } from '../../../contract/economy/upstream/port.ts';
import { openPostgres, type PostgresStore, StoreUnavailableError } from '../../../server/core/postgres.ts';
import { createObservationCache, type ObservationCacheOptions } from '../../../server/economy/cache.ts';
import {
  createFileCopies,
  createMemoryLeases,
  type ObservationCopies,
  type PullLeases,
} from '../../../server/economy/state.ts';
import {
  createPostgresCopies,
  createPostgresLeases,
  createPostgresVintages,
} from '../../../server/economy/state-postgres.ts';
import { createVintageArchive, type VintageArchive } from '../../../server/economy/vintages.ts';
import { startOutageProxy, type OutageProxy } from '../../helpers/outage.ts';
import { sharedPostgres } from '../../helpers/postgres.ts';
import { tempDir } from '../../helpers/server.ts';

const shared = sharedPostgres();

/** One open set of stores; `reopen` gives new instances over the same state (a restart), `close` ends them. */
interface Stores {
  copies: ObservationCopies;
  leases: PullLeases;
  vintages: VintageArchive;
  reopen(): Omit<Stores, 'reopen' | 'close'>;
  close(): Promise<void>;
}

interface Implementation {
  name: string;
  /** Fresh, empty state. */
  open(): Promise<Stores>;
}

const silent = () => {};

const files: Implementation = {
  name: 'files and memory (embedded)',
  async open() {
    const dir = await tempDir('economy-state');
    const make = () => ({
      copies: createFileCopies(dir.path, silent),
      leases: createMemoryLeases(),
      vintages: createVintageArchive(dir.path, { log: silent }),
    });
    const first = make();
    return {
      ...first,
      // The memory leases are the process's: a restart starts without any, which is the embedded behaviour.
      reopen: make,
      close: () => dir.remove(),
    };
  },
};

// Through a proxy, so the database can go down for this suite alone.
let server: OutageProxy | undefined;
let url = '';
let handles = 0;

const postgres: Implementation = {
  name: 'PostgreSQL',
  async open() {
    const opened: PostgresStore[] = [];
    const make = () => {
      // Another URL string is another pool, as another server process would have.
      const pg = openPostgres(`${url}?application_name=t${++handles}`, { log: silent });
      opened.push(pg);
      return {
        copies: createPostgresCopies(pg, 'live', silent),
        leases: createPostgresLeases(pg, 'live'),
        vintages: createPostgresVintages(pg, 'live'),
      };
    };
    const first = make();
    // Empty state for each test: the tables are made by the first statement.
    await first.copies.read('CPI_ALL_ITEMS');
    await opened[0]!.query('TRUNCATE economy_observations, economy_pull_leases, economy_vintages');
    return {
      ...first,
      reopen: make,
      close: async () => {
        await Promise.all(opened.map((h) => h.close()));
      },
    };
  },
};

beforeAll(async () => {
  if (!shared) return;
  server = await startOutageProxy(shared.port);
  url = server.via(await shared.createDatabase('economy_state'));
});
afterAll(async () => {
  await server?.close();
});

const IMPLEMENTATIONS = [files, ...(shared ? [postgres] : [])];

const obs = (...values: number[]): Observation[] =>
  values.map((value, i) => ({ date: `2025-${String(i + 1).padStart(2, '0')}-01`, value }));

const copy = (asOf: string, values: number[], series = 'CPI_ALL_ITEMS') => ({
  series,
  key: '["Statistics Canada","STATCAN",[41690973],[],0]',
  source: 'Statistics Canada',
  asOf,
  observations: obs(...values),
});

const BACKOFF = { baseMs: 60_000, maxMs: 3_600_000 };
// A lease's time is the store's own clock (the database's, shared by every server), so time passes for real.
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits until the lease on CPI has run out. */
const runsOut = (leases: PullLeases) =>
  vi.waitFor(async () => expect(await leases.state('CPI_ALL_ITEMS')).toEqual({}), { timeout: 5_000, interval: 25 });

describe.each(IMPLEMENTATIONS)('economy state: $name', (impl) => {
  let s: Stores;
  beforeEach(async () => {
    s = await impl.open();
  });
  afterEach(async () => {
    await s.close();
  });

  describe('observation copies', () => {
    it('reads back what was written, across a restart, and nothing for a series never written', async () => {
      expect(await s.copies.read('CPI_ALL_ITEMS')).toBeUndefined();
      await s.copies.write(copy('2026-01-02T03:04:05.000Z', [160.1, 160.5]));
      expect(await s.copies.read('CPI_ALL_ITEMS')).toEqual(copy('2026-01-02T03:04:05.000Z', [160.1, 160.5]));
      expect(await s.reopen().copies.read('CPI_ALL_ITEMS')).toEqual(copy('2026-01-02T03:04:05.000Z', [160.1, 160.5]));
      expect(await s.copies.read('GDP')).toBeUndefined();
      await expect(s.copies.read('../etc')).rejects.toThrow(/not upper case/);
    });

    it('keeps the flags, release times and points without a value a pull had', async () => {
      const flagged = {
        ...copy('2026-01-02T03:04:05.000Z', [160.1]),
        observations: [{ date: '2025-01-01', value: 160.1, status: 'E p', released: '2025-02-18T08:30' }],
        missing: [{ date: '2025-02-01', status: 'x', released: '2025-03-18T08:30' }],
        released: '2026-01-02T03:04:06.000Z',
      };
      await s.copies.write(flagged);
      expect(await s.reopen().copies.read('CPI_ALL_ITEMS')).toEqual(flagged);
      const { key: _, ...snapshot } = flagged;
      await s.vintages.write(snapshot);
      expect(await s.reopen().vintages.read('CPI_ALL_ITEMS', '2026-01-02')).toEqual({
        ...snapshot,
        vintage: '2026-01-02',
      });
    });

    it('is replaced by a later pull only, and reads only what is newer than a time when asked', async () => {
      await s.copies.write(copy('2026-01-02T03:04:05.000Z', [1]));
      await s.copies.write(copy('2026-01-03T03:04:05.000Z', [1, 2]));
      await s.copies.write(copy('2026-01-02T09:00:00.000Z', [9, 9, 9]));
      expect((await s.copies.read('CPI_ALL_ITEMS'))?.observations).toEqual(obs(1, 2));
      expect(await s.copies.read('CPI_ALL_ITEMS', '2026-01-03T03:04:05.000Z')).toBeUndefined();
      expect((await s.copies.read('CPI_ALL_ITEMS', '2026-01-03T03:04:04.999Z'))?.asOf).toBe('2026-01-03T03:04:05.000Z');
    });
  });

  describe('pull leases', () => {
    it('has one holder at a time, who may renew and take it again; released, another takes it', async () => {
      expect(await s.leases.take('CPI_ALL_ITEMS', 'a', 10_000, 0)).toEqual({ taken: true });
      expect(await s.leases.take('CPI_ALL_ITEMS', 'b', 10_000, 0)).toEqual({ taken: false, heldBy: 'a' });
      expect(await s.leases.take('GDP', 'b', 10_000, 0)).toEqual({ taken: true });
      expect(await s.leases.renew('CPI_ALL_ITEMS', 'a', 10_000)).toBe(true);
      expect(await s.leases.renew('CPI_ALL_ITEMS', 'b', 10_000)).toBe(false);
      expect(await s.leases.take('CPI_ALL_ITEMS', 'a', 10_000, 0)).toEqual({ taken: true });
      expect(await s.leases.state('CPI_ALL_ITEMS')).toEqual({ heldBy: 'a' });
      await s.leases.release('CPI_ALL_ITEMS', 'b');
      expect(await s.leases.state('CPI_ALL_ITEMS')).toEqual({ heldBy: 'a' });
      await s.leases.release('CPI_ALL_ITEMS', 'a');
      expect(await s.leases.state('CPI_ALL_ITEMS')).toEqual({});
      expect(await s.leases.take('CPI_ALL_ITEMS', 'b', 10_000, 0)).toEqual({ taken: true });
    });

    it('expires when not renewed, and is then taken by another; the old holder cannot renew it', async () => {
      // Margins of hundreds of milliseconds either side: the suites run side by side on two cores.
      expect(await s.leases.take('CPI_ALL_ITEMS', 'a', 1_000, 0)).toEqual({ taken: true });
      await sleep(400);
      expect(await s.leases.renew('CPI_ALL_ITEMS', 'a', 1_000)).toBe(true);
      await sleep(400);
      expect(await s.leases.take('CPI_ALL_ITEMS', 'b', 1_000, 0)).toMatchObject({ taken: false, heldBy: 'a' });
      await runsOut(s.leases);
      expect(await s.leases.take('CPI_ALL_ITEMS', 'b', 10_000, 0)).toEqual({ taken: true });
      expect(await s.leases.renew('CPI_ALL_ITEMS', 'a', 10_000)).toBe(false);
    });

    it('records failures with a doubling back-off that keeps everyone off until it ends; a good pull clears them', async () => {
      await s.leases.take('CPI_ALL_ITEMS', 'a', 10_000, 1_000);
      const first = await s.leases.failed('CPI_ALL_ITEMS', 'a', 'HTTP 503', 1_000, BACKOFF);
      expect(first).toEqual({ failures: 1, error: 'HTTP 503', failedAt: 1_000, retryAt: 61_000 });
      expect(await s.leases.take('CPI_ALL_ITEMS', 'b', 10_000, 60_999)).toEqual({ taken: false, failure: first });
      // The holder that failed is held off too.
      expect(await s.leases.take('CPI_ALL_ITEMS', 'a', 10_000, 2_000)).toMatchObject({ taken: false });
      expect(await s.leases.take('CPI_ALL_ITEMS', 'b', 10_000, 61_000)).toEqual({ taken: true });
      expect(await s.leases.failed('CPI_ALL_ITEMS', 'b', 'timeout', 61_000, BACKOFF)).toEqual({
        failures: 2,
        error: 'timeout',
        failedAt: 61_000,
        retryAt: 181_000,
      });
      expect(await s.leases.state('CPI_ALL_ITEMS')).toEqual({
        failure: { failures: 2, error: 'timeout', failedAt: 61_000, retryAt: 181_000 },
      });
      // Capped at the longest wait.
      let at = 181_000;
      for (let i = 0; i < 8; i++) {
        await s.leases.take('CPI_ALL_ITEMS', 'a', 10_000, at);
        const f = await s.leases.failed('CPI_ALL_ITEMS', 'a', 'x', at, BACKOFF);
        expect(f!.retryAt - at).toBe(Math.min(3_600_000, 60_000 * 2 ** (f!.failures - 1)));
        at = f!.retryAt;
      }
      await s.leases.take('CPI_ALL_ITEMS', 'a', 10_000, at);
      await s.leases.succeeded('CPI_ALL_ITEMS', 'a');
      expect(await s.leases.state('CPI_ALL_ITEMS')).toEqual({});
      expect(await s.leases.take('CPI_ALL_ITEMS', 'b', 10_000, 0)).toEqual({ taken: true });
    });

    it('lets a holder renew a lease that ran out while no one took it (a renewal late by a busy moment)', async () => {
      await s.leases.take('CPI_ALL_ITEMS', 'a', 200, 0);
      await runsOut(s.leases);
      expect(await s.leases.renew('CPI_ALL_ITEMS', 'a', 10_000)).toBe(true);
      expect(await s.leases.take('CPI_ALL_ITEMS', 'b', 10_000, 0)).toMatchObject({ taken: false, heldBy: 'a' });
      await s.leases.release('CPI_ALL_ITEMS', 'a');
      expect(await s.leases.renew('CPI_ALL_ITEMS', 'a', 10_000)).toBe(false);
    });

    it('records nothing for a holder that lost the lease', async () => {
      await s.leases.take('CPI_ALL_ITEMS', 'a', 200, 0);
      await runsOut(s.leases);
      await s.leases.take('CPI_ALL_ITEMS', 'b', 10_000, 0);
      expect(await s.leases.failed('CPI_ALL_ITEMS', 'a', 'late', 5, BACKOFF)).toBeUndefined();
      expect(await s.leases.state('CPI_ALL_ITEMS')).toEqual({ heldBy: 'b' });
    });

    it('gives a lease to exactly one of many holders asking at once', async () => {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => s.leases.take('CPI_ALL_ITEMS', `h${i}`, 10_000, 0)),
      );
      expect(answers.filter((a) => a.taken)).toHaveLength(1);
    });
  });

  describe('vintage archive', () => {
    const write = (v: VintageArchive, asOf: string, values: number[]) =>
      v.write({ series: 'CPI_ALL_ITEMS', asOf, source: 'Statistics Canada', observations: obs(...values) });

    it('lists days ascending, one list until a day is added, reads each back, across a restart', async () => {
      expect(await s.vintages.list('CPI_ALL_ITEMS')).toEqual([]);
      for (const day of ['2026-03-02', '2026-01-05', '2026-02-10'])
        expect(await write(s.vintages, `${day}T23:59:00.000Z`, [1])).toBe(day);
      const list = await s.vintages.list('CPI_ALL_ITEMS');
      expect(list).toEqual(['2026-01-05', '2026-02-10', '2026-03-02']);
      expect(await s.vintages.list('CPI_ALL_ITEMS')).toBe(list);
      await write(s.vintages, '2026-03-03T01:00:00.000Z', [1]);
      expect(await s.vintages.list('CPI_ALL_ITEMS')).not.toBe(list);

      const other = s.reopen().vintages;
      expect(await other.list('CPI_ALL_ITEMS')).toEqual(['2026-01-05', '2026-02-10', '2026-03-02', '2026-03-03']);
      const snap = await other.read('CPI_ALL_ITEMS', '2026-02-10');
      expect(snap).toEqual({
        series: 'CPI_ALL_ITEMS',
        vintage: '2026-02-10',
        asOf: '2026-02-10T23:59:00.000Z',
        source: 'Statistics Canada',
        observations: obs(1),
      });
      // Read again, the same copy (response bodies are kept by the identity of its observations).
      expect((await other.read('CPI_ALL_ITEMS', '2026-02-10'))?.observations).toBe(snap?.observations);
      expect(await other.read('CPI_ALL_ITEMS', '2026-02-11')).toBeUndefined();
      expect(await other.read('CPI_ALL_ITEMS', '2026-02-30')).toBeUndefined();
      expect(await other.list('GDP')).toEqual([]);
      await expect(other.list('../etc')).rejects.toThrow(/not upper case/);
    });

    it("replaces a day's snapshot with a later pull of the same day", async () => {
      await write(s.vintages, '2026-01-05T01:00:00.000Z', [1]);
      const first = await s.vintages.read('CPI_ALL_ITEMS', '2026-01-05');
      await write(s.vintages, '2026-01-05T20:00:00.000Z', [1, 2]);
      const second = await s.reopen().vintages.read('CPI_ALL_ITEMS', '2026-01-05');
      expect(first?.observations).toEqual(obs(1));
      expect(second).toMatchObject({ asOf: '2026-01-05T20:00:00.000Z', observations: obs(1, 2) });
      expect(await s.vintages.list('CPI_ALL_ITEMS')).toEqual(['2026-01-05']);
    });
  });

  describe('the observation cache over these stores', () => {
    it('pulls once for 100 concurrent cold requests, and not again after a restart within 24 h', async () => {
      const up = countingUpstream(50);
      let t = Date.parse('2026-01-02T03:04:05.000Z');
      const open = (stores: Omit<Stores, 'reopen' | 'close'>) =>
        createObservationCache(cacheOptions(stores, up, () => new Date(t)));
      const cache = open(s);
      const answers = await Promise.all(Array.from({ length: 100 }, () => cache.get(CPI)));
      expect(up.pulls).toBe(1);
      expect(new Set(answers.map((a) => a.asOf))).toEqual(new Set(['2026-01-02T03:04:05.000Z']));
      expect(answers.filter((a) => !a.cached)).toHaveLength(100);
      t += 23 * 3_600_000;
      expect(await open(s.reopen()).get(CPI)).toMatchObject({ cached: true, asOf: '2026-01-02T03:04:05.000Z' });
      expect(up.pulls).toBe(1);
      expect(await s.vintages.list('CPI_ALL_ITEMS')).toEqual(['2026-01-02']);
    });
  });
});

interface CountingUpstream extends SeriesUpstream {
  pulls: number;
  mode: 'ok' | 'fail' | 'hang';
}

/** An upstream in the process that counts its pulls, answers after `delayMs`, or fails, or never answers. */
function countingUpstream(delayMs: number): CountingUpstream {
  const up: CountingUpstream = {
    label: 'Statistics Canada',
    pulls: 0,
    mode: 'ok',
    async pull(_entry, signal) {
      up.pulls++;
      const mode = up.mode;
      await new Promise<void>((resolve, reject) => {
        if (mode === 'hang') {
          signal.addEventListener('abort', () => reject(signal.reason));
          return;
        }
        setTimeout(resolve, delayMs);
      });
      if (mode === 'fail') throw new Error('HTTP 503 from the fake');
      return { observations: obs(160.1, 160.5, 161), missing: [] };
    },
  };
  return up;
}

function cacheOptions(
  stores: { copies: ObservationCopies; leases: PullLeases; vintages: VintageArchive },
  up: SeriesUpstream,
  now: () => Date,
  extra: Partial<ObservationCacheOptions> = {},
): ObservationCacheOptions {
  return {
    copies: stores.copies,
    leases: stores.leases,
    vintages: stores.vintages,
    upstreams: { STATCAN: up, BOC: up },
    now,
    log: silent,
    pollMs: 20,
    ...extra,
  };
}

describe.skipIf(!shared)('economy caches sharing one PostgreSQL (as several servers do)', () => {
  let s: Stores;
  beforeEach(async () => {
    s = await postgres.open();
  });
  afterEach(async () => {
    await s.close();
  });
  const t0 = Date.parse('2026-01-02T03:04:05.000Z');

  it('pulls a series once for concurrent requests to three caches; the others serve its copy', async () => {
    const up = countingUpstream(300);
    const caches = [0, 1, 2].map(() => createObservationCache(cacheOptions(s.reopen(), up, () => new Date(t0))));
    const answers = await Promise.all(Array.from({ length: 90 }, (_, i) => caches[i % 3]!.get(CPI)));
    expect(up.pulls).toBe(1);
    expect(new Set(answers.map((a) => a.asOf)).size).toBe(1);
    // Every request waited for that pull: none was served from a copy that was there before.
    expect(answers.every((a) => !a.cached)).toBe(true);
    const fresh = createObservationCache(cacheOptions(s.reopen(), up, () => new Date(t0 + 3_600_000)));
    expect(await fresh.get(CPI)).toMatchObject({ cached: true, asOf: new Date(t0).toISOString() });
    expect(up.pulls).toBe(1);
  });

  it('takes over the lease of a holder that stopped renewing it, and pulls', async () => {
    const up = countingUpstream(10);
    // A server that took the lease and died: it never renews or releases it.
    expect(await s.leases.take('CPI_ALL_ITEMS', 'dead-server', 800, t0)).toEqual({ taken: true });
    const cache = createObservationCache(cacheOptions(s.reopen(), up, () => new Date(t0), { leaseMs: 800 }));
    const started = Date.now();
    const answer = await cache.get(CPI);
    const waited = Date.now() - started;
    expect(answer).toMatchObject({ cached: false });
    expect(up.pulls).toBe(1);
    expect(waited).toBeGreaterThanOrEqual(300);
    expect(waited).toBeLessThan(3_000);
  });

  it("keeps another cache's back-off: no second pull while it runs, the failure named by both", async () => {
    const up = countingUpstream(10);
    up.mode = 'fail';
    let t = t0;
    const a = createObservationCache(cacheOptions(s.reopen(), up, () => new Date(t)));
    const b = createObservationCache(cacheOptions(s.reopen(), up, () => new Date(t)));
    await expect(a.get(CPI)).rejects.toMatchObject({ status: 503, code: 'upstream_unavailable' });
    expect(up.pulls).toBe(1);
    t += 10_000;
    await expect(b.get(CPI)).rejects.toMatchObject({
      status: 503,
      code: 'upstream_unavailable',
      headers: { 'Retry-After': '50' },
    });
    expect(up.pulls).toBe(1);
    expect(b.failedSince(t0)).toEqual([{ series: 'CPI_ALL_ITEMS', error: 'HTTP 503 from the fake', at: t0 }]);
    // After the back-off one of them pulls again, and both are well.
    up.mode = 'ok';
    t += 51_000;
    await b.get(CPI);
    expect(await a.get(CPI)).toMatchObject({ cached: true });
    expect(up.pulls).toBe(2);
    expect(a.failedSince(t0)).toEqual([]);
  });

  it('answers 503 store_unavailable within the time limits while the database is down, then resumes', async () => {
    const up = countingUpstream(10);
    let t = t0;
    const cache = createObservationCache(cacheOptions(s.reopen(), up, () => new Date(t)));
    await cache.get(CPI);
    await server!.stop();
    try {
      // A series never pulled here needs the store.
      const started = Date.now();
      const err = await cache.get({ ...CPI, id: 'CPI_OTHER' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StoreUnavailableError);
      expect(err).toMatchObject({ status: 503, code: 'store_unavailable', headers: { 'Retry-After': '2' } });
      expect(Date.now() - started).toBeLessThan(5_000);
      // A fresh copy in memory needs no store; a stale one is served, marked stale, rather than a 503.
      expect(await cache.get(CPI)).toMatchObject({ cached: true });
      t += 25 * 3_600_000;
      expect(await cache.get(CPI)).toMatchObject({ cached: true, stale: true });
      expect(up.pulls).toBe(1);
    } finally {
      await server!.start();
    }
    expect(await cache.get({ ...CPI, id: 'CPI_OTHER' })).toMatchObject({ cached: false });
    expect(await cache.get(CPI)).toMatchObject({ cached: false, asOf: new Date(t).toISOString() });
  }, 60_000);
});
