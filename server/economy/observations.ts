// The `/api/observations` document, made in one place for the REST route and the MCP tool `get_observations`
// (docs/contracts/economy.md, "REST" and "MCP"): the same checks, the same errors and the same document.
// Parameters are validated by schemas/economy/*-query.schema.json, plus what a JSON Schema cannot say
// (2024-02-30 is no date; `from` after `to`), and every bad parameter is listed in one 400.
import { toCsv } from '../../contract/core/csv.ts';
import { isCalendarDate } from '../../contract/core/dates.ts';
import { FREQUENCY_CODE, OBSERVATIONS_LIMIT } from '../../contract/economy/api.ts';
import type {
  Frequency,
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
  v.limit === OBSERVATIONS_LIMIT;

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
  range?: readonly [string, string],
): T {
  let parsed: T | undefined;
  const errors: ParameterError[] = [];
  try {
    parsed = parseQuery<T>(query, schemaId);
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
  if (range) {
    const [a, b] = [dateOf(range[0]), dateOf(range[1])];
    if (a !== undefined && b !== undefined && isCalendarDate(a) && isCalendarDate(b) && a > b) {
      errors.push({ parameter: range[0], message: `must not be after ${range[1]} (${b})` });
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
function lowerBound(obs: readonly Observation[], date: string): number {
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
export function toDateRange(obs: readonly Observation[], from?: string, to?: string): [number, number] {
  const start = from === undefined ? 0 : lowerBound(obs, from);
  // The first date after `to`: `to` followed by any character sorts after `to` and before the next day.
  const end = to === undefined ? obs.length : lowerBound(obs, `${to}~`);
  return [start, Math.max(start, end)];
}

/** The observations from `from` to `to`, both inclusive. */
export function sliceByDate(obs: readonly Observation[], from?: string, to?: string): Observation[] {
  return obs.slice(...toDateRange(obs, from, to));
}

export function lookupSeries<D>(deps: ObservationRouteDeps<D>, s: ServiceState<D>, id: string): RegistryEntry {
  const entry = deps.entry(id, s);
  if (!entry) throw notFound(`unknown series ${id}; /api/series lists the series`);
  return entry;
}

export function parseObservationsQuery(query: RawQuery): ObservationsQuery {
  return parseWithDates(query, 'economy/observations-query', ['from', 'to', 'vintage'], ['from', 'to']);
}

/** The answer made from what the cache gave for `q`. */
export function toCurrentAnswer(
  entry: RegistryEntry,
  got: CachedObservations,
  q: ObservationsQuery,
): ObservationsAnswer {
  const [start, end] = toDateRange(got.observations, q.from, q.to);
  const { observations, source, cached, asOf } = got;
  const view = toView(q);
  const { frequency } = entry;
  return {
    ...{ series: entry.id, frequency, view, observations, start, end, source, cached, asOf },
    ...(got.stale && { stale: true }),
  };
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
  const entry = lookupSeries(deps, s, q.series);
  if (q.frequency !== undefined && !canAggregate(entry.frequency, q.frequency)) {
    const message = `must not be higher than the series' own frequency (${entry.frequency}); FRED never disaggregates`;
    throw invalidParameters([{ parameter: 'frequency', message }]);
  }
  const stores = deps.stores(s);
  if (q.vintage !== undefined) {
    const snap = await stores.vintages.read(entry.id, q.vintage);
    if (!snap)
      throw notFound(`no snapshot of ${entry.id} on ${q.vintage}; /api/vintages?series=${entry.id} lists them`);
    const [start, end] = toDateRange(snap.observations, q.from, q.to);
    const { observations, source, asOf, vintage } = snap;
    const { frequency } = entry;
    const view = toView(q);
    return { series: entry.id, frequency, view, observations, start, end, source, cached: true, asOf, vintage };
  }
  return toCurrentAnswer(entry, await stores.cache.get(entry), q);
}

/** The observations an answer selects: aggregated, transformed, in range and in order, before paging. */
export function toSelected(a: ObservationsAnswer): Observation[] {
  const v = a.view;
  let selected: Observation[];
  if (v.units === 'lin' && v.frequency === undefined) selected = a.observations.slice(a.start, a.end);
  else {
    const own = v.frequency ? aggregate(a.observations, a.frequency, v.frequency, v.method) : a.observations;
    selected = sliceByDate(transform(own, v.units, stepOf(a.frequency, v.frequency)), v.from, v.to);
  }
  return v.order === 'desc' ? selected.reverse() : selected;
}

/** The contract's document for an answer. */
export function toObservationsDocument(a: ObservationsAnswer): ObservationsResponse {
  const v = a.view;
  const selected = toSelected(a);
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

/** The answer as RFC 4180 CSV (CRLF line ends): `date,value`, one row an observation. */
export function toObservationsCsv(doc: ObservationsResponse): string {
  return toCsv(
    ['date', 'value'],
    doc.observations.map((o) => [o.date, o.value]),
  );
}
