// The observation cache (docs/contracts/economy.md, "Cache and vintages"): each series pulled at most once per
// 24 h across requests, restarts and servers sharing a store (a lease per pull, taken over from a dead holder),
// a failed pull serving the stale copy and backing off (60 s doubling to 1 h, kept with the lease), else 503.
// Fresh copies stay in memory so a hit needs no store; the clock is injected.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { DAY_MS } from '../../contract/core/dates.ts';
import type { MissingPoint, Observation, RegistryEntry, Source } from '../../contract/economy/types.ts';
import { UpstreamError, type SeriesUpstream } from '../../contract/economy/upstream/port.ts';
import { HttpError } from '../../contract/core/problem.ts';
import { StoreUnavailableError } from '../core/postgres.ts';
import { assertSeriesId, stderrLog, type CacheLogLine } from './state-files.ts';
import {
  createFileCopies,
  createMemoryLeases,
  backoffOf,
  type ObservationCopies,
  type ObservationCopy,
  type PullFailure,
  type PullLeases,
} from './state.ts';
import type { VintageArchive } from './vintages.ts';

/** How long a lease lives without being renewed: a server that dies mid-pull loses it within this. */
export const PULL_LEASE_MS = 30_000;

/** What `get` answers: the `/api/observations` document before from/to filtering. */
export interface CachedObservations {
  series: string;
  /**
   * The cache entry's own array, shared by every answer from that entry and never mutated: a pull or a
   * reload replaces it with a new one, so its identity names the entry (response bodies key on it).
   */
  observations: Observation[];
  /** The points published without a value, ascending (the same array for the life of the entry). */
  missing: readonly MissingPoint[];
  /** The upstream's release time of the whole answer, where it gives one (Valet). */
  released?: string;
  source: string;
  /** True when no upstream pull was made for this answer. */
  cached: boolean;
  /** ISO 8601 time of the pull that produced `observations`. */
  asOf: string;
  /** Present (true) only when a pull failed and the cached copy was served instead. */
  stale?: true;
}

export interface ObservationCache {
  /**
   * The series, pulled when the copy is older than 24 h. With `pulledToday`, also when the copy was pulled
   * before today (UTC): the nightly snapshot, so the archive has a day for every series every night while a
   * series is still pulled at most once per day.
   */
  get(entry: RegistryEntry, options?: { pulledToday?: boolean }): Promise<CachedObservations>;
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
  /**
   * STATE_DIR/economy (or a demo-only folder beside it): the embedded copies, `<dir>/observations/<ID>.json`,
   * when `copies` is not given.
   */
  dir?: string;
  /** Where the copies are kept; default the files under `dir`. */
  copies?: ObservationCopies;
  /** Who pulls a series now; default this process's memory. */
  leases?: PullLeases;
  /** How long a lease lives without renewal (default 30 s); renewed every third of it while pulling. */
  leaseMs?: number;
  /** How often a server waiting for another's pull reads the store (default 100 ms). */
  pollMs?: number;
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

interface SeriesState {
  /** The first read of the stored copy; cleared when it failed, so the next request reads again. */
  loaded?: Promise<void>;
  copy?: ObservationCopy;
  /** The refresh in flight: a pull here, or the wait for another server's. */
  inFlight?: Promise<Refreshed>;
  /** The last failed pull of the series, here or on a server sharing the store, while none succeeded since. */
  failure?: PullFailure;
}

/** Whether a copy may answer at `now` (epoch ms) without a pull. */
type Freshness = (copy: ObservationCopy, now: number) => boolean;

interface Refreshed {
  copy: ObservationCopy;
  /** True when a pull made for this refresh (here or by the server whose pull it waited for) produced it. */
  pulled: boolean;
}

/** The upstream identifiers a cached copy was pulled with; a registry change or a demo/real switch invalidates it. */
export function toCacheKey(entry: RegistryEntry, label: string): string {
  return JSON.stringify([label, entry.source, entry.vectorIds, entry.seriesNames, entry.scalarFactorCode]);
}

const SHUTTING_DOWN = 'the server is shutting down';
const NO_MISSING: readonly MissingPoint[] = Object.freeze([]);

export function createObservationCache(options: ObservationCacheOptions): ObservationCache {
  const ttl = options.ttlMs ?? DAY_MS;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const backoff = { baseMs: options.retryBaseMs ?? 60_000, maxMs: options.retryMaxMs ?? 60 * 60_000 };
  const leaseMs = options.leaseMs ?? PULL_LEASE_MS;
  const pollMs = options.pollMs ?? 100;
  const log = options.log ?? stderrLog;
  if (!options.copies && options.dir === undefined) throw new Error('the observation cache needs `copies` or `dir`');
  const copies = options.copies ?? createFileCopies(options.dir!, log);
  const leases = options.leases ?? createMemoryLeases();
  // This process's name on the leases it takes.
  const holder = `${hostname()}/${process.pid}/${randomBytes(4).toString('hex')}`;
  // Kept: the contract's cache (a pull per series per 24 h, one in flight), in memory so a hit reads no store.
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
  const clock = () => options.now().getTime();
  const isFresh: Freshness = (copy, now) => now - Date.parse(copy.asOf) < ttl;
  const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const isFromToday: Freshness = (copy, now) => isFresh(copy, now) && dayOf(Date.parse(copy.asOf)) === dayOf(now);

  /** Stops each pull in flight, and each wait for another server's, with its reason: the shutdown's (close) ends them all. */
  const stoppers = new Set<(err: UpstreamError) => void>();
  let closed = false;

  /** Resolves after `ms`, or rejects at once when the cache closes. */
  const pause = (ms: number) =>
    new Promise<void>((resolve, reject) => {
      const stop = (err: UpstreamError) => {
        clearTimeout(timer);
        stoppers.delete(stop);
        reject(err);
      };
      const timer = setTimeout(() => {
        stoppers.delete(stop);
        resolve();
      }, ms);
      stoppers.add(stop);
    });

  /** The upstream's answer, as a copy; fails on an error, a time-out, an empty answer or a shutdown. */
  const pull = async (entry: RegistryEntry, upstream: SeriesUpstream, key: string): Promise<ObservationCopy> => {
    if (closed) throw new UpstreamError(SHUTTING_DOWN);
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
      const pulled = await Promise.race([upstream.pull(entry, controller.signal), stopped]);
      // Every registry series has data upstream: an answer with none (an upstream in maintenance answering
      // 200 with an empty list) is a failed pull, which must not replace a good copy and today's snapshot.
      if (pulled.observations.length === 0)
        throw new UpstreamError(`${upstream.label} answered no observations for ${entry.id}`);
      const { observations, missing, released } = pulled;
      return {
        ...{ series: entry.id, key, source: upstream.label, asOf: startedAt.toISOString(), observations },
        ...(missing.length > 0 && { missing }),
        ...(released !== undefined && { released }),
      };
    } finally {
      clearTimeout(timer);
      stoppers.delete(stop);
    }
  };

  /**
   * Keeps a good pull: the copy for every server, then that day's snapshot. A store that fails (a full disk,
   * PostgreSQL down) must not throw away the pull: this server serves it from memory and the failure is logged.
   */
  const keep = async (copy: ObservationCopy) => {
    await copies
      .write(copy)
      .catch((err: unknown) =>
        log({ event: 'cache_write_failed', series: copy.series, error: (err as Error).message }),
      );
    if (options.vintages) {
      const { series, asOf, source, observations, missing, released } = copy;
      await options.vintages
        .write({
          ...{ series, asOf, source, observations },
          ...(missing && { missing }),
          ...(released !== undefined && { released }),
        })
        .catch((err: unknown) => log({ event: 'vintage_write_failed', series, error: (err as Error).message }));
    }
  };

  /** Pulls while holding the series' lease, renewing it; records the outcome with the lease. */
  const pullHolding = async (
    entry: RegistryEntry,
    key: string,
    st: SeriesState,
    hadCopy: boolean,
  ): Promise<ObservationCopy> => {
    const heartbeat = setInterval(
      () =>
        void leases.renew(entry.id, holder, leaseMs).then(
          (kept) => {
            if (!kept) log({ event: 'pull_lease_lost', series: entry.id, error: 'another server took the lease over' });
          },
          (err: unknown) => log({ event: 'pull_lease_lost', series: entry.id, error: (err as Error).message }),
        ),
      Math.max(1, Math.floor(leaseMs / 3)),
    );
    try {
      let copy: ObservationCopy;
      try {
        copy = await pull(entry, options.upstreams[entry.source], key);
      } catch (err) {
        const error = (err as Error).message;
        const at = clock();
        // Recorded with the lease, so every server keeps the back-off; this server keeps it whatever the store says.
        const local = { failures: (st.failure?.failures ?? 0) + 1, error, failedAt: at };
        const recorded = await leases.failed(entry.id, holder, error, at, backoff).catch(() => undefined);
        st.failure = recorded ?? { ...local, retryAt: at + backoffOf(backoff, local.failures) };
        log({
          event: 'upstream_pull_failed',
          series: entry.id,
          error,
          failures: st.failure.failures,
          retryInMs: st.failure.retryAt - at,
          servedStale: hadCopy,
        });
        throw err;
      }
      await keep(copy);
      st.failure = undefined;
      // A store that fails here leaves the lease to expire: the copy was kept, so no one pulls again before 24 h.
      await leases.succeeded(entry.id, holder).catch(() => undefined);
      return copy;
    } finally {
      clearInterval(heartbeat);
    }
  };

  /** A newer usable copy of the series from a store other servers write too, kept in `st`; else undefined. */
  const reread = async (
    entry: RegistryEntry,
    key: string,
    st: SeriesState,
    fresh: Freshness,
  ): Promise<ObservationCopy | undefined> => {
    const latest = await copies.read(entry.id, st.copy?.asOf);
    if (latest && latest.key === key) st.copy = latest;
    return st.copy?.key === key && fresh(st.copy, clock()) ? st.copy : undefined;
  };

  /**
   * Makes the series fresh: its pull, under the lease, or (with a shared store) the copy another server
   * pulled, waiting for it while that server holds the lease. Throws an UpstreamError when the pull failed
   * (here or there), a StoreUnavailableError when the store does not answer.
   */
  const refresh = async (
    entry: RegistryEntry,
    key: string,
    st: SeriesState,
    hadCopy: boolean,
    fresh: Freshness,
  ): Promise<Refreshed> => {
    // Another server's pull runs for at most `timeoutMs`; one that died keeps its lease at most `leaseMs`.
    const patience = leaseMs + timeoutMs + 5_000;
    const giveUpAt = Date.now() + patience;
    let waited = false;
    if (leases.shared) {
      const theirs = await reread(entry, key, st, fresh);
      if (theirs) return { copy: theirs, pulled: false };
    }
    for (;;) {
      if (closed) throw new UpstreamError(SHUTTING_DOWN);
      const answer = await leases.take(entry.id, holder, leaseMs, clock());
      if (answer.taken) {
        if (leases.shared) {
          // The copy of a pull that ended between the read above and the take: no second pull.
          const theirs = await reread(entry, key, st, fresh).catch(async (err: unknown) => {
            await leases.release(entry.id, holder).catch(() => undefined);
            throw err;
          });
          if (theirs) {
            await leases.release(entry.id, holder).catch(() => undefined);
            return { copy: theirs, pulled: waited };
          }
        }
        return { copy: await pullHolding(entry, key, st, hadCopy), pulled: true };
      }
      if (answer.failure && clock() < answer.failure.retryAt) {
        // Another server's pull failed: its back-off holds here too.
        st.failure = answer.failure;
        throw new UpstreamError(answer.failure.error);
      }
      // Another server is pulling: its copy, once written, is the answer.
      if (Date.now() > giveUpAt)
        throw new UpstreamError(`the pull of ${entry.id} by another server did not end within ${patience} ms`);
      waited = true;
      await pause(pollMs);
      const theirs = await reread(entry, key, st, fresh);
      if (theirs) return { copy: theirs, pulled: true };
    }
  };

  const unavailable = (entry: RegistryEntry, retryAt: number, now: number, reason: string) => {
    const seconds = Math.max(1, Math.ceil((retryAt - now) / 1000));
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

  const stale = (copy: ObservationCopy): CachedObservations => ({ ...toAnswer(copy, true), stale: true });

  return {
    close() {
      closed = true;
      for (const stop of stoppers) stop(new UpstreamError(SHUTTING_DOWN));
    },
    failedSince(since) {
      const out: { series: string; error: string; at: number }[] = [];
      for (const [series, st] of states)
        if (st.failure && st.failure.failedAt >= since)
          out.push({ series, error: st.failure.error, at: st.failure.failedAt });
      return out.sort((a, b) => (a.series < b.series ? -1 : a.series > b.series ? 1 : 0));
    },
    peek(entry) {
      const copy = states.get(entry.id)?.copy;
      return copy && copy.key === keyOf(entry) && isFresh(copy, clock()) ? toAnswer(copy, true) : undefined;
    },
    async get(entry, getOptions) {
      assertSeriesId(entry.id);
      const fresh = getOptions?.pulledToday ? isFromToday : isFresh;
      const key = keyOf(entry);
      let st = states.get(entry.id);
      if (!st) {
        st = {};
        states.set(entry.id, st);
      }
      const state = st;
      if (!state.loaded) {
        state.loaded = copies.read(entry.id).then(
          (copy) => {
            state.copy ??= copy;
          },
          (err: unknown) => {
            state.loaded = undefined;
            throw err;
          },
        );
      }
      await state.loaded;
      // A copy pulled with other identifiers (registry edit, demo build on a real state folder) is not this series.
      const copy = state.copy?.key === key ? state.copy : undefined;
      const now = clock();
      if (copy && fresh(copy, now)) return toAnswer(copy, true);

      if (!state.inFlight) {
        if (state.failure && now < state.failure.retryAt) {
          if (copy) return stale(copy);
          throw unavailable(entry, state.failure.retryAt, now, `the last attempt failed: ${state.failure.error}`);
        }
        // The outcome is recorded before the flight is cleared, so no request in between can start a
        // second pull or miss the back-off.
        state.inFlight = refresh(entry, key, state, copy !== undefined, fresh)
          .then((got) => {
            state.copy = got.copy;
            state.failure = undefined;
            return got;
          })
          .finally(() => {
            state.inFlight = undefined;
          });
      }
      try {
        const got = await state.inFlight;
        return toAnswer(got.copy, !got.pulled);
      } catch (err) {
        if (copy) return stale(copy);
        if (err instanceof StoreUnavailableError) throw err;
        const at = clock();
        throw unavailable(entry, state.failure?.retryAt ?? at, at, (err as Error).message);
      }
    },
  };
}

function toAnswer(copy: ObservationCopy, cached: boolean): CachedObservations {
  const { series, observations, source, asOf } = copy;
  return {
    ...{ series, observations, missing: copy.missing ?? NO_MISSING, source, cached, asOf },
    ...(copy.released !== undefined && { released: copy.released }),
  };
}
