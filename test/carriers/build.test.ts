// The carriers build's snapshot date when none is given: the census's latest date, never after the build day.
import { existsSync, readFileSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCarriers } from '../../pipeline/carriers/index.ts';
import { silentProgress } from '../../pipeline/core/progress.ts';
import { loadBuild } from '../../server/core/build.ts';
import { AS_OF, writeCarriersFixture } from '../fixtures/carriers.ts';
import { PROFILES } from '../../contract/carriers/layout.ts';
import type { Profile } from '../../contract/carriers/profile.ts';
import { schemas } from '../../contract/core/schemas.ts';
import { RecordStore } from '../../server/core/record-store.ts';
import { toExplanation } from '../../server/carriers/explain.ts';
import { PINNED_CLOCK } from '../helpers/facilities.ts';
import { tempDir } from '../helpers/server.ts';

const roots: Awaited<ReturnType<typeof tempDir>>[] = [];
afterAll(async () => {
  for (const r of roots) await r.remove();
});

/** The fixture's inputs in a folder of their own (removed after the file's tests). */
async function fixtureInput(name: string): Promise<{ root: string; input: string }> {
  const root = await tempDir(name);
  roots.push(root);
  const input = join(root.path, 'input');
  await writeCarriersFixture(input);
  return { root: root.path, input };
}

async function build(futureDate: boolean) {
  const { root, input } = await fixtureInput('carriers-asof');
  if (futureDate) {
    const census = join(input, 'census', 'FMCSA_CENSUS1_2026Oct.txt');
    const text = await readFile(census, 'utf8');
    expect(text).toContain('"01-MAR-24"');
    await writeFile(census, text.replace('"01-MAR-24"', '"11-AUG-2036"'));
  }
  await buildCarriers({ input, outDir: join(root, 'out'), now: PINNED_CLOCK });
  const manifest = JSON.parse(await readFile(join(root, 'out', 'carriers', 'manifest.json'), 'utf8')) as {
    options: { as_of: string };
  };
  const report = JSON.parse(await readFile(join(root, 'out', 'carriers', 'report.json'), 'utf8')) as {
    data_as_of: string;
    issue_counts: Record<string, number>;
  };
  return { asOf: manifest.options.as_of, report };
}

describe('inputs that cannot be used', () => {
  it('stops before publishing when every row of a recognized file is damaged', async () => {
    const { root, input } = await fixtureInput('carriers-damaged');
    const header =
      'Report_Number,Report_Seq_No,DOT_Number,Report_Date,Report_State,Fatalities,Injuries,Tow_Away,Hazmat_Released,Severity_Weight,Time_Weight,Not_Preventable';
    await writeFile(join(input, 'sms', 'bad-crashes.csv'), `${header}\r\n${'TX1,1\r\n'.repeat(3)}`);
    const out = join(root, 'out');
    await expect(buildCarriers({ input, outDir: out, now: PINNED_CLOCK })).rejects.toThrow(
      /^sms\/bad-crashes\.csv: none of its 3 rows could be used \(malformed 3\): the file is damaged/,
    );
    expect(existsSync(join(out, 'carriers'))).toBe(false);
  });

  it('counts every malformed row in the file account, past the first thousand the reader lists', async () => {
    const { root, input } = await fixtureInput('carriers-many-malformed');
    const inspections = join(input, 'sms', 'inspections.csv');
    await writeFile(inspections, `${await readFile(inspections, 'utf8')}${'9999,1\n'.repeat(1200)}`);
    const summary = await buildCarriers({ input, outDir: join(root, 'out'), now: PINNED_CLOCK });
    const account = summary.inputs.find((a) => a.file === 'sms/inspections.csv');
    expect(account?.dropped.malformed).toBe(1200);
  });
});

describe('the build lock', () => {
  it('is held from before the inputs are read, so a second build stops at once', async () => {
    const { root, input } = await fixtureInput('carriers-lock');
    const out = join(root, 'out');
    const held: Record<string, boolean> = {};
    const progress = {
      ...silentProgress,
      stage: (name: string) => {
        held[name.split(' ')[0]!] ??= existsSync(join(out, '.carriers.lock'));
      },
    };
    await buildCarriers({ input, outDir: out, now: PINNED_CLOCK, progress });
    expect(held).toMatchObject({ scanning: true, reading: true });
    expect(existsSync(join(out, '.carriers.lock'))).toBe(false);
  });
});

describe('an input with a header and no rows', () => {
  it('builds without it and says so in the result and report.json', async () => {
    const { root, input } = await fixtureInput('carriers-header-only');
    const file = join(input, 'sms', 'inspections.csv');
    const header = (await readFile(file, 'utf8')).split('\n')[0]!;
    await writeFile(file, `${header}\n`);
    const summary = await buildCarriers({ input, outDir: join(root, 'out'), now: PINNED_CLOCK });
    const warning =
      'sms/inspections.csv (inspection) has a header and no rows: this build has nothing from it; if the upstream file is not empty, fetch it again';
    // And what it means for the profiles: the inspections are a data gap.
    const gap =
      "no SMS Input – Inspection rows: every profile's inspection figures are null (unknown, not 0), its data_gaps say so (inspections), and no carrier is ranked in a category measured from them; add the file to the input folder for a full build";
    expect(summary.warnings).toEqual([warning, gap]);
    const report = JSON.parse(await readFile(join(root, 'out', 'carriers', 'report.json'), 'utf8')) as {
      warnings: string[];
    };
    expect(report.warnings).toEqual([warning, gap]);
    expect(summary.counts.inspections).toBe(0);
  });

  it('makes null what rests on the inspections alone, and keeps what the violations and crashes give', async () => {
    const { root, input } = await fixtureInput('carriers-no-inspections');
    await rm(join(input, 'sms', 'inspections.csv'));
    await buildCarriers({ input, outDir: join(root, 'out'), now: PINNED_CLOCK, asOf: AS_OF });
    const store = RecordStore.open(loadBuild(join(root, 'out', 'carriers'), 'carriers'), PROFILES);
    try {
      const p = JSON.parse(store.get(1000001)!.toString('utf8')) as Profile;
      schemas().assert('carriers/profile', p, 'profile');
      expect(p.data_gaps).toEqual(['inspections']);
      expect(p.inspections.total).toBeNull();
      expect(p.national.vehicle_inspections).toBeNull();
      expect(p.crashes).toMatchObject({ total: 1, injury: 1 });
      expect(p.rates).toMatchObject({
        vehicle_oos_rate: null,
        driver_oos_rate: null,
        violations_per_inspection: null,
        crashes_per_power_unit: 0.02,
      });
      const byBasic = Object.fromEntries(p.categories.map((c) => [c.category, c]));
      // Unsafe Driving rests on the violations alone: still measured and ranked.
      expect(byBasic.unsafe_driving).toMatchObject({ sufficient_data: true, violations: 3, percentile: 0 });
      // Hours of service is measured over the inspections: no measure, its violations still counted.
      expect(byBasic.hos_compliance).toMatchObject({
        sufficient_data: false,
        measure: null,
        percentile: null,
        peer_group: null,
        violations: 1,
      });
      const text = toExplanation(p);
      expect(text).toContain(
        "In the 24 months to 2026-10-31 it had 1 reported crash (0 fatal, 1 with injuries, 1 with a vehicle towed away). Its roadside inspections are not known: FMCSA's SMS inspection data was not available to this build",
      );
      expect(text).toContain('Crash counts include');
      expect(text).not.toMatch(/\b0 roadside inspections\b/);
    } finally {
      store.close();
    }
  });
});

describe('SMS events given twice', () => {
  it('counts a copied file once (listed as ignored) and a repeated inspection or crash row once (dropped as a duplicate)', async () => {
    const base = await fixtureInput('carriers-events-once');
    const baseline = await buildCarriers({ input: base.input, outDir: join(base.root, 'out'), now: PINNED_CLOCK });
    const { root, input } = await fixtureInput('carriers-events-twice');
    const sms = join(input, 'sms');
    // Copies saved under other names: the same bytes.
    for (const name of ['inspections', 'violations', 'crashes'])
      await writeFile(join(sms, `${name} (1).csv`), await readFile(join(sms, `${name}.csv`)));
    // And the first data row of the inspections and crashes repeated at the end of their file.
    for (const name of ['inspections', 'crashes']) {
      const lines = (await readFile(join(sms, `${name}.csv`), 'utf8')).trimEnd().split('\n');
      await writeFile(join(sms, `${name}.csv`), `${[...lines, lines[1]!].join('\n')}\n`);
    }
    const summary = await buildCarriers({ input, outDir: join(root, 'out'), now: PINNED_CLOCK });
    expect(summary.counts).toEqual(baseline.counts);
    // The violations copy is the same bytes: read once (the first in name order: " (1)" sorts before ".csv").
    expect(summary.ignored).toContainEqual({
      file: 'sms/violations.csv',
      reason: 'the same bytes as sms/violations (1).csv: read once',
    });
    // The others changed after the copy: both read, the copy first (name order), so every row of the
    // original, its repeated row too, is a repeat.
    const byFile = new Map(summary.inputs.map((a) => [a.file, a]));
    expect(byFile.get('sms/inspections (1).csv')!.dropped.duplicate_inspection).toBeUndefined();
    expect(byFile.get('sms/crashes (1).csv')!.dropped.duplicate_crash).toBeUndefined();
    const inspections = byFile.get('sms/inspections.csv')!;
    const crashes = byFile.get('sms/crashes.csv')!;
    expect(inspections).toMatchObject({ used: 0, dropped: { duplicate_inspection: inspections.rows } });
    expect(crashes).toMatchObject({ used: 0, dropped: { duplicate_crash: crashes.rows } });
    expect(inspections.rows).toBe(byFile.get('sms/inspections (1).csv')!.rows + 1);
    // Every profile is the same as without the repeats.
    const profiles = (dir: string) =>
      readFileSync(loadBuild(join(dir, 'out', 'carriers'), 'carriers').pathOf('private/profiles.dat'));
    expect(profiles(root).equals(profiles(base.root))).toBe(true);
  });
});

describe('a census given twice', () => {
  it("keeps the first file's rows (in name order) and counts the copy's as duplicates in its own account, and builds", async () => {
    const { root, input } = await fixtureInput('carriers-twice');
    const census = await readFile(join(input, 'census', 'FMCSA_CENSUS1_2026Oct.txt'));
    await writeFile(join(input, 'census', 'FMCSA_CENSUS1_2026Oct_copy.txt'), census);
    const summary = await buildCarriers({ input, outDir: join(root, 'out'), now: PINNED_CLOCK });
    const byFile = new Map(summary.inputs.map((a) => [a.file, a]));
    const first = byFile.get('census/FMCSA_CENSUS1_2026Oct.txt')!;
    const copy = byFile.get('census/FMCSA_CENSUS1_2026Oct_copy.txt')!;
    expect(first.rows).toBeGreaterThan(0);
    expect(first).toMatchObject({ used: first.rows, dropped: {} });
    expect(copy).toMatchObject({ rows: first.rows, used: 0, dropped: { duplicate_carrier: first.rows } });
  });
});

describe('snapshot date', () => {
  it('is the latest census date, leaving out dates after the build day (counted)', async () => {
    const plain = await build(false);
    const future = await build(true);
    expect(plain.asOf <= PINNED_CLOCK().toISOString().slice(0, 10)).toBe(true);
    expect(future.asOf).toBe(plain.asOf);
    expect(future.report.data_as_of).toBe(plain.asOf);
    expect(plain.report.issue_counts.census_date_after_build).toBeUndefined();
    expect(future.report.issue_counts.census_date_after_build).toBe(1);
  });
});
