// The observation cache (server/economy/cache.ts) and the vintage archive (server/economy/vintages.ts),
// against a fake WDS: a node:http server on 127.0.0.1 that counts the pulls it answers and can fail or
// hang on demand. The clock is pinned and moved by hand.
import { CPI } from '../fixtures/economy.ts';
import { readdir, readFile, writeFile, mkdir } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HttpError } from '../../contract/core/problem.ts';
import { createObservationCache, type ObservationCache } from '../../server/economy/cache.ts';
import { writeFileAtomic, type CacheLogLine } from '../../server/economy/state-files.ts';
import { createStatcanClient } from '../../contract/economy/upstream/statcan.ts';
import { createValetClient } from '../../contract/economy/upstream/valet.ts';
import {
  createVintageArchive,
  toRevisions,
  toVintageDate,
  type VintageArchive,
  type VintageSnapshot,
} from '../../server/economy/vintages.ts';
import { waitFor } from '../helpers/wait.ts';
import { tempDir } from '../helpers/server.ts';

const HOUR = 3_600_000;
const START = Date.parse('2026-01-02T03:04:05.000Z');

type Mode = 'ok' | 'fail' | 'hang';

interface FakeWds {
  base: string;
  /** Pull requests answered (or left hanging). */
  pulls: number;
  mode: Mode;
  values: number[];
  close(): Promise<void>;
}

/** A tiny WDS: getDataFromVectorsAndLatestNPeriods for one vector, monthly from 2025-01, 50 ms late. */
async function startFakeWds(): Promise<FakeWds> {
  const hanging: ServerResponse[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (!req.url?.endsWith('/getDataFromVectorsAndLatestNPeriods')) {
        res.statusCode = 404;
        res.end();
        return;
      }
      fake.pulls++;
      if (fake.mode === 'hang') {
        hanging.push(res);
        return;
      }
      setTimeout(() => {
        if (fake.mode === 'fail') {
          res.statusCode = 503;
          res.end('<html>Service Unavailable</html>');
          return;
        }
        const vectorDataPoint = fake.values.map((value, i) => ({
          refPer: `2025-${String(i + 1).padStart(2, '0')}-01`,
          refPer2: '',
          value,
          decimals: 1,
          scalarFactorCode: 0,
          symbolCode: 0,
          statusCode: 0,
          securityLevelCode: 0,
          releaseTime: '2025-12-16T08:30',
          frequencyCode: 6,
        }));
        res.setHeader('Content-Type', 'application/json');
        res.end(
          JSON.stringify([
            {
              status: 'SUCCESS',
              object: {
                responseStatusCode: 0,
                productId: 18100004,
                coordinate: '2.2.0.0.0.0.0.0.0.0',
                vectorId: 41690973,
                vectorDataPoint,
              },
            },
          ]),
        );
      }, 50);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const fake: FakeWds = {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    pulls: 0,
    mode: 'ok',
    values: [160.1, 160.5, 161.0],
    close: () =>
      new Promise((r) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  return fake;
}

describe('observation cache', () => {
  let fake: FakeWds;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let t: number;
  let logs: CacheLogLine[];
  let vintages: VintageArchive;
  const now = () => new Date(t);

  const open = (options: { timeoutMs?: number } = {}): ObservationCache =>
    createObservationCache({
      dir: dir.path,
      upstreams: {
        STATCAN: createStatcanClient({ baseUrl: `${fake.base}/t1/wds/rest` }),
        BOC: createValetClient({ baseUrl: `${fake.base}/valet` }),
      },
      now,
      vintages,
      timeoutMs: options.timeoutMs ?? 5_000,
      log: (l) => logs.push(l),
    });

  beforeEach(async () => {
    fake = await startFakeWds();
    dir = await tempDir('economy-cache');
    t = START;
    logs = [];
    vintages = createVintageArchive(dir.path);
  });
  afterEach(async () => {
    await fake.close();
    await dir.remove();
  });

  it('makes exactly one upstream request for 100 concurrent cold requests', async () => {
    const cache = open();
    const answers = await Promise.all(Array.from({ length: 100 }, () => cache.get(CPI)));
    expect(fake.pulls).toBe(1);
    for (const a of answers) {
      expect(a).toEqual({
        series: 'CPI_ALL_ITEMS',
        // As WDS flagged them: no status, released on the day the fake says.
        observations: [
          { date: '2025-01-01', value: 160.1, released: '2025-12-16T08:30' },
          { date: '2025-02-01', value: 160.5, released: '2025-12-16T08:30' },
          { date: '2025-03-01', value: 161, released: '2025-12-16T08:30' },
        ],
        missing: [],
        source: 'Statistics Canada',
        cached: false,
        asOf: '2026-01-02T03:04:05.000Z',
      });
    }
    const again = await cache.get(CPI);
    expect(again.cached).toBe(true);
    expect(fake.pulls).toBe(1);
  });

  it('survives a restart within 24 h without an upstream request, and pulls again after 24 h', async () => {
    await open().get(CPI);
    expect(fake.pulls).toBe(1);

    t = START + 23 * HOUR;
    const restarted = open();
    const warm = await restarted.get(CPI);
    expect(fake.pulls).toBe(1);
    expect(warm).toMatchObject({ cached: true, asOf: '2026-01-02T03:04:05.000Z' });
    expect(warm.stale).toBeUndefined();

    t = START + 24 * HOUR;
    fake.values = [160.1, 160.7, 161.0, 161.4];
    const fresh = await restarted.get(CPI);
    expect(fake.pulls).toBe(1 + 1);
    expect(fresh).toMatchObject({ cached: false, asOf: '2026-01-03T03:04:05.000Z' });
    expect(fresh.observations).toHaveLength(4);
    // Each successful pull left that day's snapshot.
    expect(await vintages.list('CPI_ALL_ITEMS')).toEqual(['2026-01-02', '2026-01-03']);
  });

  it('serves the cached copy with stale after a failed pull, logs it and backs off exponentially', async () => {
    const cache = open();
    await cache.get(CPI);
    fake.mode = 'fail';
    t = START + 25 * HOUR;
    const served = await cache.get(CPI);
    expect(served).toMatchObject({ cached: true, stale: true, asOf: '2026-01-02T03:04:05.000Z' });
    expect(served.observations).toHaveLength(3);
    expect(fake.pulls).toBe(2);
    expect(logs).toEqual([
      expect.objectContaining({
        event: 'upstream_pull_failed',
        series: 'CPI_ALL_ITEMS',
        failures: 1,
        retryInMs: 60_000,
        servedStale: true,
      }),
    ]);
    expect(logs[0]!.error).toMatch(/HTTP 503/);

    // Inside the back-off window: no new attempt, still the stale copy.
    t += 59_000;
    expect(await cache.get(CPI)).toMatchObject({ stale: true });
    expect(fake.pulls).toBe(2);
    // After 60 s, one attempt; it fails again and the next wait doubles.
    t += 2_000;
    await cache.get(CPI);
    expect(fake.pulls).toBe(3);
    expect(logs[1]).toMatchObject({ failures: 2, retryInMs: 120_000 });
    t += 119_000;
    await cache.get(CPI);
    expect(fake.pulls).toBe(3);

    // The upstream is back: the next attempt after the back-off refreshes the copy.
    fake.mode = 'ok';
    t += 2_000;
    const fresh = await cache.get(CPI);
    expect(fake.pulls).toBe(4);
    expect(fresh.cached).toBe(false);
    expect(fresh.stale).toBeUndefined();
    expect(fresh.asOf).toBe(new Date(t).toISOString());
  });

  it('answers 503 upstream_unavailable with Retry-After when nothing is cached', async () => {
    fake.mode = 'fail';
    const cache = open();
    const err = await cache.get(CPI).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ status: 503, code: 'upstream_unavailable', headers: { 'Retry-After': '60' } });
    expect(fake.pulls).toBe(1);

    // During the back-off the answer is immediate, with the remaining wait.
    t += 10_000;
    await expect(cache.get(CPI)).rejects.toMatchObject({ status: 503, headers: { 'Retry-After': '50' } });
    expect(fake.pulls).toBe(1);
  });

  it('gives up on an upstream that hangs: 503 with nothing cached, the stale copy otherwise', async () => {
    fake.mode = 'hang';
    const cache = open({ timeoutMs: 300 });
    const started = Date.now();
    await expect(cache.get(CPI)).rejects.toMatchObject({
      status: 503,
      code: 'upstream_unavailable',
      headers: { 'Retry-After': '60' },
    });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(logs[0]!.error).toMatch(/did not answer within 300 ms|timed out/);

    fake.mode = 'ok';
    t += 61_000;
    await cache.get(CPI);
    fake.mode = 'hang';
    t += 25 * HOUR;
    await expect(cache.get(CPI)).resolves.toMatchObject({ cached: true, stale: true });
  });

  it('takes an answer with no observations as a failed pull: the good copy and its snapshot stay', async () => {
    const cache = open();
    await cache.get(CPI);
    fake.values = [];
    t = START + 25 * HOUR;
    const served = await cache.get(CPI);
    expect(served).toMatchObject({ cached: true, stale: true, asOf: '2026-01-02T03:04:05.000Z' });
    expect(served.observations).toHaveLength(3);
    expect(logs).toEqual([
      expect.objectContaining({ event: 'upstream_pull_failed', series: 'CPI_ALL_ITEMS', servedStale: true }),
    ]);
    expect(logs[0]!.error).toMatch(/answered no observations for CPI_ALL_ITEMS/);
    expect(await vintages.list('CPI_ALL_ITEMS')).toEqual(['2026-01-02']);
    // A restart reads the good copy from the disk: the empty answer was never written.
    t += 61_000;
    const restarted = await open().get(CPI);
    expect(restarted.observations).toHaveLength(3);

    // With nothing cached, the same answer is a 503, not a day of empty data.
    await expect(open().get({ ...CPI, id: 'CPI_OTHER' })).rejects.toMatchObject({
      status: 503,
      code: 'upstream_unavailable',
    });
  });

  it('close() answers the requests waiting on a pull at once: 503, or the stale copy', async () => {
    fake.mode = 'hang';
    const cache = open({ timeoutMs: 60_000 });
    const started = Date.now();
    const waiting = [cache.get(CPI), cache.get(CPI)].map((p) =>
      p.then(
        () => 'served',
        (e: unknown) => e,
      ),
    );
    await waitFor('the pull started', () => fake.pulls === 1);
    cache.close();
    for (const outcome of await Promise.all(waiting)) {
      expect(outcome).toMatchObject({ status: 503, code: 'upstream_unavailable' });
      expect((outcome as Error).message).toMatch(/shutting down/);
    }
    expect(Date.now() - started).toBeLessThan(2_000);
    // A get after close does not start a pull that would outlast the shutdown.
    t += 61_000;
    await expect(cache.get(CPI)).rejects.toMatchObject({ status: 503 });
    expect(fake.pulls).toBe(1);

    // With a copy cached, a waiting request gets it, marked stale.
    fake.mode = 'ok';
    const second = open({ timeoutMs: 60_000 });
    await second.get(CPI);
    fake.mode = 'hang';
    t += 25 * HOUR;
    const pulled = fake.pulls;
    const pending = second.get(CPI);
    await waitFor('the refresh started', () => fake.pulls === pulled + 1);
    second.close();
    await expect(pending).resolves.toMatchObject({ cached: true, stale: true });
  });

  it('writes the cache file atomically and ignores a damaged one', async () => {
    await open().get(CPI);
    const files = await readdir(join(dir.path, 'observations'));
    expect(files).toEqual(['CPI_ALL_ITEMS.json']);
    const doc = JSON.parse(await readFile(join(dir.path, 'observations', 'CPI_ALL_ITEMS.json'), 'utf8')) as {
      asOf: string;
    };
    expect(doc.asOf).toBe('2026-01-02T03:04:05.000Z');

    // A half-written file (a crash of some other writer) is not trusted: the series is pulled again.
    await writeFile(
      join(dir.path, 'observations', 'CPI_ALL_ITEMS.json'),
      '{"series":"CPI_ALL_ITEMS","observations":[{"da',
    );
    const answer = await open().get(CPI);
    expect(answer.cached).toBe(false);
    expect(fake.pulls).toBe(2);
    expect(logs).toContainEqual(expect.objectContaining({ event: 'cache_file_unreadable', series: 'CPI_ALL_ITEMS' }));
  });

  it('does not serve a copy pulled with other upstream identifiers', async () => {
    await open().get(CPI);
    const moved = { ...CPI, vectorIds: [41690974] };
    // The fake answers for 41690973 only, so the pull of the new vector fails: nothing usable is cached.
    await expect(open().get(moved)).rejects.toMatchObject({ status: 503 });
  });
});

describe('writeFileAtomic', () => {
  it('leaves one whole file and no temporary files after concurrent writes', async () => {
    const dir = await tempDir('economy-atomic');
    try {
      const path = join(dir.path, 'deep', 'file.json');
      const docs = Array.from({ length: 40 }, (_, i) => JSON.stringify({ writer: i, payload: 'x'.repeat(20_000 + i) }));
      await Promise.all(docs.map((d) => writeFileAtomic(path, d)));
      expect(docs).toContain(await readFile(path, 'utf8'));
      expect(await readdir(join(dir.path, 'deep'))).toEqual(['file.json']);
    } finally {
      await dir.remove();
    }
  });

  it('keeps the old file when the write fails', async () => {
    const dir = await tempDir('economy-atomic');
    try {
      const path = join(dir.path, 'file.json');
      await writeFileAtomic(path, '{"v":1}');
      // A directory where the file should go makes the rename fail; the earlier file elsewhere is untouched.
      await mkdir(join(dir.path, 'blocked.json'));
      await expect(writeFileAtomic(join(dir.path, 'blocked.json'), '{"v":2}')).rejects.toThrow();
      expect(await readFile(path, 'utf8')).toBe('{"v":1}');
      expect((await readdir(dir.path)).sort()).toEqual(['blocked.json', 'file.json']);
    } finally {
      await dir.remove();
    }
  });
});

describe('vintage archive', () => {
  const snap = (vintage: string, observations: [string, number][]): VintageSnapshot => ({
    series: 'CPI_ALL_ITEMS',
    vintage,
    asOf: `${vintage}T10:00:00.000Z`,
    source: 'Statistics Canada',
    observations: observations.map(([date, value]) => ({ date, value })),
  });

  it('answers one list until a day is added or dropped, so its bodies can be kept by its identity', async () => {
    const dir = await tempDir('economy-vintages');
    try {
      const archive = createVintageArchive(dir.path, { log: () => {} });
      const write = (day: string) =>
        archive.write({
          series: 'CPI_ALL_ITEMS',
          asOf: `${day}T10:00:00.000Z`,
          source: 'Statistics Canada',
          observations: [{ date: '2025-12-01', value: 1 }],
        });
      await write('2026-01-05');
      const first = await archive.list('CPI_ALL_ITEMS');
      expect(await archive.list('CPI_ALL_ITEMS')).toBe(first);
      await write('2026-01-06');
      const second = await archive.list('CPI_ALL_ITEMS');
      expect(second).not.toBe(first);
      expect(first).toEqual(['2026-01-05']);
      expect(second).toEqual(['2026-01-05', '2026-01-06']);
      await writeFile(join(dir.path, 'vintages', 'CPI_ALL_ITEMS', '2026-01-05.json'), '{not json');
      const reopened = createVintageArchive(dir.path, { log: () => {} });
      const listed = await reopened.list('CPI_ALL_ITEMS');
      expect(await reopened.read('CPI_ALL_ITEMS', '2026-01-05')).toBeUndefined();
      expect(await reopened.list('CPI_ALL_ITEMS')).not.toBe(listed);
      expect(listed).toEqual(['2026-01-05', '2026-01-06']);
    } finally {
      await dir.remove();
    }
  });

  it('lists snapshots ascending, reads them back, and answers nothing for a day without one', async () => {
    const dir = await tempDir('economy-vintages');
    try {
      const archive = createVintageArchive(dir.path);
      expect(await archive.list('CPI_ALL_ITEMS')).toEqual([]);
      for (const day of ['2026-03-02', '2026-01-05', '2026-02-10']) {
        expect(
          await archive.write({
            series: 'CPI_ALL_ITEMS',
            asOf: `${day}T23:59:00.000Z`,
            source: 'Statistics Canada',
            observations: [{ date: '2025-12-01', value: 1 }],
          }),
        ).toBe(day);
      }
      expect(await archive.list('CPI_ALL_ITEMS')).toEqual(['2026-01-05', '2026-02-10', '2026-03-02']);
      // A new archive over the same folder (a restart) finds them on disk.
      const reopened = createVintageArchive(dir.path);
      expect(await reopened.list('CPI_ALL_ITEMS')).toEqual(['2026-01-05', '2026-02-10', '2026-03-02']);
      expect(await reopened.read('CPI_ALL_ITEMS', '2026-02-10')).toMatchObject({
        vintage: '2026-02-10',
        asOf: '2026-02-10T23:59:00.000Z',
        observations: [{ date: '2025-12-01', value: 1 }],
      });
      expect(await reopened.read('CPI_ALL_ITEMS', '2026-02-11')).toBeUndefined();
      expect(await reopened.read('CPI_ALL_ITEMS', '2026-02-30')).toBeUndefined();
      expect(await readdir(join(dir.path, 'vintages', 'CPI_ALL_ITEMS'))).toEqual([
        '2026-01-05.json',
        '2026-02-10.json',
        '2026-03-02.json',
      ]);
      await expect(archive.list('../etc')).rejects.toThrow(/not upper case/);

      // A damaged file is listed until it is read; then it is logged and no longer listed, so the list
      // never names a day that `vintage=` answers 404.
      await writeFile(join(dir.path, 'vintages', 'CPI_ALL_ITEMS', '2026-02-10.json'), '{not json');
      const lines: CacheLogLine[] = [];
      const third = createVintageArchive(dir.path, { log: (l) => lines.push(l) });
      expect(await third.list('CPI_ALL_ITEMS')).toEqual(['2026-01-05', '2026-02-10', '2026-03-02']);
      expect(await third.read('CPI_ALL_ITEMS', '2026-02-10')).toBeUndefined();
      expect(await third.list('CPI_ALL_ITEMS')).toEqual(['2026-01-05', '2026-03-02']);
      expect(lines).toEqual([expect.objectContaining({ event: 'vintage_unreadable', series: 'CPI_ALL_ITEMS' })]);
      expect(lines[0]!.error).toMatch(/^2026-02-10: .*no longer listed$/);
      expect(await third.read('CPI_ALL_ITEMS', '2026-03-02')).toMatchObject({ vintage: '2026-03-02' });
      // JSON that parses but holds no observations of this shape is as damaged.
      await writeFile(
        join(dir.path, 'vintages', 'CPI_ALL_ITEMS', '2026-01-05.json'),
        JSON.stringify({
          series: 'CPI_ALL_ITEMS',
          vintage: '2026-01-05',
          asOf: '2026-01-05T23:59:00.000Z',
          source: 'Statistics Canada',
          observations: [null, { foo: 1 }],
        }),
      );
      const fourth = createVintageArchive(dir.path, { log: (l) => lines.push(l) });
      expect(await fourth.read('CPI_ALL_ITEMS', '2026-01-05')).toBeUndefined();
      // (2026-02-10 is listed again by a new archive until it is read: the damaged file stays for inspection.)
      expect(await fourth.list('CPI_ALL_ITEMS')).toEqual(['2026-02-10', '2026-03-02']);

      // A read that fails for another reason than a missing file (here EISDIR) fails the request and
      // leaves the day listed: it may be a failure of the moment (EMFILE, EIO).
      await mkdir(join(dir.path, 'vintages', 'CPI_ALL_ITEMS', '2026-04-01.json'));
      const fifth = createVintageArchive(dir.path, { log: (l) => lines.push(l) });
      await expect(fifth.read('CPI_ALL_ITEMS', '2026-04-01')).rejects.toMatchObject({ code: 'EISDIR' });
      expect(await fifth.list('CPI_ALL_ITEMS')).toContain('2026-04-01');
    } finally {
      await dir.remove();
    }
  });

  it.each([
    ['2026-01-02T03:04:05.000Z', '2026-01-02'],
    ['2026-01-02T23:59:59-05:00', '2026-01-03'],
  ])('dates the pull at %s in vintage %s (UTC)', (asOf, day) => {
    expect(toVintageDate(asOf)).toBe(day);
  });

  it('computes revisions: changed values, added and removed dates', () => {
    const a = snap('2026-01-05', [
      ['2025-09-01', 100],
      ['2025-10-01', 101],
      ['2025-11-01', 102],
      ['2025-08-01', 99],
    ]);
    const b = snap('2026-02-10', [
      ['2025-08-01', 99],
      ['2025-10-01', 101.2],
      ['2025-11-01', 102],
      ['2025-12-01', 103],
    ]);
    expect(toRevisions(a, b)).toEqual({
      series: 'CPI_ALL_ITEMS',
      from: '2026-01-05',
      to: '2026-02-10',
      changes: [{ date: '2025-10-01', before: 101, after: 101.2 }],
      added: [{ date: '2025-12-01', value: 103 }],
      removed: [{ date: '2025-09-01', value: 100 }],
    });
    expect(toRevisions(a, a)).toMatchObject({ changes: [], added: [], removed: [] });
  });
});
