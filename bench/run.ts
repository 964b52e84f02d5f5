// npm run bench -- [--quick] [--duration S] [--rounds N] [--connections N] [--scale N] [--serve demo|real] [--service NAME] [--log]
// Builds the data in child processes (build time, peak RSS), then loads the real app and a bare node:http
// server with autocannon, one server at a time, in interleaved rounds, and prints medians side by side.
// The VM is noisy (shared/reference/serving-anchors.md): only the same-run comparison with bare means much.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { join, resolve } from 'node:path';
import { CliError, isMain, parseCli, runCli } from '../pipeline/core/cli.ts';
import { createProgress, type Progress } from '../pipeline/core/progress.ts';
import { createRng } from '../pipeline/demo/rng.ts';
import { runLoad } from './autocannon.ts';
import { killAllChildren, ROOT, startChild, type Child } from './children.ts';
import { getLocal } from './http.ts';
import type { BuildJob, ServerJob } from './protocol.ts';
import {
  describeOutput,
  formatBuilds,
  formatScenarios,
  formatServers,
  toMb,
  toScenarioResult,
  writeResults,
  type BenchOptions,
  type BuildFigures,
  type ScenarioRuns,
  type ServerKind,
  type ServerSession,
} from './report.ts';
import { BENCH_SERVICES, type BenchService, type Scenario } from './services.ts';

const USAGE = `Benchmark the services against a bare node:http server, side by side in one run.

Usage: npm run bench -- [options]

  --quick         3 s per run (smoke test); same as --duration 3
  --duration S    seconds per measured run (default 10); each run is preceded by a short warm-up
  --rounds N      interleaved rounds per server (default 3); the report shows medians
  --connections N autocannon connections (default 50)
  --scale N       size of the demo build that is served (default 10)
  --serve WHAT    demo (default) or real: which build the HTTP figures use
  --service NAME  ${Object.keys(BENCH_SERVICES).join(' | ')} (default: all)
  --log           let the app write its JSON request log (to /dev/null), as in production
  --seed N        seed for the sampled ids and queries (default 1)
  --out FILE      results file (default bench/results.json)

Progress goes to stderr, the tables to stdout. Everything talks to 127.0.0.1 only.

Examples:
  npm run bench -- --quick
  npm run bench -- --duration 10 --rounds 5
  npm run bench -- --serve real --log`;

/** Generous bounds so a stuck child cannot hold the bench forever. */
const BUILD_TIMEOUT_MS = 30 * 60_000;
const SERVER_START_TIMEOUT_MS = 5 * 60_000;
const USAGE_TIMEOUT_MS = 10_000;
/** Sample paths per scenario checked for 200 and for the same bytes from both servers before loading them. */
const SAMPLE_PATHS = 3;

interface Settings extends BenchOptions {
  scale: number;
  services: BenchService[];
  out: string;
}

function toSettings(argv: string[]): Settings | undefined {
  const { values } = parseCli(
    argv,
    {
      quick: { type: 'boolean' },
      duration: { type: 'string' },
      rounds: { type: 'string' },
      connections: { type: 'string' },
      scale: { type: 'string' },
      serve: { type: 'string' },
      service: { type: 'string' },
      log: { type: 'boolean' },
      seed: { type: 'string' },
      out: { type: 'string' },
    },
    USAGE,
  );
  if (values.help) {
    process.stdout.write(USAGE + '\n');
    return undefined;
  }
  const number = (name: string, raw: string | undefined, fallback: number, ok: (n: number) => boolean) => {
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!ok(n)) throw new CliError(`--${name} ${raw} is not valid\n\n${USAGE}`);
    return n;
  };
  const durationSec = number('duration', values.duration, values.quick ? 3 : 10, (n) => Number.isInteger(n) && n >= 1 && n <= 600);
  const serve = values.serve ?? 'demo';
  if (serve !== 'demo' && serve !== 'real') throw new CliError(`--serve must be demo or real\n\n${USAGE}`);
  if (values.service && !BENCH_SERVICES[values.service]) throw new CliError(`--service must be one of ${Object.keys(BENCH_SERVICES).join(', ')}`);
  const scale = number('scale', values.scale, 10, (n) => n > 0 && n <= 1000);
  return {
    durationSec,
    warmupSec: durationSec >= 10 ? 2 : 1,
    rounds: number('rounds', values.rounds, 3, (n) => Number.isInteger(n) && n >= 1 && n <= 50),
    connections: number('connections', values.connections, 50, (n) => Number.isInteger(n) && n >= 1 && n <= 1000),
    scale,
    served: serve === 'demo' ? `demo x${scale}` : 'real',
    log: values.log ?? false,
    seed: number('seed', values.seed, 1, Number.isInteger),
    services: values.service ? [BENCH_SERVICES[values.service]!] : Object.values(BENCH_SERVICES),
    out: resolve(values.out ?? join(ROOT, 'bench', 'results.json')),
  };
}

async function runBuildJob(job: BuildJob, label: string, progress: Progress): Promise<BuildFigures> {
  progress.stage(label);
  const child = startChild(join(ROOT, 'bench', 'build-child.ts'), label);
  child.send({ type: 'build', job });
  const done = await child.next('done', BUILD_TIMEOUT_MS);
  await child.stop();
  const wallMs = performance.now() - child.spawnedAt;
  progress.info(`${label}: ${(wallMs / 1000).toFixed(1)} s, peak RSS ${Math.round(done.maxRssKb / 1024)} MB`);
  return { label, service: job.service, wallMs, jobMs: done.ms, peakRssMb: done.maxRssKb / 1024, counts: done.counts, files: done.files };
}

interface Built {
  builds: BuildFigures[];
  /** The folder holding `<service>/` for the HTTP figures, and the build that made it. */
  servedDir: string;
  served: BuildFigures;
}

async function buildAll(svc: BenchService, work: string, settings: Settings, progress: Progress): Promise<Built> {
  const builds: BuildFigures[] = [];
  let realOut: string | undefined;
  if (svc.realData) {
    const input = resolve(ROOT, svc.realData.dir);
    const label = `${svc.name} real data${svc.realData.year ? ` (${svc.realData.year})` : ''}`;
    if (existsSync(input)) {
      realOut = join(work, 'real');
      builds.push(await runBuildJob({ mode: 'build', service: svc.name, input, outDir: realOut, year: svc.realData.year }, label, progress));
    } else {
      progress.info(`skipped: ../shared/data not found (${input})`);
      builds.push({ label, service: svc.name, skipped: 'skipped: ../shared/data not found' });
    }
  }
  const demoInput = join(work, 'demo-input');
  const demoOut = join(work, 'demo');
  builds.push(await runBuildJob({ mode: 'demo', service: svc.name, dir: demoInput, scale: settings.scale }, `${svc.name} demo x${settings.scale} inputs`, progress));
  const demo = await runBuildJob({ mode: 'build', service: svc.name, input: demoInput, outDir: demoOut }, `${svc.name} demo x${settings.scale} build`, progress);
  builds.push(demo);
  if (settings.served === 'real') {
    if (!realOut) throw new CliError(`--serve real: no real data for ${svc.name}`, 1);
    return { builds, servedDir: realOut, served: builds[0]! };
  }
  return { builds, servedDir: demoOut, served: demo };
}

async function usageOf(child: Child) {
  child.send({ type: 'usage' });
  return child.next('usage', USAGE_TIMEOUT_MS);
}

const digest = (body: Buffer) => createHash('sha256').update(body).digest('hex');

/**
 * One server, started fresh, loaded with every scenario in turn. `expected` holds the body digests seen
 * from the first server, so both are known to answer the same bytes before any figure is trusted.
 */
async function runSession(
  kind: ServerKind,
  round: number,
  svc: BenchService,
  dataDir: string,
  scenarios: readonly Scenario[],
  runs: ScenarioRuns[],
  expected: Map<string, string>,
  settings: Settings,
  progress: Progress,
): Promise<ServerSession> {
  const label = `${kind} ${svc.name}`;
  const child = startChild(join(ROOT, 'bench', 'server-child.ts'), label);
  try {
    const capture = [...new Set(scenarios.flatMap((s) => s.paths))];
    const job: ServerJob = { kind, service: svc.name, dataDir, log: settings.log, capture: kind === 'bare' ? capture : [] };
    child.send({ type: 'serve', job });
    const ready = await child.next('ready', SERVER_START_TIMEOUT_MS);
    const startupMs = performance.now() - child.spawnedAt - ready.captureMs;
    progress.info(`${label} listening on 127.0.0.1:${ready.port} after ${Math.round(startupMs)} ms (load ${Math.round(ready.loadMs)} ms${kind === 'bare' ? `; captured ${ready.captured} dynamic responses in ${Math.round(ready.captureMs)} ms, not counted` : ''})`);

    for (const s of scenarios) {
      for (const path of s.paths.slice(0, SAMPLE_PATHS)) {
        const res = await getLocal(ready.port, path);
        if (res.status !== 200) throw new Error(`${label}: GET ${path} answered ${res.status}: ${res.body.toString('utf8').slice(0, 300)}`);
        const d = digest(res.body);
        const seen = expected.get(path);
        if (seen === undefined) expected.set(path, d);
        else if (seen !== d) throw new Error(`${label}: GET ${path} answered other bytes than the other server: the comparison would not be like for like`);
      }
    }

    for (const [i, s] of scenarios.entries()) {
      await runLoad({ port: ready.port, paths: s.paths, connections: settings.connections, durationSec: settings.warmupSec });
      const before = await usageOf(child);
      const result = await runLoad({ port: ready.port, paths: s.paths, connections: settings.connections, durationSec: settings.durationSec });
      const after = await usageOf(child);
      const cpuUsPerReq = result.requests ? (after.cpuUs - before.cpuUs) / result.requests : NaN;
      runs[i]!.runs[kind].push({ ...result, round, cpuUsPerReq });
      const failures = result.errors + result.non2xx;
      progress.info(
        `${svc.name} ${s.name} ${kind}: ${Math.round(result.rps).toLocaleString('en-CA')} req/s, p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms, ${cpuUsPerReq.toFixed(1)} us CPU/req${failures ? `, ${failures} ERRORS/non-2xx` : ''}`,
      );
    }
    const usage = await usageOf(child);
    return {
      service: svc.name,
      kind,
      round,
      startupMs,
      loadMs: ready.loadMs,
      captureMs: ready.captureMs,
      captured: ready.captured,
      rssAfterLoadMb: toMb(usage.rssBytes),
      peakRssMb: usage.maxRssKb / 1024,
    };
  } finally {
    await child.stop();
  }
}

export async function main(argv: string[]): Promise<void> {
  const settings = toSettings(argv);
  if (!settings) return;
  const startedAt = new Date();
  const busyAtStart = await sampleBusy(1000);
  const progress = createProgress('bench');
  if (busyAtStart > 0.1) progress.info(`CPUs ${Math.round(busyAtStart * 100)} % busy before starting: other work on this machine will skew the figures`);
  const work = await mkdtemp(join(tmpdir(), 'shardline-bench-'));
  const cleanup = () => {
    killAllChildren();
    return rm(work, { recursive: true, force: true });
  };
  const onSignal = (signal: NodeJS.Signals) => {
    process.stderr.write(`\n${signal}: stopping the bench\n`);
    cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const builds: BuildFigures[] = [];
  const sessions: ServerSession[] = [];
  const runs: ScenarioRuns[] = [];
  const servedNotes: string[] = [];
  try {
    for (const svc of settings.services) {
      const built = await buildAll(svc, join(work, svc.name), settings, progress);
      builds.push(...built.builds);
      const scenarios = svc.scenarios({ buildDir: join(built.servedDir, svc.name), rng: createRng(settings.seed).fork(svc.name) });
      servedNotes.push(`${built.served.label} (${describeOutput(built.served)})`);
      const mine = scenarios.map(
        (s): ScenarioRuns => ({ service: svc.name, scenario: s.name, description: s.description, distinctPaths: s.paths.length, target: s.target, runs: { bare: [], app: [] } }),
      );
      runs.push(...mine);
      const expected = new Map<string, string>();
      for (let round = 1; round <= settings.rounds; round++) {
        // Alternate who goes first, so a drift in the VM's speed over a round does not favour one side.
        const order: ServerKind[] = round % 2 ? ['bare', 'app'] : ['app', 'bare'];
        for (const kind of order) {
          progress.stage(`round ${round}/${settings.rounds}: ${kind} ${svc.name}`);
          sessions.push(await runSession(kind, round, svc, built.servedDir, scenarios, mine, expected, settings, progress));
        }
      }
    }
  } finally {
    await cleanup();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }

  const results = runs.map(toScenarioResult);
  await writeResults(settings.out, { options: toBenchOptions(settings), builds, servers: sessions, scenarios: results, startedAt, elapsedMs: progress.elapsedMs(), busyAtStart });

  const out = [
    `shardline bench, ${startedAt.toISOString()}: node ${process.version}, ${cpus().length} CPUs, ${Math.round(busyAtStart * 100)} % busy before start`,
    `served: ${servedNotes.join('; ')}; ${settings.connections} connections; ${settings.rounds} interleaved rounds of ${settings.durationSec} s per server (after ${settings.warmupSec} s warm-up); medians; app request log ${settings.log ? 'on (to /dev/null)' : 'off'}`,
    '',
    formatScenarios(results),
    '',
    ...results.map((r) => `  ${r.service} ${r.scenario}: ${r.description}`),
    '',
    formatBuilds(builds),
    '',
    formatServers(sessions, settings.served),
    '  start-up: spawn to listening (node + tsx + load); the bare server loads the same build, and its capture of search responses is not counted',
    '',
    `results: ${settings.out}`,
  ];
  process.stdout.write(out.join('\n') + '\n');
  const missed = results.filter((r) => !r.met);
  process.stderr.write(
    missed.length === 0
      ? `all ${results.length} targets met in ${(progress.elapsedMs() / 1000).toFixed(0)} s\n`
      : `${missed.length} of ${results.length} targets NOT met: ${missed.map((r) => `${r.service} ${r.scenario}`).join(', ')} (${(progress.elapsedMs() / 1000).toFixed(0)} s)\n`,
  );
}

/** Share of all CPU time spent busy over `ms`, before the bench starts anything of its own. */
async function sampleBusy(ms: number): Promise<number> {
  const total = () => cpus().reduce((acc, c) => ({ idle: acc.idle + c.times.idle, all: acc.all + c.times.user + c.times.nice + c.times.sys + c.times.irq + c.times.idle }), { idle: 0, all: 0 });
  const a = total();
  await sleep(ms);
  const b = total();
  return b.all > a.all ? 1 - (b.idle - a.idle) / (b.all - a.all) : 0;
}

function toBenchOptions(s: Settings): BenchOptions {
  return { durationSec: s.durationSec, warmupSec: s.warmupSec, rounds: s.rounds, connections: s.connections, served: s.served, log: s.log, seed: s.seed };
}

if (isMain(import.meta.url)) {
  await runCli(() => main(process.argv.slice(2)));
  // autocannon and undici can leave timers or sockets behind; the bench is over, so leave.
  killAllChildren();
  process.exit();
}
