// The nightly job end to end against a fake upstream on 127.0.0.1 serving small files written by the demo
// generators (the carriers census as a zip, as FMCSA publishes it) and the generated economy upstream:
// everything publishes; unchanged files (304) still publish; a 500, a truncated body or a hang for one
// service keeps that service's build exactly as it was while the others publish, and the command fails
// naming it.
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { silentProgress } from '../../../pipeline/core/progress.ts';
import {
  writeCarriersDemo,
  CENSUS_TXT_FILE,
  CRASH_FILE,
  INSPECTION_FILE,
  VIOLATION_FILE,
} from '../../../pipeline/demo/carriers/index.ts';
import {
  AUTHORITY_HISTORY_FILE,
  INSURANCE_FILE,
  INSURANCE_HISTORY_FILE,
  LI_CARRIER_FILE,
  OOS_ORDER_FILE,
  REVOCATION_FILE,
} from '../../../pipeline/demo/carriers/registry.ts';
import {
  writeFacilitiesDemo,
  BY_GAS_FILE,
  EWRB_FILE,
  INDICATOR_FILE,
  ONTARIO_FILE,
} from '../../../pipeline/demo/facilities/index.ts';
import { generate } from '../../../pipeline/generate/index.ts';
import { createGeneratedUpstreamHandler } from '../../../pipeline/generate/economy-upstream.ts';
import { main } from '../../../pipeline/nightly/cli.ts';
import type { ServiceOutcome } from '../../../pipeline/nightly/run.ts';
import { CliError } from '../../../contract/core/cli.ts';
import { tempDir } from '../../helpers/server.ts';
import { loadRegistry } from '../../../pipeline/economy/registry.ts';
import { startFakeUpstream, type FakeUpstream } from '../../helpers/upstream.ts';
import { toZip } from '../../helpers/zip.ts';

let root: Awaited<ReturnType<typeof tempDir>>;
let upstream: FakeUpstream;
let outDir: string;
let downloads: string;
let env: Record<string, string>;
/** The fake economy upstream stops answering Valet while this is set. */
let valetHangs = false;
const files: Record<string, Buffer> = {};
const logs: string[] = [];

const FACILITY_PATHS = {
  '/ontario.csv': ONTARIO_FILE,
  '/bygas.csv': BY_GAS_FILE,
  '/indicator.csv': INDICATOR_FILE,
  '/ewrb.csv': EWRB_FILE,
} as const;
const CARRIER_PATHS = {
  '/inspection.csv': INSPECTION_FILE,
  '/violation.csv': VIOLATION_FILE,
  '/crash.csv': CRASH_FILE,
  '/li-carrier.csv': LI_CARRIER_FILE,
  '/authhist.csv': AUTHORITY_HISTORY_FILE,
  '/actpendinsur.csv': INSURANCE_FILE,
  '/inshist.csv': INSURANCE_HISTORY_FILE,
  '/revocation.csv': REVOCATION_FILE,
  '/oos.csv': OOS_ORDER_FILE,
} as const;

function serveAll() {
  for (const [path, body] of Object.entries(files)) upstream.set(path, { kind: 'file', body });
}

/** Runs the CLI as cron would, with a short time-out; returns the outcomes, the summary and the exit code. */
async function nightly(
  service = 'all',
  extra: string[] = [],
): Promise<{ code: number; summary: string; outcomes: Map<string, ServiceOutcome> }> {
  const out: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out.push(String(chunk));
    return true;
  });
  let code = 0;
  let outcomes: ServiceOutcome[] = [];
  const collect: ServiceOutcome[] = [];
  try {
    outcomes =
      (await main(['--service', service, '--out', outDir, '--downloads', downloads, ...extra], env, {
        log: (l) => logs.push(l),
        buildProgress: () => silentProgress,
      })) ?? [];
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
    code = err.exitCode;
    logs.push(err.message);
  } finally {
    spy.mockRestore();
  }
  const summary = out.join('');
  // The outcomes of a failed run are only in the summary: read them back from it.
  for (const line of summary.split('\n').slice(1)) {
    const m = /^(\w+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(published|failed|not built)\s+(\S+)/.exec(line);
    if (m)
      collect.push({
        service: m[1]!,
        downloaded: Number(m[2]),
        unchanged: Number(m[3]),
        failed: Number(m[4]),
        build: m[5] as ServiceOutcome['build'],
        data_version: m[6]!,
        same_version: false,
        seconds: 0,
        errors: [],
        notes: [],
      });
  }
  return { code, summary, outcomes: new Map((outcomes.length ? outcomes : collect).map((o) => [o.service, o])) };
}

async function snapshot(service: string): Promise<{ manifest: string; checksums: string }> {
  return {
    manifest: await readFile(join(outDir, service, 'manifest.json'), 'utf8'),
    checksums: await readFile(join(outDir, service, 'checksums.json'), 'utf8'),
  };
}

const version = async (service: string) =>
  (JSON.parse((await snapshot(service)).manifest) as { data_version: string }).data_version;

beforeAll(async () => {
  root = await tempDir('nightly');
  outDir = join(root.path, 'dist-data');
  downloads = join(root.path, 'state', 'downloads');
  const src = join(root.path, 'upstream');
  await writeFacilitiesDemo(join(src, 'facilities'), { scale: 0.3 });
  await writeCarriersDemo(join(src, 'carriers'), { scale: 0.2 });
  const economyDir = join(src, 'economy');
  await generate('economy', economyDir, { scale: 0.1 });
  for (const [path, file] of Object.entries(FACILITY_PATHS))
    files[path] = await readFile(join(src, 'facilities', file));
  for (const [path, file] of Object.entries(CARRIER_PATHS)) files[path] = await readFile(join(src, 'carriers', file));
  files['/census.zip'] = toZip([
    { name: 'FMCSA_CENSUS1_2026Oct.txt', data: await readFile(join(src, 'carriers', CENSUS_TXT_FILE)) },
  ]);

  const economy = createGeneratedUpstreamHandler(economyDir);
  upstream = await startFakeUpstream((req: IncomingMessage, res: ServerResponse) => {
    if (valetHangs && req.url?.startsWith('/valet/')) return; // never answers
    economy(req, res);
  });
  serveAll();
  const at = (path: string) => `${upstream.base}${path}`;
  env = {
    ONTARIO_GHG_URL: at('/ontario.csv'),
    GHGRP_BY_GAS_URL: at('/bygas.csv'),
    GHGRP_INDICATOR_URL: at('/indicator.csv'),
    EWRB_URL: at('/ewrb.csv'),
    FMCSA_CENSUS_URL: at('/census.zip'),
    FMCSA_INSPECTION_URL: at('/inspection.csv'),
    FMCSA_VIOLATION_URL: at('/violation.csv'),
    FMCSA_CRASH_URL: at('/crash.csv'),
    FMCSA_LI_CARRIER_URL: at('/li-carrier.csv'),
    FMCSA_AUTHORITY_HISTORY_URL: at('/authhist.csv'),
    FMCSA_INSURANCE_URL: at('/actpendinsur.csv'),
    FMCSA_INSURANCE_HISTORY_URL: at('/inshist.csv'),
    FMCSA_REVOCATION_URL: at('/revocation.csv'),
    FMCSA_OOS_ORDERS_URL: at('/oos.csv'),
    STATCAN_WDS_URL: at('/wds'),
    BOC_VALET_URL: at('/valet'),
    NIGHTLY_TIMEOUT_MS: '800',
    NIGHTLY_RETRIES: '1',
    NIGHTLY_RETRY_DELAY_MS: '10',
    STATE_DIR: join(root.path, 'state'),
  };
}, 120_000);

afterAll(async () => {
  await upstream?.close();
  await root?.remove();
});

const registry = loadRegistry().entries;

describe('npm run nightly', () => {
  it('fetches every file, unpacks the census zip, and publishes all three services', async () => {
    const { code, summary, outcomes } = await nightly();
    expect(code, logs.join('\n')).toBe(0);
    expect([...outcomes.keys()]).toEqual(['facilities', 'carriers', 'economy']);
    expect(outcomes.get('facilities')).toMatchObject({ downloaded: 4, unchanged: 0, failed: 0, build: 'published' });
    expect(outcomes.get('carriers')).toMatchObject({ downloaded: 10, unchanged: 0, failed: 0, build: 'published' });
    // The watchlists' webhooks are delivered after the carriers publish (npm run deliver, here with no list).
    expect(outcomes.get('carriers')!.notes).toContainEqual(
      expect.stringMatching(/^deliver: 0 list\(s\) with a webhook/),
    );
    // Economy: every reviewed series confirmed by the (fake) WDS and Valet, then snapshotted today
    // (npm run snapshot; after the build on a first night, which had no registry published before it).
    expect(outcomes.get('economy')).toMatchObject({ downloaded: registry.length, failed: 0, build: 'published' });
    expect(outcomes.get('economy')!.notes).toContainEqual(
      expect.stringMatching(new RegExp(`^snapshot: ${registry.length} series, ${registry.length} pulled, 0 already`)),
    );
    const today = new Date().toISOString().slice(0, 10);
    for (const e of registry)
      expect(await readdir(join(root.path, 'state', 'economy', 'vintages', e.id)), e.id).toContain(`${today}.json`);
    for (const s of ['facilities', 'carriers', 'economy']) expect(outcomes.get(s)!.data_version).toBe(await version(s));
    expect(summary.split('\n')[0]).toMatch(
      /^service\s+downloaded\s+unchanged\s+failed\s+build\s+data_version\s+seconds$/,
    );

    expect((await readdir(join(downloads, 'carriers'))).sort()).toEqual([
      '.nightly.json',
      'authority-history.csv',
      'census',
      'crash.csv',
      'inspection.csv',
      'insurance-history.csv',
      'insurance.csv',
      'li-carrier.csv',
      'oos-order.csv',
      'revocation.csv',
      'violation.csv',
    ]);
    expect(await readdir(join(downloads, 'carriers', 'census'))).toEqual(['FMCSA_CENSUS1_2026Oct.txt']);
    expect((await readdir(join(downloads, 'facilities'))).sort()).toEqual([
      '.nightly.json',
      'ewrb.csv',
      'ghgrp_by_gas.csv',
      'ghgrp_indicator.csv',
      'ontario_ghg.csv',
    ]);
    const carriers = JSON.parse((await snapshot('carriers')).manifest) as {
      demo: boolean;
      counts: { carriers: number };
      sources: { file: string }[];
    };
    expect(carriers.demo).toBe(false);
    expect(carriers.counts.carriers).toBe(600);
    expect(carriers.sources.map((s) => s.file).sort()).toEqual([
      'authority-history.csv',
      'census/FMCSA_CENSUS1_2026Oct.txt',
      'crash.csv',
      'inspection.csv',
      'insurance-history.csv',
      'insurance.csv',
      'li-carrier.csv',
      'oos-order.csv',
      'revocation.csv',
      'violation.csv',
    ]);
  });

  it('publishes again when every file is unchanged (304), with the same data_version', async () => {
    // The first rebuild carries the first build's ids over (ids.json): its facilities data differ (the
    // report says carried, not issued), and so does its version. From then on, unchanged files give the same.
    const first = await version('facilities');
    expect((await nightly('facilities')).outcomes.get('facilities')).toMatchObject({
      build: 'published',
      same_version: false,
    });
    expect(await version('facilities')).not.toBe(first);
    const before = { facilities: await version('facilities'), carriers: await version('carriers') };
    upstream.requests.length = 0;
    const { code, outcomes } = await nightly();
    expect(code).toBe(0);
    expect(outcomes.get('facilities')).toMatchObject({
      downloaded: 0,
      unchanged: 4,
      failed: 0,
      build: 'published',
      data_version: before.facilities,
      same_version: true,
    });
    expect(outcomes.get('carriers')).toMatchObject({
      downloaded: 0,
      unchanged: 10,
      failed: 0,
      build: 'published',
      data_version: before.carriers,
      same_version: true,
    });
    const conditional = upstream.requests.filter((r) => r.path.endsWith('.csv') || r.path.endsWith('.zip'));
    expect(conditional).toHaveLength(14);
    for (const r of conditional) expect(r.ifNoneMatch).toMatch(/^"[0-9a-f]{16}"$/);
  });

  it('publishes the vintage archive of STATE_DIR with the economy build, leaving out what is not a snapshot', async () => {
    const archive = join(root.path, 'state', 'economy', 'vintages');
    const snap = (series: string, vintage: string, observations: { date: string; value: number }[]) =>
      JSON.stringify({ series, vintage, asOf: `${vintage}T03:15:00.000Z`, source: 'Statistics Canada', observations });
    const put = async (series: string, day: string, text: string) => {
      await mkdir(join(archive, series), { recursive: true });
      await writeFile(join(archive, series, `${day}.json`), text);
    };
    await put(
      'CPI_ALL_ITEMS',
      '2026-11-20',
      snap('CPI_ALL_ITEMS', '2026-11-20', [{ date: '2026-09-01', value: 165.1 }]),
    );
    await put(
      'CPI_ALL_ITEMS',
      '2026-11-21',
      snap('CPI_ALL_ITEMS', '2026-11-21', [
        { date: '2026-09-01', value: 165.2 },
        { date: '2026-10-01', value: 165.6 },
      ]),
    );
    await put('CPI_ALL_ITEMS', 'notes', 'not a day');
    await put('BANK_RATE', '2026-11-21', '{"series":"BANK_RATE","vintage":"2026-11-21","asOf":');
    await put('BANK_RATE', '2026-11-22', snap('CPI_ALL_ITEMS', '2026-11-22', []));
    await put(
      'NOT_IN_THE_REGISTRY',
      '2026-11-21',
      snap('NOT_IN_THE_REGISTRY', '2026-11-21', [{ date: '2026-09-01', value: 1 }]),
    );
    const before = await version('economy');

    const { code, outcomes } = await nightly('economy');
    expect(code, logs.join('\n')).toBe(0);
    expect(outcomes.get('economy')!.build).toBe('published');
    const live = join(outDir, 'economy');
    const json = async (rel: string) => JSON.parse(await readFile(join(live, rel), 'utf8')) as unknown;
    // With today's, which the first night took and this night's snapshot found already pulled.
    expect(outcomes.get('economy')!.notes).toContainEqual(
      expect.stringMatching(new RegExp(`^snapshot: ${registry.length} series, 0 pulled, ${registry.length} already`)),
    );
    expect(await json('api/vintages/CPI_ALL_ITEMS.json')).toEqual({
      series: 'CPI_ALL_ITEMS',
      snapshots: ['2026-11-20', '2026-11-21', new Date().toISOString().slice(0, 10)],
    });
    expect(await json('api/vintages/CPI_ALL_ITEMS/2026-11-21.json')).toEqual({
      series: 'CPI_ALL_ITEMS',
      observations: [
        { date: '2026-09-01', value: 165.2 },
        { date: '2026-10-01', value: 165.6 },
      ],
      source: 'Statistics Canada',
      cached: true,
      asOf: '2026-11-21T03:15:00.000Z',
      units: 'lin',
      frequency: 'm',
      count: 2,
      limit: 100000,
      offset: 0,
    });
    // Every series of the registry has its list, with the nightly's day for each; the unreadable ones are
    // left out and reported.
    const today = new Date().toISOString().slice(0, 10);
    expect(await json('api/vintages/BANK_RATE.json')).toEqual({ series: 'BANK_RATE', snapshots: [today] });
    expect(await json('api/vintages/GDP_REAL_QUARTERLY.json')).toEqual({
      series: 'GDP_REAL_QUARTERLY',
      snapshots: [today],
    });
    const sums = (await json('checksums.json')) as { files: Record<string, string> };
    const days = Object.keys(sums.files).filter(
      (f) => f.startsWith('api/vintages/') && f.endsWith('.json') && f.split('/').length === 4,
    );
    expect(days.filter((f) => f.includes('/CPI_ALL_ITEMS/')).sort()).toEqual([
      'api/vintages/CPI_ALL_ITEMS/2026-11-20.json',
      'api/vintages/CPI_ALL_ITEMS/2026-11-21.json',
      `api/vintages/CPI_ALL_ITEMS/${today}.json`,
    ]);
    expect(days).toHaveLength(registry.length + 2);
    expect(sums.files['api/vintages/CPI_ALL_ITEMS/2026-11-21.json.br']).toBeTruthy();
    expect(Object.keys(sums.files).some((f) => f.includes('NOT_IN_THE_REGISTRY'))).toBe(false);
    const report = (await json('report.json')) as { issues: { id: string; kind: string; message: string }[] };
    const unreadable = report.issues.filter((i) => i.kind === 'unreadable_snapshot');
    expect(unreadable.map((i) => i.id)).toEqual(['BANK_RATE', 'BANK_RATE']);
    expect(unreadable[0]!.message).toMatch(/^BANK_RATE: the snapshot of 2026-11-21 is not JSON/);
    expect(unreadable[1]!.message).toBe(
      'BANK_RATE: the snapshot of 2026-11-22 names the series "CPI_ALL_ITEMS", not BANK_RATE; not published',
    );
    const manifest = (await json('manifest.json')) as {
      data_version: string;
      counts: { snapshots: number };
      sources: { kind: string; rows: number }[];
    };
    expect(manifest.counts.snapshots).toBe(registry.length + 2);
    expect(manifest.sources.find((s) => s.kind === 'vintages')).toMatchObject({ rows: registry.length + 2 });
    // A new snapshot is a new input: the data version changes with it.
    expect(manifest.data_version).not.toBe(before);
  });

  it('keeps the last good download when an upstream answers 200 with a web page, and uses it again the next night', async () => {
    const kept = await snapshot('facilities');
    const good = await readFile(join(downloads, 'facilities', 'ontario_ghg.csv'));
    upstream.set('/ontario.csv', {
      kind: 'file',
      body: Buffer.from('<!DOCTYPE html>\n<html><body>Down for maintenance</body></html>\n'),
    });
    const down = await nightly('facilities');
    expect(down.code).toBe(1);
    expect(down.outcomes.get('facilities')).toMatchObject({ failed: 1, build: 'not built' });
    expect(down.summary).toContain(
      `facilities: ontario_ghg.csv (ONTARIO_GHG_URL): ${env.ONTARIO_GHG_URL}: answered a web page ("<!DOCTYPE html>`,
    );
    expect((await readFile(join(downloads, 'facilities', 'ontario_ghg.csv'))).equals(good)).toBe(true);
    expect(await snapshot('facilities')).toEqual(kept);
    // The upstream is back with the same file: asked with the validators of the good copy, it answers 304.
    serveAll();
    const back = await nightly('facilities');
    expect(back.code).toBe(0);
    expect(back.outcomes.get('facilities')).toMatchObject({
      downloaded: 0,
      unchanged: 4,
      failed: 0,
      build: 'published',
    });
  });

  it('keeps facilities as published when one of its files answers 500, publishing the others', async () => {
    const kept = await snapshot('facilities');
    // A changed registry file that does download: building with it would change the data_version.
    upstream.set('/ontario.csv', { kind: 'file', body: Buffer.concat([files['/ontario.csv']!, Buffer.from('\r\n')]) });
    upstream.set('/bygas.csv', { kind: 'status', status: 500 });
    const { code, summary, outcomes } = await nightly();
    expect(code).toBe(1);
    expect(outcomes.get('facilities')).toMatchObject({ downloaded: 1, unchanged: 2, failed: 1, build: 'not built' });
    expect(outcomes.get('carriers')).toMatchObject({ build: 'published' });
    expect(outcomes.get('economy')).toMatchObject({ build: 'published' });
    expect(await snapshot('facilities')).toEqual(kept);
    expect(summary).toMatch(/^facilities\s.*not built\s+[0-9a-f]{16} \(kept\)/m);
    expect(summary).toContain(`facilities: ghgrp_by_gas.csv (GHGRP_BY_GAS_URL): ${env.GHGRP_BY_GAS_URL}: HTTP 500`);
    expect(logs.at(-1)).toBe('nightly: facilities not published; what was published before is still served');
  });

  it('keeps carriers as published when a body arrives truncated, and leaves no partial file', async () => {
    serveAll();
    const kept = await snapshot('carriers');
    // A changed crash file that does download: building with it would change the data_version.
    upstream.set('/crash.csv', { kind: 'file', body: Buffer.concat([files['/crash.csv']!, Buffer.from('\n')]) });
    upstream.set('/inspection.csv', { kind: 'truncate', body: files['/inspection.csv']! });
    const { code, summary, outcomes } = await nightly();
    expect(code).toBe(1);
    expect(outcomes.get('carriers')).toMatchObject({ failed: 1, build: 'not built' });
    // Facilities recovers: its 500 is gone (and its registry file is back as it was).
    expect(outcomes.get('facilities')).toMatchObject({ failed: 0, build: 'published' });
    expect(outcomes.get('economy')).toMatchObject({ build: 'published' });
    expect(await snapshot('carriers')).toEqual(kept);
    // The upstream cuts the body half-way; how much of it arrives before the connection drops varies.
    const total = files['/inspection.csv']!.length;
    const line = summary
      .split('\n')
      .find((l) =>
        l.startsWith(
          `carriers: inspection.csv (FMCSA_INSPECTION_URL): ${env.FMCSA_INSPECTION_URL}: the body ended after `,
        ),
      );
    expect(line, summary).toBeDefined();
    const received = Number(/the body ended after (\d+) of (\d+) bytes/.exec(line!)?.[1]);
    expect(line).toContain(` of ${total} bytes`);
    expect(received).toBeLessThan(total);
    expect((await readdir(join(downloads, 'carriers'))).sort()).toEqual([
      '.nightly.json',
      'authority-history.csv',
      'census',
      'crash.csv',
      'inspection.csv',
      'insurance-history.csv',
      'insurance.csv',
      'li-carrier.csv',
      'oos-order.csv',
      'revocation.csv',
      'violation.csv',
    ]);
    expect((await readFile(join(downloads, 'carriers', 'inspection.csv'))).equals(files['/inspection.csv']!)).toBe(
      true,
    );
  });

  it('keeps economy as published when its upstream hangs (time-out)', async () => {
    serveAll();
    const kept = await snapshot('economy');
    valetHangs = true;
    try {
      const { code, summary, outcomes } = await nightly();
      expect(code).toBe(1);
      // The StatCan series still check out; the Valet series (in batches of 20) time out.
      const valet = registry.filter((e) => e.source === 'BOC').length;
      expect(valet).toBeGreaterThan(20);
      expect(outcomes.get('economy')).toMatchObject({
        downloaded: registry.length - valet,
        failed: valet,
        build: 'not built',
      });
      expect(outcomes.get('facilities')).toMatchObject({ build: 'published' });
      expect(outcomes.get('carriers')).toMatchObject({ failed: 0, build: 'published' });
      expect(await snapshot('economy')).toEqual(kept);
      // One line for the batch that timed out, not one per series.
      // Batches of 20 in registry order, each named by its first four series and a count.
      const valetEntries = registry.filter((e) => e.source === 'BOC');
      const lines = summary.split('\n').filter((l) => l.startsWith('economy: '));
      expect(lines.length).toBe(Math.ceil(valetEntries.length / 20));
      lines.forEach((line, i) => {
        const batch = valetEntries.slice(i * 20, i * 20 + 20);
        const named = batch
          .slice(0, 4)
          .map((e) => `${e.id} (${e.seriesNames[0]})`)
          .join(', ');
        const names = batch.map((e) => e.seriesNames[0]).join(',');
        expect(line).toBe(
          `economy: ${named} and ${batch.length - 4} more: Bank of Canada Valet /valet/observations/${names}/json: timed out after 800 ms`,
        );
      });
    } finally {
      valetHangs = false;
    }
  });

  it('keeps facilities as published when its build fails (a required input is missing)', async () => {
    serveAll();
    const kept = await snapshot('facilities');
    const saved = env.ONTARIO_GHG_URL!;
    // The address now answers the crash file: a whole download, but no Ontario registry to build from.
    env.ONTARIO_GHG_URL = `${upstream.base}/crash.csv`;
    try {
      const { code, summary, outcomes } = await nightly('facilities');
      expect(code).toBe(1);
      expect(outcomes.get('facilities')).toMatchObject({ downloaded: 1, unchanged: 3, failed: 0, build: 'failed' });
      expect(await snapshot('facilities')).toEqual(kept);
      // Every download is meant as an input: one the build does not recognize stops it, by name.
      expect(summary).toMatch(
        /^facilities: build: every file here was downloaded as an input, but ontario_ghg\.csv \(header matches no known input\) is not one: the download is damaged, or the upstream changed its format$/m,
      );
    } finally {
      env.ONTARIO_GHG_URL = saved;
    }
  });

  it.each([
    ['NIGHTLY_RETRIES', '0x2', 'NIGHTLY_RETRIES must be a whole number of at least 0, not 0x2'],
    ['NIGHTLY_TIMEOUT_MS', '0', 'NIGHTLY_TIMEOUT_MS must be a whole number from 1 to 2147483647, not 0'],
    ['SHOW_RESTRICTED_PERCENTILES', '1', 'SHOW_RESTRICTED_PERCENTILES must be true or false, not 1'],
  ])('stops before any download when %s is %j', async (name, value, message) => {
    const saved = env[name];
    const requests = upstream.requests.length;
    env[name] = value;
    try {
      const { code } = await nightly('carriers');
      expect(code).toBe(2);
      expect(logs.at(-1)).toBe(message);
      expect(upstream.requests.length).toBe(requests);
    } finally {
      if (saved === undefined) delete env[name];
      else env[name] = saved;
    }
  });

  it('refuses a carriers build from a census with swapped header labels; --accept-shrink publishes it', async () => {
    serveAll();
    expect((await nightly('carriers')).code).toBe(0);
    const kept = await snapshot('carriers');
    const text = (await readFile(join(root.path, 'upstream', 'carriers', CENSUS_TXT_FILE))).toString('latin1');
    const cut = text.indexOf('\n');
    // DOT_NUMBER and NBR_POWER_UNIT trade labels: every row still parses, carriers of one fleet size become one.
    const header = text
      .slice(0, cut)
      .replace('DOT_NUMBER', '@')
      .replace('NBR_POWER_UNIT', 'DOT_NUMBER')
      .replace('@', 'NBR_POWER_UNIT');
    const swapped = toZip([
      { name: 'FMCSA_CENSUS1_2026Oct.txt', data: Buffer.from(header + text.slice(cut), 'latin1') },
    ]);
    upstream.set('/census.zip', { kind: 'file', body: swapped });
    try {
      const refused = await nightly('carriers');
      expect(refused.code).toBe(1);
      expect(refused.outcomes.get('carriers')).toMatchObject({ build: 'failed' });
      expect(refused.summary).toMatch(
        /carriers: build: the new carriers build was not published: it has [\d,]+ carriers where the build it replaces \([0-9a-f]{16}\) has [\d,]+: .*--accept-shrink/,
      );
      expect(await snapshot('carriers')).toEqual(kept);
      const accepted = await nightly('carriers', ['--accept-shrink']);
      expect(accepted.code).toBe(0);
      expect(accepted.outcomes.get('carriers')).toMatchObject({ build: 'published' });
    } finally {
      serveAll();
      // Back to the whole census: growing needs no flag.
      const back = await nightly('carriers');
      expect(back.code, back.summary).toBe(0);
    }
  });

  it('builds facilities with --year as its comparison year, and refuses --year for another service', async () => {
    const { code } = await nightly('facilities', ['--year', '2023']);
    expect(code).toBe(0);
    expect((JSON.parse((await snapshot('facilities')).manifest) as { options: { year: number } }).options.year).toBe(
      2023,
    );
    const wrong = await nightly('carriers', ['--year', '2023']);
    expect(wrong.code).toBe(2);
    expect(logs.at(-1)).toMatch(/^--year applies to the facilities build only, not carriers/);
    const bad = await nightly('facilities', ['--year', '2023.0']);
    expect(bad.code).toBe(2);
    expect(logs.at(-1)).toBe('--year must be a year from 2004 to 2100, not 2023.0');
  });

  it('refuses bad addresses, delays no timer can hold and folders it cannot use, before any download', async () => {
    const refusal = async (changes: Record<string, string>, folders: { out?: string; downloads?: string } = {}) => {
      const before = upstream.requests.length;
      const err = await main(
        ['--service', 'all', '--out', folders.out ?? outDir, '--downloads', folders.downloads ?? downloads],
        { ...env, ...changes },
        { log: (l) => logs.push(l), buildProgress: () => silentProgress },
      ).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(CliError);
      expect(upstream.requests.length).toBe(before);
      return err as CliError;
    };
    expect((await refusal({ GHGRP_BY_GAS_URL: 'not-a-url' })).message).toBe(
      'GHGRP_BY_GAS_URL must be an http:// or https:// address, not not-a-url',
    );
    expect((await refusal({ FMCSA_CRASH_URL: 'file:///etc/passwd' })).message).toMatch(
      /^FMCSA_CRASH_URL must be an http/,
    );
    expect((await refusal({ ONTARIO_GHG_URL: `${env.ONTARIO_GHG_URL} ftp://x/y.csv` })).message).toMatch(
      /^ONTARIO_GHG_URL must be an http:\/\/ or https:\/\/ address, not ftp:\/\/x\/y\.csv/,
    );
    expect((await refusal({ STATCAN_WDS_URL: 'wds' })).message).toMatch(/^STATCAN_WDS_URL must be/);
    expect((await refusal({ NIGHTLY_TIMEOUT_MS: '4294967296' })).message).toBe(
      'NIGHTLY_TIMEOUT_MS must be a whole number from 1 to 2147483647, not 4294967296',
    );
    expect((await refusal({ NIGHTLY_RETRY_DELAY_MS: '99999999999999' })).message).toMatch(
      /^NIGHTLY_RETRY_DELAY_MS must be a whole number from 0 to 2147483647/,
    );
    const file = join(root.path, 'a-file');
    await writeFile(file, 'x');
    expect((await refusal({}, { out: file })).message).toMatch(new RegExp(`^--out ${file} is not a folder`));
    expect((await refusal({}, { downloads: file })).message).toMatch(
      new RegExp(`^--downloads ${file} is not a folder`),
    );
    expect((await refusal({}, { downloads: join(outDir, 'facilities', 'dl') })).message).toMatch(
      /is inside the data folder .*: a publish would move it away/,
    );
  });

  it('refuses to run beside another nightly job', async () => {
    await writeFile(join(downloads, '.nightly.lock'), String(process.pid));
    try {
      const { code } = await nightly('economy');
      expect(code).toBe(1);
      expect(logs.at(-1)).toMatch(/another nightly job is running/);
    } finally {
      await rm(join(downloads, '.nightly.lock'), { force: true });
    }
  });
});
