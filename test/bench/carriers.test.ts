// The carriers bench scenarios read the build they load-test: its record stores, where the build keeps them.
import { describe, expect, it } from 'vitest';
import { carriersScenarios } from '../../bench/carriers.ts';
import { createRng } from '../../contract/core/rng.ts';
import { readOnlyCarriersFixture } from '../helpers/carriers.ts';

describe('carriers bench scenarios', () => {
  it('take their ids and names from a build, private stores beside its tree', async () => {
    const fx = await readOnlyCarriersFixture();
    try {
      const scenarios = await carriersScenarios({
        buildDir: fx.buildDir,
        stateDir: fx.stateDir,
        rng: createRng(1).fork('carriers'),
      });
      expect(scenarios.map((s) => s.name)).toEqual([
        'carrier/:id',
        'carrier/:id (cold)',
        'search',
        'search (uncached)',
      ]);
      for (const s of scenarios) expect(s.paths.length, s.name).toBeGreaterThan(0);
      expect(scenarios[0]!.paths.every((p) => /^\/api\/carrier\/\d+$/.test(p))).toBe(true);
    } finally {
      await fx.root.remove();
    }
  });
});
