// The nightly snapshot of every series (server/economy/snapshot-cli.ts, snapshotAll): through the cache, over
// the fake upstream of test/helpers/economy-routes.ts that counts its pulls, on a clock moved by hand.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createObservationCache, type ObservationCache } from '../../server/economy/cache.ts';
import { snapshotAll } from '../../server/economy/snapshot-cli.ts';
import { createStatcanClient } from '../../contract/economy/upstream/statcan.ts';
import { createValetClient } from '../../contract/economy/upstream/valet.ts';
import { createVintageArchive, type VintageArchive } from '../../server/economy/vintages.ts';
import { REGISTRY, startUpstream, type Upstream, WDS_PULL } from '../helpers/economy-routes.ts';
import { tempDir } from '../helpers/server.ts';

const HOUR = 3_600_000;
const VALET_PULL = '/valet/observations/FXUSDCAD/json';

describe('the nightly snapshot of every series', () => {
  let root: Awaited<ReturnType<typeof tempDir>>;
  let up: Upstream;
  let cache: ObservationCache;
  let vintages: VintageArchive;
  // 23:00 UTC: a server's request pulls CPI an hour before the night's run.
  let t = Date.parse('2026-03-09T23:00:00.000Z');
  const pulls = () => [up.pulls.get(WDS_PULL) ?? 0, up.pulls.get(VALET_PULL) ?? 0];

  beforeAll(async () => {
    root = await tempDir('economy-snapshot');
    up = await startUpstream();
    vintages = createVintageArchive(root.path);
    cache = createObservationCache({
      dir: root.path,
      upstreams: {
        STATCAN: createStatcanClient({ baseUrl: `${up.base}/wds` }),
        BOC: createValetClient({ baseUrl: `${up.base}/valet` }),
      },
      now: () => new Date(t),
      vintages,
      retryBaseMs: 1,
      log: () => {},
    });
  });
  afterAll(async () => {
    await up?.close();
    await root?.remove();
  });

  it('pulls each series not yet pulled today once, even one pulled within 24 h on the day before', async () => {
    await cache.get(REGISTRY[0]!);
    expect(pulls()).toEqual([1, 0]);
    t = Date.parse('2026-03-10T01:00:00.000Z');
    const seen: string[] = [];
    const summary = await snapshotAll(cache, REGISTRY, {
      concurrency: 2,
      onSeries: (id, o) => seen.push(`${id} ${o}`),
    });
    expect(summary).toMatchObject({ series: 3, pulled: 2, already: 0 });
    expect(summary.failed).toEqual([{ id: 'BROKEN', error: expect.stringContaining('HTTP 500') }]);
    // Exactly one upstream call per series: CPI again (its copy is from yesterday), USD/CAD first.
    expect(pulls()).toEqual([2, 1]);
    expect(seen.sort()).toEqual([
      'BROKEN failed: BROKEN: no usable answer from the upstream (Statistics Canada WDS /wds/getDataFromVectorsAndLatestNPeriods answered HTTP 500: Internal error) and no cached copy exists; retry in 1 s',
      'CPI_ALL_ITEMS pulled, 3 observations',
      'USD_CAD pulled, 3 observations',
    ]);
    expect(await vintages.list('CPI_ALL_ITEMS')).toEqual(['2026-03-09', '2026-03-10']);
    expect(await vintages.list('USD_CAD')).toEqual(['2026-03-10']);
  });

  it('pulls nothing again the same day, whoever asks', async () => {
    t += 5 * HOUR;
    const again = await snapshotAll(cache, REGISTRY.slice(0, 2));
    expect(again).toMatchObject({ pulled: 0, already: 2, failed: [] });
    await cache.get(REGISTRY[1]!);
    expect(pulls()).toEqual([2, 1]);
  });

  it('keeps the copy of an earlier day when the upstream fails, and says so', async () => {
    t = Date.parse('2026-03-11T01:00:00.000Z');
    up.failing = true;
    try {
      const summary = await snapshotAll(cache, REGISTRY.slice(0, 1));
      expect(summary).toMatchObject({ pulled: 0, already: 0 });
      expect(summary.failed).toEqual([
        { id: 'CPI_ALL_ITEMS', error: 'the pull failed; the copy of an earlier day stays' },
      ]);
      expect(await vintages.list('CPI_ALL_ITEMS')).toEqual(['2026-03-09', '2026-03-10']);
    } finally {
      up.failing = false;
    }
  });

  it('is listed by a server on the same STATE_DIR once its listing looks at the folder again', async () => {
    // The server's archive read its folder before the night's run wrote a day.
    const server = createVintageArchive(root.path, { rescanMs: 1500 });
    const before = await server.list('USD_CAD');
    t = Date.parse('2026-03-12T01:00:00.000Z');
    await snapshotAll(cache, REGISTRY.slice(1, 2));
    expect(await server.list('USD_CAD')).toBe(before);
    await new Promise((r) => setTimeout(r, 1600));
    expect(await server.list('USD_CAD')).toEqual([...before, '2026-03-12']);
    expect(await server.read('USD_CAD', '2026-03-12')).toMatchObject({ vintage: '2026-03-12' });
  });
});
