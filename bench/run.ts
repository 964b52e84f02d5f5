// npm run bench -- [--quick] [--only lookups|stores] [--duration S] [--rounds N] [--connections N] [--client wrk|autocannon] [--scale N] [--carriers-scale N] [--serve demo|real] [--service NAME]
// Builds the data in child processes (build time, peak RSS), then loads the real app (request log on, and off)
// and a bare node:http server with wrk (or autocannon), one server at a time, in interleaved rounds, and prints
// medians side by side.
// The VM is noisy (docs/reference/serving-anchors.md): only the same-run comparison with bare means much.
import { writeResults } from './results.ts';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, statfsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CliError, isMain, runCli } from '../contract/core/cli.ts';
import { createProgress, type Progress } from '../pipeline/core/progress.ts';
import { createRng } from '../contract/core/rng.ts';
import { BUILD_NODE_FLAGS, killAllChildren, ROOT, startChild, type Child } from './children.ts';
import { getLocal } from './http.ts';
import type { BuildJob, CaptureGroup, ServerJob } from './protocol.ts';
import {
  checkBuild,
  describeOutput,
  formatBuilds,
  formatGrowth,
  formatRelative,
  formatScenarios,
  formatStartups,
  formatServers,
  describeSmallScale,
  toSmallScale,
  summarizeServers,
  SERVER_KINDS,
  serverLabel,
  toMb,
  toRelativeResults,
  toScenarioResult,
  type BuildFigures,
  type ScenarioRuns,
  type ServerKind,
  type ServerSession,
  type StartupResult,
} from './report.ts';
import { measureStartup } from './startup.ts';
import { readCpuTicks, sampleBusy, stolenShare } from './machine.ts';
import {
  BUILD_TIMEOUT_MS,
  SAMPLE_PATHS,
  SERVER_START_TIMEOUT_MS,
  type Settings,
  toBenchOptions,
  toSettings,
  USAGE_TIMEOUT_MS,
} from './settings.ts';
import type { Scenario } from './scenario.ts';
import { BENCH_SERVICES, type BenchService } from './services.ts';
import { formatColdBursts, type ColdBurstResult } from './cold-burst.ts';
import { compareStores, formatStores, type StoreComparison } from './stores.ts';
import { formatLongParams, measureLongParams, type LongParamRow } from './long-params.ts';
import {
  buildMonths,
  type ChangesFigures,
  formatChanges,
  MAX_COMPARISON_RATIO,
  MAX_PEAK_RSS_MB,
  MONTHS,
} from './changes.ts';

async function runBuildJob(
  job: BuildJob,
  label: string,
  progress: Progress,
  extra: { scale?: number; svc?: BenchService } = {},
): Promise<BuildFigures> {
  progress.stage(label);
  const child = startChild(join(ROOT, 'bench', 'build-child.ts'), label, BUILD_NODE_FLAGS);
  child.send({ type: 'build', job });
  const done = await child.next('done', BUILD_TIMEOUT_MS);
  await child.stop();
  const wallMs = performance.now() - child.spawnedAt;
  progress.info(`${label}: ${(wallMs / 1000).toFixed(1)} s, peak RSS ${Math.round(done.maxRssKb / 1024)} MB`);
  const target =
    extra.svc && job.mode === 'build'
      ? checkBuild(wallMs, done.maxRssKb / 1024, extra.svc.targets, extra.scale)
      : undefined;
  return {
    label,
    service: job.service,
    ...(extra.scale !== undefined ? { scale: extra.scale } : {}),
    wallMs,
    jobMs: done.ms,
    peakRssMb: done.maxRssKb / 1024,
    counts: done.counts,
    files: done.files,
    ...(target ? { target } : {}),
  };
}

interface Built {
  builds: BuildFigures[];
  /** The folder holding `<service>/` for the HTTP figures, and the build that made it. */
  servedDir: string;
  served: BuildFigures;
  /** `demo x10` or `real`. */
  data: string;
  /** Demo scale of the served build; undefined for real data. */
  scale?: number;
}

async function buildAll(svc: BenchService, work: string, settings: Settings, progress: Progress): Promise<Built> {
  const builds: BuildFigures[] = [];
  let realOut: string | undefined;
  if (svc.realData) {
    const input = resolve(ROOT, svc.realData.dir);
    const label = `${svc.name} real data${svc.realData.year ? ` (${svc.realData.year})` : ''}`;
    if (existsSync(input)) {
      realOut = join(work, 'real');
      builds.push(
        await runBuildJob(
          { mode: 'build', service: svc.name, input, outDir: realOut, year: svc.realData.year },
          label,
          progress,
        ),
      );
    } else {
      progress.info(`skipped: ../shared/data not found (${input})`);
      builds.push({ label, service: svc.name, skipped: 'skipped: ../shared/data not found' });
    }
  }
  const demoInput = svc.demo.withoutInputs ? undefined : join(work, 'demo-input');
  const demoOut = join(work, 'demo');
  const scale = settings.scales[svc.name]!;
  if (demoInput && svc.targets?.maxBuildMs !== undefined) {
    // The growth curve: smaller builds of the same generator first, each deleted once measured.
    for (const fraction of settings.growth) {
      const at = Math.round(scale * fraction * 100) / 100;
      const dir = join(work, `growth-${at}`);
      await runBuildJob(
        { mode: 'demo', service: svc.name, dir: join(dir, 'input'), scale: at },
        `${svc.name} demo x${at} inputs`,
        progress,
        { scale: at },
      );
      builds.push({
        ...(await runBuildJob(
          { mode: 'build', service: svc.name, input: join(dir, 'input'), outDir: join(dir, 'out') },
          `${svc.name} demo x${at} build`,
          progress,
          { scale: at },
        )),
        growth: true,
      });
      await rm(dir, { recursive: true, force: true });
    }
  }
  if (demoInput)
    builds.push(
      await runBuildJob(
        { mode: 'demo', service: svc.name, dir: demoInput, scale },
        `${svc.name} demo x${scale} inputs`,
        progress,
        { scale },
      ),
    );
  const demoJob: BuildJob = demoInput
    ? { mode: 'build', service: svc.name, input: demoInput, outDir: demoOut }
    : { mode: 'build', service: svc.name, input: '', outDir: demoOut, demo: true };
  const demo = await runBuildJob(demoJob, `${svc.name} demo x${scale} build`, progress, { scale, svc });
  builds.push(settings.growth.length && svc.targets?.maxBuildMs !== undefined ? { ...demo, growth: true } : demo);
  if (settings.served === 'real') {
    if (!realOut) throw new CliError(`--serve real: no real data for ${svc.name}`, 1);
    return { builds, servedDir: realOut, served: builds[0]!, data: 'real' };
  }
  return { builds, servedDir: demoOut, served: demo, data: `demo x${scale}`, scale };
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
  built: Built,
  stateDir: string,
  scenarios: readonly Scenario[],
  runs: ScenarioRuns[],
  expected: Map<string, string>,
  settings: Settings,
  progress: Progress,
): Promise<ServerSession> {
  const label = `${serverLabel(kind)} ${svc.name}`;
  // The request log goes where npm start's stdout would go when redirected: a file (one per server, removed after).
  const logPath = join(stateDir, '..', `stdout-${kind}-${round}.log`);
  const stdout = openSync(logPath, 'w');
  let child: Child;
  try {
    child = startChild(join(ROOT, 'bench', 'server-child.ts'), label, [], stdout);
  } finally {
    closeSync(stdout);
  }
  try {
    const capture = scenarios.map(
      (s): CaptureGroup => ({ paths: s.paths, ...(s.headers ? { headers: s.headers } : {}) }),
    );
    const job: ServerJob = {
      kind: kind === 'bare' ? 'bare' : 'app',
      service: svc.name,
      dataDir: built.servedDir,
      stateDir,
      log: kind === 'app',
      // The embedded store, whatever the shell's DATABASE_URL says: the scenarios' keys are in STATE_DIR.
      env: { DATABASE_URL: '' },
      capture: kind === 'bare' ? capture : [],
    };
    child.send({ type: 'serve', job });
    const ready = await child.next('ready', SERVER_START_TIMEOUT_MS);
    const startupMs = performance.now() - child.spawnedAt - ready.captureMs;
    const atReady = await usageOf(child);
    progress.info(
      `${label} listening on 127.0.0.1:${ready.port} after ${Math.round(startupMs)} ms (load ${Math.round(ready.loadMs)} ms, RSS ${Math.round(toMb(atReady.rssBytes))} MB${kind === 'bare' ? `; captured the app's ${ready.captured} responses in ${Math.round(ready.captureMs)} ms, not counted` : ''})`,
    );

    for (const s of scenarios) {
      for (const path of s.paths.slice(0, SAMPLE_PATHS)) {
        const res = await getLocal(ready.port, path, s.headers);
        if (res.status !== 200)
          throw new Error(`${label}: GET ${path} answered ${res.status}: ${res.body.toString('utf8').slice(0, 300)}`);
        const d = digest(res.body);
        const seen = expected.get(path);
        if (seen === undefined) expected.set(path, d);
        else if (seen !== d)
          throw new Error(
            `${label}: GET ${path} answered other bytes than the other server: the comparison would not be like for like`,
          );
      }
    }

    for (const [i, s] of scenarios.entries()) {
      const load = {
        port: ready.port,
        paths: s.paths,
        ...(s.headers ? { headers: s.headers } : {}),
        connections: settings.connections,
      };
      await settings.load({ ...load, durationSec: settings.warmupSec });
      const before = await usageOf(child);
      const result = await settings.load({ ...load, durationSec: settings.durationSec });
      const after = await usageOf(child);
      const cpuUsPerReq = result.requests ? (after.cpuUs - before.cpuUs) / result.requests : NaN;
      runs[i]!.runs[kind].push({ ...result, round, cpuUsPerReq });
      const failures = result.errors + result.non2xx;
      progress.info(
        `${svc.name} ${s.name} ${serverLabel(kind)}: ${Math.round(result.rps).toLocaleString('en-CA')} req/s, p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms, ${cpuUsPerReq.toFixed(1)} us CPU/req${failures ? `, ${failures} ERRORS/non-2xx` : ''}`,
      );
    }
    const usage = await usageOf(child);
    return {
      service: svc.name,
      kind,
      round,
      data: built.data,
      startupMs,
      uptimeMs: ready.uptimeMs,
      loadMs: ready.loadMs,
      captureMs: ready.captureMs,
      captured: ready.captured,
      rssAtReadyMb: toMb(atReady.rssBytes),
      rssAfterTestMb: toMb(usage.rssBytes),
      peakRssMb: usage.maxRssKb / 1024,
    };
  } finally {
    await child.stop();
    await rm(logPath, { force: true });
  }
}

export async function main(argv: string[]): Promise<void> {
  const settings = toSettings(argv);
  if (!settings) return;
  const startedAt = new Date();
  const busyAtStart = await sampleBusy(1000);
  const cpuAtStart = readCpuTicks();
  const progress = createProgress('bench');
  if (busyAtStart > 0.1)
    progress.info(
      `CPUs ${Math.round(busyAtStart * 100)} % busy before starting: other work on this machine will skew the figures`,
    );
  assertDiskSpace(settings, progress);
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
  const coldBursts: ColdBurstResult[] = [];
  const stores: { service: string; comparison: StoreComparison }[] = [];
  const longParams: LongParamRow[] = [];
  const changes: ChangesFigures[] = [];
  const startups: StartupResult[] = [];
  const servedNotes: string[] = [];
  const scaleOf = new Map<string, number | undefined>();
  try {
    for (const svc of settings.services) {
      const months =
        settings.only === 'changes'
          ? await buildMonths(join(work, svc.name), settings.scales[svc.name]!, runBuildJob, progress)
          : undefined;
      const built: Built = months
        ? {
            builds: months.builds,
            servedDir: months.outDir,
            served: months.builds.at(-1)!,
            data: `demo x${settings.scales[svc.name]}, ${MONTHS} monthly builds`,
            scale: settings.scales[svc.name],
          }
        : await buildAll(svc, join(work, svc.name), settings, progress);
      if (months) changes.push(months.figures);
      builds.push(...built.builds);
      // One STATE_DIR for both servers and every round: the scenarios create their API keys in it.
      const stateDir = join(work, svc.name, 'state');
      await mkdir(stateDir, { recursive: true });
      const allScenarios = await svc.scenarios({
        buildDir: join(built.servedDir, svc.name),
        stateDir,
        rng: createRng(settings.seed).fork(svc.name),
      });
      const scenarios = allScenarios.filter(settings.keep);
      servedNotes.push(
        `${built.served.label} (${describeOutput(built.served)}${settings.scaleNotes[svc.name] && built.scale !== undefined ? `; ${settings.scaleNotes[svc.name]}` : ''})`,
      );
      const smallScale = toSmallScale(svc.targets, built.scale);
      const mine = scenarios.map(
        (s): ScenarioRuns => ({
          service: svc.name,
          scenario: s.name,
          description: s.description,
          distinctPaths: s.paths.length,
          target: s.target,
          ...(smallScale ? { smallScale } : {}),
          runs: { bare: [], app: [], 'app-log-off': [] },
        }),
      );
      runs.push(...mine);
      const expected = new Map<string, string>();
      for (let round = 1; scenarios.length > 0 && round <= settings.rounds; round++) {
        // Rotate who goes first, so a drift in the VM's speed over a round does not favour one side.
        const shift = (round - 1) % SERVER_KINDS.length;
        const order: ServerKind[] = [...SERVER_KINDS.slice(shift), ...SERVER_KINDS.slice(0, shift)];
        for (const kind of order) {
          progress.stage(`round ${round}/${settings.rounds}: ${serverLabel(kind)} ${svc.name}`);
          sessions.push(
            await runSession(kind, round, svc, built, stateDir, scenarios, mine, expected, settings, progress),
          );
        }
      }
      scaleOf.set(svc.name, built.scale);
      const storeLookup = settings.stores ? svc.storeLookup?.(allScenarios) : undefined;
      if (storeLookup) {
        stores.push({
          service: svc.name,
          comparison: await compareStores({
            service: svc.name,
            dataDir: built.servedDir,
            workDir: join(work, svc.name),
            paths: storeLookup.paths,
            pathsDescription: storeLookup.description,
            rounds: settings.rounds,
            connections: settings.connections,
            warmupSec: settings.warmupSec,
            durationSec: settings.durationSec,
            load: settings.load,
            progress,
          }),
        });
      }
      if (settings.longParams)
        longParams.push(
          ...(await measureLongParams({ service: svc.name, dataDir: built.servedDir, stateDir, progress })),
        );
      if (settings.only) continue;
      progress.stage(`${svc.name}: npm start, spawn to listening`);
      startups.push({
        ...(await measureStartup(svc.name, built.servedDir, stateDir, settings.rounds, (m) => progress.info(m))),
        data: built.data,
        target: svc.targets?.maxStartupMs,
        smallScale: toSmallScale(svc.targets, built.scale),
      });
      if (svc.coldBursts) {
        coldBursts.push(
          ...(await svc.coldBursts({
            workDir: join(work, svc.name),
            rng: createRng(settings.seed).fork(`${svc.name} cold`),
            progress,
          })),
        );
      }
    }
  } finally {
    await cleanup();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }

  const results = runs.map(toScenarioResult);
  const relative = toRelativeResults(results);
  const stolen = stolenShare(cpuAtStart, readCpuTicks());
  const serverSummaries = summarizeServers(sessions, (service) => ({
    targets: BENCH_SERVICES[service]?.targets,
    scale: scaleOf.get(service),
  }));
  await writeResults(settings.out, {
    options: toBenchOptions(settings),
    builds,
    servers: sessions,
    serverSummaries,
    scenarios: results,
    ...(coldBursts.length ? { coldBursts } : {}),
    ...(relative.length ? { relative } : {}),
    ...(stores.length ? { stores } : {}),
    ...(longParams.length ? { longParams } : {}),
    ...(changes.length ? { changes } : {}),
    startups,
    startedAt,
    elapsedMs: progress.elapsedMs(),
    busyAtStart,
    stolen,
  });

  const out = [
    `shardline bench, ${startedAt.toISOString()}: node ${process.version}, ${cpus().length} CPUs, ${Math.round(busyAtStart * 100)} % busy before start` +
      (stolen === undefined
        ? ''
        : `, ${Math.round(stolen * 100)} % of the CPU time taken by the hypervisor during the run (steal)`),
    `served: ${servedNotes.join('; ')}; ${settings.connections} connections; ${settings.rounds} interleaved rounds of ${settings.durationSec} s per server (after ${settings.warmupSec} s warm-up); load client ${settings.client}; medians; app request log on (stdout to a file, as npm start writes it), and off (LOG=off) beside it${settings.only ? `; --only ${settings.only}` : ''}`,
    '',
    formatScenarios(results),
    '',
    ...results.map((r) => `  ${r.service} ${r.scenario}: ${r.description}`),
    '',
    ...(relative.length ? [formatRelative(relative), ''] : []),
    formatBuilds(builds),
    '',
    ...(builds.some((b) => 'growth' in b && b.growth) ? [formatGrowth(builds), ''] : []),
    formatServers(serverSummaries),
    '  start-up: spawn to listening of the load-test child (node + tsx + createApp), median of the rounds; load: createApp alone; the bare server',
    "  loads the same build and captures the app's response (head and body) to every path it serves, not counted. RSS: once listening, and",
    '  after all load tests; worst round.',
    '',
    ...(startups.length ? [formatStartups(startups), ''] : []),
    ...(coldBursts.length ? [formatColdBursts(coldBursts), ''] : []),
    ...stores.map((s) => `${formatStores(s.service, s.comparison)}\n`),
    ...(longParams.length ? [formatLongParams(longParams), ''] : []),
    ...changes.map((c) => `${formatChanges(c)}\n`),
    `results: ${settings.out}`,
  ];
  process.stdout.write(`${out.join('\n')}\n`);
  const checked = [
    ...results.flatMap((r) =>
      r.met === undefined ? [] : [{ name: `${r.service} ${r.scenario}`, met: r.met, smallScale: r.smallScale }],
    ),
    ...builds.flatMap((b) =>
      'target' in b && b.target ? [{ name: b.label, met: b.target.met, smallScale: b.target.smallScale }] : [],
    ),
    ...serverSummaries.flatMap((s) =>
      s.target ? [{ name: `${s.service} ${s.kind} RSS`, met: s.target.met, smallScale: s.target.smallScale }] : [],
    ),
    ...startups.flatMap((s) =>
      s.target !== undefined
        ? [{ name: `${s.service} npm start start-up`, met: s.medianMs < s.target, smallScale: s.smallScale }]
        : [],
    ),
    // Not a size figure: the same at any scale.
    ...coldBursts.map((c) => ({ name: `${c.service} cold burst ${c.series}`, met: c.met, smallScale: undefined })),
    ...relative.map((r) => ({ name: `${r.service} ${r.scenario} vs ${r.against}`, met: r.met, smallScale: undefined })),
    ...longParams.map((r) => ({ name: `${r.service} ${r.route} long parameter`, met: r.met, smallScale: undefined })),
    ...changes.flatMap((c) => [
      { name: 'carriers build with its comparison', met: c.ratio <= MAX_COMPARISON_RATIO, smallScale: undefined },
      { name: 'carriers build peak RSS', met: c.compared.peakRssMb < MAX_PEAK_RSS_MB, smallScale: undefined },
    ]),
  ];
  const missed = checked.filter((c) => !c.met);
  const small = [...new Set(checked.flatMap((c) => (c.smallScale ? [describeSmallScale(c.smallScale)] : [])))];
  const elapsed = `${(progress.elapsedMs() / 1000).toFixed(0)} s`;
  process.stderr.write(
    (missed.length === 0
      ? `all ${checked.length} targets met in ${elapsed}\n`
      : `${missed.length} of ${checked.length} targets NOT met: ${missed.map((c) => c.name).join(', ')} (${elapsed})\n`) +
      small.map((n) => `note: ${n}\n`).join(''),
  );
}

/** Fails before hours of work when the demo builds cannot fit in the temp folder (x700 carriers: ~10 GB). */
function assertDiskSpace(settings: Settings, progress: Progress): void {
  const needMb = settings.services.reduce(
    (mb, svc) => mb + (svc.demo.diskMbPerUnit ?? 0) * settings.scales[svc.name]!,
    0,
  );
  if (needMb < 1000) return;
  const fs = statfsSync(tmpdir());
  const freeMb = toMb(fs.bavail * fs.bsize);
  const text = `the demo builds need about ${(needMb / 1024).toFixed(1)} GB in ${tmpdir()}; ${(freeMb / 1024).toFixed(1)} GB free`;
  if (needMb > freeMb * 0.9)
    throw new CliError(`${text}: not enough (set TMPDIR to a bigger disk, or use a smaller --carriers-scale)`, 1);
  progress.info(text);
}

if (isMain(import.meta.url)) {
  await runCli(() => main(process.argv.slice(2)));
  // autocannon and undici can leave timers or sockets behind; the bench is over, so leave.
  killAllChildren();
  process.exit();
}
