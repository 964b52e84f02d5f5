// npm run bench's options: what the command line and the environment ask for, checked before any work.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CliError, parseCli } from '../contract/core/cli.ts';
import { runLoad, type LoadOptions, type LoadResult } from './autocannon.ts';
import { ROOT } from './children.ts';
import type { BenchOptions } from './report.ts';
import type { Scenario } from './scenario.ts';
import { BENCH_SERVICES, type BenchService } from './services.ts';
import { runWrk, wrkVersion } from './wrk.ts';
const USAGE = `Benchmark the services against a bare node:http server, side by side in one run.

Usage: npm run bench -- [options]

  --quick         3 s per run (smoke test); same as --duration 3, and carriers at scale 10
                  (30,000 carriers) unless --carriers-scale is given
  --only lookups  only the lookup scenarios (a facility, a carrier profile, a series), without the
                  npm start timings, the cold bursts and the account store comparison
  --only stores   only the account store comparison: carriers profile lookups with the embedded
                  store (SQLite) and with PostgreSQL (DATABASE_URL), started for the bench; skipped,
                  visibly, where PostgreSQL is not installed
  --only long-params
                  only the long-parameter row: each route's normal request against its slowest
                  long value (16 KB, and just under the 4 KiB query limit) of any kind of character
  --only statics  only the static-files row: the files of facilities' tree that no route answers
                  (server/core/statics.ts), against the bare server
  --only changes  carriers only: twelve monthly editions built one over the other (the build with its
                  comparison against the same month built into an empty folder, peak RSS, the bytes the
                  history holds after each month), then the lookups served from the twelve-build tree
                  (profiles with a trend of twelve builds) against the bare server
  --duration S    seconds per measured run (default 10); each run is preceded by a short warm-up
  --rounds N      interleaved rounds per server (default 3); the report shows medians
  --connections N connections of the load client (default 50)
  --client NAME   wrk (the default when it is on the PATH: apt-get install wrk) or autocannon (the
                  default otherwise). Both share the 2 CPUs with the server; wrk, written in C, takes
                  far less of them, so its figures are more the server's own
  --scale N       size of the facilities demo build that is served (default 10)
  --carriers-scale N
                  size of the carriers demo build, 3,000 carriers per unit (default 700: 2.1 M
                  carriers; generating and building them takes over 10 minutes and ~10 GB of disk)
  --serve WHAT    demo (default) or real: which build the HTTP figures use
  --service NAME  ${Object.keys(BENCH_SERVICES).join(' | ')} (default: all)
  --growth F,F    fractions of the demo scale also built first, for the build-time growth curve of the
                  services with a build-time target (default 0.1,0.25,0.5; none under --quick; 'none')
  --seed N        seed for the sampled ids and queries (default 1)
  --out FILE      results file (default bench/results.json)

The app is measured twice a round: with its JSON request log on, as npm start runs it (stdout to a
file), which the targets judge, and with LOG=off. Progress goes to stderr, the tables to stdout.
Everything talks to 127.0.0.1 only.

Examples:
  npm run bench -- --quick
  npm run bench -- --quick --only lookups
  npm run bench -- --quick --service carriers --only stores
  npm run bench -- --quick --only long-params
  npm run bench -- --quick --service facilities --only statics
  npm run bench -- --quick --only changes
  npm run bench -- --only changes                (the 2.1 M-carrier months; over an hour, ~30 GB of disk)
  npm run bench -- --quick --service carriers --carriers-scale 50
  npm run bench -- --service carriers            (the 2.1 M-carrier run; needs a quiet machine)
  npm run bench -- --duration 10 --rounds 5
  npm run bench -- --serve real`;

/** Generous bounds so a stuck child cannot hold the bench forever. */
export const BUILD_TIMEOUT_MS = 30 * 60_000;
/** Includes the bare server's capture of every response it serves (~77,000 lookups and searches for carriers). */
export const SERVER_START_TIMEOUT_MS = 10 * 60_000;
export const USAGE_TIMEOUT_MS = 10_000;
/** Sample paths per scenario checked for 200 and for the same bytes from both servers before loading them. */
export const SAMPLE_PATHS = 3;

export interface Settings extends BenchOptions {
  services: BenchService[];
  /** Keeps the scenarios measured: all, the lookups alone, or none (--only stores). */
  keep: (s: Scenario) => boolean;
  /** Whether the account store comparison runs (services that have one). */
  stores: boolean;
  /** Whether the long-parameter row runs (bench/long-params.ts). */
  longParams: boolean;
  /** Why a service runs at another scale than its default (--quick). */
  scaleNotes: Record<string, string>;
  out: string;
  /** The load client's run: wrk's or autocannon's. */
  load: (options: LoadOptions) => Promise<LoadResult>;
}

/**
 * Fractions of the served demo scale built (inputs and build) before the full one, for the build-time
 * growth curve of the services with a build-time target; none under --quick unless asked for.
 */
function toGrowth(raw: string | undefined, quick: boolean): number[] {
  if (raw === undefined) return quick ? [] : [0.1, 0.25, 0.5];
  if (raw === '' || raw === 'none') return [];
  const fractions = raw.split(',').map(Number);
  if (fractions.some((f) => !(f > 0 && f < 1)))
    throw new CliError(`--growth takes fractions between 0 and 1, comma-separated (0.1,0.25,0.5), or none\n\n${USAGE}`);
  return [...new Set(fractions)].sort((a, b) => a - b);
}

/** The load client asked for, or wrk when it is installed, else autocannon (an npm dev dependency). */
function toClient(raw: string | undefined): { label: string; load: Settings['load'] } {
  if (raw !== undefined && raw !== 'wrk' && raw !== 'autocannon')
    throw new CliError(`--client must be wrk or autocannon\n\n${USAGE}`);
  const autocannon = { label: `autocannon ${autocannonVersion()}`, load: runLoad };
  if (raw === 'autocannon') return autocannon;
  const version = wrkVersion();
  if (version) return { label: `wrk ${version}, 1 thread`, load: runWrk };
  if (raw === 'wrk') throw new CliError('--client wrk: wrk is not on the PATH (apt-get install wrk)', 1);
  return {
    ...autocannon,
    label: `${autocannon.label} (wrk not found; apt-get install wrk for figures less skewed by the client's own CPU use)`,
  };
}

function autocannonVersion(): string {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'node_modules', 'autocannon', 'package.json'), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

export function toSettings(argv: string[]): Settings | undefined {
  const { values } = parseCli(
    argv,
    {
      quick: { type: 'boolean' },
      duration: { type: 'string' },
      rounds: { type: 'string' },
      connections: { type: 'string' },
      scale: { type: 'string' },
      'carriers-scale': { type: 'string' },
      serve: { type: 'string' },
      service: { type: 'string' },
      only: { type: 'string' },
      seed: { type: 'string' },
      out: { type: 'string' },
      growth: { type: 'string' },
      client: { type: 'string' },
    },
    USAGE,
  );
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return undefined;
  }
  const number = (name: string, raw: string | undefined, fallback: number, ok: (n: number) => boolean) => {
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!ok(n)) throw new CliError(`--${name} ${raw} is not valid\n\n${USAGE}`);
    return n;
  };
  const durationSec = number(
    'duration',
    values.duration,
    values.quick ? 3 : 10,
    (n) => Number.isInteger(n) && n >= 1 && n <= 600,
  );
  const serve = values.serve ?? 'demo';
  if (serve !== 'demo' && serve !== 'real') throw new CliError(`--serve must be demo or real\n\n${USAGE}`);
  if (values.service && !BENCH_SERVICES[values.service])
    throw new CliError(`--service must be one of ${Object.keys(BENCH_SERVICES).join(', ')}`);
  const services =
    values.only === 'changes'
      ? [BENCH_SERVICES.carriers!]
      : values.service
        ? [BENCH_SERVICES[values.service]!]
        : Object.values(BENCH_SERVICES);
  const raw: Record<string, string | undefined> = { scale: values.scale, 'carriers-scale': values['carriers-scale'] };
  const scales: Record<string, number> = {};
  const scaleNotes: Record<string, string> = {};
  for (const svc of services) {
    const given = svc.demo.option ? raw[svc.demo.option] : undefined;
    const quick = values.quick && given === undefined && svc.demo.quick !== undefined;
    scales[svc.name] = number(
      svc.demo.option ?? svc.name,
      given,
      quick ? svc.demo.quick! : svc.demo.default,
      (n) => n > 0 && n <= 1000,
    );
    if (quick) scaleNotes[svc.name] = `--quick: x${svc.demo.quick} instead of x${svc.demo.default}`;
  }
  if (values.only !== undefined && !['lookups', 'stores', 'long-params', 'statics', 'changes'].includes(values.only))
    throw new CliError(`--only takes lookups, stores, long-params, statics or changes, not ${values.only}\n\n${USAGE}`);
  if (values.only === 'changes' && values.service !== undefined && values.service !== 'carriers')
    throw new CliError(`--only changes measures carriers: give no --service, or --service carriers\n\n${USAGE}`);
  const only = values.only;
  const client = toClient(values.client);
  const served =
    serve === 'demo'
      ? `demo ${services.map((svc) => `${svc.name} x${scales[svc.name]}${scaleNotes[svc.name] ? ` (${scaleNotes[svc.name]})` : ''}`).join(', ')}`
      : 'real';
  return {
    durationSec,
    warmupSec: durationSec >= 10 ? 2 : 1,
    rounds: number('rounds', values.rounds, 3, (n) => Number.isInteger(n) && n >= 1 && n <= 50),
    connections: number('connections', values.connections, 50, (n) => Number.isInteger(n) && n >= 1 && n <= 1000),
    scales,
    scaleNotes,
    served,
    ...(only ? { only } : {}),
    keep:
      only === 'stores' || only === 'long-params'
        ? () => false
        : only === 'statics'
          ? (s) => s.statics === true
          : only
            ? (s) => s.lookup === true
            : () => true,
    stores: only === undefined || only === 'stores',
    longParams: only === undefined || only === 'long-params',
    seed: number('seed', values.seed, 1, Number.isInteger),
    growth: only && values.growth === undefined ? [] : toGrowth(values.growth, values.quick ?? false),
    client: client.label,
    load: client.load,
    services,
    out: resolve(values.out ?? join(ROOT, 'bench', 'results.json')),
  };
}

export function toBenchOptions(s: Settings): BenchOptions {
  return {
    durationSec: s.durationSec,
    warmupSec: s.warmupSec,
    rounds: s.rounds,
    connections: s.connections,
    client: s.client,
    served: s.served,
    scales: s.scales,
    ...(s.only ? { only: s.only } : {}),
    seed: s.seed,
    growth: s.growth,
  };
}
