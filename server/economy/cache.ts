// The observation cache under STATE_DIR/economy/ (shared/contracts/economy.md, "Cache and vintages"):
//   - each series is pulled from its upstream at most once per 24 h, across concurrent requests (one pull in
//     flight per series; the others await it) and across restarts (one JSON file per series, written to a
//     temporary file and renamed, so a crash never leaves half a file);
//   - a failed pull (an error, a time-out, an answer with no observations, or a shutdown) serves the
//     cached copy (`cached: true, stale: true`), logs the failure and backs off
//     (60 s, 120 s, … capped at 1 h) before the next attempt;
//   - with nothing cached, a failed pull (or one inside the back-off window) is a 503 `upstream_unavailable`
//     with `Retry-After`.
// The clock is injected (tests pin it); `asOf` is the ISO 8601 time of the pull that produced the data.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DAY_MS } from '../../contract/core/dates.ts';
import type { Observation, RegistryEntry, Source } from '../../contract/economy/types.ts';
import { UpstreamError, type SeriesUpstream } from '../../contract/economy/upstream/port.ts';
import { HttpError } from '../../contract/core/problem.ts';
import { assertSeriesId, isObservationList, stderrLog, writeFileAtomic, type CacheLogLine } from './state-files.ts';
import type { VintageArchive } from './vintages.ts';

/** What `get` answers: the `/api/observations` document before from/to filtering. */
export interface CachedObservations {
  series: string;
  /**
   * The cache entry's own array, shared by every answer from that entry and never mutated: a pull or a
   * reload replaces it with a new one, so its identity names the entry (response bodies key on it).
   */
  observations: Observation[];
  source: string;
  /** True when no upstream pull was made for this answer. */
  cached: boolean;
  /** ISO 8601 time of the pull that produced `observations`. */
  asOf: string;
  /** Present (true) only when a pull failed and the cached copy was served instead. */
  stale?: true;
}

export interface ObservationCache {
  get(entry: RegistryEntry): Promise<CachedObservations>;
  /**
   * What `get` would answer now from memory, with no pull and no file read (`cached: true`), or undefined
   * when `get` has more to do: load, pull, serve stale, or fail.
   */
  peek(entry: RegistryEntry): CachedObservations | undefined;
  /**
   * For a server shutting down (SIGTERM): pulls in flight are abandoned, so the requests waiting on them
   * are answered now (the stale copy, or 503) within the drain window instead of after the pull's time
   * limit; a later `get` that would pull fails the same way.
   */
  close(): void;
  /** The series whose last pull failed at or after `since` (epoch ms), with why: for /healthz. */
  failedSince(since: number): { series: string; error: string; at: number }[];
}

export interface ObservationCacheOptions {
  /** STATE_DIR/economy (or a demo-only folder beside it); the cache writes `<dir>/observations/<ID>.json`. */
  dir: string;
  /** The upstream for each registry `source`. */
  upstreams: Record<Source, SeriesUpstream>;
  now: () => Date;
  /** Each successful pull also writes that day's snapshot here. */
  vintages?: Pick<VintageArchive, 'write'>;
  /** How long a pull stays fresh; 24 h by the contract. */
  ttlMs?: number;
  /** A pull that takes longer is aborted and counts as failed. */
  timeoutMs?: number;
  /** First back-off after a failure; doubled after each further failure, up to `retryMaxMs`. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  log?: (line: CacheLogLine) => void;
}

/** The file the cache keeps per series. `key` ties it to the upstream identifiers it was pulled with. */
interface CacheFile {
  series: string;
  key: string;
  source: string;
  asOf: string;
  observations: Observation[];
}

interface SeriesState {
  loaded?: Promise<CacheFile | undefined>;
  file?: CacheFile;
  inFlight?: Promise<CacheFile>;
  failures: number;
  /** Epoch ms before which no new pull is attempted (back-off). */
  retryAt: number;
  /** Why the last pull failed, kept for the 503s of the back-off window, and when (epoch ms). */
  lastError?: string;
  failedAt?: number;
}

/** The upstream identifiers a cached copy was pulled with; a registry change or a demo/real switch invalidates it. */
export function toCacheKey(entry: RegistryEntry, label: string): string {
  return JSON.stringify([label, entry.source, entry.vectorIds, entry.seriesNames, entry.scalarFactorCode]);
}

function isCacheFile(doc: unknown, series: string): doc is CacheFile {
  if (typeof doc !== 'object' || doc === null) return false;
  const d = doc as Record<string, unknown>;
  return (
    d.series === series &&
    typeof d.key === 'string' &&
    typeof d.source === 'string' &&
    typeof d.asOf === 'string' &&
    Number.isFinite(Date.parse(d.asOf)) &&
    isObservationList(d.observations)
  );
}

export function createObservationCache(options: ObservationCacheOptions): ObservationCache {
  const ttl = options.ttlMs ?? DAY_MS;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const retryBase = options.retryBaseMs ?? 60_000;
  const retryMax = options.retryMaxMs ?? 60 * 60_000;
  const log = options.log ?? stderrLog;
  // Kept: the contract's cache (a pull per series per 24 h, one in flight), in memory so a hit reads no file.
  const states = new Map<string, SeriesState>();
  // Registry entries are fixed for the life of a loaded build: each one's key is made once.
  const keys = new WeakMap<RegistryEntry, string>();
  const keyOf = (entry: RegistryEntry) => {
    let key = keys.get(entry);
    if (key === undefined) {
      key = toCacheKey(entry, options.upstreams[entry.source].label);
      keys.set(entry, key);
    }
    return key;
  };
  const isFresh = (file: CacheFile, now: number) => now - Date.parse(file.asOf) < ttl;

  const pathOf = (id: string) => join(options.dir, 'observations', `${id}.json`);

  const load = async (id: string): Promise<CacheFile | undefined> => {
    let text: string;
    try {
      text = await readFile(pathOf(id), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
        log({ event: 'cache_file_unreadable', series: id, error: (err as Error).message });
      return undefined;
    }
    try {
      const doc: unknown = JSON.parse(text);
      if (isCacheFile(doc, id)) return doc;
      log({ event: 'cache_file_unreadable', series: id, error: 'not a cache file of this series; ignored' });
    } catch (err) {
      log({ event: 'cache_file_unreadable', series: id, error: (err as Error).message });
    }
    return undefined;
  };

  /** Stops each pull in flight with its reason: the shutdown's (close) ends them all. */
  const stoppers = new Set<(err: UpstreamError) => void>();
  let closed = false;

  const pull = async (entry: RegistryEntry, upstream: SeriesUpstream, key: string): Promise<CacheFile> => {
    if (closed) throw new UpstreamError('the server is shutting down');
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    let stop!: (err: UpstreamError) => void;
    // The timer (or a shutdown) both aborts the request and settles the race, so an upstream that ignores
    // its signal still cannot hold the series' single flight forever.
    const stopped = new Promise<never>((_, reject) => {
      stop = (err) => {
        controller.abort(err);
        reject(err);
      };
      timer = setTimeout(
        () => stop(new UpstreamError(`${upstream.label} did not answer within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    stoppers.add(stop);
    const startedAt = options.now();
    try {
      const observations = await Promise.race([upstream.pull(entry, controller.signal), stopped]);
      // Every registry series has data upstream: an answer with none (an upstream in maintenance answering
      // 200 with an empty list) is a failed pull, which must not replace a good copy and today's snapshot.
      if (observations.length === 0)
        throw new UpstreamError(`${upstream.label} answered no observations for ${entry.id}`);
      const file: CacheFile = {
        series: entry.id,
        key,
        source: upstream.label,
        asOf: startedAt.toISOString(),
        observations,
      };
      // A full disk must not throw away a good pull: the copy is kept in memory and the failure logged.
      await writeFileAtomic(pathOf(entry.id), JSON.stringify(file)).catch((err: unknown) =>
        log({ event: 'cache_write_failed', series: entry.id, error: (err as Error).message }),
      );
      if (options.vintages) {
        await options.vintages
          .write({ series: entry.id, asOf: file.asOf, source: file.source, observations })
          .catch((err: unknown) =>
            log({ event: 'vintage_write_failed', series: entry.id, error: (err as Error).message }),
          );
      }
      return file;
    } finally {
      clearTimeout(timer);
      stoppers.delete(stop);
    }
  };

  const unavailable = (entry: RegistryEntry, st: SeriesState, now: number, reason: string) => {
    const seconds = Math.max(1, Math.ceil((st.retryAt - now) / 1000));
    return new HttpError(
      503,
      'upstream_unavailable',
      `${entry.id}: no usable answer from the upstream (${reason}) and no cached copy exists; retry in ${seconds} s`,
      undefined,
      {
        'Retry-After': String(seconds),
      },
    );
  };

  const stale = (file: CacheFile): CachedObservations => ({ ...toAnswer(file, true), stale: true });

  return {
    close() {
      closed = true;
      for (const stop of stoppers) stop(new UpstreamError('the server is shutting down'));
    },
    failedSince(since) {
      const out: { series: string; error: string; at: number }[] = [];
      for (const [series, st] of states)
        if (st.failedAt !== undefined && st.failedAt >= since)
          out.push({ series, error: st.lastError ?? 'no reason recorded', at: st.failedAt });
      return out.sort((a, b) => (a.series < b.series ? -1 : a.series > b.series ? 1 : 0));
    },
    peek(entry) {
      const file = states.get(entry.id)?.file;
      return file && file.key === keyOf(entry) && isFresh(file, options.now().getTime())
        ? toAnswer(file, true)
        : undefined;
    },
    async get(entry) {
      assertSeriesId(entry.id);
      const upstream = options.upstreams[entry.source];
      const key = keyOf(entry);
      let st = states.get(entry.id);
      if (!st) {
        st = { failures: 0, retryAt: 0 };
        states.set(entry.id, st);
      }
      if (!st.loaded) {
        const state = st;
        st.loaded = load(entry.id).then((file) => {
          state.file ??= file;
          return file;
        });
      }
      await st.loaded;
      // A copy pulled with other identifiers (registry edit, demo build on a real state folder) is not this series.
      const file = st.file?.key === key ? st.file : undefined;
      const now = options.now().getTime();
      if (file && isFresh(file, now)) return toAnswer(file, true);

      if (!st.inFlight) {
        if (now < st.retryAt) {
          if (file) return stale(file);
          throw unavailable(entry, st, now, `the last attempt failed: ${st.lastError ?? 'no reason recorded'}`);
        }
        const state = st;
        // The outcome is recorded before the flight is cleared, so no request in between can start a
        // second pull or miss the back-off.
        state.inFlight = pull(entry, upstream, key)
          .then(
            (fresh) => {
              state.file = fresh;
              state.failures = 0;
              state.retryAt = 0;
              state.lastError = undefined;
              state.failedAt = undefined;
              return fresh;
            },
            (err: unknown) => {
              state.failures++;
              const wait = Math.min(retryMax, retryBase * 2 ** (state.failures - 1));
              state.retryAt = options.now().getTime() + wait;
              state.lastError = (err as Error).message;
              state.failedAt = options.now().getTime();
              log({
                event: 'upstream_pull_failed',
                series: entry.id,
                error: (err as Error).message,
                failures: state.failures,
                retryInMs: wait,
                servedStale: file !== undefined,
              });
              throw err;
            },
          )
          .finally(() => {
            state.inFlight = undefined;
          });
      }
      try {
        return toAnswer(await st.inFlight!, false);
      } catch (err) {
        if (file) return stale(file);
        throw unavailable(entry, st, options.now().getTime(), (err as Error).message);
      }
    },
  };
}

function toAnswer(file: CacheFile, cached: boolean): CachedObservations {
  return { series: file.series, observations: file.observations, source: file.source, cached, asOf: file.asOf };
}
