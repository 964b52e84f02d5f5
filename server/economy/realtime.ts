// ALFRED's real-time periods over the vintage archive (docs/contracts/economy.md, "As of any date"): the
// snapshots of a series folded, day by day, into each date's versions, each with the days it was the published
// value. Pure: the archive's reads are in realtime-archive.ts.
import { DAY_MS } from '../../contract/core/dates.ts';
import type { MissingPoint, Observation } from '../../contract/economy/types.ts';

/** The day ALFRED writes for "still the published value". */
export const OPEN_END = '9999-12-31';

/** One value a date had, and the days it was the published one: `from` ≤ day < `until`. */
export interface Version {
  /** null: published without a value (its `status` says why). */
  value: number | null;
  status?: string;
  released?: string;
  /** The day of the snapshot that first had it. */
  from: string;
  /** The day of the snapshot that changed or dropped it; undefined while it is the value. */
  until?: string;
}

/** A snapshot as the fold reads it: its day, its pull and its points. */
export interface FoldedSnapshot {
  vintage: string;
  asOf: string;
  source: string;
  observations: readonly Observation[];
  missing?: readonly MissingPoint[];
}

/** The archive of one series, folded. Mutable only by `fold`, which the archive calls before any read of it. */
export interface History {
  series: string;
  /** The snapshot days folded, ascending. */
  days: string[];
  /** Each day's pull: its time and source, by the index of `days`. */
  pulls: { asOf: string; source: string }[];
  /** Every date any snapshot had, each with its versions ascending by `from`. */
  versions: Map<string, Version[]>;
  /** The dates of `versions`, ascending; undefined until a read needs them after a fold. */
  sorted?: string[];
}

export function emptyHistory(series: string): History {
  return { series, days: [], pulls: [], versions: new Map() };
}

/**
 * Folds the next snapshot (a day after every day folded) into `h`: a date whose value (or missing status)
 * differs from its open version, or that was not there, starts a version on that day; an open version whose
 * date the snapshot changed or no longer has ends on it. A status that changes alone (p to r) starts none:
 * ALFRED's periods are the values'.
 */
export function fold(h: History, snap: FoldedSnapshot): void {
  const day = snap.vintage;
  const last = h.days.at(-1);
  if (last !== undefined && day <= last) throw new Error(`snapshot ${day} of ${h.series} is not after ${last}`);
  const seen = new Set<string>();
  const put = (date: string, value: number | null, status: string | undefined, released: string | undefined) => {
    seen.add(date);
    let list = h.versions.get(date);
    if (!list) {
      list = [];
      h.versions.set(date, list);
      h.sorted = undefined;
    }
    const open = list.at(-1);
    if (open && open.until === undefined) {
      if (open.value === value) return;
      open.until = day;
    }
    const v: Version = { value, from: day };
    if (status !== undefined) v.status = status;
    if (released !== undefined) v.released = released;
    list.push(v);
  };
  for (const o of snap.observations) put(o.date, o.value, o.status, o.released);
  for (const m of snap.missing ?? []) put(m.date, null, m.status, m.released);
  for (const [date, list] of h.versions) {
    const open = list.at(-1);
    if (open && open.until === undefined && !seen.has(date)) open.until = day;
  }
  h.days.push(day);
  h.pulls.push({ asOf: snap.asOf, source: snap.source });
}

/** The index in `h.days` of the latest snapshot on or before `day`; -1 when the archive starts after it. */
export function snapshotOn(h: History, day: string): number {
  let lo = 0;
  let hi = h.days.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (h.days[mid]! <= day) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

export function datesOf(h: History): string[] {
  if (!h.sorted) h.sorted = [...h.versions.keys()].sort();
  return h.sorted;
}

const previousDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);

/** The last day a version was the value: the day before `until`, or OPEN_END. */
export function lastDayOf(v: Version): string {
  return v.until === undefined ? OPEN_END : previousDay(v.until);
}

/** The version of `list` that was the value on `day`, if any. */
function versionOn(list: readonly Version[], day: string): Version | undefined {
  for (let i = list.length - 1; i >= 0; i--) {
    const v = list[i]!;
    if (v.from <= day) return v.until === undefined || day < v.until ? v : undefined;
  }
  return undefined;
}

/** The series as known on `day`: what the latest snapshot on or before it had. */
export function asKnownOn(h: History, day: string): { observations: Observation[]; missing: MissingPoint[] } {
  const observations: Observation[] = [];
  const missing: MissingPoint[] = [];
  for (const date of datesOf(h)) {
    const v = versionOn(h.versions.get(date)!, day);
    if (!v) continue;
    if (v.value === null) missing.push({ date, status: v.status ?? '..' });
    else
      observations.push(v.status === undefined ? { date, value: v.value } : { date, value: v.value, status: v.status });
  }
  return { observations, missing };
}

/** A point of a real-time answer. */
export interface RealtimePoint {
  date: string;
  value: number | null;
  status?: string;
  released?: string;
  incomplete?: true;
  realtime_start: string;
  realtime_end: string;
}

const later = (a: string, b: string) => (a > b ? a : b);
const earlier = (a: string, b: string) => (a < b ? a : b);

function toPoint(date: string, v: Version, start: string, end: string): RealtimePoint {
  // Keys in the document's order: date, value, status, released, then the period.
  const p = { date, value: v.value } as RealtimePoint;
  if (v.status !== undefined) p.status = v.status;
  if (v.released !== undefined) p.released = v.released;
  p.realtime_start = start;
  p.realtime_end = end;
  return p;
}

/**
 * output_type 1 on the values as published (no transform): each date's versions that were the value at some
 * day from `start` to `end`, their periods clipped to those days; ascending by date, then by period. A
 * version without a value is kept only with `includeMissing`.
 */
export function periodsOf(h: History, start: string, end: string, includeMissing: boolean): RealtimePoint[] {
  const out: RealtimePoint[] = [];
  for (const date of datesOf(h)) {
    for (const v of h.versions.get(date)!) {
      if (v.from > end) break;
      if (v.until !== undefined && v.until <= start) continue;
      if (v.value === null && !includeMissing) continue;
      out.push(toPoint(date, v, later(v.from, start), earlier(lastDayOf(v), end)));
    }
  }
  return out;
}

/**
 * output_type 4: each date's first published value among the dates first published by `end`, with the
 * period it lasted (to `end` at most). A date first published without a value is kept only with
 * `includeMissing`; its first value is not "first published".
 */
export function firstReleases(h: History, end: string, includeMissing: boolean): RealtimePoint[] {
  const out: RealtimePoint[] = [];
  for (const date of datesOf(h)) {
    const v = h.versions.get(date)![0]!;
    if (v.from > end || (v.value === null && !includeMissing)) continue;
    out.push(toPoint(date, v, v.from, earlier(lastDayOf(v), end)));
  }
  return out;
}

/** The days a real-time period needs the series as known on: the one in effect at `start`, then each snapshot to `end`. */
export function vintagesIn(h: History, start: string, end: string): string[] {
  const out = [start];
  for (const d of h.days) if (d > start && d <= end) out.push(d);
  return out;
}

/**
 * Series computed as known on each of `days` (ascending) merged into real-time points: a date's value over
 * consecutive days on which it was the same is one point. With `bounds` 'days' (vintage_dates) a point's
 * period is the first and last of those days; with 'continuous' (a real-time period from days[0] to `end`) it
 * runs to the day before the next day that changed it, or `end`.
 */
export function mergeAcross(
  days: readonly string[],
  seriesOn: (day: string) => readonly (Observation | (MissingPoint & { value: null }))[],
  bounds: 'days' | { end: string },
): RealtimePoint[] {
  const out: RealtimePoint[] = [];
  const open = new Map<string, { point: RealtimePoint; lastDay: string }>();
  /** Ends a date's open point: on the day before `changedOn`, or (undefined) at the end of the days. */
  const close = (date: string, changedOn: string | undefined) => {
    const o = open.get(date)!;
    o.point.realtime_end =
      bounds === 'days' ? o.lastDay : changedOn === undefined ? bounds.end : previousDay(changedOn);
    out.push(o.point);
    open.delete(date);
  };
  for (const day of days) {
    const seen = new Set<string>();
    for (const p of seriesOn(day)) {
      seen.add(p.date);
      const o = open.get(p.date);
      if (o && o.point.value === p.value) {
        o.lastDay = day;
        continue;
      }
      if (o) close(p.date, day);
      const point: RealtimePoint = { date: p.date, value: p.value } as RealtimePoint;
      if (p.status !== undefined) point.status = p.status;
      if ('incomplete' in p && p.incomplete) point.incomplete = true;
      point.realtime_start = day;
      point.realtime_end = day;
      open.set(p.date, { point, lastDay: day });
    }
    for (const date of [...open.keys()]) if (!seen.has(date)) close(date, day);
  }
  for (const date of [...open.keys()]) close(date, undefined);
  return out.sort((a, b) =>
    a.date < b.date ? -1 : a.date > b.date ? 1 : a.realtime_start < b.realtime_start ? -1 : 1,
  );
}
