// Economy scenarios: series details by id, and observations as a chart or a table asks for them (the whole
// history, the last few years, one calendar year, a range) over every series of the registry, answered from
// a warm observation cache. Then the cold burst: many concurrent requests for a series nobody asked for yet,
// against a counting fake upstream, to show that one pull answers them all.
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Progress } from '../pipeline/core/progress.ts';
import type { Rng } from '../contract/core/rng.ts';
import { buildEconomy } from '../pipeline/economy/index.ts';
import type { RegistryEntry, Source } from '../contract/economy/types.ts';
import { snapshotAll } from '../server/economy/snapshot-cli.ts';
import { createObservationStores } from '../server/economy/stores.ts';
import { createDemoUpstreams, respondDemo } from '../contract/economy/upstream/demo.ts';
import { createVintageArchive } from '../server/economy/vintages.ts';
import { ROOT, startChild } from './children.ts';
import type { ColdBurstResult } from './cold-burst.ts';
import { getLocal } from './http.ts';
import type { ServerJob } from './protocol.ts';
import type { Scenario, ScenarioInput } from './scenario.ts';

const API = '/api';
/**
 * Distinct observation queries: about seven per series, as many as a dashboard over the whole registry
 * asks for; their bodies (about 10 MB with compressed forms) fit well within what the route keeps
 * (OBSERVATION_BODY_BYTES, server/economy/bodies.ts), so after the warm-up each is answered from memory.
 */
const OBSERVATION_QUERIES = 300;
/** Windows of the monthly series, asked as published and transformed. */
const MONTHLY_QUERIES = 200;
/** Concurrent cold requests per series in the burst. */
const BURST_REQUESTS = 100;
/** Series per source in the burst: the upstreams are separate adapters. */
const BURST_SERIES_PER_SOURCE = 3;
/** How long the fake upstream takes to answer: a real one takes a few hundred ms, so the burst overlaps the pull in flight. */
const UPSTREAM_DELAY_MS = 200;
const SERVER_START_TIMEOUT_MS = 60_000;

function readRegistry(buildDir: string): RegistryEntry[] {
  const entries = JSON.parse(readFileSync(join(buildDir, 'registry.json'), 'utf8')) as RegistryEntry[];
  if (entries.length === 0) throw new Error(`${buildDir} holds no series to benchmark`);
  return entries;
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * One `/api/observations` query for `entry`, as clients ask: the last few years (most often, from a given
 * day or the first of a month), one calendar year, a range of years, the whole history, or everything up
 * to a year's end. `today` anchors the relative windows.
 */
export function toObservationPath(entry: RegistryEntry, rng: Rng, today: Date): string {
  const params = new URLSearchParams({ series: entry.id });
  const year = today.getUTCFullYear();
  const kind = rng.pickWeighted([
    ['recent', 40],
    ['calendar year', 20],
    ['range', 20],
    ['whole history', 12],
    ['until', 8],
  ] as const);
  if (kind === 'recent') {
    const years = rng.pick([1, 2, 3, 5, 10]);
    const from = new Date(Date.UTC(year - years, today.getUTCMonth(), rng.chance(0.5) ? today.getUTCDate() : 1));
    params.set('from', isoDay(from.getTime()));
  } else if (kind === 'calendar year') {
    const y = rng.int(2000, year - 1);
    params.set('from', `${y}-01-01`);
    params.set('to', `${y}-12-31`);
  } else if (kind === 'range') {
    const from = Date.UTC(2000, 0, 1) + rng.int(0, (year - 2001) * 365) * 86_400_000;
    const to = Math.min(today.getTime(), from + rng.int(365, 10 * 365) * 86_400_000);
    params.set('from', isoDay(from));
    params.set('to', isoDay(to));
  } else if (kind === 'until') {
    params.set('to', `${rng.int(2005, year - 1)}-12-31`);
  }
  return `${API}/observations?${params.toString()}`;
}

/** What the transforms scenario asks of a monthly series, on top of a window: FRED's units and a lower frequency. */
const TRANSFORMS = [
  'units=pch',
  'units=pc1',
  'units=chg',
  'units=log',
  'units=cca',
  'units=pca',
  'frequency=q&aggregation_method=avg',
  'frequency=a&aggregation_method=eop&units=pc1',
  'units=pc1&sort_order=desc&limit=24',
] as const;

/**
 * The same windows of the monthly series twice: as published, and each with a transform (FRED's units, a
 * lower frequency, newest first): the pair that shows what the transforms add to a request.
 */
export function toMonthlyPaths(
  entries: readonly RegistryEntry[],
  rng: Rng,
  count: number,
  today: Date,
): { plain: string[]; transformed: string[] } {
  const monthly = entries.filter((e) => e.frequency === 'monthly');
  if (monthly.length === 0) throw new Error('the registry has no monthly series to benchmark transforms on');
  const plain = new Set<string>();
  for (let attempt = 0; plain.size < count && attempt < count * 20; attempt++)
    plain.add(toObservationPath(rng.pick(monthly), rng, today));
  const transformed = [...plain].map((p) => `${p}&${rng.pick(TRANSFORMS)}`);
  return { plain: [...plain], transformed };
}

/** Up to `count` distinct queries spread over every series. */
export function toObservationPaths(entries: readonly RegistryEntry[], rng: Rng, count: number, today: Date): string[] {
  const out = new Set<string>();
  // Every series at least once, then at random.
  for (const e of entries) if (out.size < count) out.add(toObservationPath(e, rng, today));
  for (let attempt = 0; out.size < count && attempt < count * 20; attempt++)
    out.add(toObservationPath(rng.pick(entries), rng, today));
  return rng.shuffle([...out]);
}

/**
 * Pulls every series once into the servers' STATE_DIR, through the same cache and built-in demo upstream the
 * app uses, before any server starts: both servers then read the same cache files, so they answer the same
 * bytes (`cached: true`, one `asOf`), and the bare server's capture does not record a first pull's `cached: false`.
 */
async function warmObservationCache(
  buildDir: string,
  stateDir: string,
  entries: readonly RegistryEntry[],
): Promise<void> {
  const manifest = JSON.parse(readFileSync(join(buildDir, 'manifest.json'), 'utf8')) as { demo?: boolean };
  // A live build would pull from the real upstreams: the bench talks to 127.0.0.1 only.
  if (manifest.demo !== true)
    throw new Error(`${buildDir} is not a demo build: the economy scenarios serve demo data only`);
  const { cache } = createObservationStores({
    stateDir,
    env: {},
    log: (line) => process.stderr.write(`warming the observation cache: ${JSON.stringify(line)}\n`),
  })(true);
  for (const entry of entries) await cache.get(entry);
}

/** Days of the archive the real-time scenarios read: a year of daily snapshots. */
const ARCHIVE_DAYS = 365;
/** Windows of the daily series asked plain, as known on a past day, and over real-time periods. */
const DAILY_QUERIES = 100;

/**
 * A year of daily snapshots of `entry` in the demo archive of `stateDir`, each the demo upstream's answer on
 * its day (the newest value revised each day), written as the servers' archive writes them; today's is the
 * warm-up's pull.
 */
async function writeDailyArchive(stateDir: string, entry: RegistryEntry, progress?: Progress): Promise<string[]> {
  const archive = createVintageArchive(join(stateDir, 'economy', 'demo'));
  const days: string[] = [];
  const today = Date.parse(`${isoDay(Date.now())}T06:00:00Z`);
  for (let d = ARCHIVE_DAYS; d >= 1; d--) {
    const at = new Date(today - d * 86_400_000);
    const upstream = createDemoUpstreams({ now: () => at, entries: [entry] })[entry.source];
    const { observations, missing } = await upstream.pull(entry, AbortSignal.timeout(30_000));
    const asOf = at.toISOString();
    days.push(await archive.write({ series: entry.id, asOf, source: upstream.label, observations, missing }));
    if (d % 73 === 0) progress?.info(`real-time archive of ${entry.id}: ${days.length} of ${ARCHIVE_DAYS} days`);
  }
  return days;
}

export async function economyScenarios({ buildDir, stateDir, rng }: ScenarioInput): Promise<Scenario[]> {
  const entries = readRegistry(buildDir);
  await warmObservationCache(buildDir, stateDir, entries);
  const daily = entries.find((e) => e.frequency === 'daily');
  if (!daily) throw new Error('the registry has no daily series for the real-time scenarios');
  const days = await writeDailyArchive(stateDir, daily);
  const windows = new Set<string>();
  const windowRng = rng.fork('daily windows');
  for (let attempt = 0; windows.size < DAILY_QUERIES && attempt < DAILY_QUERIES * 20; attempt++)
    windows.add(toObservationPath(daily, windowRng, new Date()));
  const dailyPlain = [...windows];
  const dayRng = rng.fork('real-time days');
  const asKnown = dailyPlain.map((p) => `${p}&realtime_end=${dayRng.pick(days)}`);
  const periods = dailyPlain.map((p) => `${p}&realtime_start=${dayRng.pick(days)}&realtime_end=9999-12-31`);
  const ids = rng.fork('ids').shuffle(entries.map((e) => e.id));
  const observations = toObservationPaths(entries, rng.fork('observations'), OBSERVATION_QUERIES, new Date());
  const monthly = toMonthlyPaths(entries, rng.fork('monthly'), MONTHLY_QUERIES, new Date());
  return [
    {
      name: 'series/:id',
      description: `GET ${API}/series/{id}, all ${ids.length} series of the registry`,
      paths: ids.map((id) => `${API}/series/${id}`),
      target: { minRatio: 0.9, maxCpuRatio: 1.2 },
      lookup: true,
    },
    {
      name: 'observations',
      description: `GET ${API}/observations?series=...&from=...&to=..., ${observations.length} distinct queries over all ${entries.length} series (recent years, calendar years, ranges, whole histories), answered from the warm observation cache`,
      paths: observations,
      target: { minRatio: 0.85 },
    },
    {
      name: 'observations monthly',
      description: `GET ${API}/observations?series=...&from=...&to=..., ${monthly.plain.length} windows of the monthly series as published`,
      paths: monthly.plain,
      target: {},
    },
    {
      name: 'observations monthly transformed',
      description: `the same ${monthly.transformed.length} windows, each with units (pch, pc1, chg, log, cca, pca), frequency=q or a with an aggregation, or sort_order=desc&limit=24`,
      paths: monthly.transformed,
      target: { maxCpuOf: { scenario: 'observations monthly', ratio: 1.2 } },
    },
    {
      name: 'observations daily',
      description: `GET ${API}/observations?series=${daily.id}&from=...&to=..., ${dailyPlain.length} windows of a daily series as published today`,
      paths: dailyPlain,
      target: {},
    },
    {
      name: 'observations daily as known on a past day',
      description: `the same windows with realtime_end= a day of the year of daily snapshots (${days[0]} to ${days.at(-1)}): the series as the archive knew it then`,
      paths: asKnown,
      target: { maxCpuOf: { scenario: 'observations daily', ratio: 1.5 } },
    },
    {
      name: 'observations daily real-time periods',
      description: `the same windows with realtime_start= a day of that year and realtime_end=9999-12-31 (output_type=1): every value each date had since, with its real-time period`,
      paths: periods,
      target: { maxCpuOf: { scenario: 'observations daily', ratio: 1.5 } },
    },
  ];
}

interface CountingUpstream {
  /** STATCAN_WDS_URL and BOC_VALET_URL for the app. */
  env: Record<string, string>;
  /** Requests received so far. */
  calls(): number;
  close(): Promise<void>;
}

/**
 * A fake StatCan WDS and Bank of Canada Valet on 127.0.0.1 that counts every request and answers it in the
 * upstreams' wire formats with the demo upstream's generated series (contract/economy/upstream/demo.ts),
 * after UPSTREAM_DELAY_MS.
 */
async function startCountingUpstream(entries: readonly RegistryEntry[]): Promise<CountingUpstream> {
  let calls = 0;
  const server: Server = createServer((req, res) => {
    calls++;
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      setTimeout(() => {
        const answer = respondDemo(req.method ?? 'GET', new URL(req.url ?? '/', 'http://127.0.0.1'), body, {
          now: () => new Date(),
          entries,
        });
        res.writeHead(answer.status, { 'Content-Type': 'application/json' });
        res.end(answer.body);
      }, UPSTREAM_DELAY_MS);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    env: { STATCAN_WDS_URL: `${base}/t1/wds/rest`, BOC_VALET_URL: `${base}/valet` },
    calls: () => calls,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A few series of each source, of different frequencies where the registry has them. */
function pickBurstSeries(entries: readonly RegistryEntry[], rng: Rng): RegistryEntry[] {
  return (['STATCAN', 'BOC'] as Source[]).flatMap((source) => {
    const pool = rng.shuffle(entries.filter((e) => e.source === source));
    const picked: RegistryEntry[] = [];
    for (const e of pool)
      if (picked.length < BURST_SERIES_PER_SOURCE && !picked.some((p) => p.frequency === e.frequency)) picked.push(e);
    for (const e of pool) if (picked.length < BURST_SERIES_PER_SOURCE && !picked.includes(e)) picked.push(e);
    return picked;
  });
}

export interface ColdBurstInput {
  /** A scratch folder of this service's: the live build and the empty STATE_DIR go there. */
  workDir: string;
  rng: Rng;
  progress: Progress;
}

/**
 * The cold burst: a live (not demo) build of the registry, served by the app in its own process with an
 * empty STATE_DIR and STATCAN_WDS_URL/BOC_VALET_URL pointing at the counting fake; for each picked series,
 * BURST_REQUESTS concurrent requests (with different date ranges) and the number of upstream requests they caused.
 */
export async function economyColdBursts({ workDir, rng, progress }: ColdBurstInput): Promise<ColdBurstResult[]> {
  progress.stage('economy cold burst');
  const outDir = join(workDir, 'live');
  const stateDir = join(workDir, 'cold-state');
  await mkdir(stateDir, { recursive: true });
  await buildEconomy({ outDir, demo: false });
  const entries = readRegistry(join(outDir, 'economy'));
  const upstream = await startCountingUpstream(entries);
  const child = startChild(join(ROOT, 'bench', 'server-child.ts'), 'app economy (cold burst)');
  try {
    const job: ServerJob = {
      kind: 'app',
      service: 'economy',
      dataDir: outDir,
      stateDir,
      log: false,
      capture: [],
      env: upstream.env,
    };
    child.send({ type: 'serve', job });
    const { port } = await child.next('ready', SERVER_START_TIMEOUT_MS);
    const results: ColdBurstResult[] = [];
    for (const entry of pickBurstSeries(entries, rng.fork('burst series'))) {
      const paths = Array.from({ length: BURST_REQUESTS }, () => toObservationPath(entry, rng, new Date()));
      const before = upstream.calls();
      const start = performance.now();
      const answers = await Promise.all(paths.map((p) => getLocal(port, p)));
      const ms = performance.now() - start;
      const calls = upstream.calls() - before;
      const ok = answers.filter((a) => a.status === 200).length;
      const pulled = answers.filter(
        (a) => a.status === 200 && (JSON.parse(a.body.toString('utf8')) as { cached?: unknown }).cached === false,
      ).length;
      const failed = answers.find((a) => a.status !== 200);
      if (failed)
        progress.info(
          `economy cold burst ${entry.id}: a request answered ${failed.status}: ${failed.body.toString('utf8').slice(0, 300)}`,
        );
      progress.info(
        `economy cold burst ${entry.id}: ${ok}/${paths.length} answered 200 (${pulled} of them from the pull itself) with ${calls} upstream request(s) in ${Math.round(ms)} ms`,
      );
      results.push({
        service: 'economy',
        series: entry.id,
        source: entry.source,
        frequency: entry.frequency,
        requests: paths.length,
        ok,
        pulled,
        upstreamCalls: calls,
        ms,
        upstreamDelayMs: UPSTREAM_DELAY_MS,
        met: calls === 1 && ok === paths.length,
      });
    }
    results.push(await nightlySnapshot(entries, upstream, join(workDir, 'snapshot-state'), progress));
    return results;
  } finally {
    await child.stop();
    await upstream.close();
  }
}

/**
 * The nightly snapshot of every series (npm run snapshot's snapshotAll) into an empty STATE_DIR, against the
 * counting fake: its time, and its upstream calls, which must be exactly one per series.
 */
async function nightlySnapshot(
  entries: readonly RegistryEntry[],
  upstream: CountingUpstream,
  stateDir: string,
  progress: Progress,
): Promise<ColdBurstResult> {
  progress.stage('economy nightly snapshot');
  const stores = createObservationStores({ stateDir, env: upstream.env, log: () => {} });
  try {
    const before = upstream.calls();
    const start = performance.now();
    const summary = await snapshotAll(stores(false).cache, entries, { concurrency: 4 });
    const ms = performance.now() - start;
    const calls = upstream.calls() - before;
    progress.info(
      `economy nightly snapshot: ${summary.pulled} of ${summary.series} series pulled with ${calls} upstream request(s) in ${Math.round(ms)} ms${summary.failed.length ? `; failed: ${summary.failed.map((f) => `${f.id} (${f.error})`).join('; ')}` : ''}`,
    );
    return {
      service: 'economy',
      series: `nightly snapshot (${entries.length} series)`,
      source: 'STATCAN and BOC',
      frequency: 'all',
      requests: entries.length,
      ok: summary.pulled,
      pulled: summary.pulled,
      upstreamCalls: calls,
      ms,
      upstreamDelayMs: UPSTREAM_DELAY_MS,
      expectedCalls: entries.length,
      met: calls === entries.length && summary.pulled === entries.length,
    };
  } finally {
    await stores.end();
  }
}
