// npm run generate: inputs at a fraction of full size, proportional to it, in formats the builds recognize
// (generate → build publishes a demo-labelled build), and the economy's upstream answers served by the fake
// upstream exactly as the built-in demo upstream answers them.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CliError } from '../../../contract/core/cli.ts';
import { silentProgress } from '../../../pipeline/core/progress.ts';
import { loadRegistry } from '../../../pipeline/economy/registry.ts';
import { main } from '../../../pipeline/generate/cli.ts';
import { createGeneratedUpstreamHandler } from '../../../pipeline/generate/economy-upstream.ts';
import { DEFAULT_ECONOMY_AS_OF } from '../../../pipeline/generate/economy.ts';
import { generate, type GenerateSummary } from '../../../pipeline/generate/index.ts';
import { parseScale, toEconomySeriesCount } from '../../../pipeline/generate/sizes.ts';
import { PIPELINES } from '../../../pipeline/services.ts';
import { createDemoUpstreams } from '../../../contract/economy/upstream/demo.ts';
import { createStatcanClient } from '../../../contract/economy/upstream/statcan.ts';
import { createValetClient } from '../../../contract/economy/upstream/valet.ts';
import { tempDir } from '../../helpers/server.ts';

let root: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  root = await tempDir('generate');
});
afterAll(async () => {
  await root.remove();
});

const rows = (s: GenerateSummary) => Object.fromEntries(s.files.map((f) => [f.file, f.rows]));
const manifestOf = async (outDir: string, service: string) =>
  JSON.parse(await readFile(join(outDir, service, 'manifest.json'), 'utf8')) as {
    demo: boolean;
    counts: Record<string, number>;
    sources: { file: string; kind: string; rows: number }[];
  };

async function build(service: string, input: string) {
  const outDir = join(root.path, `dist-${service}`);
  const result = await PIPELINES[service]!.build({ input, outDir, progress: silentProgress });
  return { result, manifest: await manifestOf(outDir, service) };
}

describe('parseScale', () => {
  it.each([
    ['full', 1],
    ['1', 1],
    ['0.1', 0.1],
    ['.25', 0.25],
    ['2', 2],
    ['10', 10],
    ['1e-3', 0.001],
  ])('%s → %s', (text, n) => expect(parseScale(text)).toBe(n));
  it.each(['0', '-1', '11', 'half', '', '0x1', '1,5', 'Infinity', 'NaN'])('refuses %j', (text) =>
    expect(parseScale(text)).toBeUndefined(),
  );
});

describe('carriers', () => {
  let small: GenerateSummary;
  let double: GenerateSummary;
  beforeAll(async () => {
    small = await generate('carriers', join(root.path, 'carriers-a'), { scale: 0.0005 });
    double = await generate('carriers', join(root.path, 'carriers-b'), { scale: 0.001 });
  }, 120_000);

  it('writes the FMCSA files (census, SMS, L&I and orders) with row counts proportional to the scale', () => {
    const a = rows(small);
    const b = rows(double);
    expect(Object.keys(a)).toEqual([
      'census/FMCSA_CENSUS1_2026Oct.txt',
      'sms/SMS_Input_Inspection.csv',
      'sms/SMS_Input_Violation.csv',
      'sms/SMS_Input_Crash.csv',
      'li/Carrier_-_All_With_History.csv',
      'li/AuthHist_-_All_With_History.csv',
      'li/ActPendInsur_-_All_With_History.csv',
      'li/InsHist_-_All_With_History.csv',
      'li/revocation.txt',
      'li/OUT_OF_SERVICE_ORDERS.csv',
    ]);
    // 2.1 M carriers at full size, exactly.
    expect(a['census/FMCSA_CENSUS1_2026Oct.txt']).toBe(1050);
    expect(b['census/FMCSA_CENSUS1_2026Oct.txt']).toBe(2100);
    // Events are drawn (heavy-tailed fleets), so only about twice as many.
    for (const f of ['sms/SMS_Input_Inspection.csv', 'sms/SMS_Input_Violation.csv']) {
      const ratio = b[f]! / a[f]!;
      expect(ratio, f).toBeGreaterThan(1.4);
      expect(ratio, f).toBeLessThan(2.8);
    }
    // Near the full-size rates: 7 M inspections and 10 M violations for 2.1 M carriers.
    expect(b['sms/SMS_Input_Inspection.csv']! / 2100).toBeGreaterThan(1.5);
    expect(b['sms/SMS_Input_Inspection.csv']! / 2100).toBeLessThan(6);
    for (const f of double.files) expect(f.bytes).toBeGreaterThan(0);
  });

  it('builds: the carriers build recognizes every file and labels the build demo', async () => {
    const { manifest } = await build('carriers', join(root.path, 'carriers-b'));
    expect(manifest.demo).toBe(true);
    expect(manifest.counts.carriers).toBe(2100);
    expect(manifest.counts.inspections).toBe(rows(double)['sms/SMS_Input_Inspection.csv']);
    expect(manifest.sources.map((s) => s.file).sort()).toEqual(double.files.map((f) => f.file).sort());
  }, 120_000);
});

describe('facilities', () => {
  let half: GenerateSummary;
  let tenth: GenerateSummary;
  beforeAll(async () => {
    half = await generate('facilities', join(root.path, 'facilities-a'), { scale: 0.05 });
    tenth = await generate('facilities', join(root.path, 'facilities-b'), { scale: 0.1 });
  }, 120_000);

  it('writes the four files with rows proportional to the scale, a tenth of full being the real size', () => {
    const a = rows(half);
    const b = rows(tenth);
    // EWRB: 10 × 3,491 buildings at full size, exactly proportional.
    expect(b['ewrb/ewrb_raw_data.csv']).toBe(3491);
    expect(a['ewrb/ewrb_raw_data.csv']).toBe(1746);
    // The real files: Ontario 2,557 rows, GHGRP by gas about 18,771, the indicator table 1,732 (within 10 %).
    const real = {
      'ontario/GHG_Data_2010_2024_demo.csv': 2557,
      'federal/PDGES-GHGRP-GHGEmissionsGES-2004-Present.csv': 18771,
      'federal/Greenhouse gas emissions from large facilities.csv': 1732,
    };
    for (const [file, n] of Object.entries(real)) {
      expect(b[file]! / n, file).toBeGreaterThan(0.9);
      expect(b[file]! / n, file).toBeLessThan(1.1);
      // Half the size: about half the rows (the planted cases add a fixed few).
      expect(b[file]! / a[file]!, file).toBeGreaterThan(1.6);
      expect(b[file]! / a[file]!, file).toBeLessThan(2.2);
    }
  });

  it('builds: every file recognized, the build labelled demo', async () => {
    const { manifest } = await build('facilities', join(root.path, 'facilities-a'));
    expect(manifest.demo).toBe(true);
    // Beside the generated files, the map's outline the repository ships (pipeline/facilities/boundary.ts).
    expect(
      manifest.sources
        .filter((s) => s.kind !== 'boundary')
        .map((s) => [s.file, s.rows])
        .sort(),
    ).toEqual(half.files.map((f) => [f.file, f.rows]).sort());
  }, 120_000);
});

describe('economy', () => {
  let summary: GenerateSummary;
  let dir: string;
  const reviewed = loadRegistry().entries;
  beforeAll(async () => {
    dir = join(root.path, 'economy');
    summary = await generate('economy', dir, { scale: 0.2 });
  }, 60_000);

  it('writes a registry twice the reviewed one: the reviewed series, then copies with invented identifiers', async () => {
    const registry = loadRegistry(join(dir, 'registry.json')).entries;
    expect(registry).toHaveLength(2 * reviewed.length);
    expect(registry.slice(0, reviewed.length)).toEqual(reviewed);
    const copy = registry[reviewed.length]!;
    expect(copy.id).toBe(`${reviewed[0]!.id}_V2`);
    expect(copy.vectorIds).toEqual(reviewed[0]!.vectorIds.map((v) => v + 2_000_000_000));
    const realVectors = new Set(reviewed.flatMap((e) => e.vectorIds));
    const realNames = new Set(reviewed.flatMap((e) => e.seriesNames));
    for (const e of registry.slice(reviewed.length)) {
      for (const v of e.vectorIds) expect(realVectors.has(v)).toBe(false);
      for (const n of e.seriesNames) expect(realNames.has(n)).toBe(false);
    }
    expect(summary.files.filter((f) => f.file.startsWith('upstream/valet/'))).toHaveLength(
      2 * reviewed.filter((e) => e.source === 'BOC').length,
    );
  });

  it('serves every series to the real clients exactly as the demo upstream answers it', async () => {
    const registry = loadRegistry(join(dir, 'registry.json')).entries;
    const server: Server = createServer(createGeneratedUpstreamHandler(dir));
    await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const fake = {
        STATCAN: createStatcanClient({ baseUrl: `${base}/t1/wds/rest` }),
        BOC: createValetClient({ baseUrl: `${base}/valet` }),
      };
      const demo = createDemoUpstreams({ now: () => new Date(`${DEFAULT_ECONOMY_AS_OF}T12:00:00.000Z`) });
      const signal = new AbortController().signal;
      // A reviewed series and a copy of each source.
      const picks = [
        registry.find((e) => e.source === 'STATCAN')!,
        registry.find((e) => e.source === 'BOC')!,
        registry.findLast((e) => e.source === 'STATCAN')!,
        registry.findLast((e) => e.source === 'BOC')!,
      ];
      for (const entry of picks) {
        const got = await fake[entry.source].pull(entry, signal);
        expect(got.observations.length, entry.id).toBeGreaterThan(10);
        // The same points; only the HTTP server's `Date` (Valet's release time) is the fake's own.
        const { released: _, ...points } = got;
        const { released: __, ...expected } = await demo[entry.source].pull(entry, signal);
        expect(points, entry.id).toEqual(expected);
      }
    } finally {
      await new Promise<void>((res) => server.close(() => res()));
    }
  });

  it('builds: --input with the generated folder publishes its registry as a demo build', async () => {
    const { manifest } = await build('economy', dir);
    expect(manifest.demo).toBe(true);
    expect(manifest.counts.series).toBe(2 * reviewed.length);
  });
});

describe('the command', () => {
  it('writes, prints a JSON summary with --json, and refuses bad arguments', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const o = vi.spyOn(process.stdout, 'write').mockImplementation((c) => {
      out.push(String(c));
      return true;
    });
    const e = vi.spyOn(process.stderr, 'write').mockImplementation((c) => {
      err.push(String(c));
      return true;
    });
    try {
      await main(['--service', 'economy', '--scale', '0.01', '--out', join(root.path, 'cli'), '--json']);
      const json = JSON.parse(out.join('')) as {
        service: string;
        scale: number;
        files: { file: string; files: number; rows: number }[];
      }[];
      expect(json).toHaveLength(1);
      expect(json[0]).toMatchObject({ service: 'economy', scale: 0.01 });
      // Scale 0.01 of ten times the reviewed registry.
      const reviewedCount = loadRegistry().entries.length;
      const rows = toEconomySeriesCount(0.01, reviewedCount);
      expect(rows).toBe(Math.round(reviewedCount / 10));
      expect(json[0]!.files[0]).toMatchObject({ file: 'registry.json', files: 1, rows });
      expect(err.join('')).toMatch(new RegExp(`^registry\\.json\\s+1\\s+${rows}\\s+[\\d,]+$`, 'm'));
      for (const [argv, message] of [
        [['--service', 'economy', '--out', 'x'], /--scale is required/],
        [['--service', 'economy', '--scale', '0', '--out', 'x'], /--scale must be full or a number above 0/],
        [['--service', 'economy', '--scale', 'full'], /--out is required/],
        [
          ['--service', 'nope', '--scale', 'full', '--out', 'x'],
          /--service must be one of facilities, carriers, economy, all/,
        ],
      ] as const) {
        const thrown = await main([...argv]).catch((x: unknown) => x);
        expect(thrown).toBeInstanceOf(CliError);
        expect((thrown as CliError).exitCode).toBe(2);
        expect((thrown as Error).message).toMatch(message);
      }
    } finally {
      o.mockRestore();
      e.mockRestore();
    }
  });
});
