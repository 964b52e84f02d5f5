// The facilities build as a whole: row accounting, determinism, id stability across rebuilds, input
// recognition, and clear failures.
import { readFileSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { writeFile, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFacilities } from '../../pipeline/facilities/index.ts';
import { silentProgress } from '../../pipeline/core/progress.ts';
import { FIXTURE_YEAR } from '../fixtures/facilities.ts';
import { buildFixture, PINNED_CLOCK } from '../helpers/facilities.ts';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c();
});

function tree(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(relative(dir, p), readFileSync(p));
    }
  };
  walk(dir);
  return out;
}

describe('facilities build', () => {
  it('accounts for every row: used plus dropped equals read, per input', async () => {
    const b = await buildFixture();
    cleanups.push(b.root.remove);
    const report = JSON.parse(readFileSync(join(b.buildDir, 'report.json'), 'utf8'));
    for (const input of report.inputs) {
      const dropped = Object.values(input.dropped as Record<string, number>).reduce((a, n) => a + n, 0);
      expect(input.used + dropped, input.file).toBe(input.rows);
    }
    const byKind = Object.fromEntries(report.inputs.map((i: { kind: string }) => [i.kind, i]));
    expect(byKind.ontario_ghg).toMatchObject({
      rows: 12,
      used: 11,
      dropped: { duplicate: 1 },
      encoding: 'windows-1252',
      bom: false,
    });
    expect(byKind.ghgrp_by_gas).toMatchObject({
      rows: 6,
      used: 5,
      dropped: { outside_ontario: 1 },
      encoding: 'utf-8',
      bom: true,
    });
    expect(byKind.ghgrp_indicator).toMatchObject({ rows: 4, used: 3, dropped: { outside_ontario: 1 } });
    expect(byKind.ewrb).toMatchObject({ rows: 4, used: 4, bom: true });
    expect(report.ignored).toEqual([{ file: 'notes.txt', reason: 'header matches no known input' }]);
    // (notes.txt shares no column with any input; a near miss names what it lacks, see 'a required column is missing'.)
    expect(report.issues.find((i: { kind: string }) => i.kind === 'missing_city')).toMatchObject({
      file: 'ontario/ghg-registry.csv',
      record: 12,
    });
    const manifest = JSON.parse(readFileSync(join(b.buildDir, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({
      service: 'facilities',
      demo: false,
      built_at: '2026-01-02T03:04:05.000Z',
      options: { year: 2024 },
      counts: { facilities: 10, anchored: 3 },
    });
    // The map's outline is the repository's own file, its rows its polygons (pipeline/facilities/boundary.ts).
    expect(manifest.sources.map((s: { file: string; rows: number }) => [s.file, s.rows])).toEqual([
      ['data/facilities/ontario.geojson', 13],
      ['ewrb.csv', 4],
      ['federal/emissions-by-gas.csv', 6],
      ['federal/large-facilities.csv', 4],
      ['ontario/ghg-registry.csv', 12],
    ]);
  });

  it('writes byte-identical output for the same inputs and code (the clock only in the manifest and the change record)', async () => {
    const a = await buildFixture();
    const b = await buildFacilities({
      input: a.input,
      outDir: join(a.root.path, 'again'),
      year: FIXTURE_YEAR,
      now: () => new Date('2030-01-01T00:00:00Z'),
    });
    cleanups.push(a.root.remove);
    const ta = tree(a.buildDir);
    const tb = tree(join(a.root.path, 'again', 'facilities'));
    expect([...tb.keys()].sort()).toEqual([...ta.keys()].sort());
    // The change record says when each build was made: its files differ by that time alone.
    const clockA = PINNED_CLOCK().toISOString();
    const clockB = '2030-01-01T00:00:00.000Z';
    const atom = (iso: string) => iso.replace('.000Z', 'Z');
    for (const [file, bytes] of ta) {
      if (file === 'manifest.json' || /^changes\/.*\.(gz|br)$/.test(file)) continue;
      if (file.startsWith('checksums.json')) {
        if (file !== 'checksums.json') continue;
        const others = (buf: Buffer) =>
          Object.entries((JSON.parse(buf.toString()) as { files: Record<string, string> }).files).filter(
            ([name]) => !name.startsWith('changes/'),
          );
        expect(others(tb.get(file)!)).toEqual(others(bytes));
        continue;
      }
      if (file.startsWith('changes/')) {
        const other = tb.get(file)!.toString().replaceAll(clockB, clockA).replaceAll(atom(clockB), atom(clockA));
        expect(other, file).toBe(bytes.toString());
        // The notable index holds positions only; the pages, index and feeds carry the build's time.
        if (!file.endsWith('.notable.json')) expect(bytes.toString(), file).toContain(clockA);
      } else expect(tb.get(file)!.equals(bytes), file).toBe(true);
    }
    const ma = JSON.parse(ta.get('manifest.json')!.toString());
    const mb = JSON.parse(tb.get('manifest.json')!.toString());
    expect(mb.data_version).toBe(ma.data_version);
    // checksums.json differs by the change record's files alone (above).
    expect({ ...mb, built_at: ma.built_at, checksums_sha256: ma.checksums_sha256 }).toEqual(ma);
    expect(b.data_version).toBe(ma.data_version);
  });

  it('keeps every spine id when one facility is removed and one added, and never reuses the old id', async () => {
    const first = await buildFixture();
    cleanups.push(first.root.remove);
    const before = JSON.parse(readFileSync(join(first.buildDir, 'ids.json'), 'utf8')).sources as Record<string, string>;
    // Rebuild over the same output with Ontario id 2005 gone and a new 2009 facility.
    await rm(first.input, { recursive: true });
    const { writeFacilitiesFixture } = await import('../fixtures/facilities.ts');
    await writeFacilitiesFixture(first.input, {
      dropOntario: [2005],
      addOntario: [[2024, 2009, 'New Co', 'Fresh Plant', 'Guelph', '311999', 15000, 0, 5, 5, 15010]],
    });
    await buildFacilities({ input: first.input, outDir: first.outDir, year: FIXTURE_YEAR, now: PINNED_CLOCK });
    const after = JSON.parse(readFileSync(join(first.buildDir, 'ids.json'), 'utf8')) as {
      next: number;
      sources: Record<string, string>;
    };
    for (const [source, id] of Object.entries(before)) expect(after.sources[source], source).toBe(id);
    expect(after.sources['ontario:2009']).toBe('ONF-000011');
    expect(after.next).toBe(12);
    const report = JSON.parse(readFileSync(join(first.buildDir, 'report.json'), 'utf8'));
    expect(report.ids).toEqual({ carried: 9, issued: ['ONF-000011'], retired: ['ONF-000005'] });
    const spine = JSON.parse(readFileSync(join(first.buildDir, 'api/v1/spine.json'), 'utf8')) as {
      facilities: { spine_id: string }[];
    };
    expect(spine.facilities.map((f) => f.spine_id)).not.toContain('ONF-000005');
    // The previous build stays beside the new one.
    expect(statSync(join(first.outDir, 'facilities.prev', 'manifest.json')).isFile()).toBe(true);
  });

  it('gives two builds the same data_version only when every file but the manifest is the same (ids carried over count)', async () => {
    const base = await buildFixture();
    cleanups.push(base.root.remove);
    const { writeFacilitiesFixture } = await import('../fixtures/facilities.ts');
    const inputs = { a: base.input, b: join(base.root.path, 'input-b') };
    // B: a facility gone and a new one, so A and B alternately retire and issue ids.
    await writeFacilitiesFixture(inputs.b, {
      dropOntario: [2005],
      addOntario: [[2024, 2009, 'New Co', 'Fresh Plant', 'Guelph', '311999', 15000, 0, 5, 5, 15010]],
    });
    const seen = new Map<string, Map<string, Buffer>>();
    for (const which of ['a', 'b', 'a', 'b', 'b'] as const) {
      const { data_version } = await buildFacilities({
        input: inputs[which],
        outDir: base.outDir,
        year: FIXTURE_YEAR,
        now: PINNED_CLOCK,
      });
      const files = tree(base.buildDir);
      files.delete('manifest.json');
      const earlier = seen.get(data_version);
      if (earlier) {
        expect([...files.keys()].sort()).toEqual([...earlier.keys()].sort());
        for (const [file, bytes] of files) expect(earlier.get(file)!.equals(bytes), `${which} ${file}`).toBe(true);
      }
      seen.set(data_version, files);
    }
    // The last two builds of B carry the same ids: the same version (and the same bytes, checked above).
    expect(seen.size).toBe(4);
  });

  it('carries the ids over after a publish killed between its renames (the build only in <service>.prev)', async () => {
    const first = await buildFixture();
    cleanups.push(first.root.remove);
    const before = readFileSync(join(first.buildDir, 'ids.json'), 'utf8');
    // A new facility whose name sorts first: a build without the published ids would number it ONF-000001.
    await rm(first.input, { recursive: true });
    const { writeFacilitiesFixture } = await import('../fixtures/facilities.ts');
    await writeFacilitiesFixture(first.input, {
      addOntario: [[2024, 2010, 'Aardvark Co', 'Aardvark Test Plant', 'Guelph', '311999', 15000, 0, 5, 5, 15010]],
    });
    // Killed between the renames: the live tree was moved aside and the new one not yet moved in.
    renameSync(first.buildDir, join(first.outDir, 'facilities.prev'));
    await buildFacilities({ input: first.input, outDir: first.outDir, year: FIXTURE_YEAR, now: PINNED_CLOCK });
    const after = JSON.parse(readFileSync(join(first.buildDir, 'ids.json'), 'utf8')) as {
      sources: Record<string, string>;
    };
    for (const [source, id] of Object.entries((JSON.parse(before) as { sources: Record<string, string> }).sources))
      expect(after.sources[source], source).toBe(id);
    const report = JSON.parse(readFileSync(join(first.buildDir, 'report.json'), 'utf8'));
    expect(report.ids.carried).toBe(10);
    expect(report.ids.issued).toEqual(['ONF-000011']);
  });

  it('stops, naming the file, when the published ids.json is damaged', async () => {
    const b = await buildFixture();
    cleanups.push(b.root.remove);
    writeFileSync(join(b.buildDir, 'ids.json'), '{"next": 1');
    await expect(
      buildFacilities({ input: b.input, outDir: b.outDir, year: FIXTURE_YEAR, now: PINNED_CLOCK }),
    ).rejects.toThrow(/facilities\/ids\.json is not readable JSON .*: the published ids cannot be carried over/);
  });

  it('stops at once, before reading any input, while another live build holds the lock', async () => {
    const b = await buildFixture();
    cleanups.push(b.root.remove);
    // A live process that is not this one: the test runner's parent.
    writeFileSync(join(b.outDir, '.facilities.lock'), String(process.ppid));
    const stages: string[] = [];
    const progress = { ...silentProgress, stage: (s: string) => void stages.push(s) };
    await expect(
      buildFacilities({ input: b.input, outDir: b.outDir, year: FIXTURE_YEAR, now: PINNED_CLOCK, progress }),
    ).rejects.toThrow(new RegExp(`another build of facilities is running \\(pid ${process.ppid}, lock `));
    expect(stages).toEqual([]);
    // A lock left by a process that is gone does not stop anything.
    writeFileSync(join(b.outDir, '.facilities.lock'), '999999999');
    await buildFacilities({ input: b.input, outDir: b.outDir, year: FIXTURE_YEAR, now: PINNED_CLOCK });
  });

  it('warns of nothing on a good build, and refuses a comparison year neither program reports', async () => {
    const b = await buildFixture();
    cleanups.push(b.root.remove);
    expect(b.summary.warnings).toEqual([]);
    expect(JSON.parse(readFileSync(join(b.buildDir, 'report.json'), 'utf8')).warnings).toEqual([]);
    const manifest = readFileSync(join(b.buildDir, 'manifest.json'));
    await expect(buildFacilities({ input: b.input, outDir: b.outDir, year: 2031, now: PINNED_CLOCK })).rejects.toThrow(
      /^--year 2031: neither program reports that year \(Ontario \d{4}–\d{4}, federal \d{4}–\d{4}\)/,
    );
    // Refused before anything is published: the good build stays.
    expect(readFileSync(join(b.buildDir, 'manifest.json')).equals(manifest)).toBe(true);
  });

  it('leaves out unusable coordinates with a warning that counts them, and still publishes', async () => {
    // A longitude that lost its minus sign (in range, outside Ontario) and a latitude that is no number.
    const b = await buildFixture({ coordinates: { G20001: ['43.2557', '79.8711'], G20004: ['n.d.', '-77.3832'] } });
    cleanups.push(b.root.remove);
    // Both rows of G20001 (2023 and 2024), one of G20004.
    expect(b.summary.warnings).toEqual([expect.stringMatching(/^3 federal rows have coordinates that are not/)]);
    const report = JSON.parse(readFileSync(join(b.buildDir, 'report.json'), 'utf8'));
    expect(report.warnings).toEqual(b.summary.warnings);
    const issues = report.issues.filter((i: { kind: string }) => i.kind === 'invalid_coordinates');
    expect(issues.map((i: { message: string }) => i.message)).toEqual([
      'latitude "43.2557", longitude "79.8711" is outside Ontario; coordinates left out',
      'latitude "43.2557", longitude "79.8711" is outside Ontario; coordinates left out',
      'latitude "n.d.", longitude "-77.3832" is not a pair of numbers; coordinates left out',
    ]);
    const record = (id: string) =>
      JSON.parse(readFileSync(join(b.buildDir, `api/v1/facility/${id}.json`), 'utf8')).coordinates;
    // Maple Leaf Steel falls back on the indicator table's coordinates for the same year; Northfield has none.
    expect(record('ONF-000001')).toEqual({ latitude: 43.26, longitude: -79.87, source: 'federal' });
    expect(record('ONF-000009')).toBeNull();
    expect(b.summary.counts.located).toBe(3);
  });

  it('fails clearly, naming the file and column, when a required column is missing; nothing is published', async () => {
    const b = await buildFixture();
    cleanups.push(b.root.remove);
    const manifestBefore = readFileSync(join(b.buildDir, 'manifest.json'));
    // A second Ontario-like file that lacks Total CO2e is not recognized, so it is listed and ignored…
    await writeFile(join(b.input, 'partial.csv'), 'Year,Ontario GHG ID,Facility Name\r\n2024,1,X\r\n');
    const s = await buildFacilities({
      input: b.input,
      outDir: join(b.root.path, 'other'),
      year: FIXTURE_YEAR,
      now: PINNED_CLOCK,
    });
    const partial = s.ignored.find((i) => i.file === 'partial.csv')!;
    // …with the input it comes closest to and the columns it lacks, by their names in the upstream file…
    expect(partial.reason).toMatch(
      /^header matches no known input \(closest: ontario_ghg, without the columns "Facility City", .*"Total CO2e from all sources in CO2e \(t\)"\)$/,
    );
    // …and a folder with no Ontario file at all fails the build, saying what was there instead.
    await rm(join(b.input, 'ontario'), { recursive: true });
    await expect(buildFacilities({ input: b.input, outDir: b.outDir, year: FIXTURE_YEAR })).rejects.toThrow(
      /no Ontario GHG registry file found .*; files not taken: .*partial\.csv: header matches no known input \(closest: ontario_ghg/,
    );
    expect(readFileSync(join(b.buildDir, 'manifest.json')).equals(manifestBefore)).toBe(true);
    expect(readdirSync(b.outDir).filter((n) => n.startsWith('.'))).toEqual([]);
  });
});
