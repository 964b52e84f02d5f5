// Faults around the served data for carriers and economy (test/pipeline/publish.test.ts and
// test/server/server.test.ts show them for facilities): killed builds, damaged inputs, damaged builds at start,
// and upstreams that hang, fail or answer garbage. None may change what is served or give a 500.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemas } from '../../contract/core/schemas.ts';
import { recoverPublish } from '../../pipeline/core/sink.ts';
import { buildCarriers } from '../../pipeline/carriers/index.ts';
import { buildEconomy } from '../../pipeline/economy/index.ts';
import { buildFacilities } from '../../pipeline/facilities/index.ts';
import type { ServiceDefinition } from '../../server/core/service.ts';
import { loadBuild } from '../../server/core/build.ts';
import { createEconomyService } from '../../server/economy/routes.ts';
import { AS_OF } from '../fixtures/carriers.ts';
import { buildCarriersFixture, serveCarriers } from '../helpers/carriers.ts';
import { buildEconomyFixture, economyRegistryService, serveEconomy } from '../helpers/economy.ts';
import { buildFixture } from '../helpers/facilities.ts';
import { ROOT } from '../helpers/process.ts';
import { startService, type Running } from '../helpers/server.ts';

const KILLER = join(import.meta.dirname, '..', 'fixtures', 'kill-build.ts');

/** Runs a child to its end without blocking the event loop (the servers under test live in this process). */
function run(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
      cwd: ROOT,
      env: { ...process.env, LOG: 'off', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

// ---------------------------------------------------------------------------------------------------------

interface KillTarget {
  service: 'carriers' | 'economy';
  points: string[];
  /** The point between the publish's two renames of the tree (after the rename of a private folder, if any). */
  betweenRenames: string;
  /** Builds and serves the fixture; `input` is what the killed builds read. */
  start(): Promise<{
    outDir: string;
    input: string;
    running: Running<unknown>;
    probe: string;
    remove(): Promise<void>;
  }>;
  /** A build that finishes, and publishes something else than the served build. */
  rebuild(input: string, outDir: string): Promise<unknown>;
}

const KILL_TARGETS: KillTarget[] = [
  {
    service: 'carriers',
    // 22 writes in all (record store pieces, name index files, report, checksums, manifest). The first
    // rename moves the private files beside the tree: killed after it, a build leaves a folder no tree
    // names yet. The next build of the same inputs finds its files in place (the same bytes) and skips
    // that rename, so its second rename is the tree's second.
    points: ['writes:8', 'rename:0', 'rename:1', 'rename:1 again'],
    betweenRenames: 'rename:1 again',
    async start() {
      const built = await buildCarriersFixture();
      const running = await serveCarriers(built);
      const census = join(built.input, 'census', 'FMCSA_CENSUS1_2026Oct.txt');
      const lines = readFileSync(census, 'latin1').trimEnd().split('\r\n');
      // The last carrier renamed: a finished build publishes a different tree with as many carriers (one
      // fewer would be refused as a shrink past 90 % of this small fixture).
      lines[lines.length - 1] = lines.at(-1)!.replace(/^("\d+"),"[^"]*"/, '$1,"RENAMED CARRIER LLC"');
      writeFileSync(census, `${lines.join('\r\n')}\r\n`, 'latin1');
      return {
        outDir: built.outDir,
        input: built.input,
        running: running as unknown as Running<unknown>,
        probe: '/api/search?q=alpha',
        remove: async () => {
          await running.close();
          await built.root.remove();
        },
      };
    },
    rebuild: (input, outDir) => buildCarriers({ input, outDir, asOf: AS_OF }),
  },
  {
    service: 'economy',
    // 149 writes in all (every series detail with its .gz and .br).
    points: ['writes:60', 'rename:0', 'rename:1'],
    betweenRenames: 'rename:1',
    async start() {
      const built = await buildEconomyFixture();
      const running = await serveEconomy(built, economyRegistryService);
      return {
        outDir: built.outDir,
        input: built.root.path,
        running: running as unknown as Running<unknown>,
        probe: '/api/series',
        remove: async () => {
          await running.close();
          await built.root.remove();
        },
      };
    },
    // The served build is a demo one; a live one has another data version.
    rebuild: (_input, outDir) => buildEconomy({ outDir, demo: false }),
  },
];

describe.each(KILL_TARGETS)('$service: a build killed with SIGKILL', (target) => {
  let fx: Awaited<ReturnType<KillTarget['start']>>;
  let manifest: Buffer;
  let served: string;
  const live = () => join(fx.outDir, target.service);

  beforeAll(async () => {
    fx = await target.start();
    manifest = readFileSync(join(live(), 'manifest.json'));
    served = await (await fetch(fx.running.base + fx.probe)).text();
  });
  afterAll(() => fx.remove());

  it.each(target.points)('at %s leaves the served data and manifest unchanged', async (point) => {
    const r = await run([KILLER, fx.input, fx.outDir, point.split(' ')[0]!, target.service]);
    expect(r.signal, r.stderr).toBe('SIGKILL');
    expect(r.stdout).not.toContain('finished');
    if (point === target.betweenRenames) {
      // Killed between the two renames: no live folder for an instant; start-up or the next build puts
      // the previous one back first.
      expect(existsSync(live())).toBe(false);
      await recoverPublish(fx.outDir, target.service);
    }
    expect(readFileSync(join(live(), 'manifest.json')).equals(manifest)).toBe(true);
    expect(await (await fetch(fx.running.base + fx.probe)).text()).toBe(served);
    expect(fx.running.app.reload()).toBe(false);
  });

  it('the next good build cleans up after the killed ones and is picked up by the running server', async () => {
    const privateRoot = `${target.service}.private`;
    // What a removal cut short leaves: removed by the next publish too.
    if (target.service === 'carriers')
      mkdirSync(join(fx.outDir, privateRoot, '.removing-0123456789abcdef-1'), { recursive: true });
    await target.rebuild(fx.input, fx.outDir);
    expect(readdirSync(fx.outDir).sort()).toEqual([
      target.service,
      `${target.service}.prev`,
      ...(target.service === 'carriers' ? [privateRoot] : []),
    ]);
    if (target.service === 'carriers') {
      // The private folders of the live and the previous build, and no other (a killed build's is gone).
      const named = [live(), `${live()}.prev`].map((tree) =>
        (
          JSON.parse(readFileSync(join(tree, 'manifest.json'), 'utf8')) as { private_checksums_sha256: string }
        ).private_checksums_sha256.slice(0, 16),
      );
      expect(readdirSync(join(fx.outDir, privateRoot)).sort()).toEqual([...new Set(named)].sort());
      expect(new Set(named).size).toBe(2);
    }
    expect(readFileSync(join(live(), 'manifest.json')).equals(manifest)).toBe(false);
    expect(fx.running.app.reload()).toBe(true);
    const health = (await (await fetch(`${fx.running.base}/healthz`)).json()) as { data_version: string };
    expect(health.data_version).toBe(
      (JSON.parse(readFileSync(join(live(), 'manifest.json'), 'utf8')) as { data_version: string }).data_version,
    );
  });
});

// ---------------------------------------------------------------------------------------------------------

/** Deterministic bytes that are no text format: every byte value, in a scrambled order. */
const GARBAGE = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256));

const CORRUPTIONS: [string, (b: Buffer) => Buffer, Record<string, RegExp>][] = [
  // Cut half-way through a record near 60 % of the file, as an interrupted download leaves it.
  [
    'cut mid-row',
    (b) => {
      const lineStart = b.lastIndexOf(10, Math.floor(b.length * 0.6)) + 1;
      const lineEnd = b.indexOf(10, lineStart);
      return b.subarray(0, lineStart + Math.floor((lineEnd - lineStart) / 2));
    },
    { any: /ends in the middle of record \d+ .*: the file looks truncated; download it again/ },
  ],
  [
    'binary garbage',
    () => GARBAGE,
    { facilities: /no Ontario GHG registry file found/, carriers: /no FMCSA census file found/ },
  ],
  [
    'an empty file',
    () => Buffer.alloc(0),
    { facilities: /no Ontario GHG registry file found/, carriers: /no FMCSA census file found/ },
  ],
  [
    'the header row only',
    (b) => b.subarray(0, b.indexOf(10) + 1),
    {
      facilities: /Ontario GHG registry files \(ontario\/ghg-registry\.csv\) have no usable row/,
      carriers: /census files \(census\/FMCSA_CENSUS1_2026Oct\.txt\) have no usable carrier row/,
    },
  ],
  [
    'the header row, then garbage',
    (b) => Buffer.concat([b.subarray(0, b.indexOf(10) + 1), GARBAGE]),
    { any: /ends in the middle of record|have no usable/ },
  ],
];

interface InputTarget {
  service: 'facilities' | 'carriers';
  /** The required input, relative to the input folder. */
  file: string;
  built(): Promise<{ root: { path: string; remove(): Promise<void> }; input: string; outDir: string }>;
  build(input: string, outDir: string): Promise<unknown>;
}

const INPUT_TARGETS: InputTarget[] = [
  {
    service: 'facilities',
    file: 'ontario/ghg-registry.csv',
    built: buildFixture,
    build: (input, outDir) => buildFacilities({ input, outDir, year: 2024 }),
  },
  {
    service: 'carriers',
    file: 'census/FMCSA_CENSUS1_2026Oct.txt',
    built: buildCarriersFixture,
    build: (input, outDir) => buildCarriers({ input, outDir, asOf: AS_OF }),
  },
];

describe.each(INPUT_TARGETS)('$service: a corrupt or truncated required input', (target) => {
  let fx: Awaited<ReturnType<InputTarget['built']>>;
  let manifest: Buffer;
  let listing: string[];
  beforeAll(async () => {
    fx = await target.built();
    manifest = readFileSync(join(fx.outDir, target.service, 'manifest.json'));
    listing = readdirSync(fx.outDir).sort();
  });
  afterAll(() => fx.root.remove());

  const corrupt = (label: string, damage: (b: Buffer) => Buffer) => {
    const input = join(fx.root.path, `input-${label.replaceAll(/\W+/g, '-')}`);
    cpSync(fx.input, input, { recursive: true });
    const file = join(input, target.file);
    writeFileSync(file, damage(readFileSync(file)));
    return input;
  };

  it.each(CORRUPTIONS)(
    '%s fails the build with a clear message and publishes nothing',
    async (label, damage, messages) => {
      const input = corrupt(label, damage);
      await expect(target.build(input, fx.outDir)).rejects.toThrow(messages[target.service] ?? messages.any!);
      expect(readFileSync(join(fx.outDir, target.service, 'manifest.json')).equals(manifest)).toBe(true);
      // No temporary folder or lock left behind, no previous build rotated.
      expect(readdirSync(fx.outDir).sort()).toEqual(listing);
    },
  );

  it('the build CLI exits 1 and says nothing was published', async () => {
    const input = corrupt('cli', CORRUPTIONS[0]![1]);
    const r = await run([
      'pipeline/cli.ts',
      '--service',
      target.service,
      '--input',
      input,
      '--out',
      fx.outDir,
      ...(target.service === 'carriers' ? ['--as-of', AS_OF] : []),
    ]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/build failed, nothing was published: .*ends in the middle of record \d+/);
    expect(readFileSync(join(fx.outDir, target.service, 'manifest.json')).equals(manifest)).toBe(true);
  });
});

describe('carriers: a build that fails after it began spilling violations', () => {
  it('leaves no spill folder in the temporary folder, and removes the ones of builds that were killed', async () => {
    const fx = await buildCarriersFixture();
    try {
      const tmp = join(fx.root.path, 'tmp');
      mkdirSync(tmp);
      // A killed build's (no such process) and a running one's (this process).
      mkdirSync(join(tmp, 'shardline-violations-999999999-Ab12Cd'));
      mkdirSync(join(tmp, `shardline-violations-${process.pid}-Ef34Gh`));
      const file = join(fx.input, 'sms', 'violations.csv');
      writeFileSync(file, CORRUPTIONS[0]![1](readFileSync(file)));
      const r = await run(
        ['pipeline/cli.ts', '--service', 'carriers', '--input', fx.input, '--out', fx.outDir, '--as-of', AS_OF],
        { TMPDIR: tmp },
      );
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/violations\.csv: ends in the middle of record \d+/);
      expect(
        readdirSync(tmp)
          .filter((n) => n.startsWith('shardline-'))
          .sort(),
      ).toEqual([`shardline-violations-${process.pid}-Ef34Gh`]);
    } finally {
      await fx.root.remove();
    }
  });
});

// ---------------------------------------------------------------------------------------------------------

describe('the server process refuses a damaged build', () => {
  const flipByte = (path: string) => {
    const b = readFileSync(path);
    const at = Math.floor(b.length / 2);
    b[at] = b[at] === 0x20 ? 0x21 : 0x20;
    writeFileSync(path, b);
  };
  const cutInHalf = (path: string) => truncateSync(path, Math.floor(readFileSync(path).length / 2));
  const removeManifest = (dir: string) => rmSync(join(dir, 'manifest.json'));

  type Damage = [string, (dir: string) => void, RegExp];
  // Each is a child process (about 2 s of CPU); a changed or appended facilities document is shown by
  // test/server/server.test.ts, and a missing manifest takes the same path in main.ts for every service.
  const DAMAGES: Record<string, Damage[]> = {
    facilities: [
      ['a missing manifest', removeManifest, /manifest\.json is missing: build the data first/],
      [
        'a build of another data format',
        (d) => {
          const path = join(d, 'manifest.json');
          const { format: _, ...older } = JSON.parse(readFileSync(path, 'utf8'));
          writeFileSync(path, JSON.stringify(older));
        },
        /is a build of data format 0 \(none stated\); this server reads format 2: rebuild with this version \(npm run build -- --service facilities --input DIR\)\n/,
      ],
      [
        'a truncated document',
        (d) => cutInHalf(join(d, 'api/v1/facility/ONF-000001.json')),
        /ONF-000001\.json does not match checksums\.json/,
      ],
      // A file the server does not load, only serves from the tree.
      ['a changed report', (d) => flipByte(join(d, 'report.json')), /report\.json does not match checksums\.json/],
    ],
    carriers: [
      [
        'a changed name index',
        (d) => flipByte(join(d, 'index/names.tokens')),
        /index\/names\.tokens does not match checksums\.json/,
      ],
      [
        'a truncated profile store',
        (d) => cutInHalf(loadBuild(d, 'carriers').pathOf('private/profiles.dat')),
        /profiles\.dat has the wrong size: the build is damaged/,
      ],
      [
        'a missing private folder',
        (d) => rmSync(dirname(loadBuild(d, 'carriers').pathOf('private/profiles.dat')), { recursive: true }),
        /checksums\.json is missing: the build's private files are not beside it/,
      ],
    ],
    economy: [
      [
        'a changed document',
        (d) => flipByte(join(d, 'api/categories.json')),
        /api\/categories\.json does not match checksums\.json/,
      ],
      [
        'a truncated document',
        (d) => cutInHalf(join(d, 'api/series.json')),
        /api\/series\.json does not match checksums\.json/,
      ],
    ],
  };
  const roots: { remove(): Promise<void> }[] = [];
  const cases: { service: string; label: string; dataDir: string; stateDir: string; message: RegExp }[] = [];

  beforeAll(async () => {
    const builds = {
      facilities: await buildFixture(),
      carriers: await buildCarriersFixture(),
      economy: await buildEconomyFixture(),
    };
    for (const [service, built] of Object.entries(builds)) {
      roots.push(built.root);
      for (const [label, damage, message] of DAMAGES[service]!) {
        const dataDir = join(built.root.path, `damaged-${label.replaceAll(' ', '-')}`);
        cpSync(built.outDir, dataDir, { recursive: true });
        damage(join(dataDir, service));
        cases.push({ service, label, dataDir, stateDir: join(built.root.path, 'state'), message });
      }
    }
  });
  afterAll(async () => {
    for (const r of roots) await r.remove();
  });

  it('exits 1 with the reason for every damage, and builds nothing in its place', async () => {
    const results = await Promise.all(
      cases.map(async (c) => ({
        c,
        r: await run(['server/main.ts', '--service', c.service, '--port', '0', '--data', c.dataDir], {
          STATE_DIR: c.stateDir,
        }),
      })),
    );
    for (const { c, r } of results) {
      const what = `${c.service}, ${c.label}`;
      expect(r.code, `${what}: ${r.stderr}`).toBe(1);
      expect(r.stderr, what).toMatch(new RegExp(`cannot serve ${c.service}: `));
      expect(r.stderr, what).toMatch(c.message);
      expect(r.stdout, what).not.toMatch(/http:\/\//);
      // A damaged folder is not a missing one: no demo data replaces it.
      expect(r.stderr, what).not.toContain('building demo data');
      expect(existsSync(join(c.dataDir, `${c.service}.prev`)), what).toBe(false);
    }
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------------------

type Mode = 'ok' | 'hang' | 'error' | 'garbage' | 'cut';

/** A fake StatCan WDS and Bank of Canada Valet on 127.0.0.1 whose behaviour the test switches. */
async function startFlakyUpstream() {
  const state = { mode: 'ok' as Mode, requests: 0 };
  const server: Server = createServer((req, res) => {
    state.requests++;
    req.resume();
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      switch (state.mode) {
        case 'hang':
          return; // never answers; the connection stays open
        case 'error':
          res.writeHead(500, { 'Content-Type': 'application/json' });
          return void res.end('{"message":"Internal error"}');
        case 'garbage':
          res.writeHead(200, { 'Content-Type': 'application/json' });
          return void res.end(Buffer.concat([Buffer.from('<html><body>Service Unavailable</body></html>'), GARBAGE]));
        case 'cut':
          res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '50000' });
          res.write('[{"status":"SUCCESS","object":{"vectorId":41690973,"vectorDataPoint":[{"refPer":"2025-');
          return void setTimeout(() => res.socket?.destroy(), 20);
        default:
          if (path.endsWith('/getDataFromVectorsAndLatestNPeriods')) {
            const vectorDataPoint = ['2025-10-01', '2025-11-01', '2025-12-01'].map((refPer, i) => ({
              refPer,
              refPer2: '',
              value: 164 + i / 10,
              decimals: 1,
              scalarFactorCode: 0,
              symbolCode: 0,
              statusCode: 0,
              securityLevelCode: 0,
            }));
            res.writeHead(200, { 'Content-Type': 'application/json' });
            return void res.end(
              JSON.stringify([
                {
                  status: 'SUCCESS',
                  object: {
                    responseStatusCode: 0,
                    productId: 18100004,
                    coordinate: '2.2.0.0.0.0.0.0.0.0',
                    vectorId: 41690973,
                    vectorDataPoint,
                  },
                },
              ]),
            );
          }
          if (path === '/valet/observations/FXUSDCAD/json') {
            const observations = ['2025-12-01', '2025-12-02'].map((d, i) => ({
              d,
              FXUSDCAD: { v: (1.38 + i / 100).toFixed(4) },
            }));
            res.writeHead(200, { 'Content-Type': 'application/json' });
            return void res.end(
              JSON.stringify({ terms: {}, seriesDetail: { FXUSDCAD: { label: 'USD/CAD' } }, observations }),
            );
          }
          res.writeHead(404, { 'Content-Type': 'application/json' });
          res.end('{"message":"no such series"}');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    state,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe('economy: an upstream that fails', () => {
  const DAY = 86_400_000;
  let t = Date.parse('2026-06-01T12:00:00.000Z');
  let up: Awaited<ReturnType<typeof startFlakyUpstream>>;
  let built: Awaited<ReturnType<typeof buildEconomyFixture>>;
  let running: Running<unknown>;
  const get = (path: string) => fetch(running.base + path);
  const statuses: number[] = [];

  beforeAll(async () => {
    up = await startFlakyUpstream();
    built = await buildEconomyFixture({ demo: false });
    const def = createEconomyService({
      stateDir: join(built.root.path, 'state'),
      env: { STATCAN_WDS_URL: `${up.base}/wds`, BOC_VALET_URL: `${up.base}/valet` },
      now: () => new Date(t),
      upstreamTimeoutMs: 2_000,
    }) as ServiceDefinition<unknown>;
    running = await startService(def, built.outDir);
  });
  afterAll(async () => {
    await running?.close();
    await up?.close();
    await built?.root.remove();
  });

  it('pulls both upstreams while they work', async () => {
    for (const series of ['CPI_ALL_ITEMS', 'FX_USD_CAD']) {
      const res = await get(`/api/observations?series=${series}`);
      expect(res.status, series).toBe(200);
      expect(await res.json()).toMatchObject({ series, cached: false });
    }
  });

  it.each<Mode>(['hang', 'error', 'garbage', 'cut'])(
    'when the upstream %s: the stale copy, or 503 with Retry-After; never a 500; still serving',
    async (mode) => {
      // Two days on: the copies are past their 24 h and any back-off from the previous case is over.
      t += 2 * DAY;
      up.state.mode = mode;
      const before = up.state.requests;
      let settled = false;
      const pending = Promise.all(
        ['CPI_ALL_ITEMS', 'FX_USD_CAD', 'UNEMPLOYMENT_RATE', 'M2_GROSS'].map(async (series) => {
          const res = await get(`/api/observations?series=${series}`);
          return { series, res, body: (await res.json()) as Record<string, unknown> };
        }),
      ).finally(() => (settled = true));
      // While the pulls are failing, everything else answers; while they hang, before they give up.
      for (const path of ['/healthz', '/api/series', '/api/categories'])
        expect((await get(path)).status, path).toBe(200);
      if (mode === 'hang') expect(settled).toBe(false);

      for (const { series, res, body } of await pending) {
        statuses.push(res.status);
        if (series === 'CPI_ALL_ITEMS' || series === 'FX_USD_CAD') {
          // Pulled before: the cached copy, marked stale, with a short max-age.
          expect(res.status, series).toBe(200);
          expect(res.headers.get('cache-control')).toBe('public, max-age=60');
          schemas().assert('economy/observations', body, `stale ${series}`);
          expect(body).toMatchObject({ series, cached: true, stale: true });
        } else {
          // Never pulled: nothing to fall back on.
          expect(res.status, series).toBe(503);
          expect(res.headers.get('content-type')).toBe('application/problem+json');
          expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
          schemas().assert('core/problem', body, `503 ${series}`);
          expect(body).toMatchObject({ status: 503, code: 'upstream_unavailable' });
          expect(String(body.detail)).toContain(series);
        }
      }
      expect(up.state.requests - before).toBeGreaterThanOrEqual(4);
      expect(statuses.every((s) => s < 500 || s === 503)).toBe(true);
    },
  );

  it('pulls fresh data again once the upstream recovers', async () => {
    t += 2 * DAY;
    up.state.mode = 'ok';
    const res = await get('/api/observations?series=CPI_ALL_ITEMS');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ cached: false, asOf: new Date(t).toISOString() });
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
  });
});
