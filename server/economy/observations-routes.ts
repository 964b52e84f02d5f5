// The economy service's observation routes (shared/contracts/economy.md, "REST"):
//   GET /api/observations?series&from&to&vintage   the series through the cache, or one day's snapshot
//   GET /api/vintages?series                         the snapshot days, ascending
//   GET /api/revisions?series&from=A&to=B            what changed between the snapshots of days A and B
// Parameters are validated by schemas/economy/*-query.schema.json, plus what a JSON Schema cannot say
// (2024-02-30 is no date; `from` after `to`), and every bad parameter is listed in one 400.
//
// Cache-Control, per route:
//   - current observations: `public, max-age=300` (the data changes at most daily; the contract's value);
//     after a failed pull (`stale`), `public, max-age=60`, so clients come back soon for fresh data;
//   - vintages list: `public, max-age=300` (a new snapshot can appear on any pull);
//   - a snapshot (vintage=) or revisions between snapshots of days before today: `public, max-age=86400`
//     (a past day's snapshot never changes); today's may still be replaced, so `public, max-age=300`.
// ETags come from the payload (server/core/payload.ts), so If-None-Match answers 304.
//
// A current-observations query asked again answers from a precomputed payload (observation-payloads.ts)
// keyed by its raw query string, once the cache says, from memory, that the entry it was made from is still
// the fresh one: no validation, no cache round trip, no serializing. Any other case takes the full path.
import type { ServerResponse } from 'node:http';
import { isCalendarDate } from '../../contract/core/dates.ts';
import { SNAPSHOT_CACHE, STALE_CACHE } from '../../contract/economy/api.ts';
import type { Observation, ObservationsResponse, RegistryEntry } from '../../contract/economy/types.ts';
import { PUBLIC_CACHE, type RouteRequest, type Routes, type ServiceState } from '../core/app.ts';
import { Lru } from '../core/cache.ts';
import { parseQuery, queryOf, type RawQuery } from '../core/params.ts';
import { jsonPayload, sendPayload, type Payload } from '../core/payload.ts';
import { HttpError, invalidParameters, notFound, type ParameterError } from '../core/problem.ts';
import { ObservationPayloads } from './observation-payloads.ts';
import type { ObservationStores } from './stores.ts';
import { toRevisions } from './vintages.ts';

/**
 * Bytes of precomputed current-observation responses kept per loaded build: a daily series' whole history
 * is about 250 kB with its compressed forms, most queries are a few kB.
 */
export const OBSERVATION_PAYLOAD_BYTES = 64 * 1024 * 1024;

export interface ObservationRouteDeps<D> {
  /** The registry entry of a series id, or undefined (→ 404). */
  entry(id: string, state: ServiceState<D>): RegistryEntry | undefined;
  /** The cache and archive to serve from: the demo ones when the loaded build is a demo build. */
  stores(state: ServiceState<D>): ObservationStores;
  /** Today, for the snapshot Cache-Control; the same clock as the cache's. */
  now(): Date;
}

interface ObservationsQuery {
  series: string;
  from?: string;
  to?: string;
  vintage?: string;
}

interface RevisionsQuery {
  series: string;
  from: string;
  to: string;
}

/**
 * parseQuery, then the checks a JSON Schema cannot make, all reported together: each date in `dates` must
 * name a real day, and the `range` pair must be in order.
 */
function parseWithDates<T>(
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

/** The observations from `from` to `to`, both inclusive. */
export function sliceByDate(obs: readonly Observation[], from?: string, to?: string): Observation[] {
  const start = from === undefined ? 0 : lowerBound(obs, from);
  // The first date after `to`: `to` followed by any character sorts after `to` and before the next day.
  const end = to === undefined ? obs.length : lowerBound(obs, `${to}~`);
  return obs.slice(start, end);
}

const today = (now: Date) => now.toISOString().slice(0, 10);

/**
 * The current observations of a series for `{series, from, to}` given as query values: the same validation,
 * errors and document as `GET /api/observations` without `vintage` (the MCP tool answers with it).
 */
export async function currentObservations<D>(
  deps: ObservationRouteDeps<D>,
  s: ServiceState<D>,
  query: RawQuery,
): Promise<ObservationsResponse> {
  const q = parseWithDates<ObservationsQuery>(query, 'economy/observations-query', ['from', 'to'], ['from', 'to']);
  const entry = deps.entry(q.series, s);
  if (!entry) throw notFound(`unknown series ${q.series}; /api/series lists the series`);
  const got = await deps.stores(s).cache.get(entry);
  const doc: ObservationsResponse = {
    series: entry.id,
    observations: sliceByDate(got.observations, q.from, q.to),
    source: got.source,
    cached: got.cached,
    asOf: got.asOf,
  };
  if (got.stale) doc.stale = true;
  return doc;
}

export function observationRoutes<D>(r: Routes<D>, deps: ObservationRouteDeps<D>): void {
  // A snapshot or revisions response is the same bytes for the same snapshots and parameters: compute it
  // (and its compressed forms) once. Keyed by the store too, so a demo build and a real one never share an entry.
  const payloads = new Lru<Payload>(200);
  const storeIds = new WeakMap<ObservationStores, number>();
  let stores = 0;
  const storeId = (s: ObservationStores) => {
    let id = storeIds.get(s);
    if (id === undefined) storeIds.set(s, (id = ++stores));
    return id;
  };
  const payloadOf = (key: unknown[], make: () => unknown): Payload => {
    const k = JSON.stringify(key);
    let p = payloads.get(k);
    if (!p) {
      p = jsonPayload(make());
      payloads.set(k, p);
    }
    return p;
  };
  const lookup = (id: string, s: ServiceState<D>): RegistryEntry => {
    const entry = deps.entry(id, s);
    if (!entry) throw notFound(`unknown series ${id}; /api/series lists the series`);
    return entry;
  };
  const snapshotCache = (day: string) => (day < today(deps.now()) ? SNAPSHOT_CACHE : PUBLIC_CACHE);
  // Per loaded build: a reload may change or remove a series' registry entry, and so what a query means.
  const currentByBuild = new WeakMap<ServiceState<D>['build'], ObservationPayloads>();
  const currentOf = (s: ServiceState<D>) => {
    let p = currentByBuild.get(s.build);
    if (!p) currentByBuild.set(s.build, (p = new ObservationPayloads(OBSERVATION_PAYLOAD_BYTES)));
    return p;
  };

  const observations = async (
    req: RouteRequest,
    res: ServerResponse,
    s: ServiceState<D>,
    stores: ObservationStores,
    current: ObservationPayloads,
  ) => {
    const q = parseWithDates<ObservationsQuery>(
      queryOf(req),
      'economy/observations-query',
      ['from', 'to', 'vintage'],
      ['from', 'to'],
    );
    const entry = lookup(q.series, s);
    if (q.vintage !== undefined) {
      const snap = await stores.vintages.read(entry.id, q.vintage);
      if (!snap)
        throw notFound(`no snapshot of ${entry.id} on ${q.vintage}; /api/vintages?series=${entry.id} lists them`);
      const p = payloadOf(
        [storeId(stores), 'vintage', entry.id, snap.asOf, q.from, q.to],
        (): ObservationsResponse => ({
          series: entry.id,
          observations: sliceByDate(snap.observations, q.from, q.to),
          source: snap.source,
          cached: true,
          asOf: snap.asOf,
        }),
      );
      return sendPayload(req, res, p, { cacheControl: snapshotCache(q.vintage) });
    }
    const got = await stores.cache.get(entry);
    // The flags are part of the key: the first answers after a pull say `cached: false`, the ones after it
    // `cached: true`, and a stale answer says so; only the plain key is looked up without asking the cache.
    const key = `${got.stale ? 'stale' : got.cached ? '' : 'pulled'}${req.search}`;
    let p = current.get(key, entry.id, got.observations);
    if (!p) {
      const doc: ObservationsResponse = {
        series: entry.id,
        observations: sliceByDate(got.observations, q.from, q.to),
        source: got.source,
        cached: got.cached,
        asOf: got.asOf,
      };
      if (got.stale) doc.stale = true;
      p = jsonPayload(doc);
      current.set(key, { entry, source: got.observations, payload: p });
    }
    sendPayload(req, res, p, { cacheControl: got.stale ? STALE_CACHE : PUBLIC_CACHE });
  };

  r.get('/api/observations', (req, res, s) => {
    const stores = deps.stores(s);
    const current = currentOf(s);
    // Stored under the bare query string only when made from a fresh cached copy (`cached: true`, not stale).
    const hit = current.peek(req.search);
    if (hit) {
      const now = stores.cache.peek(hit.entry);
      if (now?.observations === hit.source) return sendPayload(req, res, hit.payload, { cacheControl: PUBLIC_CACHE });
      if (now) current.drop(hit.entry.id);
    }
    return observations(req, res, s, stores, current);
  });

  r.get('/api/vintages', async (req, res, s) => {
    const q = parseQuery<{ series: string }>(queryOf(req), 'economy/vintages-query');
    const entry = lookup(q.series, s);
    const snapshots = await deps.stores(s).vintages.list(entry.id);
    sendPayload(req, res, jsonPayload({ series: entry.id, snapshots }), { cacheControl: PUBLIC_CACHE });
  });

  r.get('/api/revisions', async (req, res, s) => {
    const q = parseWithDates<RevisionsQuery>(queryOf(req), 'economy/revisions-query', ['from', 'to'], ['from', 'to']);
    const entry = lookup(q.series, s);
    const stores = deps.stores(s);
    const [a, b] = await Promise.all([stores.vintages.read(entry.id, q.from), stores.vintages.read(entry.id, q.to)]);
    if (!a || !b) {
      const missing = [...(a ? [] : [q.from]), ...(b || q.to === q.from ? [] : [q.to])].join(' and ');
      throw notFound(`no snapshot of ${entry.id} on ${missing}; /api/vintages?series=${entry.id} lists them`);
    }
    const p = payloadOf([storeId(stores), 'revisions', entry.id, a.asOf, b.asOf], () => toRevisions(a, b));
    sendPayload(req, res, p, { cacheControl: snapshotCache(q.to) });
  });
}
