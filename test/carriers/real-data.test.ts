// Builds from the real FMCSA census samples in ../shared/data/carriers (never copied into this repository):
// a census-only build, so every carrier gets a profile whose inspection, violation and crash figures are
// null (data_gaps), never 0, and no percentiles. Checks the README's facts through the API, and search's
// state filter and paging over real states and provinces. Skips visibly when ../shared is absent.
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
    key = (await srv.accounts().createKey('premium', 'real-data test', new Date())).key;
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
    // No SMS Input file among them: the report repeats the build's warning.
    expect(report.warnings).toContainEqual(expect.stringMatching(/^no SMS Input – Inspection, .* rows: .*data_gaps/));
  });

  it('credits FMCSA on every census file, with its disclaimer, in the manifest and the OpenAPI document', () => {
    const buildDir = join(root.path, 'dist-data', 'carriers');
    const manifest = readJson<Manifest>(join(buildDir, 'manifest.json'));
    expect(manifest.demo).toBe(false);
    expect(new Set(manifest.sources.map((s) => s.kind))).toEqual(new Set(['census', 'revocation']));
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
    // A census-only build: unknown, not 0.
    // The census samples and the revocation file: no SMS input, no insurance or order file.
    expect(ies.data_gaps).toEqual(['inspections', 'violations', 'crashes', 'insurance', 'out_of_service_orders']);
    // None of the revoked dockets of 2024-08-06 is one of these 1,100 carriers': no authority on record.
    expect(ies.authority).toEqual([]);
    expect(ies.operating_status).toEqual({
      allowed_to_operate: true,
      reasons: [
        { code: 'not_checked', detail: expect.stringMatching(/^insurance was not checked/) },
        { code: 'not_checked', detail: expect.stringMatching(/^out-of-service orders were not checked/) },
      ],
    });
    expect(ies.inspections.total).toBeNull();
    expect(ies.crashes.total).toBeNull();
    expect(Object.values(ies.rates).every((r) => r === null)).toBe(true);
    expect(ies.categories.every((c: Json) => c.violations === null && c.measure === null)).toBe(true);
    expect(ies.top_risks).toHaveLength(3);
    expect(Object.values(ies.percentiles).every((p) => p === null)).toBe(true);
    const emt = await profile(3847165);
    expect(emt).toMatchObject({ power_units: 45001, drivers: 2 });
    // The outlier's fleet size is not used to normalize anything.
    expect(emt.rates.crashes_per_power_unit).toBeNull();
  });

  it('explains a carrier of a census-only build without calling the missing data none', async () => {
    const res = await fetch(`${srv.base}/api/carrier/843932/explain`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
    const { summary } = (await res.json()) as { summary: string };
    expect(summary).toContain('IES COMMERCIAL INC, USDOT 843932, is a motor carrier based in HOLDREGE, NE.');
    expect(summary).toContain('was not available to this build');
    expect(summary).not.toMatch(/\b0 roadside inspections?\b/);
    expect(summary).not.toContain('no reported crash');
  });

  it('filters search by the census states, US, Canadian and Mexican, in any case', async () => {
    const get = async (query: string) => (await (await fetch(`${srv.base}/api/search?${query}`)).json()) as Json;
    const ne = await get('q=ies&state=ne');
    expect(ne.results[0]).toMatchObject({ carrier_id: 843932, state: 'NE' });
    expect((await get('q=ies&state=CA')).results.map((c: Json) => c.carrier_id)).not.toContain(843932);
    // SURREY, BC (Canada): NATT ENTERPRISES LTD.
    expect((await get('q=natt&state=bc')).results.map((c: Json) => c.carrier_id)).toEqual([2090769]);
    // A Mexican state in FMCSA's own code (Jalisco): one carrier in the samples.
    for (const state of ['JA', 'ja']) {
      const r = await get(`q=${encodeURIComponent('a')}&state=${state}&limit=100`);
      expect(r.results.every((c: Json) => c.state === 'JA')).toBe(true);
    }
    expect((await get('q=USDOT%20843932&state=TX')).total).toBe(0);
  });

  it('pages through a common word of the real names without overlap or gap', async () => {
    const get = async (query: string) => (await (await fetch(`${srv.base}/api/search?${query}`)).json()) as Json;
    const all = await get('q=llc&limit=100');
    expect(all.total).toBeGreaterThan(100);
    const pages: number[] = [];
    for (let offset = 0; offset < all.total; offset += 100)
      pages.push(...(await get(`q=llc&limit=100&offset=${offset}`)).results.map((c: Json) => c.carrier_id));
    expect(pages).toHaveLength(all.total);
    expect(new Set(pages).size).toBe(all.total);
    expect(pages.slice(0, 100)).toEqual(all.results.map((c: Json) => c.carrier_id));
    const ca = await get('q=llc&state=ca&limit=100');
    expect(ca.total).toBeGreaterThan(0);
    expect(ca.total).toBeLessThan(all.total);
    expect(ca.results.every((c: Json) => c.state === 'CA')).toBe(true);
    expect(await get(`q=llc&offset=${all.total}`)).toMatchObject({ total: all.total, results: [] });
  });

  it('finds carriers by number and by name', async () => {
    const byNumber = (await (await fetch(`${srv.base}/api/search?q=USDOT%20843932`)).json()) as Json;
    expect(byNumber.results[0]).toMatchObject({ carrier_id: 843932, legal_name: 'IES COMMERCIAL INC' });
    const byName = (await (await fetch(`${srv.base}/api/search?q=ies%20commercial`)).json()) as Json;
    expect(byName.results[0].carrier_id).toBe(843932);
  });
});
