// Builds from the real FMCSA census samples in ../shared/data/carriers (never copied into this repository):
// with no inspection files, every carrier still gets a profile with counts 0 and no percentiles. Checks the
// README's facts through the API. Skips visibly when ../shared is absent.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCarriers } from '../../pipeline/carriers/index.ts';
import { serveCarriers } from '../helpers/carriers.ts';
import { expectCredited, expectOpenApiCredits, readJson } from '../helpers/provenance.ts';
import type { Manifest } from '../../contract/core/manifest.ts';
import { SHARED_DATA, tempDir } from '../helpers/server.ts';

const INPUT = join(SHARED_DATA, 'carriers');
const present = existsSync(INPUT);
if (!present) console.warn('skipped: ../shared/data not found (carriers real-data test)');

// biome-ignore lint/suspicious/noExplicitAny: response bodies are untyped JSON, read field by field in assertions
type Json = Record<string, any>;

describe.skipIf(!present)('carriers on the real census samples', () => {
  let root: Awaited<ReturnType<typeof tempDir>>;
  let srv: Awaited<ReturnType<typeof serveCarriers>>;
  let key = '';
  const profile = async (id: number): Promise<Json> => {
    const res = await fetch(`${srv.base}/api/carrier/${id}`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    return (await res.json()) as Json;
  };

  beforeAll(async () => {
    root = await tempDir('carriers-real');
    const outDir = join(root.path, 'dist-data');
    await buildCarriers({ input: INPUT, outDir });
    srv = await serveCarriers({
      root,
      input: INPUT,
      outDir,
      buildDir: join(outDir, 'carriers'),
      stateDir: join(root.path, 'state'),
      summary: undefined as never,
    });
    key = srv.accounts().createKey('premium', 'real-data test', new Date()).key;
  }, 120_000);
  afterAll(async () => {
    await srv?.close();
    await root?.remove();
  });

  it('reads both census samples (1,100 carriers) and nothing else as input', async () => {
    const report = (await (await fetch(`${srv.base}/report.json`)).json()) as Json;
    const census = report.inputs.filter((i: Json) => i.kind === 'census');
    expect(census.map((i: Json) => [i.rows, i.used])).toEqual(
      expect.arrayContaining([
        [1000, 1000],
        [100, 100],
      ]),
    );
    const manifest = (await (await fetch(`${srv.base}/manifest.json`)).json()) as Json;
    expect(manifest.counts.carriers).toBe(1100);
    expect(manifest.counts.inspections).toBe(0);
  });

  it('credits FMCSA on every census file, with its disclaimer, in the manifest and the OpenAPI document', () => {
    const buildDir = join(root.path, 'dist-data', 'carriers');
    const manifest = readJson<Manifest>(join(buildDir, 'manifest.json'));
    expect(manifest.demo).toBe(false);
    expect(new Set(manifest.sources.map((s) => s.kind))).toEqual(new Set(['census']));
    expectCredited(manifest);
    expectOpenApiCredits(buildDir, 'api/openapi.json', manifest);
  });

  it('holds the README facts: DOT 843932 and the 45,001-power-unit outlier', async () => {
    const ies = await profile(843932);
    expect(ies).toMatchObject({
      legal_name: 'IES COMMERCIAL INC',
      city: 'HOLDREGE',
      state: 'NE',
      power_units: 125,
      drivers: 77,
    });
    expect(ies.inspections.total).toBe(0);
    expect(ies.top_risks).toHaveLength(3);
    expect(Object.values(ies.percentiles).every((p) => p === null)).toBe(true);
    const emt = await profile(3847165);
    expect(emt).toMatchObject({ power_units: 45001, drivers: 2 });
    // The outlier's fleet size is not used to normalize anything.
    expect(emt.rates.crashes_per_power_unit).toBeNull();
  });

  it('finds carriers by number and by name', async () => {
    const byNumber = (await (await fetch(`${srv.base}/api/search?q=USDOT%20843932`)).json()) as Json;
    expect(byNumber.results[0]).toMatchObject({ carrier_id: 843932, legal_name: 'IES COMMERCIAL INC' });
    const byName = (await (await fetch(`${srv.base}/api/search?q=ies%20commercial`)).json()) as Json;
    expect(byName.results[0].carrier_id).toBe(843932);
  });
});
