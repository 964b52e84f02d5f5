// Economy's mutable state, one interface per kind (copies, leases; vintages.ts has the archive), embedded under
// STATE_DIR here or in PostgreSQL (state-postgres.ts), both held to test/server/store/economy-state.test.ts.
// Embedded leases live in memory: one process per STATE_DIR already pulls each series once at a time.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MissingPoint, Observation } from '../../contract/economy/types.ts';
import {
  assertSeriesId,
  extrasOf,
  isObservationList,
  stderrLog,
  toStoredExtras,
  writeFileAtomic,
  type CacheLogLine,
} from './state-files.ts';

/** One series' copy in the observation cache. `key` ties it to the upstream identifiers it was pulled with. */
export interface ObservationCopy {
  series: string;
  key: string;
  source: string;
  /** ISO 8601 time of the pull. */
  asOf: string;
  observations: Observation[];
  /** The points published without a value; absent when there are none. */
  missing?: MissingPoint[];
  /** The upstream's release time of the whole answer, where it gives one (Valet). */
  released?: string;
}

export interface ObservationCopies {
  /**
   * The copy of `series`; with `after` (an ISO time), only a copy pulled later than it. Undefined when there
   * is none, or when it cannot be used (logged).
   */
  read(series: string, after?: string): Promise<ObservationCopy | undefined>;
  /** Replaces the copy of its series, unless the stored one was pulled later. */
  write(copy: ObservationCopy): Promise<void>;
}

/** How the last pull of a series failed, while no pull has succeeded since. Times are epoch ms of the cache's clock. */
export interface PullFailure {
  /** Failed pulls in a row. */
  failures: number;
  error: string;
  failedAt: number;
  /** No pull starts before this time (the back-off). */
  retryAt: number;
}

export interface LeaseState {
  /** The holder of a lease that has not expired, if any. */
  heldBy?: string;
  failure?: PullFailure;
}

export type LeaseAnswer = { taken: true } | ({ taken: false } & LeaseState);

/** The back-off after a failure: `baseMs`, doubled after each further failure, at most `maxMs`. */
export interface Backoff {
  baseMs: number;
  maxMs: number;
}

export const backoffOf = (b: Backoff, failures: number) => Math.min(b.maxMs, b.baseMs * 2 ** (failures - 1));

/**
 * Single flight for pulls: the holder of a series' lease is the one process that pulls it; it renews the
 * lease while it pulls, so a holder that dies loses it when it expires. Leases expire by the store's own
 * clock (real time); failures are dated by the cache's clock (`now`).
 */
export interface PullLeases {
  /** True when other processes share these leases: a copy may then appear that this process did not write. */
  readonly shared: boolean;
  /**
   * Takes the lease of `series` for `ttlMs` when no other holder has a live one and no failure's back-off
   * runs at `now`; otherwise says who holds it, or how the last pull failed. A holder may take its own lease again.
   */
  take(series: string, holder: string, ttlMs: number, now: number): Promise<LeaseAnswer>;
  /**
   * Extends the lease of `holder` by `ttlMs` from now, even one that ran out while no one took it over (a
   * renewal late by a busy moment); false when another holder has it, or no one.
   */
  renew(series: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Gives the lease back, leaving the failure record as it is. */
  release(series: string, holder: string): Promise<void>;
  /** Gives the lease back after a good pull: the failure record is cleared. */
  succeeded(series: string, holder: string): Promise<void>;
  /**
   * Gives the lease back after a failed pull and records it: one more failure in a row, and the back-off
   * before the next attempt. Returns the record; a holder that lost the lease records nothing and gets
   * undefined.
   */
  failed(series: string, holder: string, error: string, at: number, backoff: Backoff): Promise<PullFailure | undefined>;
  state(series: string): Promise<LeaseState>;
}

function isCopy(doc: unknown, series: string): doc is ObservationCopy {
  if (typeof doc !== 'object' || doc === null) return false;
  const d = doc as Record<string, unknown>;
  return (
    d.series === series &&
    typeof d.key === 'string' &&
    typeof d.source === 'string' &&
    typeof d.asOf === 'string' &&
    Number.isFinite(Date.parse(d.asOf)) &&
    isObservationList(d.observations) &&
    extrasOf(d) !== undefined
  );
}

/**
 * The copies as `<dir>/observations/<ID>.json`, each written to a temporary file and renamed, so a crash
 * never leaves half a file; a damaged file is logged and ignored (the series is pulled again).
 */
export function createFileCopies(dir: string, log: (line: CacheLogLine) => void = stderrLog): ObservationCopies {
  const pathOf = (id: string) => join(dir, 'observations', `${id}.json`);
  const read: ObservationCopies['read'] = async (series, after) => {
    assertSeriesId(series);
    let text: string;
    try {
      text = await readFile(pathOf(series), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
        log({ event: 'cache_file_unreadable', series, error: (err as Error).message });
      return undefined;
    }
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (err) {
      log({ event: 'cache_file_unreadable', series, error: (err as Error).message });
      return undefined;
    }
    if (!isCopy(doc, series)) {
      log({ event: 'cache_file_unreadable', series, error: 'not a cache file of this series; ignored' });
      return undefined;
    }
    return after === undefined || Date.parse(doc.asOf) > Date.parse(after) ? doc : undefined;
  };
  return {
    read,
    async write(copy) {
      assertSeriesId(copy.series);
      const { series, key, source, asOf, observations } = copy;
      // A copy pulled later stays (two processes on one STATE_DIR); a damaged one is replaced.
      if (await read(series, asOf)) return;
      const doc = { series, key, source, asOf, observations, ...toStoredExtras(copy) };
      await writeFileAtomic(pathOf(series), JSON.stringify(doc));
    },
  };
}

interface MemoryLease {
  holder?: string;
  /** Date.now() when the lease ends. */
  expiresAt: number;
  failure?: PullFailure;
}

/** Leases in this process's memory: the embedded default, for the one process that serves a STATE_DIR's cache. */
export function createMemoryLeases(): PullLeases {
  const leases = new Map<string, MemoryLease>();
  const of = (series: string) => {
    let l = leases.get(series);
    if (!l) {
      l = { expiresAt: 0 };
      leases.set(series, l);
    }
    return l;
  };
  const live = (l: MemoryLease) => (l.holder !== undefined && l.expiresAt > Date.now() ? l.holder : undefined);
  const stateOf = (l: MemoryLease): LeaseState => {
    const heldBy = live(l);
    return { ...(heldBy !== undefined && { heldBy }), ...(l.failure && { failure: { ...l.failure } }) };
  };
  return {
    shared: false,
    async take(series, holder, ttlMs, now) {
      const l = of(series);
      const heldBy = live(l);
      if ((heldBy !== undefined && heldBy !== holder) || (l.failure && now < l.failure.retryAt))
        return { taken: false, ...stateOf(l) };
      l.holder = holder;
      l.expiresAt = Date.now() + ttlMs;
      return { taken: true };
    },
    async renew(series, holder, ttlMs) {
      const l = of(series);
      if (l.holder !== holder) return false;
      l.expiresAt = Date.now() + ttlMs;
      return true;
    },
    async release(series, holder) {
      const l = of(series);
      if (l.holder === holder) l.holder = undefined;
    },
    async succeeded(series, holder) {
      const l = of(series);
      if (l.holder === holder) l.holder = undefined;
      l.failure = undefined;
    },
    async failed(series, holder, error, at, backoff) {
      const l = of(series);
      if (l.holder !== holder) return undefined;
      l.holder = undefined;
      const failures = (l.failure?.failures ?? 0) + 1;
      l.failure = { failures, error, failedAt: at, retryAt: at + backoffOf(backoff, failures) };
      return { ...l.failure };
    },
    async state(series) {
      return stateOf(of(series));
    },
  };
}
