// The account store's cost: the same profile lookups served by the carriers app with its embedded store
// (SQLite under STATE_DIR) and with PostgreSQL (DATABASE_URL), in the same run, one server at a time and in
// alternating order. A premium key's lookup reads nothing from either store (the key is remembered); a free
// key's lookup counts one unit each time, a write to the store. PostgreSQL is a real server started for the
// bench as the tests start it (test/helpers/postgres.ts), on this machine: its own CPU a request is reported
// beside the app's. Without PostgreSQL installed the rows are skipped, visibly.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Progress } from '../pipeline/core/progress.ts';
import { formatTable } from '../pipeline/core/progress.ts';
import { openPostgresStore } from '../server/core/store-postgres.ts';
import { openSqliteStore, type AccountStore } from '../server/core/store.ts';
import { findPostgresBin, INSTALL_HINT, startPostgres, type PostgresServer } from '../test/helpers/postgres.ts';
import type { LoadOptions, LoadResult } from './autocannon.ts';
import { ROOT, startChild } from './children.ts';
import { getLocal } from './http.ts';
import type { ServerJob } from './protocol.ts';
import { median } from './report.ts';
import { SAMPLE_PATHS, SERVER_START_TIMEOUT_MS, USAGE_TIMEOUT_MS } from './settings.ts';

export type StoreKind = 'embedded' | 'postgres';
export const STORE_LABELS: Record<StoreKind, string> = {
  embedded: 'SQLite (STATE_DIR)',
  postgres: 'PostgreSQL (DATABASE_URL)',
};

/** A free key's allowance for the bench: every lookup is counted, none refused. */
const FREE_LOOKUPS = 2_000_000_000;

export interface StoreRun extends LoadResult {
  round: number;
  /** The app's CPU (user + system) a request. */
  cpuUsPerReq: number;
  /** The PostgreSQL server's processes' CPU a request; undefined for the embedded store. */
  dbCpuUsPerReq?: number;
}

export interface StoreRow {
  service: string;
  lookup: string;
  description: string;
  store: StoreKind;
  runs: StoreRun[];
  rps: number;
  p50Ms: number;
  p99Ms: number;
  cpuUsPerReq: number;
  dbCpuUsPerReq?: number;
  /** Against the embedded store's row of the same lookup, median of the rounds' ratios. */
  ratio?: number;
  cpuRatio?: number;
}

export type StoreComparison = { rows: StoreRow[] } | { skipped: string };

export interface StoreInput {
  service: string;
  /** The folder holding `<service>/`. */
  dataDir: string;
  workDir: string;
  /** Profile paths to ask for, with a description of them. */
  paths: readonly string[];
  pathsDescription: string;
  rounds: number;
  connections: number;
  warmupSec: number;
  durationSec: number;
  load: (options: LoadOptions) => Promise<LoadResult>;
  progress: Progress;
}

/** CPU time (user + system, microseconds) of the PostgreSQL server on `port` and its processes; Linux /proc. */
function postgresCpuUs(port: number): number {
  const ticks = 100; // USER_HZ on Linux
  const procs = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .flatMap((pid) => {
      try {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
        // After the name: state, ppid, …, utime (14th field overall, 12th here), stime.
        return [{ pid: Number(pid), ppid: Number(fields[1]), cpu: Number(fields[11]) + Number(fields[12]), cmdline }];
      } catch {
        return [];
      }
    });
  const postmaster = procs.find(
    (p) => p.cmdline[0]?.endsWith('/bin/postgres') && p.cmdline[p.cmdline.indexOf('-p') + 1] === String(port),
  );
  if (!postmaster) return Number.NaN;
  const cpu = [postmaster, ...procs.filter((p) => p.ppid === postmaster.pid)].reduce((sum, p) => sum + p.cpu, 0);
  return (cpu / ticks) * 1e6;
}

async function makeKeys(store: AccountStore): Promise<{ premium: string; free: string }> {
  try {
    const premium = (await store.createKey('premium', 'bench', new Date())).key;
    const free = (await store.createKey('free', 'bench', new Date())).key;
    return { premium, free };
  } finally {
    await store.close();
  }
}

const ratioOf = (a: number, b: number) => (b > 0 ? a / b : Number.NaN);

/**
 * Rounds of: each store's server started fresh, loaded with a premium key's lookups, then a free key's.
 * Every figure is the median of the rounds; the ratios are medians of each round's ratio.
 */
export async function compareStores(input: StoreInput): Promise<StoreComparison> {
  const bin = findPostgresBin();
  if (!bin) {
    const skipped = `skipped: PostgreSQL not installed (${INSTALL_HINT})`;
    input.progress.info(`store comparison ${skipped}`);
    return { skipped };
  }
  const { progress } = input;
  let pg: PostgresServer | undefined;
  try {
    progress.stage('store comparison: starting PostgreSQL');
    pg = await startPostgres(bin);
    const databaseUrl = await pg.createDatabase('bench');
    const stateDir = join(input.workDir, 'store-state');
    const keys: Record<StoreKind, { premium: string; free: string }> = {
      embedded: await makeKeys(openSqliteStore(stateDir)),
      postgres: await makeKeys(openPostgresStore(databaseUrl, { log: () => undefined })),
    };
    const lookups = [
      {
        lookup: 'carrier/:id, premium key',
        description: `${input.pathsDescription}, a premium key: the key remembered, nothing counted, no store read a request`,
        key: 'premium' as const,
      },
      {
        lookup: 'carrier/:id, free key',
        description: `${input.pathsDescription}, a free key (FREE_PROFILE_LOOKUPS=${FREE_LOOKUPS}): one unit counted in the store a request`,
        key: 'free' as const,
      },
    ];
    const runs = new Map<string, StoreRun[]>();
    const env: Record<StoreKind, Record<string, string>> = {
      embedded: { DATABASE_URL: '', FREE_PROFILE_LOOKUPS: String(FREE_LOOKUPS) },
      postgres: { DATABASE_URL: databaseUrl, FREE_PROFILE_LOOKUPS: String(FREE_LOOKUPS) },
    };
    for (let round = 1; round <= input.rounds; round++) {
      const order: StoreKind[] = round % 2 ? ['embedded', 'postgres'] : ['postgres', 'embedded'];
      for (const store of order) {
        const label = `${input.service} app, ${STORE_LABELS[store]}`;
        progress.stage(`store comparison round ${round}/${input.rounds}: ${label}`);
        const child = startChild(join(ROOT, 'bench', 'server-child.ts'), label);
        try {
          const job: ServerJob = {
            kind: 'app',
            service: input.service,
            dataDir: input.dataDir,
            stateDir,
            log: false,
            env: env[store],
            capture: [],
          };
          child.send({ type: 'serve', job });
          const ready = await child.next('ready', SERVER_START_TIMEOUT_MS);
          for (const l of lookups) {
            const headers = { authorization: `Bearer ${keys[store][l.key]}` };
            for (const path of input.paths.slice(0, SAMPLE_PATHS)) {
              const res = await getLocal(ready.port, path, headers);
              if (res.status !== 200)
                throw new Error(
                  `${label}: GET ${path} answered ${res.status}: ${res.body.toString('utf8').slice(0, 300)}`,
                );
            }
            const load = { port: ready.port, paths: input.paths, headers, connections: input.connections };
            await input.load({ ...load, durationSec: input.warmupSec });
            child.send({ type: 'usage' });
            const before = await child.next('usage', USAGE_TIMEOUT_MS);
            const dbBefore = store === 'postgres' ? postgresCpuUs(pg.port) : Number.NaN;
            const result = await input.load({ ...load, durationSec: input.durationSec });
            child.send({ type: 'usage' });
            const after = await child.next('usage', USAGE_TIMEOUT_MS);
            const dbAfter = store === 'postgres' ? postgresCpuUs(pg.port) : Number.NaN;
            const cpuUsPerReq = result.requests ? (after.cpuUs - before.cpuUs) / result.requests : Number.NaN;
            const run: StoreRun = {
              ...result,
              round,
              cpuUsPerReq,
              ...(store === 'postgres' && result.requests
                ? { dbCpuUsPerReq: (dbAfter - dbBefore) / result.requests }
                : {}),
            };
            const key = `${l.lookup}\0${store}`;
            runs.set(key, [...(runs.get(key) ?? []), run]);
            const failures = result.errors + result.non2xx;
            progress.info(
              `${input.service} ${l.lookup}, ${STORE_LABELS[store]}: ${Math.round(result.rps).toLocaleString('en-CA')} req/s, p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms, ${cpuUsPerReq.toFixed(1)} us CPU/req${run.dbCpuUsPerReq !== undefined ? ` + ${run.dbCpuUsPerReq.toFixed(1)} us in PostgreSQL` : ''}${failures ? `, ${failures} ERRORS/non-2xx` : ''}`,
            );
          }
        } finally {
          await child.stop();
        }
      }
    }
    const rows: StoreRow[] = [];
    for (const l of lookups) {
      const embedded = runs.get(`${l.lookup}\0embedded`) ?? [];
      for (const store of ['embedded', 'postgres'] as const) {
        const mine = runs.get(`${l.lookup}\0${store}`) ?? [];
        const db = mine.flatMap((r) => (r.dbCpuUsPerReq === undefined ? [] : [r.dbCpuUsPerReq]));
        const paired = (f: (r: StoreRun) => number) =>
          median(
            mine.flatMap((r) => {
              const other = embedded.find((e) => e.round === r.round);
              return other ? [ratioOf(f(r), f(other))] : [];
            }),
          );
        rows.push({
          service: input.service,
          lookup: l.lookup,
          description: l.description,
          store,
          runs: mine,
          rps: median(mine.map((r) => r.rps)),
          p50Ms: median(mine.map((r) => r.p50Ms)),
          p99Ms: median(mine.map((r) => r.p99Ms)),
          cpuUsPerReq: median(mine.map((r) => r.cpuUsPerReq)),
          ...(db.length ? { dbCpuUsPerReq: median(db) } : {}),
          ...(store === 'postgres' ? { ratio: paired((r) => r.rps), cpuRatio: paired((r) => r.cpuUsPerReq) } : {}),
        });
      }
    }
    return { rows };
  } finally {
    await pg?.remove();
  }
}

export function formatStores(service: string, comparison: StoreComparison): string {
  if ('skipped' in comparison) return `account store, ${service}: ${comparison.skipped}`;
  const rows: (string | number)[][] = [
    [
      'account store',
      'store',
      'req/s',
      'p50 ms',
      'p99 ms',
      'app CPU us/req',
      'db CPU us/req',
      'req/s vs SQLite',
      'app CPU/req vs SQLite',
    ],
  ];
  for (const r of comparison.rows) {
    rows.push([
      `${r.service} ${r.lookup}`,
      STORE_LABELS[r.store],
      Math.round(r.rps).toLocaleString('en-CA'),
      r.p50Ms.toFixed(2),
      r.p99Ms.toFixed(2),
      r.cpuUsPerReq.toFixed(1),
      r.dbCpuUsPerReq === undefined ? '' : r.dbCpuUsPerReq.toFixed(1),
      r.ratio === undefined ? '' : r.ratio.toFixed(2),
      r.cpuRatio === undefined ? '' : `${r.cpuRatio.toFixed(2)}x`,
    ]);
  }
  return [
    formatTable(rows),
    ...[...new Set(comparison.rows.map((r) => `  ${r.service} ${r.lookup}: ${r.description}`))],
    '  account store: the app (request log off) with each store, one server at a time, rounds alternating which goes first; PostgreSQL',
    '  runs on this machine (the test helper: no fsync), so its CPU (db CPU, its processes) is taken from the same cores; medians of the',
    '  rounds, ratios paired by round.',
  ].join('\n');
}
