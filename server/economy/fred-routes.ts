// The FRED API v1 face of the economy service (docs/contracts/economy.md, "The FRED wire format"): FRED's
// paths under /fred, its parameters and defaults, answered from the same cache, archive and single pull as
// /api/observations (a second face, not a second path to the upstream), in FRED's documents (fred-documents.ts).
import type { ServerResponse } from 'node:http';
import { isCalendarDate } from '../../contract/core/dates.ts';
import { HttpError, invalidParameters } from '../../contract/core/problem.ts';
import type { RegistryEntry, SeriesRecord } from '../../contract/economy/types.ts';
import { PUBLIC_CACHE } from '../../contract/core/layout.ts';
import { queryOf, type RawQuery } from '../core/params.ts';
import { sendPayload, toPayload } from '../core/payload.ts';
import type { RouteRequest, Routes, ServiceState } from '../core/service.ts';
import {
  FRED_CATEGORIES,
  type FredDocument,
  fredErrorMessage,
  type SeriesFacts,
  toFredError,
  toFredJson,
  toFredSeries,
  toFredTime,
  toFredValue,
  toFredXml,
} from './fred-documents.ts';
import { checkedEntry, type ObservationRouteDeps, parseObservationsQuery } from './observations.ts';
import { findRealtime, toRealtimeAsk, toRealtimeSelected } from './realtime-answer.ts';
import { findUpdates } from './updates.ts';

export interface FredDeps<D> extends ObservationRouteDeps<D> {
  /** The registry's series ranked for search words, as /api/series?q= ranks them. */
  search(text: string, s: ServiceState<D>): SeriesRecord[];
}

/** FRED's defaults for a period that is not asked: all of history, and all of real time. */
const EARLIEST = '1776-07-04';
const LATEST = '9999-12-31';
/** The longest search_text: /api/series' q (schemas/economy/series-query). */
const SEARCH_TEXT_MAX = 200;

/** A FRED request's parameters: each once, each one of `allowed` (plus api_key and file_type). */
function fredParams(query: RawQuery, allowed: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const errors = [];
  for (const [name, value] of Object.entries(query)) {
    if (name === 'api_key' || name === 'file_type') continue;
    if (!allowed.includes(name)) errors.push({ parameter: name, message: 'is not one of the allowed variables' });
    else if (Array.isArray(value)) errors.push({ parameter: name, message: 'is given more than once' });
    else if (value !== undefined) out[name] = value;
  }
  // A real-time day is a day on every path, whether the path reads it or only echoes it.
  for (const name of ['realtime_start', 'realtime_end'])
    if (out[name] !== undefined && !isCalendarDate(out[name]!))
      errors.push({ parameter: name, message: 'is not a valid date (YYYY-MM-DD)' });
  if (errors.length) throw invalidParameters(errors);
  return out;
}

/** A whole number from `min` to `max`, or `fallback` when absent; else a 400 naming the variable. */
function wholeNumber(p: Record<string, string>, name: string, min: number, max: number, fallback: number): number {
  const raw = p[name];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!/^[0-9]+$/.test(raw) || n < min || n > max)
    throw invalidParameters([{ parameter: name, message: `must be a whole number from ${min} to ${max}` }]);
  return n;
}

const one = <T extends string>(p: Record<string, string>, name: string, values: readonly T[], fallback: T): T => {
  const v = p[name] ?? fallback;
  if (!values.includes(v as T))
    throw invalidParameters([{ parameter: name, message: `is not one of the following values: ${values.join(', ')}` }]);
  return v as T;
};

export function fredRoutes<D>(r: Routes<D>, deps: FredDeps<D>): void {
  const today = () => deps.now().toISOString().slice(0, 10);

  const entryOf = (s: ServiceState<D>, p: Record<string, string>): RegistryEntry => {
    if (p.series_id === undefined) throw invalidParameters([{ parameter: 'series_id', message: 'is not set' }]);
    const entry = deps.entry(p.series_id, s);
    if (!entry) throw new HttpError(400, 'invalid_parameter', `The series ${p.series_id} does not exist.`);
    return entry;
  };

  /** What a list record says of a series' data: the cache's copy in memory, else its latest snapshot. */
  const factsOf = async (s: ServiceState<D>, entry: RegistryEntry): Promise<SeriesFacts | undefined> => {
    const stores = deps.stores(s);
    const copy = stores.cache.peek(entry);
    const obs = copy?.observations;
    if (copy && obs?.length) return { first: obs[0]!.date, last: obs.at(-1)!.date, updatedAt: copy.asOf };
    const day = (await stores.vintages.list(entry.id)).at(-1);
    const snap = day === undefined ? undefined : await stores.vintages.read(entry.id, day);
    const points = snap?.observations;
    return snap && points?.length
      ? { first: points[0]!.date, last: points.at(-1)!.date, updatedAt: snap.asOf }
      : undefined;
  };

  const seriesRows = async (s: ServiceState<D>, entries: readonly RegistryEntry[]) => {
    const realtime = { start: today(), end: today() };
    return Promise.all(entries.map(async (e) => toFredSeries(e, await factsOf(s, e), realtime)));
  };

  /** Mounts a FRED path: its document as XML, or JSON with file_type=json; any error as FRED's error document. */
  const fred = (path: string, make: (q: RawQuery, s: ServiceState<D>) => Promise<FredDocument>) => {
    r.get(path, async (req: RouteRequest, res: ServerResponse, s) => {
      const query = queryOf(req);
      const json = query.file_type === 'json';
      try {
        if (query.file_type !== undefined && !json && query.file_type !== 'xml')
          throw invalidParameters([
            { parameter: 'file_type', message: 'is not one of the following values: xml, json' },
          ]);
        const doc = await make(query, s);
        const payload = json
          ? toPayload(toFredJson(doc), 'application/json; charset=utf-8')
          : toPayload(toFredXml(doc), 'text/xml; charset=utf-8');
        sendPayload(req, res, payload, { cacheControl: PUBLIC_CACHE });
      } catch (err) {
        if (!(err instanceof HttpError)) throw err;
        const detail = err.errors?.length
          ? err.errors.map((e) => `Variable ${e.parameter} ${e.message}.`).join('  ')
          : err.detail;
        const body = toFredError(err.status, fredErrorMessage(err.status, detail), json);
        res.statusCode = err.status;
        for (const [k, v] of Object.entries(err.headers)) res.setHeader(k, v);
        res.setHeader('Content-Type', json ? 'application/json; charset=utf-8' : 'text/xml; charset=utf-8');
        res.setHeader('Cache-Control', 'no-store');
        res.end(body);
      }
    });
  };

  fred('/fred/series', async (query, s) => {
    const p = fredParams(query, ['series_id', 'realtime_start', 'realtime_end']);
    const entry = entryOf(s, p);
    const got = await deps.stores(s).cache.get(entry);
    const obs = got.observations;
    const facts = obs.length ? { first: obs[0]!.date, last: obs.at(-1)!.date, updatedAt: got.asOf } : undefined;
    const realtime = { start: p.realtime_start ?? today(), end: p.realtime_end ?? today() };
    const envelope = { realtime_start: realtime.start, realtime_end: realtime.end };
    return { root: 'seriess', row: 'series', envelope, rows: [toFredSeries(entry, facts, realtime)] };
  });

  fred('/fred/series/observations', async (query, s) => {
    const p = fredParams(query, [
      ...['series_id', 'realtime_start', 'realtime_end', 'limit', 'offset', 'sort_order', 'observation_start'],
      ...['observation_end', 'units', 'frequency', 'aggregation_method', 'output_type', 'vintage_dates'],
    ]);
    entryOf(s, p);
    // FRED's rule: a real-time day not given is today (realtime_end alone in the past is a start after its end).
    const realtime =
      p.vintage_dates === undefined
        ? { realtime_start: p.realtime_start ?? today(), realtime_end: p.realtime_end ?? today() }
        : {};
    const { series_id, ...rest } = p;
    const q = parseObservationsQuery({ series: series_id!, ...rest, ...realtime, include_missing: 'true' });
    const ask = toRealtimeAsk(q, today())!;
    const a = await findRealtime(deps, s, checkedEntry(deps, s, q), q, ask);
    const selected = toRealtimeSelected(a);
    const { offset, limit, order } = a.view;
    const envelope = {
      realtime_start: ask.start,
      realtime_end: ask.end,
      observation_start: p.observation_start ?? EARLIEST,
      observation_end: p.observation_end ?? LATEST,
      units: a.view.units,
      output_type: ask.outputType,
      file_type: query.file_type === 'json' ? 'json' : 'xml',
      order_by: 'observation_date',
      sort_order: order,
      count: selected.length,
      offset,
      limit,
    };
    const rows = selected.slice(offset, offset + limit).map((o) => ({
      realtime_start: o.realtime_start,
      realtime_end: o.realtime_end,
      date: o.date,
      value: toFredValue(o.value),
    }));
    return { root: 'observations', row: 'observation', envelope, rows };
  });

  fred('/fred/series/search', async (query, s) => {
    const p = fredParams(query, ['search_text', 'limit', 'offset', 'order_by', 'sort_order']);
    if (p.search_text === undefined) throw invalidParameters([{ parameter: 'search_text', message: 'is not set' }]);
    // As long as /api/series?q= takes: ranking thousands of words is no search anyone means.
    if ([...p.search_text].length > SEARCH_TEXT_MAX)
      throw invalidParameters([{ parameter: 'search_text', message: `is longer than ${SEARCH_TEXT_MAX} characters` }]);
    const orderBy = one(p, 'order_by', ['search_rank', 'series_id', 'title'] as const, 'search_rank');
    const order = one(p, 'sort_order', ['asc', 'desc'] as const, orderBy === 'search_rank' ? 'desc' : 'asc');
    const limit = wholeNumber(p, 'limit', 1, 1000, 1000);
    const offset = wholeNumber(p, 'offset', 0, Number.MAX_SAFE_INTEGER, 0);
    let found = deps.search(p.search_text, s).map((rec) => deps.entry(rec.id, s)!);
    // Ranked best first: search_rank desc is the ranking as it is.
    if (orderBy === 'search_rank') found = order === 'desc' ? found : found.reverse();
    else {
      const key = orderBy === 'series_id' ? (e: RegistryEntry) => e.id : (e: RegistryEntry) => e.title;
      found.sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0));
      if (order === 'desc') found.reverse();
    }
    const envelope = { realtime_start: today(), realtime_end: today(), order_by: orderBy, sort_order: order };
    const page = { count: found.length, offset, limit };
    const rows = await seriesRows(s, found.slice(offset, offset + limit));
    return { root: 'seriess', row: 'series', envelope: { ...envelope, ...page }, rows };
  });

  fred('/fred/series/vintagedates', async (query, s) => {
    const p = fredParams(query, ['series_id', 'realtime_start', 'realtime_end', 'limit', 'offset', 'sort_order']);
    const entry = entryOf(s, p);
    const start = p.realtime_start ?? EARLIEST;
    const end = p.realtime_end ?? LATEST;
    for (const [name, day] of [
      ['realtime_start', start],
      ['realtime_end', end],
    ] as const)
      if (!isCalendarDate(day))
        throw invalidParameters([{ parameter: name, message: 'is not a valid date (YYYY-MM-DD)' }]);
    const order = one(p, 'sort_order', ['asc', 'desc'] as const, 'asc');
    const limit = wholeNumber(p, 'limit', 1, 10000, 10000);
    const offset = wholeNumber(p, 'offset', 0, Number.MAX_SAFE_INTEGER, 0);
    const days = (await deps.stores(s).vintages.list(entry.id)).filter((d) => d >= start && d <= end);
    if (order === 'desc') days.reverse();
    const envelope = { realtime_start: start, realtime_end: end, order_by: 'vintage_date', sort_order: order };
    const page = { count: days.length, offset, limit };
    return {
      root: 'vintage_dates',
      row: 'vintage_date',
      envelope: { ...envelope, ...page },
      rows: days.slice(offset, offset + limit),
    };
  });

  fred('/fred/series/updates', async (query, s) => {
    const p = fredParams(query, [
      'realtime_start',
      'realtime_end',
      'limit',
      'offset',
      'start_time',
      'end_time',
      'filter_value',
    ]);
    const limit = wholeNumber(p, 'limit', 1, 1000, 1000);
    const offset = wholeNumber(p, 'offset', 0, Number.MAX_SAFE_INTEGER, 0);
    // FRED's times are YYYYMMDDHhmm; without one, the last two weeks, as FRED lists them.
    const since = p.start_time === undefined ? deps.now().getTime() - 14 * 86_400_000 : fredTime(p, 'start_time');
    const until = p.end_time === undefined ? Number.POSITIVE_INFINITY : fredTime(p, 'end_time');
    const entries = [...deps.entries(s)];
    const updates = (await findUpdates(deps.stores(s).vintages, entries, since)).filter(
      (u) => Date.parse(u.updated_at) <= until,
    );
    const byId = new Map(entries.map((e) => [e.id, e]));
    const page = updates.slice(offset, offset + limit);
    const rows = await seriesRows(
      s,
      page.map((u) => byId.get(u.id)!),
    );
    // last_updated is the time of the change that listed the series.
    page.forEach((u, i) => {
      rows[i]!.last_updated = toFredTime(u.updated_at);
    });
    const envelope = {
      ...{ realtime_start: today(), realtime_end: today(), filter_variable: 'geography', filter_value: 'all' },
      ...{ order_by: 'last_updated', sort_order: 'desc', count: updates.length, offset, limit },
    };
    return { root: 'seriess', row: 'series', envelope, rows };
  });

  fred('/fred/category/children', async (query) => {
    const p = fredParams(query, ['category_id', 'realtime_start', 'realtime_end']);
    const id = wholeNumber(p, 'category_id', 0, Number.MAX_SAFE_INTEGER, 0);
    if (id > FRED_CATEGORIES.length) throw new HttpError(400, 'invalid_parameter', 'The category does not exist.');
    const rows = id === 0 ? FRED_CATEGORIES.map((c) => ({ id: c.id, name: c.name, parent_id: 0 })) : [];
    return { root: 'categories', row: 'category', envelope: {}, rows };
  });

  fred('/fred/category/series', async (query, s) => {
    const p = fredParams(query, [
      'category_id',
      'realtime_start',
      'realtime_end',
      'limit',
      'offset',
      'order_by',
      'sort_order',
    ]);
    const id = wholeNumber(p, 'category_id', 0, Number.MAX_SAFE_INTEGER, 0);
    const category = FRED_CATEGORIES.find((c) => c.id === id);
    if (!category) throw new HttpError(400, 'invalid_parameter', 'The category does not exist.');
    const orderBy = one(p, 'order_by', ['series_id', 'title'] as const, 'series_id');
    const order = one(p, 'sort_order', ['asc', 'desc'] as const, 'asc');
    const limit = wholeNumber(p, 'limit', 1, 1000, 1000);
    const offset = wholeNumber(p, 'offset', 0, Number.MAX_SAFE_INTEGER, 0);
    const key = orderBy === 'series_id' ? (e: RegistryEntry) => e.id : (e: RegistryEntry) => e.title;
    const found = [...deps.entries(s)]
      .filter((e) => e.category === category.slug)
      .sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0));
    if (order === 'desc') found.reverse();
    const envelope = {
      ...{ realtime_start: today(), realtime_end: today(), order_by: orderBy, sort_order: order },
      ...{ count: found.length, offset, limit },
    };
    return { root: 'seriess', row: 'series', envelope, rows: await seriesRows(s, found.slice(offset, offset + limit)) };
  });
}

/** FRED's YYYYMMDDHhmm (US Central in FRED; UTC here) as epoch ms, or a 400 naming the variable. */
function fredTime(p: Record<string, string>, name: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(p[name]!);
  const t = m ? Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:00Z`) : Number.NaN;
  if (!Number.isFinite(t)) throw invalidParameters([{ parameter: name, message: 'is not a time as YYYYMMDDHhmm' }]);
  return t;
}
