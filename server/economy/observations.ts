// The `/api/observations` document, made in one place for the REST route and the MCP tool `get_observations`
// (docs/contracts/economy.md, "REST" and "MCP"): the same checks, the same errors and the same document.
// Parameters are validated by schemas/economy/*-query.schema.json, plus what a JSON Schema cannot say
// (2024-02-30 is no date; `from` after `to`), and every bad parameter is listed in one 400.
import { toCsv } from '../../contract/core/csv.ts';
import { isCalendarDate } from '../../contract/core/dates.ts';
import { FREQUENCY_CODE, OBSERVATIONS_LIMIT } from '../../contract/economy/api.ts';
import { type PlainPoint, toPlainPoints } from '../../contract/economy/points.ts';
import type {
  Frequency,
  MissingPoint,
  Observation,
  ObservationsParameters,
  ObservationsResponse,
  RegistryEntry,
} from '../../contract/economy/types.ts';
import type { ServiceState } from '../core/service.ts';
import { parseQuery, type RawQuery } from '../core/params.ts';
import { HttpError, invalidParameters, notFound, type ParameterError } from '../../contract/core/problem.ts';
import type { CachedObservations } from './cache.ts';
import type { ObservationStores } from './stores.ts';
import {
  type AggregationMethod,
  aggregate,
  canAggregate,
  stepOf,
  type TargetFrequency,
  transform,
  type Units,
} from './transforms.ts';

export interface ObservationRouteDeps<D> {
  /** The registry entry of a series id, or undefined (→ 404). */
  entry(id: string, state: ServiceState<D>): RegistryEntry | undefined;
  /** Every registry entry (for /api/updates). */
  entries(state: ServiceState<D>): Iterable<RegistryEntry>;
  /** The cache and archive to serve from: the demo ones when the loaded build is a demo build. */
  stores(state: ServiceState<D>): ObservationStores;
  /** Today, for the snapshot Cache-Control; the same clock as the cache's. */
  now(): Date;
}

export type ObservationsQuery = ObservationsParameters;

/** What a query asks of the series besides which data: FRED's parameters with their defaults applied. */
export interface ObservationsView {
  units: Units;
  frequency?: TargetFrequency;
  method: AggregationMethod;
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
  format: 'json' | 'csv';
  /** include_missing=true: the points published without a value are answered as `{ date, value: null, status }`. */
  includeMissing: boolean;
  /** The dates selected after the transform, inclusive. */
  from?: string;
  to?: string;
}

export function toView(q: ObservationsQuery): ObservationsView {
  return {
    units: q.units ?? 'lin',
    ...(q.frequency !== undefined && { frequency: q.frequency }),
    method: q.aggregation_method ?? 'avg',
    order: q.sort_order ?? 'asc',
    limit: q.limit ?? OBSERVATIONS_LIMIT,
    offset: q.offset ?? 0,
    format: q.format ?? 'json',
    includeMissing: q.include_missing === 'true',
    ...(q.from !== undefined && { from: q.from }),
    ...(q.to !== undefined && { to: q.to }),
  };
}

/** A view that asks for the observations as stored: the date range alone selects them. */
const isPlain = (v: ObservationsView) =>
  v.units === 'lin' &&
  v.frequency === undefined &&
  v.order === 'asc' &&
  v.offset === 0 &&
  v.limit === OBSERVATIONS_LIMIT &&
  !v.includeMissing;

/**
 * What a document is made from: the whole copy of the series (the cache's, or a snapshot's) and the part
 * `from`/`to` select, as `observations.slice(start, end)`. The copy is never mutated: a pull or a reload
 * replaces it, so its identity names the data.
 */
export interface ObservationsAnswer {
  series: string;
  /** The series' own frequency. */
  frequency: Frequency;
  view: ObservationsView;
  observations: readonly Observation[];
  /** The copy's points published without a value, ascending (the same lifetime as `observations`). */
  missing: readonly MissingPoint[];
  start: number;
  end: number;
  source: string;
  /** True when no upstream pull was made for this answer (always, for a snapshot). */
  cached: boolean;
  asOf: string;
  /** Present only when a pull failed and the cached copy was served instead. */
  stale?: true;
  /** The snapshot's day, for a `vintage=` query. */
  vintage?: string;
}

/**
 * parseQuery, then the checks a JSON Schema cannot make, all reported together: each date in `dates` must
 * name a real day, and the `range` pair must be in order.
 */
export function parseWithDates<T>(
  query: RawQuery,
  schemaId: string,
  dates: readonly string[],
  range?: readonly [string, string] | readonly (readonly [string, string])[],
  more: readonly ParameterError[] = [],
  options: { refuseUnknown?: boolean } = {},
): T {
  let parsed: T | undefined;
  const errors: ParameterError[] = [...more];
  try {
    parsed = parseQuery<T>(query, schemaId, undefined, options);
  } catch (err) {
    if (!(err instanceof HttpError) || err.code !== 'invalid_parameter') throw err;
    errors.push(...(err.errors ?? []));
  }
  const bad = (name: string) => errors.some((e) => e.parameter === name);
  const dateOf = (name: string) => {
    const v = query[name];
    return typeof v === 'string' && !bad(name) ? v : undefined;
  };
  for (const name of dates) {
    const v = dateOf(name);
    if (v !== undefined && !isCalendarDate(v))
      errors.push({ parameter: name, message: `must be a real calendar date (YYYY-MM-DD); ${v} is not` });
  }
  const ranges =
    range === undefined
      ? []
      : typeof range[0] === 'string'
        ? [range as readonly [string, string]]
        : (range as readonly (readonly [string, string])[]);
  for (const [first, last] of ranges) {
    const [a, b] = [dateOf(first), dateOf(last)];
    if (a !== undefined && b !== undefined && isCalendarDate(a) && isCalendarDate(b) && a > b) {
      errors.push({ parameter: first, message: `must not be after ${last} (${b})` });
    }
  }
  if (errors.length || parsed === undefined) {
    throw invalidParameters(
      errors.sort((x, y) => (x.parameter < y.parameter ? -1 : x.parameter > y.parameter ? 1 : 0)),
    );
  }
  return parsed;
}

/** First index whose date is ≥ `date` (observations are ascending). */
function lowerBound(obs: readonly { date: string }[], date: string): number {
  let lo = 0;
  let hi = obs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (obs[mid]!.date < date) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The bounds of the observations from `from` to `to`, both inclusive, as slice() takes them. */
export function toDateRange(obs: readonly { date: string }[], from?: string, to?: string): [number, number] {
  const start = from === undefined ? 0 : lowerBound(obs, from);
  // The first date after `to`: `to` followed by any character sorts after `to` and before the next day.
  const end = to === undefined ? obs.length : lowerBound(obs, `${to}~`);
  return [start, Math.max(start, end)];
}

/** The observations from `from` to `to`, both inclusive. */
export function sliceByDate<T extends { date: string }>(obs: readonly T[], from?: string, to?: string): T[] {
  return obs.slice(...toDateRange(obs, from, to));
}

export function lookupSeries<D>(deps: ObservationRouteDeps<D>, s: ServiceState<D>, id: string): RegistryEntry {
  const entry = deps.entry(id, s);
  if (!entry) throw notFound(`unknown series ${id}; /api/series lists the series`);
  return entry;
}

/** FRED's names of our parameters: either may be given, not both. */
const ALIASES = [
  ['from', 'observation_start'],
  ['to', 'observation_end'],
] as const;
const REALTIME = ['realtime_start', 'realtime_end', 'vintage_dates', 'output_type'] as const;

/**
 * The checked query, FRED's aliases read as our names: each date a real day, ranges in order, and the
 * parameters that exclude each other refused together with every other bad one.
 */
export function parseObservationsQuery(query: RawQuery): ObservationsQuery {
  const errors: ParameterError[] = [];
  const given = (name: string) => query[name] !== undefined;
  for (const [ours, fred] of ALIASES)
    if (given(ours) && given(fred))
      errors.push({ parameter: fred, message: `is FRED's name for ${ours}: give one of them, not both` });
  if (given('vintage_dates'))
    for (const name of ['realtime_start', 'realtime_end'])
      if (given(name)) errors.push({ parameter: name, message: 'must not be given with vintage_dates' });
  if (given('vintage'))
    for (const name of REALTIME)
      if (given(name))
        errors.push({
          parameter: name,
          message:
            "must not be given with vintage (that day's snapshot exactly); realtime_end alone asks for the data as known on a day",
        });
  const aliased = { ...query };
  for (const [ours, fred] of ALIASES)
    if (!given(ours) && given(fred)) {
      aliased[ours] = query[fred];
      delete aliased[fred];
    }
  const vintageDates = typeof query.vintage_dates === 'string' ? query.vintage_dates.split(',') : [];
  let parsed: ObservationsQuery | undefined;
  try {
    parsed = parseWithDates<ObservationsQuery>(
      aliased,
      'economy/observations-query',
      ['from', 'to', 'vintage', 'realtime_start', 'realtime_end'],
      [
        ['from', 'to'],
        ['realtime_start', 'realtime_end'],
      ],
      vintageDates
        .filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d) && !isCalendarDate(d))
        .slice(0, 1)
        .map((d) => ({
          parameter: 'vintage_dates',
          message: `must be real calendar dates (YYYY-MM-DD); ${d} is not`,
        })),
      { refuseUnknown: true },
    );
  } catch (err) {
    if (!(err instanceof HttpError) || err.code !== 'invalid_parameter') throw err;
    // Reported under the name the request used.
    const renamed = (err.errors ?? []).map((e) => {
      const alias = ALIASES.find(([ours]) => ours === e.parameter && !given(ours));
      return alias ? { ...e, parameter: alias[1] } : e;
    });
    errors.push(...renamed.filter((e) => !errors.some((x) => x.parameter === e.parameter)));
  }
  if (errors.length || parsed === undefined)
    throw invalidParameters(
      errors.sort((x, y) => (x.parameter < y.parameter ? -1 : x.parameter > y.parameter ? 1 : 0)),
    );
  return parsed;
}

/** The answer made from what the cache gave for `q`. */
export function toCurrentAnswer(
  entry: RegistryEntry,
  got: CachedObservations,
  q: ObservationsQuery,
): ObservationsAnswer {
  const [start, end] = toDateRange(got.observations, q.from, q.to);
  const { observations, missing, source, cached, asOf } = got;
  const view = toView(q);
  const { frequency } = entry;
  return {
    ...{ series: entry.id, frequency, view, observations, missing, start, end, source, cached, asOf },
    ...(got.stale && { stale: true }),
  };
}

/** The query's series, 404 when unknown; a frequency above the series' own is a 400. */
export function checkedEntry<D>(
  deps: ObservationRouteDeps<D>,
  s: ServiceState<D>,
  q: ObservationsQuery,
): RegistryEntry {
  const entry = lookupSeries(deps, s, q.series);
  if (q.frequency !== undefined && !canAggregate(entry.frequency, q.frequency)) {
    const message = `must not be higher than the series' own frequency (${entry.frequency}); FRED never disaggregates`;
    throw invalidParameters([{ parameter: 'frequency', message }]);
  }
  return entry;
}

/**
 * The answer to a checked observations query: the current copy through the cache, or that day's snapshot
 * (404 when there is none).
 */
export async function findObservations<D>(
  deps: ObservationRouteDeps<D>,
  s: ServiceState<D>,
  q: ObservationsQuery,
): Promise<ObservationsAnswer> {
  const entry = checkedEntry(deps, s, q);
  const stores = deps.stores(s);
  if (q.vintage !== undefined) {
    const snap = await stores.vintages.read(entry.id, q.vintage);
    if (!snap)
      throw notFound(`no snapshot of ${entry.id} on ${q.vintage}; /api/vintages?series=${entry.id} lists them`);
    const [start, end] = toDateRange(snap.observations, q.from, q.to);
    const { observations, source, asOf, vintage } = snap;
    const missing = snap.missing ?? NO_MISSING;
    const { frequency } = entry;
    const view = toView(q);
    const answer = { series: entry.id, frequency, view, observations, missing, start, end, source, asOf, vintage };
    return { ...answer, cached: true };
  }
  return toCurrentAnswer(entry, await stores.cache.get(entry), q);
}

const NO_MISSING: readonly MissingPoint[] = Object.freeze([]);

/** A point of a document: a value, or (include_missing) a point published without one. */
export type AnswerPoint = PlainPoint | { date: string; value: null; status: string } | Observation;

/** `points` and the missing points among them, by date (both ascending). */
export function withMissing(points: readonly AnswerPoint[], missing: readonly MissingPoint[]): AnswerPoint[] {
  if (missing.length === 0) return [...points];
  const out: AnswerPoint[] = [];
  let j = 0;
  for (const p of points) {
    while (j < missing.length && missing[j]!.date < p.date) {
      const m = missing[j++]!;
      out.push({ date: m.date, value: null, status: m.status });
    }
    out.push(p);
  }
  for (; j < missing.length; j++) out.push({ date: missing[j]!.date, value: null, status: missing[j]!.status });
  return out;
}

/**
 * A series' points after the view's aggregation and units (the whole series): aggregated periods say when
 * they miss observations; with include_missing and no aggregation, the points published without a value
 * are among them.
 */
export function toTransformed(
  observations: readonly Observation[],
  missing: readonly MissingPoint[],
  frequency: Frequency,
  v: ObservationsView,
): AnswerPoint[] {
  const own = v.frequency ? aggregate(observations, frequency, v.frequency, v.method, missing) : observations;
  const points =
    v.units === 'lin' && !v.frequency ? toPlainPoints(own) : transform(own, v.units, stepOf(frequency, v.frequency));
  return v.includeMissing && !v.frequency ? withMissing(points, missing) : [...points];
}

/** The observations an answer selects: aggregated, transformed, in range and in order, before paging. */
export function toSelected(a: ObservationsAnswer): AnswerPoint[] {
  const v = a.view;
  let selected: AnswerPoint[];
  if (v.units === 'lin' && v.frequency === undefined) {
    const plain = toPlainPoints(a.observations.slice(a.start, a.end));
    selected = v.includeMissing ? withMissing(plain, sliceByDate(a.missing, v.from, v.to)) : [...plain];
  } else selected = sliceByDate(toTransformed(a.observations, a.missing, a.frequency, v), v.from, v.to);
  return v.order === 'desc' ? selected.reverse() : selected;
}

/** The document of points an answer selected (before paging), with its provenance and what its view applied. */
export function toDocumentOf(
  a: Pick<ObservationsAnswer, 'series' | 'frequency' | 'view' | 'source' | 'cached' | 'asOf' | 'stale'>,
  selected: ObservationsResponse['observations'],
): ObservationsResponse {
  const v = a.view;
  const doc: ObservationsResponse = {
    series: a.series,
    observations: isPlain(v) ? selected : selected.slice(v.offset, v.offset + v.limit),
    source: a.source,
    cached: a.cached,
    asOf: a.asOf,
    units: v.units,
    frequency: v.frequency ?? FREQUENCY_CODE[a.frequency],
    count: selected.length,
    limit: v.limit,
    offset: v.offset,
  };
  if (a.stale) doc.stale = true;
  return doc;
}

/** The contract's document for an answer. */
export function toObservationsDocument(a: ObservationsAnswer): ObservationsResponse {
  return toDocumentOf(a, toSelected(a));
}

/** The answer as RFC 4180 CSV (CRLF line ends): `date,value`, one row an observation. */
export function toObservationsCsv(doc: ObservationsResponse): string {
  return toCsv(
    ['date', 'value'],
    doc.observations.map((o) => [o.date, o.value]),
  );
}
