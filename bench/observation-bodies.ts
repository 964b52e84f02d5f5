// What an /api/observations body costs to make, and where (`npx tsx bench/observation-bodies.ts
// [repeated|distinct|mixed]`): part 1 times each step in process (document, ETag, gzip and brotli on the loop and on
// the pool); part 2 loads a demo build with wrk over repeated, distinct and mixed queries, sampling the event loop's
// delay.
import { hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import * as zlib from 'node:zlib';
import { createRng } from '../contract/core/rng.ts';
import type { RegistryEntry } from '../contract/economy/types.ts';
import { buildEconomy } from '../pipeline/economy/index.ts';
import { createApp } from '../server/core/app.ts';
import { createServiceServer } from '../server/core/http-server.ts';
import type { ObservationCache } from '../server/economy/cache.ts';
import { sliceByDate } from '../server/economy/observations.ts';
import { createObservationStores } from '../server/economy/stores.ts';
import { SERVICES } from '../server/services.ts';
import { toObservationPaths } from './economy.ts';
import { runWrk, wrkVersion } from './wrk.ts';

const REPEATED = 300;
const DISTINCT = 20_000;
const SECONDS = Number(process.env.SECONDS_PER_RUN ?? 10);
/** wrk's connections; fewer than 50 leaves the server less saturated. */
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);
const BR = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } };

const percentile = (xs: readonly number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};
const ms = (x: number) => x.toFixed(3);
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const line = (label: string, xs: readonly number[]) =>
  `${label.padEnd(32)} p50 ${ms(percentile(xs, 50))}  p99 ${ms(percentile(xs, 99))}  sum ${ms(sum(xs))} ms`;

async function timeSteps(paths: readonly string[], cache: ObservationCache, entries: RegistryEntry[]): Promise<void> {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const doc: number[] = [];
  const etag: number[] = [];
  const sync: number[] = [];
  const asyncLoop: number[] = [];
  const asyncWall: number[] = [];
  const sizes: number[] = [];
  for (const path of paths) {
    const q = new URL(path, 'http://x').searchParams;
    const got = await cache.get(byId.get(q.get('series')!)!);
    let t = performance.now();
    const observations = sliceByDate(got.observations, q.get('from') ?? undefined, q.get('to') ?? undefined);
    const body = Buffer.from(JSON.stringify({ ...got, observations }));
    doc.push(performance.now() - t);
    sizes.push(body.length);
    t = performance.now();
    hash('sha256', body, 'hex');
    etag.push(performance.now() - t);
    if (body.length <= 1400) continue;
    t = performance.now();
    zlib.gzipSync(body, { level: 6 });
    zlib.brotliCompressSync(body, BR);
    sync.push(performance.now() - t);
    const busy = performance.eventLoopUtilization();
    t = performance.now();
    await Promise.all([gzip(body, { level: 6, chunkSize: 64 * 1024 }), brotli(body, { ...BR, chunkSize: 64 * 1024 })]);
    asyncWall.push(performance.now() - t);
    asyncLoop.push(performance.eventLoopUtilization(busy).active);
  }
  console.log(`part 1: ${paths.length} queries; body bytes p50 ${percentile(sizes, 50)}, max ${Math.max(...sizes)}`);
  console.log(line('document (slice + JSON)', doc));
  console.log(line('ETag (sha256)', etag));
  console.log(line('gzip + br, sync', sync));
  console.log(line('gzip + br, async: event loop', asyncLoop));
  console.log(line('gzip + br, async: wall', asyncWall));
}

async function serveUnderLoad(dataDir: string, stateDir: string, scenarios: [string, string[]][]): Promise<void> {
  if (!wrkVersion()) {
    console.log('part 2 skipped: wrk is not on the PATH (apt-get install wrk)');
    return;
  }
  const app = createApp(SERVICES.economy!.create({ stateDir, env: {} }), { dataDir, log: null, reloadIntervalMs: 0 });
  const server = createServiceServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const headers = { 'Accept-Encoding': 'br, gzip' };
  try {
    for (const [name, paths] of scenarios) {
      await runWrk({ port, paths, headers, connections: CONNECTIONS, durationSec: 2 });
      const delay = monitorEventLoopDelay({ resolution: 1 });
      delay.enable();
      const r = await runWrk({ port, paths, headers, connections: CONNECTIONS, durationSec: SECONDS });
      delay.disable();
      const loop = `event-loop delay p99 ${ms(delay.percentile(99) / 1e6)} max ${ms(delay.max / 1e6)} ms`;
      const load = `${Math.round(r.rps)} req/s, p50 ${ms(r.p50Ms)} p99 ${ms(r.p99Ms)} ms`;
      console.log(`part 2 ${name} (${paths.length} paths): ${load}; ${loop}; errors ${r.errors + r.non2xx}`);
    }
  } finally {
    app.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}

async function main(only: string | undefined): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'shardline-bodies-'));
  try {
    const dataDir = join(root, 'dist-data');
    const stateDir = join(root, 'state');
    await buildEconomy({ outDir: dataDir, demo: true });
    const entries = JSON.parse(readFileSync(join(dataDir, 'economy', 'registry.json'), 'utf8')) as RegistryEntry[];
    // Every series pulled once from the demo upstream, so both parts read the same warm cache files.
    const { cache } = createObservationStores({ stateDir, env: {} })(true);
    for (const e of entries) await cache.get(e);
    const rng = createRng(20261126);
    const today = new Date();
    const repeated = toObservationPaths(entries, rng.fork('repeated'), REPEATED, today);
    const distinct = toObservationPaths(entries, rng.fork('distinct'), DISTINCT, today);
    // One request in twenty a query not asked before, between queries asked again.
    const mixed = Array.from({ length: distinct.length * 20 }, (_, i) =>
      i % 20 === 0 ? distinct[i / 20]! : repeated[i % repeated.length]!,
    );
    const scenarios: [string, string[]][] = [
      ['repeated', repeated],
      ['distinct', distinct],
      ['mixed', mixed],
    ];
    if (!only) await timeSteps(scenarios[0]![1], cache, entries);
    await serveUnderLoad(
      dataDir,
      stateDir,
      scenarios.filter(([name]) => !only || name === only),
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

await main(process.argv[2]);
