// A build from the census alone (no SMS Input inspection, violation or crash file), over a real server: what
// rests on the missing inputs is null, never 0, every profile says which in data_gaps, the explain summary
// says the data was not available, the export and the ranking cope, and the build warns, in its progress and
// again in its summary and report. The fixture's forty LONE STAR carriers also page search and filter it
// by state.
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemas } from '../../contract/core/schemas.ts';
import { buildCarriers, type CarriersBuildSummary } from '../../pipeline/carriers/index.ts';
import { silentProgress } from '../../pipeline/core/progress.ts';
import { AS_OF, LONE_STAR, writeCensusOnlyFixture } from '../fixtures/carriers.ts';
import { expectProblem, type Json, serveCarriers } from '../helpers/carriers.ts';
import { PINNED_CLOCK } from '../helpers/facilities.ts';
import { tempDir } from '../helpers/server.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const BASICS = 7;
// No SMS input and no registry input: every one is a gap.
const GAPS = ['inspections', 'violations', 'crashes', 'authority', 'insurance', 'out_of_service_orders'];

let root: Awaited<ReturnType<typeof tempDir>>;
let srv: Awaited<ReturnType<typeof serveCarriers>>;
let summary: CarriersBuildSummary;
const progressLines: string[] = [];
let premium = '';

beforeAll(async () => {
  root = await tempDir('carriers-census-only');
  const input = join(root.path, 'input');
  const outDir = join(root.path, 'dist-data');
  await writeCensusOnlyFixture(input);
  summary = await buildCarriers({
    input,
    outDir,
    asOf: AS_OF,
    now: PINNED_CLOCK,
    progress: { ...silentProgress, info: (line) => progressLines.push(line) },
  });
  srv = await serveCarriers({
    root,
    input,
    outDir,
    buildDir: join(outDir, 'carriers'),
    stateDir: join(root.path, 'state'),
    summary,
  });
  premium = (await srv.accounts().createKey('premium', 'census-only test', new Date())).key;
});
afterAll(async () => {
  await srv?.close();
  await root?.remove();
});

const auth = () => ({ Authorization: `Bearer ${premium}` });
const profile = async (id: number): Promise<Json> => {
  const res = await fetch(`${srv.base}/api/carrier/${id}`, { headers: auth() });
  expect(res.status).toBe(200);
  return (await res.json()) as Json;
};
const search = async (query: string): Promise<Json> => {
  const res = await fetch(`${srv.base}/api/search?${query}`);
  expect(res.status, query).toBe(200);
  const body = (await res.json()) as Json;
  schemas().assert('carriers/search', body, query);
  return body;
};
const ids = (r: Json) => (r.results as Json[]).map((c) => c.carrier_id as number);

describe('the warning', () => {
  it('is printed while the build runs, and repeated in its summary and report.json', async () => {
    const warnings = summary.warnings.filter((w) => w.includes('data_gaps'));
    expect(warnings).toHaveLength(1);
    const [warning] = warnings as [string];
    expect(warning).toMatch(/^no SMS Input – Inspection, SMS Input – Violation or SMS Input – Crash rows: /);
    expect(warning).toContain('null (unknown, not 0)');
    expect(progressLines).toContain(`warning: ${warning}`);
    const report = JSON.parse(await readFile(join(root.path, 'dist-data', 'carriers', 'report.json'), 'utf8')) as Json;
    expect(report.warnings).toContain(warning);
    // Rows read: none; the manifest's counts of rows used say so as numbers.
    expect(summary.counts).toMatchObject({ carriers: 7 + LONE_STAR.length, inspections: 0, crashes: 0 });
  });

  it('is printed by the build command during the build and again at its end', async () => {
    const out = join(root.path, 'cli-out');
    const r = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'pipeline/cli.ts',
        '--service',
        'carriers',
        '--input',
        join(root.path, 'input'),
        '--out',
        out,
        '--as-of',
        AS_OF,
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => l.includes('warning: no SMS Input'));
    expect(lines).toHaveLength(2);
    // During the build (a progress line), then at the end, after the summary tables and before "published".
    expect(lines[0]).toMatch(/^\[build carriers\] .*warning: no SMS Input/);
    expect(lines[1]).toMatch(/^warning: no SMS Input/);
    expect(r.stderr.indexOf(lines[1]!)).toBeLessThan(r.stderr.indexOf('\npublished carriers'));
    expect(r.stderr.indexOf(lines[0]!)).toBeLessThan(r.stderr.indexOf('carriers_with_monthly_counts'));
  }, 60_000);
});

describe('profiles of a census-only build', () => {
  it('are null, never 0, wherever a figure rests on the missing inputs, and list them in data_gaps', async () => {
    for (const id of [1000001, 1000002, 1000003, 1000006, 42, 2000007]) {
      const p = await profile(id);
      schemas().assert('carriers/profile', p, `profile ${id}`);
      expect(p.data_gaps).toEqual(GAPS);
      expect(p.inspections).toEqual({
        window_months: 24,
        total: null,
        driver: null,
        vehicle: null,
        hazmat: null,
        with_violations: null,
      });
      expect(p.crashes).toEqual({ window_months: 24, total: null, fatal: null, injury: null, tow_away: null });
      expect(Object.values(p.rates)).toEqual([null, null, null, null, null]);
      expect(p.national).toEqual({
        vehicle_oos_rate: null,
        driver_oos_rate: null,
        hazmat_oos_rate: null,
        vehicle_inspections: null,
        driver_inspections: null,
        hazmat_inspections: null,
      });
      expect(p.categories).toHaveLength(BASICS);
      for (const c of p.categories as Json[])
        expect(c, `${id} ${c.category}`).toMatchObject({
          measure: null,
          percentile: null,
          violations: null,
          peer_group: null,
          sufficient_data: false,
          alert: false,
        });
      expect(Object.values(p.percentiles)).toEqual(Array(BASICS).fill(null));
      // Every carrier is in the group of the unranked, whose basis says why.
      expect(p.peer_group).toMatchObject({ id: 'insufficient', size: 7 + LONE_STAR.length });
      expect(p.peer_group.basis).toContain('the build had no SMS inspection, violation or crash data');
      // Three risks still, listed for want of figures, each saying so.
      expect(p.top_risks.map((r: Json) => r.category)).toEqual(['unsafe_driving', 'hos_compliance', 'driver_fitness']);
      for (const r of p.top_risks as Json[]) {
        expect(r.percentile).toBeNull();
        expect(r.reason).toMatch(/no SMS (violation|inspection or violation) data in this build/);
        expect(r.reason).not.toMatch(/\b0 violations\b/);
      }
    }
  });

  it('keep the census figures: fleet, mileage, place', async () => {
    expect(await profile(1000001)).toMatchObject({
      legal_name: 'ALPHA FREIGHT LLC',
      state: 'TX',
      power_units: 50,
      drivers: 60,
      mileage: { miles: 5000000, year: 2024 },
    });
  });
});

describe('explain on a census-only build', () => {
  it('says the inspection, violation and crash data was not available, never that there were none', async () => {
    for (const id of [1000001, 1000003]) {
      const res = await fetch(`${srv.base}/api/carrier/${id}/explain`, { method: 'POST', headers: auth() });
      expect(res.status).toBe(200);
      const { summary: text } = (await res.json()) as { summary: string };
      expect(text).toContain(
        "its roadside inspections and crashes are not known: FMCSA's SMS inspection, violation and crash data was not available to this build",
      );
      expect(text).toContain('not zero');
      expect(text).toContain(
        "It cannot be compared with peers: the data the rankings rest on (FMCSA's SMS inspection, violation and crash data) was not available to this build",
      );
      expect(text).not.toMatch(/\b0 roadside inspections?\b/);
      expect(text).not.toContain('no reported crash');
      expect(text).not.toContain('too few inspections');
      expect(text).not.toContain('Crash counts include');
      expect(text).not.toContain('enough data to be ranked');
    }
  });
});

describe('export of a census-only build', () => {
  it('json: the profile with its gaps, and null monthly counts, never zeros', async () => {
    const res = await fetch(`${srv.base}/api/carrier/1000001/export`, { headers: auth() });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    schemas().assert('carriers/export', body, 'export');
    expect(body.profile.data_gaps).toEqual(GAPS);
    expect(body.monthly.months).toHaveLength(25);
    for (const m of body.monthly.months as Json[]) expect(m).toMatchObject({ inspections: null, crashes: null });
  });

  it('csv: empty fields for the unknown measure, percentile and violations', async () => {
    const res = await fetch(`${srv.base}/api/carrier/1000001/export?format=csv`, { headers: auth() });
    expect(res.status).toBe(200);
    const rows = Papa.parse<Record<string, string>>((await res.text()).trimEnd(), { header: true }).data;
    expect(rows).toHaveLength(BASICS);
    for (const row of rows) expect(row).toMatchObject({ measure: '', percentile: '', violations: '', alert: 'false' });
  });
});

describe('search over the census-only build', () => {
  const lone = [...LONE_STAR].sort((a, b) => Number(b[11]) - Number(a[11]) || a[0] - b[0]).map((c) => c[0]);

  it('ranks by power units, then carrier_id, and pages through every match without overlap or gap', async () => {
    const all = await search('q=lone%20star&limit=100');
    expect(all).toMatchObject({ total: 40, limit: 100, offset: 0 });
    expect(ids(all)).toEqual(lone);
    for (const size of [1, 3, 7, 25]) {
      const pages: number[] = [];
      for (let offset = 0; offset < 40; offset += size) {
        const page = await search(`q=lone%20star&limit=${size}&offset=${offset}`);
        expect(page).toMatchObject({ total: 40, limit: size, offset });
        expect(page.results.length).toBe(Math.min(size, 40 - offset));
        pages.push(...ids(page));
      }
      expect(pages, `pages of ${size}`).toEqual(lone);
    }
    for (const offset of [40, 41, 10_000])
      expect(await search(`q=lone%20star&offset=${offset}`)).toMatchObject({ total: 40, offset, results: [] });
  });

  it('filters by state in any case, paging within the state', async () => {
    const inTexas = LONE_STAR.filter((c) => c[7] === 'TX').map((c) => c[0]);
    const texas = lone.filter((id) => inTexas.includes(id));
    expect(texas).toHaveLength(14);
    for (const state of ['TX', 'tx', 'tX']) {
      const r = await search(`q=lone&state=${state}&limit=100`);
      expect(r.total).toBe(14);
      expect(ids(r)).toEqual(texas);
    }
    const pages: number[] = [];
    for (let offset = 0; offset < 14; offset += 4)
      pages.push(...ids(await search(`q=freight&state=tx&limit=4&offset=${offset}`)).filter((id) => id > 2000000));
    expect(pages).toEqual(texas);
    // ALPHA FREIGHT LLC is a freight carrier of Texas too, ranked by its 50 power units first.
    expect(ids(await search('q=freight&state=TX&limit=1'))).toEqual([1000001]);
    expect((await search('q=lone&state=NM')).total).toBe(13);
    expect((await search('q=lone&state=CA')).total).toBe(0);
    await expectProblem(await fetch(`${srv.base}/api/search?q=lone&state=TEX`), 400, 'invalid_parameter');
  });
});
