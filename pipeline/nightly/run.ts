// The nightly job: for each service, bring its upstream inputs up to date, then run the service's ordinary
// build (validated, published atomically by the sink). A service whose inputs could not all be fetched is
// not built, and a build that fails publishes nothing, so the last good build stays served either way; the
// other services go on. One job at a time (a lock in the download folder).
import { readFile, rm, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createProgress, type Progress } from '../core/progress.ts';
import { acquireLock } from '../core/lock.ts';
import { loadRegistry } from '../economy/registry.ts';
import { PIPELINES } from '../services.ts';
import { toStatcanBaseUrl } from '../../contract/economy/upstream/statcan.ts';
import { toValetBaseUrl } from '../../contract/economy/upstream/valet.ts';
import { flagSetting } from '../../contract/core/settings.ts';
import { checkEconomyRegistry } from './economy-check.ts';
import { type ChildRun, type DeliverRun, runDeliver, runSnapshot } from './children.ts';
import { fetchFiles } from './download.ts';
import type { FetchLike } from './fetch.ts';
import { toUpstreamFiles } from './sources.ts';
import { readSetting } from '../../contract/core/settings-registry.ts';
import { publicUrlSetting } from '../../contract/core/changes.ts';

export interface NightlyConfig {
  services: readonly string[];
  outDir: string;
  /** STATE_DIR: economy's vintage archive, published with its build, is under it. */
  stateDir: string;
  downloadsDir: string;
  /** The facilities comparison year (--year); the build's default when undefined. */
  year?: number;
  /** --accept-shrink, passed to every build (pipeline/core/shrink.ts). */
  acceptShrink?: boolean;
  env: Readonly<Record<string, string | undefined>>;
  timeoutMs: number;
  retries: number;
  retryDelayMs: number;
  fetch?: FetchLike;
  sleep?: (ms: number) => Promise<void>;
  now?: () => Date;
  /** Lines about downloads and outcomes (stderr by default). */
  log?: (line: string) => void;
  /** Progress of each build (stderr by default). */
  buildProgress?: (service: string) => Progress;
  /** The watchlists' webhook deliveries after a carriers publish (default: `npm run deliver` as a child). */
  deliver?: (outDir: string, env: NightlyConfig['env']) => Promise<DeliverRun>;
  /** Economy's snapshot of every series today (default: `npm run snapshot` as a child). */
  snapshot?: (outDir: string, env: NightlyConfig['env']) => Promise<ChildRun>;
}

export interface ServiceOutcome {
  service: string;
  /** Files fetched anew / answered 304 or identical / not fetched; for economy: series confirmed / – / not. */
  downloaded: number;
  unchanged: number;
  failed: number;
  build: 'published' | 'failed' | 'not built';
  /** The version served after the run: the new one, or the one kept (null when there is none). */
  data_version: string | null;
  /** The published version did not change (a failure kept it, or the rebuild gave the same version). */
  same_version: boolean;
  seconds: number;
  errors: string[];
  notes: string[];
}

async function readDataVersion(outDir: string, service: string): Promise<string | null> {
  try {
    const manifest = JSON.parse(await readFile(join(outDir, service, 'manifest.json'), 'utf8')) as {
      data_version?: unknown;
    };
    return typeof manifest.data_version === 'string' ? manifest.data_version : null;
  } catch {
    return null;
  }
}

/** One line per distinct reason: a batch that timed out is one line, not one per series. */
export function toGroupedFailures(failed: readonly { id: string; upstreamId: string; message: string }[]): string[] {
  const byMessage = new Map<string, string[]>();
  for (const f of failed)
    byMessage.set(f.message, [
      ...(byMessage.get(f.message) ?? []),
      f.id === f.upstreamId ? f.id : `${f.id} (${f.upstreamId})`,
    ]);
  return [...byMessage].map(([message, ids]) => {
    const shown = ids.length > 4 ? `${ids.slice(0, 4).join(', ')} and ${ids.length - 4} more` : ids.join(', ');
    return `${shown}: ${message}`;
  });
}

/** Economy's nightly snapshot, its summary in the notes: a series that could not be pulled is a warning. */
async function snapshotEconomy(config: NightlyConfig, out: ServiceOutcome, log: (line: string) => void) {
  const run = await (config.snapshot ?? runSnapshot)(config.outDir, config.env);
  out.notes.push(run.ok ? run.summary : `warning: snapshots incomplete: ${run.summary}`);
  log(`[nightly] economy: ${run.summary}`);
}

async function runService(
  service: string,
  config: NightlyConfig,
  log: (line: string) => void,
): Promise<ServiceOutcome> {
  const started = performance.now();
  const before = await readDataVersion(config.outDir, service);
  const out: ServiceOutcome = {
    service,
    downloaded: 0,
    unchanged: 0,
    failed: 0,
    build: 'not built',
    data_version: before,
    same_version: true,
    seconds: 0,
    errors: [],
    notes: [],
  };
  const pipeline = PIPELINES[service];
  const input = join(config.downloadsDir, service);
  try {
    if (!pipeline) throw new Error(`unknown service ${service}`);
    if (service === 'economy') {
      const now = (config.now ?? (() => new Date()))();
      const { entries } = loadRegistry();
      log(
        `[nightly] economy: checking ${entries.length} series against ${toStatcanBaseUrl(config.env)} and ${toValetBaseUrl(config.env)}`,
      );
      const check = await checkEconomyRegistry(entries, {
        statcanUrl: toStatcanBaseUrl(config.env),
        valetUrl: toValetBaseUrl(config.env),
        timeoutMs: config.timeoutMs,
        retries: config.retries,
        retryDelayMs: config.retryDelayMs,
        today: now.toISOString().slice(0, 10),
        fetch: config.fetch,
        sleep: config.sleep,
      });
      out.downloaded = check.confirmed.length;
      out.failed = new Set(check.failed.map((f) => f.id)).size;
      out.errors.push(...toGroupedFailures(check.failed));
      out.notes.push(...check.notes);
      // Today's snapshot of every series, before the build publishes the archive; the registry is the
      // published build's (a first night snapshots after its build, published the next night).
      if (out.failed === 0 && before !== null) await snapshotEconomy(config, out, log);
    } else {
      const { files, skipped } = toUpstreamFiles(service, config.env);
      for (const env of skipped) out.notes.push(`${env} is empty: not fetched`);
      log(`[nightly] ${service}: fetching ${files.length} file(s) into ${input}`);
      const results = await fetchFiles(input, files, {
        timeoutMs: config.timeoutMs,
        retries: config.retries,
        retryDelayMs: config.retryDelayMs,
        fetch: config.fetch,
        sleep: config.sleep,
        now: config.now,
        onRetry: (n, err, delay) =>
          log(`[nightly] ${service}: retry ${n} of ${config.retries} in ${delay} ms (${err.message})`),
      });
      for (const r of results) {
        out[r.status]++;
        log(
          `[nightly] ${service}: ${r.file.name} ${r.status}${r.status === 'downloaded' ? ` (${r.bytes.toLocaleString('en-US')} bytes)` : ''}`,
        );
        if (r.error) out.errors.push(`${r.file.name} (${r.file.env}): ${r.error}`);
      }
    }
    if (out.failed > 0) {
      log(
        `[nightly] ${service}: not built, ${before === null ? 'and none was published before' : 'the published build stays'}`,
      );
      return out;
    }
    const progress = (config.buildProgress ?? ((s: string) => createProgress(`build ${s}`)))(service);
    try {
      const result = await pipeline.build({
        input: service === 'economy' ? '' : input,
        outDir: config.outDir,
        year: service === 'facilities' ? config.year : undefined,
        demo: false,
        showRestricted: flagSetting(
          'SHOW_RESTRICTED_PERCENTILES',
          readSetting(config.env, 'SHOW_RESTRICTED_PERCENTILES'),
        ),
        stateDir: config.stateDir,
        publicUrl: publicUrlSetting(config.env, service),
        acceptShrink: config.acceptShrink ?? false,
        strict: true,
        progress,
      });
      out.build = 'published';
      out.data_version = result.data_version;
      out.same_version = result.data_version === before;
      for (const w of result.warnings ?? []) out.notes.push(`warning: ${w}`);
      if (service === 'economy' && before === null) await snapshotEconomy(config, out, log);
      if (service === 'carriers') {
        const delivered = await (config.deliver ?? runDeliver)(config.outDir, config.env);
        out.notes.push(delivered.ok ? delivered.summary : `warning: webhook deliveries stopped: ${delivered.summary}`);
        log(`[nightly] carriers: ${delivered.summary}`);
      }
    } catch (err) {
      out.build = 'failed';
      out.errors.push(`build: ${(err as Error).message}`);
    }
  } catch (err) {
    out.errors.push((err as Error).message);
    if (out.failed === 0) out.failed = 1;
  } finally {
    out.seconds = Math.round((performance.now() - started) / 100) / 10;
  }
  return out;
}

/** Runs every service in turn; never throws for one service's failure (see each outcome). */
export async function runNightly(config: NightlyConfig): Promise<ServiceOutcome[]> {
  const log = config.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  await mkdir(config.downloadsDir, { recursive: true });
  const lock = await acquireLock(config.downloadsDir, 'nightly');
  try {
    const outcomes: ServiceOutcome[] = [];
    for (const service of config.services) outcomes.push(await runService(service, config, log));
    return outcomes;
  } finally {
    await rm(lock, { force: true });
  }
}

export const isSuccess = (o: ServiceOutcome) => o.build === 'published';
