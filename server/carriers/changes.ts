// The carriers' change record, read as asked rather than held: a build at FMCSA size changes hundreds of
// thousands of carriers, and the history keeps 400 builds. `…/changes` reads the pages that hold the answer
// (a build's notable index says which, for `notable`), a carrier's history is one record of its store, and
// its trend one lookup in each of the last 24 builds' snapshots.
import {
  CHANGES_DIR,
  CHANGES_INDEX,
  type ChangeEntry,
  type ChangesBuild,
  type ChangesIndex,
  changePageName,
  notableIndexName,
  PAGE_CHANGES,
  pagesOf,
  buildName,
} from '../../contract/core/changes.ts';
import {
  CARRIER_HISTORY,
  decodeTrend,
  TREND_BUILDS,
  type TrendPoint,
  type TrendSnapshot,
  trendFile,
} from '../../contract/carriers/trend.ts';
import type { LoadedBuild } from '../core/build.ts';
import { type ChangeHistory, type DatedChange, truncatedHistory } from '../core/changes.ts';
import type { RepeatCache } from '../core/cache.ts';
import { RecordStore } from '../core/record-store.ts';

const PAGES = `private/${CHANGES_DIR}`;
/** Pages kept parsed: a request for a page of results reads one or two. */
const PAGE_CACHE = 8;

/** One point of a profile's `trend`: a build and the carrier's BASICs in it. */
export interface TrendEntry {
  data_version: string;
  built_at: string;
  categories: TrendPoint;
}

export interface CarrierChanges extends ChangeHistory {
  /** The carrier's BASICs at each of the last TREND_BUILDS builds that ranked or alerted it, oldest first. */
  trend(id: number): Promise<TrendEntry[]>;
  close(): void;
}

export function openCarrierChanges(build: LoadedBuild): CarrierChanges {
  const builds: ChangeEntry[] = build.has(CHANGES_INDEX)
    ? [...build.readJson<ChangesIndex>(CHANGES_INDEX).builds].reverse()
    : [];
  const key = (b: Pick<ChangeEntry, 'data_version' | 'built_at'>) => `${b.data_version}\0${b.built_at}`;
  const kept = new Set(builds.map(key));
  const store = build.has(`${CARRIER_HISTORY}.idx`) ? RecordStore.open(build, CARRIER_HISTORY) : undefined;

  const pages = new Map<string, ChangesBuild>();
  const page = (name: string): ChangesBuild => {
    let p = pages.get(name);
    if (p) {
      pages.delete(name);
    } else {
      p = build.readJson<ChangesBuild>(`${PAGES}/${name}`);
      if (pages.size >= PAGE_CACHE) pages.delete(pages.keys().next().value!);
    }
    pages.set(name, p);
    return p;
  };
  const base = buildName;
  const changeAt = (b: ChangeEntry, position: number): DatedChange => {
    const p = page(changePageName(base(b), Math.floor(position / PAGE_CHANGES) + 1));
    const change = p.changes[position % PAGE_CHANGES];
    if (!change) throw new Error(`build ${b.data_version} has no change at ${position}`);
    return { data_version: b.data_version, built_at: b.built_at, ...change };
  };
  const notables = new Map<string, Record<string, number[]>>();
  const notableOf = (b: ChangeEntry): Record<string, number[]> => {
    let index = notables.get(b.href);
    if (!index) {
      const name = `${PAGES}/${notableIndexName(b.href)}`;
      if (build.has(name)) index = build.readJson<Record<string, number[]>>(name);
      else {
        // A build recorded before the notable index: its pages are read once to make it.
        index = {};
        let at = 0;
        for (const n of pagesOf(b))
          for (const c of page(n).changes) {
            for (const word of c.notable) {
              index[word] ??= [];
              index[word].push(at);
            }
            at++;
          }
      }
      notables.set(b.href, index);
    }
    return index;
  };
  const total = (b: ChangeEntry) => b.counts.added + b.counts.removed + b.counts.changed;

  // The snapshots a trend shows (at FMCSA size 24 files of several MB) are read off the event loop from load
  // on, so the first profiles find them read, as later ones do; a trend asked sooner waits for its reads.
  const snapshots = new Map<string, Promise<TrendSnapshot | null>>();
  const shown = builds.slice(-TREND_BUILDS);
  const snapshotOf = (b: ChangeEntry): Promise<TrendSnapshot | null> => {
    let s = snapshots.get(b.href);
    if (!s) {
      const name = trendFile(b.href);
      s = build.has(name) ? build.readBufferAsync(name).then((buf) => decodeTrend(buf, name)) : Promise.resolve(null);
      // A read that failed is tried again by the next trend, rather than remembered.
      s.catch(() => snapshots.delete(b.href));
      snapshots.set(b.href, s);
    }
    return s;
  };
  for (const b of shown) snapshotOf(b).catch(() => undefined);

  return {
    builds,
    truncated: truncatedHistory(builds),
    async list(from, notable, offset, limit) {
      const results: DatedChange[] = [];
      let count = 0;
      let skip = offset;
      for (const b of builds.slice(from)) {
        const positions = notable === undefined ? undefined : (notableOf(b)[notable] ?? []);
        const n = positions ? positions.length : total(b);
        count += n;
        if (skip >= n) {
          skip -= n;
          continue;
        }
        for (let i = skip; i < n && results.length < limit; i++)
          results.push(changeAt(b, positions ? positions[i]! : i));
        skip = 0;
      }
      return { total: count, results };
    },
    async ofEntity(id) {
      const body = store && /^[1-9][0-9]{0,9}$/.test(id) ? await store.read(Number(id)) : undefined;
      if (!body) return undefined;
      const own = (JSON.parse(body.toString('utf8')) as DatedChange[]).filter((c) => kept.has(key(c)));
      return own.length ? own : undefined;
    },
    async trend(id) {
      const loaded = await Promise.all(shown.map(snapshotOf));
      const points: TrendEntry[] = [];
      shown.forEach((b, i) => {
        const categories = loaded[i]?.of(id);
        if (categories) points.push({ data_version: b.data_version, built_at: b.built_at, categories });
      });
      return points;
    },
    close: () => store?.close(),
  };
}

/** The stored profile with its `trend` (the last builds' percentiles and alerts) as its last key. */
export function withTrend(profile: Buffer, trend: readonly TrendEntry[]): Buffer {
  return Buffer.concat([profile.subarray(0, -1), Buffer.from(`,"trend":${JSON.stringify(trend)}}`)]);
}

/**
 * A profile as every route gives it: from the profile cache, or read from its store (without holding up the
 * event loop) with its trend added, and offered to the cache; undefined for a carrier not in the build.
 */
export async function readServedProfile(
  data: { profiles: RecordStore; hot: RepeatCache<Buffer>; changes: CarrierChanges },
  id: number,
): Promise<Buffer | undefined> {
  const cached = data.hot.get(String(id));
  if (cached) return cached;
  const stored = await data.profiles.read(id);
  if (!stored) return undefined;
  const body = withTrend(stored, await data.changes.trend(id));
  data.hot.offer(String(id), body);
  return body;
}
