// `/api/observations` with ALFRED's real-time parameters (docs/contracts/economy.md, "As of any date"):
// realtime_start/realtime_end, output_type 1 and 4, vintage_dates, answered from the series' folded archive
// (realtime-archive.ts). A request that names none of them is answered as before (observations.ts).
import { toCsv } from '../../contract/core/csv.ts';
import { HttpError, invalidParameters, notFound } from '../../contract/core/problem.ts';
import type { ObservationsResponse, RegistryEntry } from '../../contract/economy/types.ts';
import type { ServiceState } from '../core/service.ts';
import type { ObservationRouteDeps, ObservationsQuery, ObservationsView } from './observations.ts';
import { sliceByDate, toDocumentOf, toTransformed, toView } from './observations.ts';
import {
  asKnownOn,
  firstReleases,
  type History,
  mergeAcross,
  periodsOf,
  type RealtimePoint,
  snapshotOn,
  vintagesIn,
} from './realtime.ts';

/** What a real-time query asks, its defaults applied. */
export interface RealtimeAsk {
  start: string;
  end: string;
  outputType: 1 | 4;
  /** vintage_dates=, ascending, each once. */
  vintageDates?: string[];
}

/** The real-time part of a checked query; undefined for a plain one (none of the real-time parameters). */
export function toRealtimeAsk(q: ObservationsQuery, today: string): RealtimeAsk | undefined {
  if (
    q.realtime_start === undefined &&
    q.realtime_end === undefined &&
    q.vintage_dates === undefined &&
    q.output_type === undefined
  )
    return undefined;
  const outputType = q.output_type ?? 1;
  if (q.vintage_dates !== undefined) {
    const days = [...new Set(q.vintage_dates.split(','))].sort();
    return { start: days[0]!, end: days.at(-1)!, outputType, vintageDates: days };
  }
  // realtime_end alone is "as known on that day"; neither is today, the latest snapshot.
  const end = q.realtime_end ?? (q.realtime_start !== undefined && q.realtime_start > today ? q.realtime_start : today);
  return { start: q.realtime_start ?? end, end, outputType };
}

/** A real-time answer before paging: the points, and the pull they are as of. */
export interface RealtimeAnswer {
  series: string;
  frequency: RegistryEntry['frequency'];
  view: ObservationsView;
  ask: RealtimeAsk;
  history: History;
  source: string;
  asOf: string;
  cached: boolean;
}

/**
 * The series' history for a real-time query. A query that reaches today asks the cache first, so today's
 * snapshot is in the archive (an upstream that is down is no error here: the archive answers what it has);
 * one that ends before today reads the archive alone, never waiting on an upstream. The days asked must not
 * be before the archive starts.
 */
export async function findRealtime<D>(
  deps: ObservationRouteDeps<D>,
  s: ServiceState<D>,
  entry: RegistryEntry,
  q: ObservationsQuery,
  ask: RealtimeAsk,
): Promise<RealtimeAnswer> {
  const view = toView(q);
  if (ask.outputType === 4 && (view.units !== 'lin' || view.frequency !== undefined)) {
    const message = 'output_type=4 (first releases) takes the values as published: units=lin and no frequency';
    throw invalidParameters([{ parameter: 'output_type', message }]);
  }
  const stores = deps.stores(s);
  let cached = true;
  if (ask.end >= deps.now().toISOString().slice(0, 10)) {
    try {
      cached = (await stores.cache.get(entry)).cached;
    } catch (err) {
      if (!(err instanceof HttpError) || err.status !== 503) throw err;
    }
  }
  const history = await stores.realtime.history(entry.id);
  const first = history.days[0];
  if (first === undefined)
    throw notFound(`the archive has no snapshot of ${entry.id} yet, so it cannot answer it as of a date`);
  if (ask.start < first) {
    const name = ask.vintageDates ? 'vintage_dates' : 'realtime_start';
    throw notFound(
      `the archive of ${entry.id} starts on ${first}: ${name} ${ask.start} is before it; /api/vintages?series=${entry.id} lists the snapshots`,
    );
  }
  const pull = history.pulls[snapshotOn(history, ask.end)]!;
  return {
    ...{ series: entry.id, frequency: entry.frequency, view, ask, history },
    ...{ source: pull.source, asOf: pull.asOf, cached },
  };
}

/** The points a real-time answer selects: computed, in range and in order, before paging. */
export function toRealtimeSelected(a: RealtimeAnswer): RealtimePoint[] {
  const { view: v, ask, history: h } = a;
  const includeMissing = v.includeMissing;
  const seriesOn = (day: string) => {
    const known = asKnownOn(h, day);
    return toTransformed(known.observations, known.missing, a.frequency, v) as RealtimeSeriesPoint[];
  };
  let points: RealtimePoint[];
  if (ask.outputType === 4) points = firstReleases(h, ask.end, includeMissing);
  else if (ask.vintageDates) points = mergeAcross(ask.vintageDates, seriesOn, 'days');
  else if (v.units === 'lin' && v.frequency === undefined) points = periodsOf(h, ask.start, ask.end, includeMissing);
  else points = mergeAcross(vintagesIn(h, ask.start, ask.end), seriesOn, { end: ask.end });
  const selected = sliceByDate(points, v.from, v.to);
  return v.order === 'desc' ? selected.reverse() : selected;
}

type RealtimeSeriesPoint = Parameters<typeof mergeAcross>[1] extends (day: string) => readonly (infer P)[] ? P : never;

/** The document of a real-time answer: the plain one's keys, plus the real-time period answered. */
export function toRealtimeDocument(a: RealtimeAnswer): ObservationsResponse {
  return {
    ...toDocumentOf(a, toRealtimeSelected(a)),
    realtime_start: a.ask.start,
    realtime_end: a.ask.end,
    output_type: a.ask.outputType,
    ...(a.ask.vintageDates && { vintage_dates: a.ask.vintageDates }),
  };
}

/** A real-time answer as CSV: `date,value,realtime_start,realtime_end`, an empty value for a missing point. */
export function toRealtimeCsv(doc: ObservationsResponse): string {
  return toCsv(
    ['date', 'value', 'realtime_start', 'realtime_end'],
    doc.observations.map((o) => [o.date, o.value, o.realtime_start ?? '', o.realtime_end ?? '']),
  );
}
