// npm run snapshot -- [--data DIR] [--concurrency N]
// Pulls every series of the economy build's registry that has no pull yet today (UTC), through the same
// cache, leases and archive as the servers (STATE_DIR, or DATABASE_URL shared with them), so the vintage archive
// has one snapshot per series per night whether or not anyone asked, and no series is pulled twice in a day.
// The nightly job runs it before the economy build, which publishes the archive.
import { join, resolve } from 'node:path';
import { CliError, isMain, parseCli, runCli } from '../../contract/core/cli.ts';
import { settingOrDefault } from '../../contract/core/settings-registry.ts';
import { stateDirOf } from '../../contract/core/state-dir.ts';
import type { RegistryEntry } from '../../contract/economy/types.ts';
import { loadBuild } from '../core/build.ts';
import type { CacheLogLine } from './state-files.ts';
import type { ObservationCache } from './cache.ts';
import { createObservationStores } from './stores.ts';

const USAGE = `Snapshot every economy series today: each series of the build's registry not yet pulled today (UTC) is
pulled from its upstream once, its copy kept and that day's snapshot written to the vintage archive.

Usage: npm run snapshot -- [--data DIR] [--concurrency N]

  --data          the folder holding economy/ (default: DATA_DIR, dist-data); its registry names the series,
                  and a demo build snapshots the demo upstream into the demo archive
  --concurrency   series pulled at once (default 4, 1 to 16)

The state is the server's: DATABASE_URL when set (shared with every server using it), else STATE_DIR/economy.
Upstreams: STATCAN_WDS_URL, BOC_VALET_URL.`;

export interface SnapshotSummary {
  series: number;
  /** Pulled by this run. */
  pulled: number;
  /** Already pulled today (by a server or an earlier run). */
  already: number;
  /** Not pulled: the upstream failed (a stale copy or nothing), with why. */
  failed: { id: string; error: string }[];
}

/** Each entry through `cache.get(…, { pulledToday })`, `concurrency` at a time. */
export async function snapshotAll(
  cache: ObservationCache,
  entries: readonly RegistryEntry[],
  options: { concurrency?: number; onSeries?: (id: string, outcome: string) => void } = {},
): Promise<SnapshotSummary> {
  const summary: SnapshotSummary = { series: entries.length, pulled: 0, already: 0, failed: [] };
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < entries.length; i = next++) {
      const entry = entries[i]!;
      let outcome: string;
      try {
        const got = await cache.get(entry, { pulledToday: true });
        if (got.stale) {
          summary.failed.push({ id: entry.id, error: 'the pull failed; the copy of an earlier day stays' });
          outcome = 'failed (stale copy kept)';
        } else if (got.cached) {
          summary.already++;
          outcome = 'already pulled today';
        } else {
          summary.pulled++;
          outcome = `pulled, ${got.observations.length} observations`;
        }
      } catch (err) {
        summary.failed.push({ id: entry.id, error: (err as Error).message });
        outcome = `failed: ${(err as Error).message}`;
      }
      options.onSeries?.(entry.id, outcome);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
  summary.failed.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return summary;
}

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const { values } = parseCli(argv, { data: { type: 'string' }, concurrency: { type: 'string' } }, USAGE);
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const concurrency = Number(values.concurrency ?? '4');
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 16)
    throw new CliError(`--concurrency must be a whole number from 1 to 16, got ${values.concurrency}`, 2);
  const dataDir = resolve(values.data ?? settingOrDefault(env, 'DATA_DIR'));
  const started = performance.now();
  const elapsed = () => ((performance.now() - started) / 1000).toFixed(1);
  const say = (line: string) => process.stderr.write(`[snapshot] ${elapsed()}s ${line}\n`);
  let entries: RegistryEntry[];
  let demo: boolean;
  try {
    const build = loadBuild(join(dataDir, 'economy'), 'economy');
    entries = build.readJson<RegistryEntry[]>('registry.json');
    demo = build.manifest.demo;
  } catch (err) {
    throw new CliError(`nothing pulled: ${(err as Error).message}`, 1);
  }
  const log = (line: CacheLogLine) => say(`${line.event} ${line.series}: ${line.error}`);
  const storesFor = createObservationStores({ stateDir: stateDirOf(env), env, log });
  try {
    say(`${entries.length} series of the ${demo ? 'demo ' : ''}economy build in ${dataDir}`);
    let done = 0;
    const summary = await snapshotAll(storesFor(demo).cache, entries, {
      concurrency,
      onSeries: (id, outcome) => say(`${++done}/${entries.length} ${id}: ${outcome}`),
    });
    process.stderr.write(
      `snapshot: ${summary.series} series, ${summary.pulled} pulled, ${summary.already} already pulled today, ${summary.failed.length} failed, in ${elapsed()} s\n`,
    );
    if (summary.failed.length)
      throw new CliError(
        `${summary.failed.length} series not pulled: ${summary.failed.map((f) => `${f.id} (${f.error})`).join('; ')}`,
        1,
      );
  } finally {
    await storesFor.end();
  }
}

if (isMain(import.meta.url)) await runCli(() => main(process.argv.slice(2)));
