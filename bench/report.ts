// Medians over interleaved rounds, the printed tables and bench/results.json. Ratios to bare are taken
// round by round (app and bare ran back to back) and then their median, so a slow minute on the VM
// lowers both sides of a ratio instead of one side of it.
import { writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { formatTable } from '../pipeline/core/progress.ts';
import type { LoadResult } from './autocannon.ts';
import { describeTarget, meetsTarget, type Target } from './services.ts';

export type ServerKind = 'bare' | 'app';

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
  runs: Record<ServerKind, RunFigures[]>;
}

export interface ServerSession {
  service: string;
  kind: ServerKind;
  round: number;
  /** Spawn to listening, less the bare server's capture of dynamic responses. */
  startupMs: number;
  loadMs: number;
  captureMs: number;
  captured: number;
  rssAfterLoadMb: number;
  peakRssMb: number;
}

export type BuildFigures =
  | { label: string; service: string; skipped: string }
  | { label: string; service: string; wallMs: number; jobMs: number; peakRssMb: number; counts?: Record<string, number>; files?: number };

export interface BenchOptions {
  durationSec: number;
  warmupSec: number;
  rounds: number;
  connections: number;
  served: string;
  log: boolean;
  seed: number;
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
export function pairedRatio(app: readonly RunFigures[], bare: readonly RunFigures[], key: 'rps' | 'cpuUsPerReq'): number {
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
  app: Summary;
  rpsRatio: number;
  cpuRatio: number;
  met: boolean;
  /** Why a result cannot count even if the figures look fine. */
  invalid?: string;
  runs: Record<ServerKind, RunFigures[]>;
}

export function toScenarioResult(s: ScenarioRuns): ScenarioResult {
  const bare = summarize(s.runs.bare);
  const app = summarize(s.runs.app);
  const rpsRatio = pairedRatio(s.runs.app, s.runs.bare, 'rps');
  const failures = app.errors + app.non2xx + bare.errors + bare.non2xx;
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
    cpuRatio: pairedRatio(s.runs.app, s.runs.bare, 'cpuUsPerReq'),
    met: !invalid && meetsTarget(s.target, { ratio: rpsRatio, p99Ms: app.p99Ms }),
    ...(invalid ? { invalid } : {}),
    runs: s.runs,
  };
}

const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-CA') : '-');
const fixed = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

export function formatScenarios(results: readonly ScenarioResult[]): string {
  const rows: (string | number)[][] = [['scenario', 'server', 'req/s', 'p50 ms', 'p99 ms', 'CPU us/req', 'req/s vs bare', 'CPU vs bare', 'target', 'result']];
  for (const r of results) {
    const name = `${r.service} ${r.scenario}`;
    rows.push([name, 'bare', int(r.bare.rps), fixed(r.bare.p50Ms), fixed(r.bare.p99Ms), fixed(r.bare.cpuUsPerReq, 1), '1.00', '1.00', '', '']);
    rows.push([name, 'app', int(r.app.rps), fixed(r.app.p50Ms), fixed(r.app.p99Ms), fixed(r.app.cpuUsPerReq, 1), fixed(r.rpsRatio), fixed(r.cpuRatio), r.targetText, r.invalid ? `NOT met (${r.invalid})` : r.met ? 'met' : 'NOT met']);
  }
  return formatTable(rows);
}

/** The first count a build reports is its headline (facilities, carriers, ...); demo inputs report files. */
export function describeOutput(b: BuildFigures): string {
  if ('skipped' in b) return b.skipped;
  const [name, n] = Object.entries(b.counts ?? {})[0] ?? [];
  if (name !== undefined && n !== undefined) return `${int(n)} ${name}`;
  return b.files !== undefined ? `${int(b.files)} files` : '';
}

export function formatBuilds(builds: readonly BuildFigures[]): string {
  const rows: (string | number)[][] = [['build', 'output', 'wall s', 'in-process s', 'peak RSS MB']];
  for (const b of builds) {
    if ('skipped' in b) {
      rows.push([b.label, b.skipped, '-', '-', '-']);
      continue;
    }
    rows.push([b.label, describeOutput(b), fixed(b.wallMs / 1000, 1), fixed(b.jobMs / 1000, 1), fixed(b.peakRssMb, 0)]);
  }
  return formatTable(rows);
}

export function formatServers(sessions: readonly ServerSession[], served: string): string {
  const rows: (string | number)[][] = [['server', 'data', 'start-up ms', 'load ms', 'RSS after load MB', 'peak RSS MB']];
  const groups = new Map<string, ServerSession[]>();
  for (const s of sessions) {
    const key = `${s.service} ${s.kind}`;
    (groups.get(key) ?? groups.set(key, []).get(key)!).push(s);
  }
  for (const [key, g] of groups) {
    rows.push([key, served, int(median(g.map((s) => s.startupMs))), int(median(g.map((s) => s.loadMs))), fixed(median(g.map((s) => s.rssAfterLoadMb)), 0), fixed(median(g.map((s) => s.peakRssMb)), 0)]);
  }
  return formatTable(rows);
}

export const toMb = (bytes: number) => bytes / (1024 * 1024);

export async function writeResults(
  path: string,
  data: { options: BenchOptions; builds: BuildFigures[]; servers: ServerSession[]; scenarios: ScenarioResult[]; startedAt: Date; elapsedMs: number; busyAtStart: number },
): Promise<void> {
  const doc = {
    date: data.startedAt.toISOString(),
    elapsed_s: Math.round(data.elapsedMs / 100) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpus: cpus().length,
    cpu_model: cpus()[0]?.model ?? null,
    /** Share of CPU time busy in the second before the bench started: other work on the machine skews every figure. */
    busy_at_start: data.busyAtStart,
    options: data.options,
    builds: data.builds,
    servers: data.servers,
    scenarios: data.scenarios,
  };
  // Microsecond precision is noise on this VM; three decimals keep the file readable and diffable.
  await writeFile(path, JSON.stringify(doc, (_k, v: unknown) => (typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 1000) / 1000 : v), 2) + '\n');
}
