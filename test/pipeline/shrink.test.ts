// The guard of an unattended rebuild (pipeline/core/shrink.ts): a build that keeps under 90 % of the carriers
// of the build it replaces, or empties an economy category, is refused with the reason and the old build
// stays, unless --accept-shrink. The carriers case is the one seen on real files: a census whose header
// labels were swapped still parses, and publishes a fraction of the carriers.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCarriers } from '../../pipeline/carriers/index.ts';
import { buildEconomy } from '../../pipeline/economy/index.ts';
import { ShrinkError, shrinkReasons } from '../../pipeline/core/shrink.ts';
import { main as buildCli } from '../../pipeline/cli.ts';
import { buildCarriersFixture } from '../helpers/carriers.ts';
import { tempDir } from '../helpers/server.ts';
import { AS_OF } from '../fixtures/carriers.ts';
import { PINNED_CLOCK } from '../helpers/facilities.ts';

const manifestOf = async (dir: string) =>
  JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as {
    data_version: string;
    counts: Record<string, number>;
  };

describe('shrinkReasons', () => {
  const previous = { data_version: 'aaaa', counts: { carriers: 3000, category_prices: 14, category_housing: 1 } };
  const ratio = { kind: 'ratio', count: 'carriers', minRatio: 0.9, what: 'carriers' } as const;
  const emptied = { kind: 'not-emptied', prefix: 'category_', what: 'category' } as const;

  it('refuses under 90 % of the previous count, naming both counts and the share', () => {
    expect(shrinkReasons(previous, { counts: { carriers: 316 } }, [ratio])).toEqual([
      'it has 316 carriers where the build it replaces (aaaa) has 3,000: 10.5 %, under the 90 % kept at least',
    ]);
    expect(shrinkReasons(previous, { counts: { carriers: 2700 } }, [ratio])).toEqual([]);
    expect(shrinkReasons(previous, { counts: { carriers: 2699 } }, [ratio])).toHaveLength(1);
    expect(shrinkReasons(previous, { counts: { carriers: 9000 } }, [ratio])).toEqual([]);
  });

  it('refuses a category emptied, not one that shrank', () => {
    expect(shrinkReasons(previous, { counts: { category_prices: 2, category_housing: 0 } }, [emptied])).toEqual([
      'it empties the category housing (1 in the build it replaces, aaaa)',
    ]);
    expect(shrinkReasons(previous, { counts: { category_prices: 1, category_housing: 1 } }, [emptied])).toEqual([]);
  });

  it('compares nothing a previous build did not count', () => {
    expect(shrinkReasons({ data_version: 'b', counts: {} }, { counts: { carriers: 1 } }, [ratio, emptied])).toEqual([]);
  });
});

describe('carriers: a census with swapped header labels', () => {
  it('is refused with the reason, the old build served on; --accept-shrink publishes it', async () => {
    const fx = await buildCarriersFixture();
    try {
      const before = await manifestOf(fx.buildDir);
      const census = join(fx.input, 'census', 'FMCSA_CENSUS1_2026Oct.txt');
      const text = readFileSync(census, 'latin1');
      const [header, ...rows] = text.split('\r\n');
      // Two numeric columns' labels swapped: the rows still parse, but carriers sharing a fleet size become one.
      const swapped = header!
        .replace('"DOT_NUMBER"', '"@"')
        .replace('"NBR_POWER_UNIT"', '"DOT_NUMBER"')
        .replace('"@"', '"NBR_POWER_UNIT"');
      expect(swapped).not.toBe(header);
      writeFileSync(census, [swapped, ...rows].join('\r\n'), 'latin1');
      const err = await buildCarriers({ input: fx.input, outDir: fx.outDir, asOf: AS_OF, now: PINNED_CLOCK }).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ShrinkError);
      expect((err as Error).message).toMatch(
        new RegExp(
          `^the new carriers build was not published: it has \\d+ carriers where the build it replaces \\(${before.data_version}\\) has ${before.counts.carriers}: .*--accept-shrink$`,
        ),
      );
      expect(await manifestOf(fx.buildDir)).toEqual(before);
      await buildCarriers({ input: fx.input, outDir: fx.outDir, asOf: AS_OF, now: PINNED_CLOCK, acceptShrink: true });
      const after = await manifestOf(fx.buildDir);
      expect(after.counts.carriers).toBeLessThan(before.counts.carriers! * 0.9);
    } finally {
      await fx.root.remove();
    }
  });
});

describe('economy: a registry that empties a category', () => {
  it('is refused through the build CLI (exit 1, the reason), and published with --accept-shrink', async () => {
    const dir = await tempDir('shrink-economy');
    try {
      const outDir = join(dir.path, 'out');
      await buildEconomy({ outDir, demo: true, now: PINNED_CLOCK });
      const before = await manifestOf(join(outDir, 'economy'));
      expect(before.counts.category_housing).toBe(1);
      const registry = JSON.parse(readFileSync(join(import.meta.dirname, '../../data/economy/registry.json'), 'utf8'));
      const input = join(dir.path, 'input');
      mkdirSync(input);
      writeFileSync(
        join(input, 'registry.json'),
        JSON.stringify(registry.filter((e: { category: string }) => e.category !== 'housing')),
      );
      const refused = await buildCli(['--service', 'economy', '--input', input, '--out', outDir, '--demo']).catch(
        (e: unknown) => e,
      );
      expect((refused as { exitCode?: number }).exitCode).toBe(1);
      expect((refused as Error).message).toMatch(/it empties the category housing \(1 in the build it replaces/);
      expect(await manifestOf(join(outDir, 'economy'))).toEqual(before);
      await buildCli(['--service', 'economy', '--input', input, '--out', outDir, '--demo', '--accept-shrink']);
      expect((await manifestOf(join(outDir, 'economy'))).counts.category_housing).toBe(0);
    } finally {
      await dir.remove();
    }
  });
});
