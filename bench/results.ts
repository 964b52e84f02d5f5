// bench/results.json: every figure of a run, with the machine it ran on, written at the end of the run.
import { writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import type { ColdBurstResult } from './cold-burst.ts';
import type {
  BenchOptions,
  BuildFigures,
  RelativeResult,
  ScenarioResult,
  ServerSession,
  ServerSummary,
  StartupResult,
} from './report.ts';

export async function writeResults(
  path: string,
  data: {
    options: BenchOptions;
    builds: BuildFigures[];
    servers: ServerSession[];
    serverSummaries: ServerSummary[];
    scenarios: ScenarioResult[];
    /** Upstream calls per burst of concurrent cold requests (economy), when measured. */
    coldBursts?: ColdBurstResult[];
    /** Scenarios judged against another of their service. */
    relative?: RelativeResult[];
    /** Lookups with the embedded account store against PostgreSQL (carriers), when measured. */
    /** The account stores compared (bench/stores.ts), written as they are. */
    stores?: { service: string; comparison: object }[];
    /** Each route's normal request against its slowest long parameter (bench/long-params.ts). */
    longParams?: readonly object[];
    /** The change record at scale (bench/changes.ts, --only changes). */
    changes?: readonly object[];
    startups: StartupResult[];
    startedAt: Date;
    elapsedMs: number;
    busyAtStart: number;
    /** Share of all CPU time the hypervisor took during the run (Linux /proc/stat steal); undefined elsewhere. */
    stolen?: number;
  },
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
    /** Share of all CPU time stolen by the hypervisor during the run (null where /proc/stat is not there). */
    steal_share: data.stolen ?? null,
    options: data.options,
    builds: data.builds,
    servers: data.servers,
    server_summaries: data.serverSummaries,
    scenarios: data.scenarios,
    ...(data.coldBursts ? { cold_bursts: data.coldBursts } : {}),
    ...(data.stores?.length ? { account_stores: data.stores } : {}),
    ...(data.longParams?.length ? { long_parameters: data.longParams } : {}),
    ...(data.changes?.length ? { changes: data.changes } : {}),
    startups: data.startups,
  };
  // Microsecond precision is noise on this VM; three decimals keep the file readable and diffable.
  await writeFile(
    path,
    `${JSON.stringify(
      doc,
      (_k, v: unknown) => (typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 1000) / 1000 : v),
      2,
    )}\n`,
  );
}
