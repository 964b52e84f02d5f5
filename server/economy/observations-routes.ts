// The economy service's observation routes (docs/contracts/economy.md, "REST"): /api/observations (through the
// cache, or a day's snapshot), /api/vintages and /api/revisions. Bodies are kept in one memo keyed by their data
// and the checked query, so a repeated query is answered from memory; Cache-Control per route is in
// docs/api-economy.md ("Caching").
import type { ServerResponse } from 'node:http';
import { CSV_TYPE } from '../../contract/core/csv.ts';
import { SNAPSHOT_CACHE, STALE_CACHE } from '../../contract/economy/api.ts';
import { PUBLIC_CACHE } from '../../contract/core/layout.ts';
import type { RouteRequest, Routes, ServiceState } from '../core/service.ts';
import { parseQuery, queryOf } from '../core/params.ts';
import { jsonPayload, type Payload, sendPayload, toPayload } from '../core/payload.ts';
import { notFound } from '../../contract/core/problem.ts';
import { BodyMemo, identityOf, OBSERVATION_BODY_BYTES, toBodyKey } from './bodies.ts';
import {
  checkedEntry,
  findObservations,
  lookupSeries,
  parseObservationsQuery,
  parseWithDates,
  toCurrentAnswer,
  toObservationsCsv,
  toObservationsDocument,
  type ObservationsAnswer,
  type ObservationRouteDeps,
  type ObservationsQuery,
} from './observations.ts';
import { findRealtime, type RealtimeAsk, toRealtimeAsk, toRealtimeCsv, toRealtimeDocument } from './realtime-answer.ts';
import { findSeveral, toSeriesIds, toSeveralCsv, toSeveralDocument, toSeveralKey } from './several.ts';
import { answerUpdates } from './updates.ts';
import { toRevisions } from './vintages.ts';

interface RevisionsQuery {
  series: string;
  from: string;
  to: string;
}

const today = (now: Date) => now.toISOString().slice(0, 10);

/** The document, or with format=csv its observations as CSV. */
function toBody(a: ObservationsAnswer): Payload {
  const doc = toObservationsDocument(a);
  return a.view.format === 'csv' ? toPayload(toObservationsCsv(doc), CSV_TYPE) : jsonPayload(doc);
}

const NO_HEADERS = {};
/** A CSV answer is a download named after its series (`A_B` for several). */
const downloadHeaders = (format: string | undefined, name: string) =>
  format === 'csv' ? { 'Content-Disposition': `attachment; filename="${name}.csv"` } : NO_HEADERS;
const headersOf = (a: ObservationsAnswer) => downloadHeaders(a.view.format, a.series);

/** The key of a real-time body: the history (replaced, never changed, when a day is added) by identity, and the query. */
function realtimeKey(history: object, cached: boolean, ask: RealtimeAsk, q: ObservationsQuery): string {
  const { api_key: _k, file_type: _f, ...asked } = q;
  return `rt${identityOf(history)}${cached ? 'c' : 'p'}${JSON.stringify([ask, asked])}`;
}

export function observationRoutes<D>(r: Routes<D>, deps: ObservationRouteDeps<D>): void {
  // Kept: a hit is a Map read where making a body again costs up to milliseconds of JSON, hashing and compression.
  const bodies = new BodyMemo(OBSERVATION_BODY_BYTES);
  const snapshotCache = (day: string) => (day < today(deps.now()) ? SNAPSHOT_CACHE : PUBLIC_CACHE);

  const realtime = async (
    req: RouteRequest,
    res: ServerResponse,
    s: ServiceState<D>,
    q: ObservationsQuery,
    ask: RealtimeAsk,
  ) => {
    const entry = checkedEntry(deps, s, q);
    const a = await findRealtime(deps, s, entry, q, ask);
    const p = await bodies.getOrMake(realtimeKey(a.history, a.cached, ask, q), () => {
      const doc = toRealtimeDocument(a);
      return a.view.format === 'csv' ? toPayload(toRealtimeCsv(doc), CSV_TYPE) : jsonPayload(doc);
    });
    sendPayload(req, res, p, realtimeSend(ask, q));
  };

  // An answer that ends before today is as fixed as the snapshots it reads.
  const realtimeSend = (ask: RealtimeAsk, q: ObservationsQuery) => ({
    cacheControl: ask.end < today(deps.now()) ? SNAPSHOT_CACHE : PUBLIC_CACHE,
    headers: downloadHeaders(q.format, q.series),
  });

  /**
   * A real-time body already made for this history and query, found without a promise: the history is the
   * one kept for the archive's current list (realtime.peek), and a query that reaches today needs the cache's
   * copy fresh, as the async path would find it (no pull, so `cached`).
   */
  const realtimeKept = (s: ServiceState<D>, q: ObservationsQuery, ask: RealtimeAsk) => {
    const entry = deps.entry(q.series, s);
    const stores = entry && deps.stores(s);
    const history = stores?.realtime.peek(entry!.id);
    if (!history || (ask.end >= today(deps.now()) && !stores!.cache.peek(entry!))) return undefined;
    return bodies.get(realtimeKey(history, true, ask, q));
  };

  const several = async (
    req: RouteRequest,
    res: ServerResponse,
    s: ServiceState<D>,
    q: ObservationsQuery,
    ids: string[],
    ask: RealtimeAsk | undefined,
  ) => {
    const a = await findSeveral(deps, s, q, ids, ask);
    const p = await bodies.getOrMake(toSeveralKey(a, q), () => {
      const doc = toSeveralDocument(a);
      return a.view.format === 'csv' ? toPayload(toSeveralCsv(doc), CSV_TYPE) : jsonPayload(doc);
    });
    const stale = a.parts.some((part) => part.source.stale);
    const fixed = (ask && ask.end < today(deps.now())) || (q.vintage !== undefined && q.vintage < today(deps.now()));
    const cacheControl = fixed ? SNAPSHOT_CACHE : stale ? STALE_CACHE : PUBLIC_CACHE;
    sendPayload(req, res, p, { cacheControl, headers: downloadHeaders(a.view.format, ids.join('_')) });
  };

  const observations = async (
    req: RouteRequest,
    res: ServerResponse,
    s: ServiceState<D>,
    q: ObservationsQuery,
    ask: RealtimeAsk | undefined,
  ) => {
    const ids = toSeriesIds(q.series);
    if (ids) return several(req, res, s, q, ids, ask);
    if (ask) return realtime(req, res, s, q, ask);
    const a = await findObservations(deps, s, q);
    const p = await bodies.getOrMake(toBodyKey(a), () => toBody(a));
    const cacheControl = a.vintage !== undefined ? snapshotCache(a.vintage) : a.stale ? STALE_CACHE : PUBLIC_CACHE;
    sendPayload(req, res, p, { cacheControl, headers: headersOf(a) });
  };

  // A body kept in the memo (keyed by the data and the checked query's view, never the raw query string) is
  // answered without a promise: one parse, then Map reads.
  r.get('/api/observations', (req, res, s) => {
    const q = parseObservationsQuery(queryOf(req));
    const ask = toRealtimeAsk(q, today(deps.now()));
    if (ask && !q.series.includes(',')) {
      const kept = realtimeKept(s, q, ask);
      if (kept) return sendPayload(req, res, kept, realtimeSend(ask, q));
    }
    const plain = q.vintage === undefined && ask === undefined;
    const entry = plain ? deps.entry(q.series, s) : undefined;
    const got = entry && deps.stores(s).cache.peek(entry);
    const a = got && toCurrentAnswer(entry, got, q);
    const p = a && bodies.get(toBodyKey(a));
    if (p) return sendPayload(req, res, p, { cacheControl: PUBLIC_CACHE, headers: headersOf(a) });
    return observations(req, res, s, q, ask);
  });

  r.get('/api/updates', async (req, res, s) => {
    const p = await answerUpdates(deps, s, queryOf(req));
    sendPayload(req, res, jsonPayload(p), { cacheControl: PUBLIC_CACHE });
  });

  r.get('/api/vintages', async (req, res, s) => {
    const q = parseQuery<{ series: string }>(queryOf(req), 'economy/vintages-query');
    const entry = lookupSeries(deps, s, q.series);
    const snapshots = await deps.stores(s).vintages.list(entry.id);
    const p = await bodies.getOrMake(`l${identityOf(snapshots)}`, () => jsonPayload({ series: entry.id, snapshots }));
    sendPayload(req, res, p, { cacheControl: PUBLIC_CACHE });
  });

  r.get('/api/revisions', async (req, res, s) => {
    const q = parseWithDates<RevisionsQuery>(queryOf(req), 'economy/revisions-query', ['from', 'to'], ['from', 'to']);
    const entry = lookupSeries(deps, s, q.series);
    const stores = deps.stores(s);
    const [a, b] = await Promise.all([stores.vintages.read(entry.id, q.from), stores.vintages.read(entry.id, q.to)]);
    if (!a || !b) {
      const missing = [...(a ? [] : [q.from]), ...(b || q.to === q.from ? [] : [q.to])].join(' and ');
      throw notFound(`no snapshot of ${entry.id} on ${missing}; /api/vintages?series=${entry.id} lists them`);
    }
    const key = `r${identityOf(a.observations)}-${identityOf(b.observations)}`;
    const p = await bodies.getOrMake(key, () => jsonPayload(toRevisions(a, b)));
    sendPayload(req, res, p, { cacheControl: snapshotCache(q.to) });
  });
}
