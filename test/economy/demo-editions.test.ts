// The economy demo's editions (pipeline/demo/economy): a vintage archive pulled from the built-in demo
// upstream a month apart, through the real adapters; built one after the other as a demo start does, the
// second records new observations and the moved preliminary values as changes, and the API answers them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangesIndex } from '../../contract/core/changes.ts';
import { createProgress } from '../../pipeline/core/progress.ts';
import { DEMO_VINTAGES, ECONOMY_DEMO_DAY } from '../../pipeline/demo/economy/index.ts';
import { PIPELINES, writeDemo } from '../../pipeline/services.ts';
import { createEconomyService } from '../../server/economy/routes.ts';
import type { Json } from '../helpers/carriers.ts';
import { startService, tempDir } from '../helpers/server.ts';

let root: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  root = await tempDir('economy-editions');
});
afterAll(async () => {
  await root?.remove();
});

describe('economy demo editions', () => {
  it('writes a month of snapshots per edition, and a build over the last records what moved', async () => {
    const input = join(root.path, 'input');
    const outDir = join(root.path, 'dist-data');
    const build = () =>
      PIPELINES.economy!.build({ input, outDir, demo: true, progress: createProgress('test', () => undefined) });
    await writeDemo('economy', input, { edition: 1, latestEdition: 2 });
    const first = await build();
    await writeDemo('economy', input, { edition: 2, latestEdition: 2 });
    const second = await build();
    const cpi = readFileSync(join(input, DEMO_VINTAGES, 'CPI_ALL_ITEMS', `${ECONOMY_DEMO_DAY}.json`), 'utf8');
    expect(JSON.parse(cpi)).toMatchObject({
      series: 'CPI_ALL_ITEMS',
      vintage: ECONOMY_DEMO_DAY,
      source: expect.stringMatching(/\(demo\)$/),
    });

    // Published as /api/observations?series=&vintage= answers it: the flags kept, the release times (only
    // real-time answers carry them) not.
    const stored = JSON.parse(cpi) as { observations: Json[] };
    expect(stored.observations.at(-1)).toMatchObject({ status: 'p', released: `${ECONOMY_DEMO_DAY}T08:30` });
    const published = JSON.parse(
      readFileSync(join(outDir, `economy/api/vintages/CPI_ALL_ITEMS/${ECONOMY_DEMO_DAY}.json`), 'utf8'),
    ) as { observations: Json[] };
    expect(published.observations).toEqual(stored.observations.map(({ released: _, ...point }) => point));

    const index = JSON.parse(readFileSync(join(outDir, 'economy/changes/index.json'), 'utf8')) as ChangesIndex;
    expect(index.builds.map((b) => [b.data_version, b.previous, b.demo])).toEqual([
      [second.data_version, first.data_version, true],
      [first.data_version, null, true],
    ]);
    expect(index.builds[0]!.counts.changed).toBeGreaterThan(10);

    const running = await startService(createEconomyService({ stateDir: join(root.path, 'state'), env: {} }), outDir);
    try {
      for (const notable of ['observations_added', 'value_revised']) {
        const res = await fetch(`${running.base}/api/changes?since=${first.data_version}&notable=${notable}`);
        const body = (await res.json()) as Json;
        expect(body.total, notable).toBeGreaterThan(0);
        const change = body.results[0];
        expect(change.fields.some((f: Json) => f.path.startsWith('/observations/'))).toBe(true);
      }
      const history = (await (await fetch(`${running.base}/api/series/CPI_ALL_ITEMS/history`)).json()) as Json;
      expect(history.results.map((r: Json) => r.data_version)).toEqual([second.data_version]);

      // The demo editions' days seed the server's demo archive: a fresh demo start has a past to ask about.
      const days = readFileSync(join(outDir, 'economy/api/vintages/CPI_ALL_ITEMS.json'), 'utf8');
      const published = (JSON.parse(days) as { snapshots: string[] }).snapshots;
      expect(published).toHaveLength(2);
      await expect
        .poll(
          async () =>
            ((await (await fetch(`${running.base}/api/vintages?series=CPI_ALL_ITEMS`)).json()) as Json).snapshots,
        )
        .toEqual(expect.arrayContaining(published));
      const asKnown = (await (
        await fetch(`${running.base}/api/observations?series=CPI_ALL_ITEMS&realtime_end=${published[0]}`)
      ).json()) as Json;
      expect(asKnown.realtime_end).toBe(published[0]);
      expect(asKnown.observations.length).toBeGreaterThan(100);
    } finally {
      await running.close();
    }
  });
});
