// Reload under load: a server process (server/main.ts, RELOAD_INTERVAL_MS=50) answers a continuous stream
// of concurrent requests while the build CLI publishes a new build into its data folder (the real publish
// path: temporary folder, validation, renames). Every response is a 200; X-Data-Version (and /healthz's
// data_version) moves from the old build to the new one and, once a client has seen the new one, never
// goes back, on any connection.
import { spawn } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFacilities } from '../../pipeline/facilities/index.ts';
import { openSqliteStore } from '../../server/core/store.ts';
import { AS_OF } from '../fixtures/carriers.ts';
import { ONTARIO_ROWS, writeFacilitiesFixture } from '../fixtures/facilities.ts';
import { buildCarriersFixture } from '../helpers/carriers.ts';
import { buildFixture } from '../helpers/facilities.ts';
import { ROOT, startServerProcess, type ServerProcess } from '../helpers/process.ts';
import { waitFor } from '../helpers/wait.ts';

const WORKERS = 8;
/** Answers each worker gets on the new build after it is first seen, before the traffic stops. */
const AFTER_SWAP = 5;

interface Sample {
  worker: number;
  path: string;
  start: number;
  end: number;
  status: number | 'error';
  version: string | null;
  /** /healthz's data_version, which must agree with the header. */
  bodyVersion?: string;
  error?: string;
}

interface ReloadTarget {
  service: 'facilities' | 'carriers';
  paths: string[];
  /** Builds and returns the data folder, a changed input folder, and CLI arguments for the next build. */
  prepare(): Promise<{
    root: { path: string; remove(): Promise<void> };
    outDir: string;
    stateDir: string;
    cliArgs: string[];
    headers: Record<string, string>;
  }>;
}

const TARGETS: ReloadTarget[] = [
  {
    service: 'facilities',
    paths: [
      '/healthz',
      '/api/v1/stats',
      '/api/v1/spine',
      '/api/v1/facility/ONF-000001',
      '/api/v1/search?q=cement',
      '/manifest.json',
    ],
    async prepare() {
      const fx = await buildFixture();
      const changed = join(fx.root.path, 'input-next');
      await writeFacilitiesFixture(changed, { dropOntario: [ONTARIO_ROWS[0]![1]] });
      return {
        root: fx.root,
        outDir: fx.outDir,
        stateDir: join(fx.root.path, 'state'),
        headers: {},
        cliArgs: ['--service', 'facilities', '--input', changed, '--out', fx.outDir, '--year', '2024'],
      };
    },
  },
  {
    service: 'carriers',
    paths: [
      '/healthz',
      '/api/search?q=alpha',
      '/api/search?q=USDOT%201000002',
      '/api/carrier/1000001',
      '/api/carrier/1000005',
      '/manifest.json',
    ],
    async prepare() {
      const fx = await buildCarriersFixture();
      const store = openSqliteStore(fx.stateDir);
      const { key } = await store.createKey('premium', 'reload', new Date());
      await store.close();
      const changed = join(fx.root.path, 'input-next');
      cpSync(fx.input, changed, { recursive: true });
      const census = join(changed, 'census', 'FMCSA_CENSUS1_2026Oct.txt');
      const lines = readFileSync(census, 'latin1').trimEnd().split('\r\n');
      // The last carrier renamed: a finished build publishes a different tree with as many carriers (one
      // fewer would be refused as a shrink past 90 % of this small fixture).
      lines[lines.length - 1] = lines.at(-1)!.replace(/^("\d+"),"[^"]*"/, '$1,"RENAMED CARRIER LLC"');
      writeFileSync(census, `${lines.join('\r\n')}\r\n`, 'latin1');
      return {
        root: fx.root,
        outDir: fx.outDir,
        stateDir: fx.stateDir,
        headers: { Authorization: `Bearer ${key}` },
        cliArgs: ['--service', 'carriers', '--input', changed, '--out', fx.outDir, '--as-of', AS_OF],
      };
    },
  },
];

function runBuild(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'pipeline/cli.ts', ...args], { cwd: ROOT });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

describe.each(TARGETS)('$service: a new build published under load', (target) => {
  let prepared: Awaited<ReturnType<ReloadTarget['prepare']>>;
  let server: ServerProcess;
  let oldVersion = '';

  beforeAll(async () => {
    prepared = await target.prepare();
    oldVersion = (
      JSON.parse(readFileSync(join(prepared.outDir, target.service, 'manifest.json'), 'utf8')) as {
        data_version: string;
      }
    ).data_version;
    server = await startServerProcess(target.service, {
      dataDir: prepared.outDir,
      stateDir: prepared.stateDir,
      env: { RELOAD_INTERVAL_MS: '50' },
    });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await prepared?.root.remove();
  });

  it('answers every request with 200 and moves to the new data_version for good', async () => {
    const samples: Sample[] = [];
    let stop = false;
    let firstNew = Infinity;
    const t0 = performance.now();
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const path = target.paths[(w + i) % target.paths.length]!;
        const start = performance.now() - t0;
        try {
          const res = await fetch(server.base + path, { headers: prepared.headers });
          const text = await res.text();
          const sample: Sample = {
            worker: w,
            path,
            start,
            end: performance.now() - t0,
            status: res.status,
            version: res.headers.get('x-data-version'),
          };
          if (path === '/healthz') sample.bodyVersion = (JSON.parse(text) as { data_version: string }).data_version;
          if (sample.version !== oldVersion && sample.version !== null) firstNew = Math.min(firstNew, sample.end);
          samples.push(sample);
        } catch (err) {
          samples.push({
            worker: w,
            path,
            start,
            end: performance.now() - t0,
            status: 'error',
            version: null,
            error: String((err as Error).cause ?? err),
          });
        }
      }
    };
    const workers = Array.from({ length: WORKERS }, (_, w) => worker(w));

    // Every worker answered on the old build first, then the next one is published through the CLI.
    const answered = (w: number, test: (s: Sample) => boolean) =>
      samples.filter((s) => s.worker === w && test(s)).length;
    await waitFor('every worker was answered on the old build', () =>
      Array.from({ length: WORKERS }, (_, w) => w).every((w) => answered(w, (s) => s.version === oldVersion) >= 3),
    );
    const build = await runBuild(prepared.cliArgs);
    expect(build.code, build.stderr).toBe(0);
    const newVersion = (
      JSON.parse(readFileSync(join(prepared.outDir, target.service, 'manifest.json'), 'utf8')) as {
        data_version: string;
      }
    ).data_version;
    expect(newVersion).not.toBe(oldVersion);
    // Until the server has been seen on the new build (it looks every 50 ms), then a few answers more each.
    await waitFor('the server was seen on the new build', () => firstNew < Infinity, { timeout: 20_000 });
    await waitFor(`every worker had ${AFTER_SWAP} answers after the swap`, () =>
      Array.from({ length: WORKERS }, (_, w) => w).every((w) => answered(w, (s) => s.start > firstNew) >= AFTER_SWAP),
    );
    stop = true;
    await Promise.all(workers);

    const failed = samples.filter((s) => s.status !== 200);
    expect(failed.slice(0, 10), `${failed.length} of ${samples.length} requests failed`).toEqual([]);
    expect(samples.length).toBeGreaterThan(100);
    for (const s of samples)
      expect([oldVersion, newVersion], `${s.path} at ${s.start.toFixed(0)} ms`).toContain(s.version);
    for (const s of samples.filter((x) => x.bodyVersion !== undefined)) expect(s.bodyVersion).toBe(s.version);
    // Both versions were served while the traffic ran.
    expect(samples.some((s) => s.version === oldVersion)).toBe(true);
    expect(firstNew).toBeLessThan(Infinity);
    expect(samples.filter((s) => s.version === newVersion).length).toBeGreaterThan(WORKERS);
    // Never back: no request that started after the first new answer had ended got the old version,
    // and on each client connection the versions run old…old, new…new.
    const regressed = samples.filter((s) => s.start > firstNew && s.version === oldVersion);
    expect(regressed.map((s) => `${s.path} at ${s.start.toFixed(0)} ms`)).toEqual([]);
    for (let w = 0; w < WORKERS; w++) {
      const versions = samples
        .filter((s) => s.worker === w)
        .sort((a, b) => a.start - b.start)
        .map((s) => s.version);
      const firstNewAt = versions.indexOf(newVersion);
      if (firstNewAt >= 0)
        expect(
          versions.slice(firstNewAt).every((v) => v === newVersion),
          `worker ${w}`,
        ).toBe(true);
    }
    const health = (await (await fetch(`${server.base}/healthz`)).json()) as { data_version: string };
    expect(health.data_version).toBe(newVersion);
    expect(server.stderr()).toContain(`reloaded ${oldVersion} → ${newVersion}`);
  }, 60_000);
});

describe('a static file requested right after a publish, before the next timed look', () => {
  it('is the new build’s file, whole, under the new build’s headers', async () => {
    const prepared = await TARGETS[0]!.prepare();
    // Reloading is on, but the timer would not look again for ten minutes.
    const server = await startServerProcess('facilities', {
      dataDir: prepared.outDir,
      stateDir: prepared.stateDir,
      env: { RELOAD_INTERVAL_MS: '600000' },
    });
    try {
      const before = await fetch(`${server.base}/manifest.json`);
      const old = (await before.json()) as { data_version: string };
      // The publish path the CLI takes (sink: temporary folder, validation, renames), run in this process.
      await buildFacilities({ input: join(prepared.root.path, 'input-next'), outDir: prepared.outDir, year: 2024 });
      const manifest = readFileSync(join(prepared.outDir, 'facilities', 'manifest.json'), 'utf8');
      const next = (JSON.parse(manifest) as { data_version: string }).data_version;
      expect(next).not.toBe(old.data_version);
      // The old tree's size and ETag for this path no longer fit the file now at it.
      const res = await fetch(`${server.base}/manifest.json`, {
        headers: { 'Accept-Encoding': 'identity' },
        signal: AbortSignal.timeout(5_000),
      });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(manifest);
      expect(res.headers.get('x-data-version')).toBe(next);
      expect(res.headers.get('etag')).not.toBe(before.headers.get('etag'));
      expect(((await (await fetch(`${server.base}/healthz`)).json()) as { data_version: string }).data_version).toBe(
        next,
      );
    } finally {
      await server.stop();
      await prepared.root.remove();
    }
  }, 60_000);
});
