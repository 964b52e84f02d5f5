// Several series in one `/api/observations` call (docs/contracts/economy.md, "As of any date": `series=A,B,C`,
// at most 20): each series answered as a one-series query would be, then aligned by date into rows
// `{ date, A, B, C }` with null where a series has none. CSV: one column per series.
import { toCsv } from '../../contract/core/csv.ts';
import { invalidParameters, notFound } from '../../contract/core/problem.ts';
import { FREQUENCY_CODE } from '../../contract/economy/api.ts';
import type { ObservationsOfSeveralSeries } from '../../contract/types/economy/observations-of-several.ts';
import type { ServiceState } from '../core/service.ts';
import { identityOf } from './bodies.ts';
import {
  type AnswerPoint,
  checkedEntry,
  findObservations,
  type ObservationRouteDeps,
  type ObservationsQuery,
  type ObservationsView,
  toSelected,
  toView,
} from './observations.ts';
import { findRealtime, type RealtimeAsk, toRealtimeSelected } from './realtime-answer.ts';

/** The most series one call may name. */
export const MAX_SERIES = 20;

/** The ids of a `series` value naming several, checked; undefined when it names one. */
export function toSeriesIds(series: string): string[] | undefined {
  if (!series.includes(',')) return undefined;
  const ids = series.split(',');
  const problems: string[] = [];
  if (ids.length > MAX_SERIES) problems.push(`names ${ids.length} series; at most ${MAX_SERIES} may be asked at once`);
  if (ids.some((id) => id === '')) problems.push('has an empty id (two commas, or one at an end)');
  const twice = ids.filter((id, i) => id !== '' && ids.indexOf(id) !== i);
  if (twice.length) problems.push(`names ${[...new Set(twice)].join(', ')} more than once`);
  if (problems.length) throw invalidParameters([{ parameter: 'series', message: problems.join('; ') }]);
  return ids;
}

/** One series' part of the answer. */
interface Part {
  id: string;
  points: readonly Pick<AnswerPoint, 'date' | 'value'>[];
  source: ObservationsOfSeveralSeries['sources'][string] & {};
  /** Names the data the points were made from (for the body's key). */
  data: object;
}

export interface SeveralAnswer {
  ids: string[];
  view: ObservationsView;
  ask?: RealtimeAsk;
  parts: Part[];
}

/**
 * Each series of `ids` answered as its own query would be: unknown ids are one 404 naming them all, a bad
 * frequency one 400. With a real-time query, one day only (as known on a day, or first releases).
 */
export async function findSeveral<D>(
  deps: ObservationRouteDeps<D>,
  s: ServiceState<D>,
  q: ObservationsQuery,
  ids: string[],
  ask: RealtimeAsk | undefined,
): Promise<SeveralAnswer> {
  const unknown = ids.filter((id) => !deps.entry(id, s));
  if (unknown.length) throw notFound(`unknown series ${unknown.join(', ')}; /api/series lists the series`);
  if (ask && (ask.vintageDates || (ask.outputType === 1 && ask.start !== ask.end))) {
    const parameter = ask.vintageDates ? 'vintage_dates' : 'realtime_start';
    const message =
      'takes one series: several series are aligned by date, so they are answered as known on one day (realtime_end alone) or as first released (output_type=4)';
    throw invalidParameters([{ parameter, message }]);
  }
  const view = toView(q);
  const asc = { ...view, order: 'asc' as const };
  const parts = await Promise.all(
    ids.map(async (id): Promise<Part> => {
      const one = { ...q, series: id };
      const entry = checkedEntry(deps, s, one);
      const frequency: Part['source']['frequency'] = view.frequency ?? FREQUENCY_CODE[entry.frequency];
      if (ask) {
        const a = await findRealtime(deps, s, entry, one, ask);
        const points = toRealtimeSelected({ ...a, view: asc });
        return { id, points, data: a.history, source: { source: a.source, cached: a.cached, asOf: a.asOf, frequency } };
      }
      const a = await findObservations(deps, s, one);
      const source = {
        source: a.source,
        cached: a.cached,
        asOf: a.asOf,
        ...(a.stale && { stale: a.stale }),
        frequency,
      };
      return { id, points: toSelected({ ...a, view: asc }), data: a.observations, source };
    }),
  );
  return { ids, view, ...(ask && { ask }), parts };
}

/** The key of the body of an answer: each series' data by identity, and the query. */
export function toSeveralKey(a: SeveralAnswer, q: ObservationsQuery): string {
  const { api_key: _k, file_type: _f, ...asked } = q;
  const data = a.parts.map((p) => `${identityOf(p.data)}${p.source.cached ? 'c' : 'p'}${p.source.stale ? 's' : ''}`);
  return `n${data.join('.')}${JSON.stringify([a.ask ?? null, asked])}`;
}

/** The rows: one per date any series has, each series' value or null, in the order asked, paged. */
export function toSeveralDocument(a: SeveralAnswer): ObservationsOfSeveralSeries {
  const rows = new Map<string, Record<string, string | number | null>>();
  for (const part of a.parts) {
    for (const p of part.points) {
      let row = rows.get(p.date);
      if (!row) {
        row = { date: p.date };
        for (const id of a.ids) row[id] = null;
        rows.set(p.date, row);
      }
      row[part.id] = p.value;
    }
  }
  const v = a.view;
  const all = [...rows.values()].sort((x, y) => (x.date! < y.date! ? -1 : x.date! > y.date! ? 1 : 0));
  if (v.order === 'desc') all.reverse();
  return {
    series: a.ids,
    observations: all.slice(v.offset, v.offset + v.limit) as ObservationsOfSeveralSeries['observations'],
    units: v.units,
    ...(v.frequency !== undefined && { frequency: v.frequency }),
    count: all.length,
    limit: v.limit,
    offset: v.offset,
    sources: Object.fromEntries(a.parts.map((p) => [p.id, p.source])),
    ...(a.ask && { realtime_start: a.ask.start, realtime_end: a.ask.end, output_type: a.ask.outputType }),
  };
}

/** The rows as CSV: `date` then one column per series, an empty field where a series has no value. */
export function toSeveralCsv(doc: ObservationsOfSeveralSeries): string {
  return toCsv(
    ['date', ...doc.series],
    doc.observations.map((row) => [
      row.date,
      ...doc.series.map((id) => (row[id] as number | null | undefined) ?? null),
    ]),
  );
}
