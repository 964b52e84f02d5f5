// Medians over interleaved rounds and the printed tables (bench/results.json: results.ts). Ratios to bare are taken
// round by round (app and bare ran back to back) and then their median, so a slow minute on the VM
// lowers both sides of a ratio instead of one side of it.
import { formatTable } from '../pipeline/core/progress.ts';
import type { LoadResult } from './autocannon.ts';
import type { StartupFigures } from './startup.ts';
import type { Target } from './scenario.ts';
import { describeTarget, hasTarget, meetsTarget, type SizeTargets } from './services.ts';

/** The app with its request log on, as `npm start` runs it (the one judged), and with LOG=off beside it. */
export type ServerKind = 'bare' | 'app' | 'app-log-off';

export const SERVER_KINDS: readonly ServerKind[] = ['bare', 'app', 'app-log-off'];

export const serverLabel = (kind: ServerKind) => (kind === 'app-log-off' ? 'app, log off' : kind);

export interface RunFigures extends LoadResult {
  round: number;
  /** Server CPU (user + system) per 2xx response: steadier than req/s on a noisy VM. */
  cpuUsPerReq: number;
}

export interface ScenarioRuns {
  service: string;
  scenario: string;
  description: string;
  distinctPaths: number;
  target: Target;
  /** Set when the data served is smaller than the targets are set for. */
  smallScale?: SmallScale;
  runs: Record<ServerKind, RunFigures[]>;
}

export interface ServerSession {
  service: string;
  kind: ServerKind;
  round: number;
  /** What was served: `demo x10`, `real`. */
  data: string;
  /** Spawn to listening (node, tsx, createApp), less the bare server's capture of the app's responses. */
  startupMs: number;
  /** The child's own clock at listening (process start to listening), capture included for bare. */
  uptimeMs: number;
  /** createApp: load, verify and index the build. */
  loadMs: number;
  captureMs: number;
  captured: number;
  /** RSS once listening, before any request. */
  rssAtReadyMb: number;
  /** RSS after every scenario's load test. */
  rssAfterTestMb: number;
  peakRssMb: number;
}

/** A size target (build time, start-up, RSS) checked against one figure or a few. */
export interface Verdict {
  target: string;
  met: boolean;
  /** The figures that missed it, e.g. `start-up 1,234 ms`. */
  missed: string[];
  /** Set when the data is smaller than the target is set for: then `met` says little. */
  smallScale?: SmallScale;
}

export type BuildFigures =
  | { label: string; service: string; skipped: string }
  | {
      label: string;
      service: string;
      /** Demo scale, for demo inputs and builds. */
      scale?: number;
      wallMs: number;
      jobMs: number;
      peakRssMb: number;
      counts?: Record<string, number>;
      files?: number;
      target?: Verdict;
      /** One point of the build-time growth curve (the full-scale build is one too). */
      growth?: boolean;
    };

export interface BenchOptions {
  durationSec: number;
  warmupSec: number;
  rounds: number;
  connections: number;
  /** The load generator and its version (wrk or autocannon). */
  client: string;
  served: string;
  /** Demo scale per service. */
  scales: Record<string, number>;
  /** `lookups` when only the lookup scenarios ran (`--only lookups`), `stores` for the store comparison alone. */
  only?: string;
  seed: number;
  /** Fractions of the demo scale built for the growth curve. */
  growth: number[];
}

/** A service measured on a smaller demo build than its targets are set for. */
export interface SmallScale {
  scale: number;
  atScale: number;
  atSize: string;
}

/**
 * Set on every target of a service whose data is smaller than the targets are set for: a 30,000-carrier
 * smoke test that meets a 2-million-carrier target proves only that the bench works.
 */
export function toSmallScale(targets: SizeTargets | undefined, scale: number | undefined): SmallScale | undefined {
  if (!targets || scale === undefined || scale >= targets.atScale) return undefined;
  return { scale, atScale: targets.atScale, atSize: targets.atSize };
}

export function describeSmallScale(s: SmallScale): string {
  return `x${s.scale}: the targets are set for x${s.atScale} (${s.atSize}); at this size the figures show that the bench works, not that the targets are met`;
}

/** Footnotes for the `*` that marks results at a smaller scale than their targets. */
function smallScaleNotes(items: readonly (SmallScale | undefined)[]): string[] {
  const notes = new Set(items.flatMap((s) => (s ? [describeSmallScale(s)] : [])));
  return [...notes].map((n) => `  * ${n}`);
}

function verdictText(v: { met: boolean; missed?: string[]; smallScale?: SmallScale; invalid?: string }): string {
  const at = v.smallScale ? ` at x${v.smallScale.scale}*` : '';
  if (v.invalid) return `NOT met${at} (${v.invalid})`;
  if (!v.met) return `NOT met${at}${v.missed?.length ? `: ${v.missed.join(', ')}` : ''}`;
  return `met${at}`;
}

/**
 * The build targets: the build job's wall time (spawn to done; demo input generation is not part of it) and,
 * where set, its peak RSS.
 */
export function checkBuild(
  wallMs: number,
  peakRssMb: number,
  targets: SizeTargets | undefined,
  scale: number | undefined,
): Verdict | undefined {
  if (targets?.maxBuildMs === undefined) return undefined;
  const rss = targets.maxBuildRssMb;
  const missed = [
    ...(wallMs < targets.maxBuildMs ? [] : [formatDuration(wallMs)]),
    ...(rss === undefined || peakRssMb < rss ? [] : [`peak RSS ${fixed(peakRssMb, 0)} MB`]),
  ];
  const met = missed.length === 0;
  const smallScale = toSmallScale(targets, scale);
  return {
    target: `< ${formatDuration(targets.maxBuildMs)}${rss === undefined ? '' : `, < ${rss.toLocaleString('en-US')} MB peak`}`,
    met,
    missed,
    ...(smallScale ? { smallScale } : {}),
  };
}

function formatDuration(ms: number): string {
  const [value, unit] = ms >= 120_000 ? [ms / 60_000, 'min'] : [ms / 1000, 's'];
  return `${Number.isInteger(value) ? value : fixed(value, 1)} ${unit}`;
}

export function median(values: readonly number[]): number {
  const xs = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (xs.length === 0) return NaN;
  const mid = xs.length >> 1;
  return xs.length % 2 ? xs[mid]! : (xs[mid - 1]! + xs[mid]!) / 2;
}

export interface Summary {
  rps: number;
  rpsMin: number;
  rpsMax: number;
  p50Ms: number;
  p99Ms: number;
  cpuUsPerReq: number;
  requests: number;
  errors: number;
  non2xx: number;
}

export function summarize(runs: readonly RunFigures[]): Summary {
  const rps = runs.map((r) => r.rps);
  return {
    rps: median(rps),
    rpsMin: Math.min(...rps),
    rpsMax: Math.max(...rps),
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
    cpuUsPerReq: median(runs.map((r) => r.cpuUsPerReq)),
    requests: runs.reduce((n, r) => n + r.requests, 0),
    errors: runs.reduce((n, r) => n + r.errors, 0),
    non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
  };
}

/** Median of app/bare over the rounds both servers ran. */
export function pairedRatio(
  app: readonly RunFigures[],
  bare: readonly RunFigures[],
  key: 'rps' | 'cpuUsPerReq',
): number {
  const byRound = new Map(bare.map((b) => [b.round, b[key]]));
  return median(app.flatMap((a) => (byRound.has(a.round) ? [a[key] / byRound.get(a.round)!] : [])));
}

export interface ScenarioResult {
  service: string;
  scenario: string;
  description: string;
  distinctPaths: number;
  target: Target;
  targetText: string;
  bare: Summary;
  /** The app with its request log on: the figures the target is judged on. */
  app: Summary;
  rpsRatio: number;
  cpuRatio: number;
  /** The app with LOG=off, for the log's share; not judged. */
  logOff?: { app: Summary; rpsRatio: number; cpuRatio: number };
  /** Undefined for a scenario without a target: its figures are information. */
  met?: boolean;
  /** Why a result cannot count even if the figures look fine. */
  invalid?: string;
  /** Set when the data is smaller than the target is set for. */
  smallScale?: SmallScale;
  runs: Record<ServerKind, RunFigures[]>;
}

export function toScenarioResult(s: ScenarioRuns): ScenarioResult {
  const bare = summarize(s.runs.bare);
  const app = summarize(s.runs.app);
  const rpsRatio = pairedRatio(s.runs.app, s.runs.bare, 'rps');
  const cpuRatio = pairedRatio(s.runs.app, s.runs.bare, 'cpuUsPerReq');
  const offRuns = s.runs['app-log-off'];
  const logOff = offRuns.length
    ? {
        app: summarize(offRuns),
        rpsRatio: pairedRatio(offRuns, s.runs.bare, 'rps'),
        cpuRatio: pairedRatio(offRuns, s.runs.bare, 'cpuUsPerReq'),
      }
    : undefined;
  const failures =
    app.errors + app.non2xx + bare.errors + bare.non2xx + (logOff ? logOff.app.errors + logOff.app.non2xx : 0);
  const invalid = failures > 0 ? `${failures} errors or non-2xx responses` : undefined;
  return {
    service: s.service,
    scenario: s.scenario,
    description: s.description,
    distinctPaths: s.distinctPaths,
    target: s.target,
    targetText: describeTarget(s.target),
    bare,
    app,
    rpsRatio,
    cpuRatio,
    ...(logOff ? { logOff } : {}),
    ...(hasTarget(s.target) ? { met: !invalid && meetsTarget(s.target, { ratio: rpsRatio, cpuRatio }) } : {}),
    ...(invalid ? { invalid } : {}),
    ...(s.smallScale ? { smallScale: s.smallScale } : {}),
    runs: s.runs,
  };
}

const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-CA') : '-');
const fixed = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

export function formatScenarios(results: readonly ScenarioResult[]): string {
  const rows: (string | number)[][] = [
    [
      'scenario',
      'server',
      'req/s',
      'p50 ms',
      'p99 ms',
      'CPU us/req',
      'req/s vs bare',
      'CPU vs bare',
      'target',
      'result',
    ],
  ];
  for (const r of results) {
    const name = `${r.service} ${r.scenario}`;
    rows.push([
      name,
      'bare',
      int(r.bare.rps),
      fixed(r.bare.p50Ms),
      fixed(r.bare.p99Ms),
      fixed(r.bare.cpuUsPerReq, 1),
      '1.00',
      '1.00',
      '',
      '',
    ]);
    rows.push([
      name,
      serverLabel('app'),
      int(r.app.rps),
      fixed(r.app.p50Ms),
      fixed(r.app.p99Ms),
      fixed(r.app.cpuUsPerReq, 1),
      fixed(r.rpsRatio),
      fixed(r.cpuRatio),
      r.targetText,
      r.met === undefined ? (r.invalid ? `(${r.invalid})` : '') : verdictText({ ...r, met: r.met }),
    ]);
    if (r.logOff)
      rows.push([
        name,
        serverLabel('app-log-off'),
        int(r.logOff.app.rps),
        fixed(r.logOff.app.p50Ms),
        fixed(r.logOff.app.p99Ms),
        fixed(r.logOff.app.cpuUsPerReq, 1),
        fixed(r.logOff.rpsRatio),
        fixed(r.logOff.cpuRatio),
        '',
        '',
      ]);
  }
  return [
    formatTable(rows),
    '  targets are ratios to bare in the same round, judged on the app with its request log on; p50 and p99 are information',
    ...smallScaleNotes(results.map((r) => r.smallScale)),
  ].join('\n');
}

/** The first count a build reports is its headline (facilities, carriers, ...); demo inputs report files. */
export function describeOutput(b: BuildFigures): string {
  if ('skipped' in b) return b.skipped;
  const [name, n] = Object.entries(b.counts ?? {})[0] ?? [];
  if (name !== undefined && n !== undefined) return `${int(n)} ${name}`;
  return b.files !== undefined ? `${int(b.files)} files` : '';
}

export function formatBuilds(builds: readonly BuildFigures[]): string {
  const rows: (string | number)[][] = [
    ['build', 'output', 'wall s', 'in-process s', 'peak RSS MB', 'target', 'result'],
  ];
  for (const b of builds) {
    if ('skipped' in b) {
      rows.push([b.label, b.skipped, '-', '-', '-', '', '']);
      continue;
    }
    rows.push([
      b.label,
      describeOutput(b),
      fixed(b.wallMs / 1000, 1),
      fixed(b.jobMs / 1000, 1),
      fixed(b.peakRssMb, 0),
      b.target?.target ?? '',
      b.target ? verdictText(b.target) : '',
    ]);
  }
  const notes = smallScaleNotes(builds.map((b) => ('target' in b ? b.target?.smallScale : undefined)));
  const targeted = builds.some((b) => 'target' in b && b.target);
  return [
    formatTable(rows),
    ...(targeted
      ? ['  build target: wall time of the build job (spawn to done), without the demo input generation']
      : []),
    ...notes,
  ].join('\n');
}

/** One server (service and kind) over its rounds: start-up as the median, memory as the worst round. */
export interface ServerSummary {
  service: string;
  kind: ServerKind;
  data: string;
  rounds: number;
  startupMs: number;
  uptimeMs: number;
  loadMs: number;
  rssAtReadyMb: number;
  rssAfterTestMb: number;
  peakRssMb: number;
  /** App servers of services with size targets only. */
  target?: Verdict;
}

export function summarizeServers(
  sessions: readonly ServerSession[],
  targetsOf: (service: string) => { targets?: SizeTargets; scale?: number },
): ServerSummary[] {
  const groups = new Map<string, ServerSession[]>();
  for (const s of sessions) {
    const key = `${s.service} ${s.kind}`;
    (groups.get(key) ?? groups.set(key, []).get(key)!).push(s);
  }
  return [...groups.values()].map((g): ServerSummary => {
    const first = g[0]!;
    const summary: ServerSummary = {
      service: first.service,
      kind: first.kind,
      data: first.data,
      rounds: g.length,
      startupMs: median(g.map((s) => s.startupMs)),
      uptimeMs: median(g.map((s) => s.uptimeMs)),
      loadMs: median(g.map((s) => s.loadMs)),
      rssAtReadyMb: Math.max(...g.map((s) => s.rssAtReadyMb)),
      rssAfterTestMb: Math.max(...g.map((s) => s.rssAfterTestMb)),
      peakRssMb: Math.max(...g.map((s) => s.peakRssMb)),
    };
    const { targets, scale } = targetsOf(first.service);
    // Start-up is judged on `npm start` itself (bench/startup.ts), not on the load test's tsx child.
    if (first.kind === 'app' && targets && targets.maxRssMb !== undefined) {
      const parts: string[] = [];
      const missed: string[] = [];
      if (targets.maxRssMb !== undefined) {
        parts.push(`RSS < ${int(targets.maxRssMb)} MB`);
        if (!(summary.rssAtReadyMb < targets.maxRssMb)) missed.push(`RSS after load ${int(summary.rssAtReadyMb)} MB`);
        if (!(summary.rssAfterTestMb < targets.maxRssMb))
          missed.push(`RSS after test ${int(summary.rssAfterTestMb)} MB`);
      }
      const smallScale = toSmallScale(targets, scale);
      summary.target = {
        target: parts.join(', '),
        met: missed.length === 0,
        missed,
        ...(smallScale ? { smallScale } : {}),
      };
    }
    return summary;
  });
}

export function formatServers(summaries: readonly ServerSummary[]): string {
  const rows: (string | number)[][] = [
    [
      'server',
      'data',
      'start-up ms',
      'load ms',
      'RSS after load MB',
      'RSS after test MB',
      'peak RSS MB',
      'target',
      'result',
    ],
  ];
  for (const s of summaries) {
    rows.push([
      `${s.service} ${serverLabel(s.kind)}`,
      s.data,
      int(s.startupMs),
      int(s.loadMs),
      fixed(s.rssAtReadyMb, 0),
      fixed(s.rssAfterTestMb, 0),
      fixed(s.peakRssMb, 0),
      s.target?.target ?? '',
      s.target ? verdictText(s.target) : '',
    ]);
  }
  return [formatTable(rows), ...smallScaleNotes(summaries.map((s) => s.target?.smallScale))].join('\n');
}

export const toMb = (bytes: number) => bytes / (1024 * 1024);

/** `npm start` of one service: spawn to listening, over the rounds. */
export interface StartupResult extends StartupFigures {
  data: string;
  /** maxStartupMs of the service's size targets. */
  target?: number;
  smallScale?: SmallScale;
}

export function formatStartups(startups: readonly StartupResult[]): string {
  const rows: (string | number)[][] = [
    ['npm start', 'data', 'start-up ms (median)', 'each start ms', 'RSS listening MB', 'target', 'result'],
  ];
  for (const s of startups) {
    const met = s.target === undefined ? undefined : s.medianMs < s.target;
    rows.push([
      s.service,
      s.data,
      int(s.medianMs),
      s.samplesMs.map((ms) => int(ms)).join(' '),
      fixed(s.rssMb, 0),
      s.target === undefined ? '' : `< ${int(s.target)} ms`,
      met === undefined ? '' : `${met ? 'met' : 'NOT met'}${s.smallScale ? ` at x${s.smallScale.scale}*` : ''}`,
    ]);
  }
  return [
    formatTable(rows),
    '  npm start: `node server/start.mjs --service NAME --port 0` (the compiled server), spawn to its base-URL line, printed once listening;',
    '  one untimed start first (it compiles the server module if a source changed).',
    ...smallScaleNotes(startups.map((s) => s.smallScale)),
  ].join('\n');
}

/**
 * Build time against size: each growth build's wall time, per unit of scale, and against a straight line
 * through the origin and the largest build (1.00 = exactly linear; above 1, the smaller build was slower
 * per unit).
 */
export function formatGrowth(builds: readonly BuildFigures[]): string {
  const points = builds
    .flatMap((b) => ('growth' in b && b.growth && b.scale !== undefined ? [b] : []))
    .sort((a, b) => a.scale! - b.scale!);
  const largest = points.at(-1);
  if (!largest) return '';
  const perUnit = largest.wallMs / largest.scale!;
  const rows: (string | number)[][] = [
    ['growth', 'scale', 'output', 'wall s', 's per unit', 'vs linear', 'peak RSS MB'],
  ];
  for (const b of points) {
    rows.push([
      b.service,
      `x${b.scale}`,
      describeOutput(b),
      fixed(b.wallMs / 1000, 1),
      fixed(b.wallMs / 1000 / b.scale!, 2),
      fixed(b.wallMs / b.scale! / perUnit, 2),
      fixed(b.peakRssMb, 0),
    ]);
  }
  return [
    formatTable(rows),
    '  vs linear: seconds per unit of scale over those of the largest build (1.00 = linear growth)',
  ].join('\n');
}

/** A scenario judged against another of its service (Target.maxCpuOf): the app's CPU per request, paired by round. */
export interface RelativeResult {
  service: string;
  scenario: string;
  against: string;
  cpuUsPerReq: number;
  againstCpuUsPerReq: number;
  /** Median over rounds of this scenario's app CPU per request over the other's. */
  cpuRatio: number;
  target: number;
  met: boolean;
}

export function toRelativeResults(results: readonly ScenarioResult[]): RelativeResult[] {
  return results.flatMap((r) => {
    const of = r.target.maxCpuOf;
    if (!of) return [];
    const other = results.find((o) => o.service === r.service && o.scenario === of.scenario);
    if (!other) throw new Error(`${r.service} ${r.scenario}: no scenario ${of.scenario} to compare with`);
    const cpuRatio = pairedRatio(r.runs.app, other.runs.app, 'cpuUsPerReq');
    return [
      {
        service: r.service,
        scenario: r.scenario,
        against: of.scenario,
        cpuUsPerReq: r.app.cpuUsPerReq,
        againstCpuUsPerReq: other.app.cpuUsPerReq,
        cpuRatio,
        target: of.ratio,
        met: !r.invalid && !other.invalid && cpuRatio <= of.ratio,
      },
    ];
  });
}

export function formatRelative(rows: readonly RelativeResult[]): string {
  const table: (string | number)[][] = [
    ['scenario', 'against', 'CPU us/req', 'against us/req', 'ratio', 'target', 'result'],
  ];
  for (const r of rows)
    table.push([
      `${r.service} ${r.scenario}`,
      r.against,
      fixed(r.cpuUsPerReq, 1),
      fixed(r.againstCpuUsPerReq, 1),
      `${fixed(r.cpuRatio)}x`,
      `<= ${r.target.toFixed(1)}x`,
      r.met ? 'met' : 'NOT MET',
    ]);
  return `${formatTable(table)}\n  app (request log on) CPU per request against another scenario of the same service, median of the per-round ratios`;
}
