// The vintage archive (docs/contracts/economy.md, "Cache and vintages"): each successful pull writes that UTC
// day's snapshot under STATE_DIR/economy/vintages/, and revisions compare two of them (no Canadian upstream
// offers this). Listings are answered from memory, each series' folder read once; PostgreSQL: state-postgres.ts.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isValidIsoDate } from '../../contract/core/dates.ts';
import type { MissingPoint, Observation } from '../../contract/economy/types.ts';
import { Lru } from '../core/cache.ts';
import {
  assertSeriesId,
  extrasOf,
  isObservationList,
  stderrLog,
  toStoredExtras,
  writeFileAtomic,
  type CacheLogLine,
} from './state-files.ts';

export interface VintageSnapshot {
  series: string;
  /** YYYY-MM-DD: the UTC day of the pull. */
  vintage: string;
  /** ISO 8601 time of the pull. */
  asOf: string;
  source: string;
  observations: Observation[];
  /** The points published without a value; absent when there are none. */
  missing?: MissingPoint[];
  /** The upstream's release time of the whole answer, where it gives one (Valet). */
  released?: string;
}

export interface Revision {
  date: string;
  before: number;
  after: number;
}

/** `/api/revisions`: how vintage `to` differs from vintage `from`. */
export interface Revisions {
  series: string;
  from: string;
  to: string;
  /** Dates in both vintages whose value changed, ascending. */
  changes: Revision[];
  /** Observations in `to` only (new periods, or values that were missing before), ascending. */
  added: Observation[];
  /** Observations in `from` only (withdrawn or now missing), with their old value, ascending. */
  removed: Observation[];
}

export interface VintageArchive {
  /** Writes the snapshot of the pull at `asOf` and returns its vintage date. */
  write(snapshot: Omit<VintageSnapshot, 'vintage'>): Promise<string>;
  /**
   * Vintage dates of a series, ascending; [] when there are none. The same array until a day is added or
   * dropped, when a new one replaces it: never mutated, so its identity names the list.
   */
  list(series: string): Promise<readonly string[]>;
  /**
   * The list `list` last answered while it still holds, without a read; undefined when there is none, or when
   * another process may have added a day (a shared store, which has no such method).
   */
  peekList?(series: string): readonly string[] | undefined;
  /** With `keep: false`, a snapshot read is not kept in memory (a fold of the whole archive reads each once). */
  read(series: string, vintage: string, options?: { keep?: boolean }): Promise<VintageSnapshot | undefined>;
}

/** The vintage a pull belongs to: the UTC calendar day of its time. */
export function toVintageDate(asOf: string): string {
  const t = Date.parse(asOf);
  if (!Number.isFinite(t)) throw new Error(`${JSON.stringify(asOf)} is not an ISO 8601 time`);
  return new Date(t).toISOString().slice(0, 10);
}

/** Pure: the values that differ between two vintages of one series, matched by date. */
export function toRevisions(from: VintageSnapshot, to: VintageSnapshot): Revisions {
  if (from.series !== to.series) throw new Error(`cannot compare vintages of ${from.series} and ${to.series}`);
  const before = new Map(from.observations.map((o) => [o.date, o.value]));
  const after = new Map(to.observations.map((o) => [o.date, o.value]));
  const changes: Revision[] = [];
  const added: Observation[] = [];
  const removed: Observation[] = [];
  for (const [date, value] of after) {
    const old = before.get(date);
    if (old === undefined) added.push({ date, value });
    else if (old !== value) changes.push({ date, before: old, after: value });
  }
  for (const [date, value] of before) if (!after.has(date)) removed.push({ date, value });
  const byDate = (a: { date: string }, b: { date: string }) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0);
  return {
    series: from.series,
    from: from.vintage,
    to: to.vintage,
    changes: changes.sort(byDate),
    added: added.sort(byDate),
    removed: removed.sort(byDate),
  };
}

const SNAPSHOT_FILE = /^(\d{4}-\d{2}-\d{2})\.json$/;
/** How long a series' listing trusts what it read of its folder: a minute. */
export const RESCAN_MS = 60_000;

/** `dir` is STATE_DIR/economy; snapshots go to `<dir>/vintages/<SERIES>/<YYYY-MM-DD>.json`. */
export function createVintageArchive(
  dir: string,
  options: { cacheSize?: number; log?: (line: CacheLogLine) => void; rescanMs?: number } = {},
): VintageArchive {
  const log = options.log ?? stderrLog;
  const root = join(dir, 'vintages');
  // Kept: listing a day is a Set read, not a readdir per request.
  const index = new Map<string, Promise<Set<string>>>();
  const lists = new Map<string, readonly string[]>();
  // Kept: a daily series' snapshot is ~230 kB of JSON to read and parse; one copy keeps its bodies' key.
  const snapshots = new Lru<VintageSnapshot>(options.cacheSize ?? 200);

  const readDays = (series: string) =>
    readdir(join(root, series)).then(
      (names) => names.flatMap((n) => SNAPSHOT_FILE.exec(n)?.[1] ?? []).filter(isValidIsoDate),
      () => [] as string[],
    );
  // When each series' folder was last read: another process on this STATE_DIR (npm run snapshot, each night)
  // adds days, which a listing looks for again after RESCAN_MS.
  const scannedAt = new Map<string, number>();
  const rescanMs = options.rescanMs ?? RESCAN_MS;
  const datesOf = (series: string): Promise<Set<string>> => {
    let dates = index.get(series);
    if (!dates) {
      dates = readDays(series).then((days) => new Set(days));
      index.set(series, dates);
      scannedAt.set(series, Date.now());
    }
    return dates;
  };
  /** datesOf, with the days another process wrote since the folder was last read. */
  const currentDates = async (series: string): Promise<Set<string>> => {
    const dates = await datesOf(series);
    if (Date.now() - (scannedAt.get(series) ?? 0) < rescanMs) return dates;
    scannedAt.set(series, Date.now());
    let added = false;
    for (const day of await readDays(series))
      if (!dates.has(day)) {
        dates.add(day);
        added = true;
      }
    if (added) lists.delete(series);
    return dates;
  };

  return {
    async write(snapshot) {
      assertSeriesId(snapshot.series);
      const vintage = toVintageDate(snapshot.asOf);
      const doc: VintageSnapshot = {
        series: snapshot.series,
        vintage,
        asOf: snapshot.asOf,
        source: snapshot.source,
        observations: snapshot.observations,
        ...toStoredExtras(snapshot),
      };
      await writeFileAtomic(join(root, snapshot.series, `${vintage}.json`), JSON.stringify(doc));
      (await datesOf(snapshot.series)).add(vintage);
      lists.delete(snapshot.series);
      snapshots.set(`${snapshot.series}/${vintage}`, doc);
      return vintage;
    },
    peekList: (series) => (Date.now() - (scannedAt.get(series) ?? 0) < rescanMs ? lists.get(series) : undefined),
    async list(series) {
      assertSeriesId(series);
      const dates = await currentDates(series);
      let list = lists.get(series);
      if (!list) {
        list = [...dates].sort();
        lists.set(series, list);
      }
      return list;
    },
    async read(series, vintage, readOptions) {
      assertSeriesId(series);
      if (!isValidIsoDate(vintage) || !(await datesOf(series)).has(vintage)) return undefined;
      const key = `${series}/${vintage}`;
      const hit = snapshots.get(key);
      if (hit) return hit;
      let doc: VintageSnapshot;
      try {
        doc = JSON.parse(await readFile(join(root, series, `${vintage}.json`), 'utf8')) as VintageSnapshot;
        if (
          doc?.series !== series ||
          doc.vintage !== vintage ||
          typeof doc.asOf !== 'string' ||
          typeof doc.source !== 'string' ||
          !isObservationList(doc.observations) ||
          !extrasOf(doc)
        ) {
          throw new Error('not a snapshot of this series and day');
        }
      } catch (err) {
        // A read that failed for a reason of the moment (too many open files, an I/O error) says nothing
        // about the file: the request fails (500, logged) and the day stays listed.
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== undefined && code !== 'ENOENT') throw err;
        // Gone or damaged (a full disk, a bad copy of STATE_DIR): no longer listed either, so the list and
        // what `vintage=` serves agree; the file is left for whoever looks into it.
        (await datesOf(series)).delete(vintage);
        lists.delete(series);
        log({ event: 'vintage_unreadable', series, error: `${vintage}: ${(err as Error).message}; no longer listed` });
        return undefined;
      }
      if (readOptions?.keep !== false) snapshots.set(key, doc);
      return doc;
    },
  };
}
