// The economy service's observation routes (shared/contracts/economy.md, "REST"):
//   GET /api/observations?series&from&to&vintage   the series through the cache, or one day's snapshot
//   GET /api/vintages?series                         the snapshot days, ascending
//   GET /api/revisions?series&from=A&to=B            what changed between the snapshots of days A and B
// The observations document is made by observations.ts, which the MCP tool uses too.
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
import { SNAPSHOT_CACHE, STALE_CACHE } from '../../contract/economy/api.ts';
import { PUBLIC_CACHE, type RouteRequest, type Routes, type ServiceState } from '../core/app.ts';
import { Lru } from '../core/cache.ts';
import { parseQuery, queryOf } from '../core/params.ts';
import { jsonPayload, sendPayload, type Payload } from '../core/payload.ts';
import { notFound } from '../core/problem.ts';
import { ObservationPayloads } from './observation-payloads.ts';
import {
  findObservations,
  lookupSeries,
  parseWithDates,
  toObservationsDocument,
  type ObservationRouteDeps,
} from './observations.ts';
import type { ObservationStores } from './stores.ts';
import { toRevisions } from './vintages.ts';

/**
 * Bytes of precomputed current-observation responses kept per loaded build: a daily series' whole history
 * is about 250 kB with its compressed forms, most queries are a few kB.
 */
export const OBSERVATION_PAYLOAD_BYTES = 64 * 1024 * 1024;

interface RevisionsQuery {
  series: string;
  from: string;
  to: string;
}

const today = (now: Date) => now.toISOString().slice(0, 10);

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
  const lookup = (id: string, s: ServiceState<D>) => lookupSeries(deps, s, id);
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
    const a = await findObservations(deps, s, queryOf(req));
    if (a.vintage !== undefined) {
      const p = payloadOf([storeId(stores), 'vintage', a.series, a.asOf, a.start, a.end], () =>
        toObservationsDocument(a),
      );
      return sendPayload(req, res, p, { cacheControl: snapshotCache(a.vintage) });
    }
    const entry = lookup(a.series, s);
    // The flags are part of the key: the first answers after a pull say `cached: false`, the ones after it
    // `cached: true`, and a stale answer says so; only the plain key is looked up without asking the cache.
    const key = `${a.stale ? 'stale' : a.cached ? '' : 'pulled'}${req.search}`;
    let p = current.get(key, entry.id, a.observations);
    if (!p) {
      p = jsonPayload(toObservationsDocument(a));
      current.set(key, { entry, source: a.observations, payload: p });
    }
    sendPayload(req, res, p, { cacheControl: a.stale ? STALE_CACHE : PUBLIC_CACHE });
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
