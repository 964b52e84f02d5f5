// Economy service (docs/contracts/economy.md): the registry routes answer from the build, observations
// come from the upstreams through the 24-hour cache, on disk or in the PostgreSQL of DATABASE_URL (a demo
// build uses the built-in demo upstream), and the MCP endpoint answers the same data as tools.
import type { ServiceDefinition, ServiceState } from '../core/service.ts';
import { parseQuery } from '../core/params.ts';
import { OPENAPI_PATH } from '../../contract/economy/api.ts';
import { rankSeries } from '../../contract/economy/search.ts';
import type { RegistryEntry } from '../../contract/economy/types.ts';
import { mountMcp, type McpDeps } from './mcp.ts';
import { answerChanges } from '../core/changes.ts';
import { LOCAL_HOSTS } from '../core/mcp.ts';
import { observationRoutes } from './observations-routes.ts';
import {
  findObservations,
  parseObservationsQuery,
  toObservationsDocument,
  type ObservationRouteDeps,
  type ObservationsView,
} from './observations.ts';
import { loadRegistryData, registryRoutes, type EconomyRegistryData } from './registry-routes.ts';
import { DAY_MS } from '../../contract/core/dates.ts';
import { createObservationStores } from './stores.ts';
import { FAILED_PULL_WINDOW_MS, toPullCheck } from './health.ts';
import { MCP_OBSERVATIONS } from './mcp.ts';
import { checkedEntry, toSelected } from './observations.ts';
import { findRealtime, toRealtimeAsk, toRealtimeDocument, toRealtimeSelected } from './realtime-answer.ts';
import { answerUpdates } from './updates.ts';
import { fredRoutes } from './fred-routes.ts';
import { seededArchive } from './demo-archive.ts';
import { createRealtimeArchive } from './realtime-archive.ts';
import type { ObservationStores } from './stores.ts';
import type { LoadedBuild } from '../core/build.ts';

/**
 * An answer for an agent: without a limit, the newest MCP_OBSERVATIONS points of what the offset leaves at
 * most, in the order asked for, with `truncated: true` when some were left out.
 */
function capForAgents<A extends { view: ObservationsView }>(
  a: A,
  limited: boolean,
  count: () => number,
  toDocument: (a: A) => object,
): Record<string, unknown> {
  if (limited) return { ...toDocument(a) };
  const left = count() - a.view.offset;
  if (left <= MCP_OBSERVATIONS) return { ...toDocument(a) };
  const skip = a.view.order === 'asc' ? left - MCP_OBSERVATIONS : 0;
  const view = { ...a.view, offset: a.view.offset + skip, limit: MCP_OBSERVATIONS };
  return { ...toDocument({ ...a, view }), truncated: true };
}

export interface EconomyOptions {
  stateDir: string;
  env: Readonly<Record<string, string | undefined>>;
  now?: () => Date;
  /** Hostnames allowed in Host and Origin of MCP requests (DNS-rebinding protection). */
  allowedHosts?: string[];
  /** Limit on one upstream pull (default 15 s); tests of a hanging upstream make it short. */
  upstreamTimeoutMs?: number;
}

/**
 * Where a series is published, for the MCP results' provenance: the public page or document of the
 * upstream (a URL a client can follow), never the base URL this server is configured with, which may be a
 * mirror or proxy of the operator's. The ids are in `upstream`.
 */
function sourceUrl(entry: RegistryEntry): string {
  if (entry.source === 'STATCAN') {
    const table = (entry.tableId ?? '').replaceAll('-', '').slice(0, 8);
    return `https://www150.statcan.gc.ca/t1/tbl1/en/tv.action?pid=${table}01`;
  }
  return `https://www.bankofcanada.ca/valet/observations/${entry.seriesNames.join(',')}/json`;
}

export function createEconomyService(options: EconomyOptions): ServiceDefinition<EconomyRegistryData> {
  const now = options.now ?? (() => new Date());
  const storesFor = createObservationStores({
    stateDir: options.stateDir,
    env: options.env,
    now,
    timeoutMs: options.upstreamTimeoutMs,
  });
  // A demo build's stores read its archive seeded with the demo editions' published days, so a fresh demo
  // start has a past to answer real-time questions from; one set per loaded build.
  const demoByBuild = new WeakMap<LoadedBuild, ObservationStores>();
  const demoStores = (build: LoadedBuild, data: EconomyRegistryData): ObservationStores => {
    let stores = demoByBuild.get(build);
    if (!stores) {
      const inner = storesFor(true);
      const vintages = seededArchive(inner.vintages, build, data.entries);
      stores = { cache: inner.cache, vintages, realtime: createRealtimeArchive(vintages) };
      demoByBuild.set(build, stores);
    }
    return stores;
  };
  const deps: ObservationRouteDeps<EconomyRegistryData> = {
    entry: (id, s) => s.data.entries.get(id),
    entries: (s) => s.data.entries.values(),
    stores: (s) => (s.build.manifest.demo ? demoStores(s.build, s.data) : storesFor(false)),
    now,
  };
  const mcpDeps = (s: ServiceState<EconomyRegistryData>): McpDeps => ({
    searchSeries: (query) => {
      const q = parseQuery<{ q?: string }>({ q: query }, 'economy/series-query');
      return rankSeries(q.q ?? '', s.data.search);
    },
    getObservations: async (args) => {
      const q = parseObservationsQuery(args);
      const ask = toRealtimeAsk(q, now().toISOString().slice(0, 10));
      const limited = q.limit !== undefined;
      if (ask) {
        const a = await findRealtime(deps, s, checkedEntry(deps, s, q), q, ask);
        return capForAgents(a, limited, () => toRealtimeSelected(a).length, toRealtimeDocument);
      }
      const a = await findObservations(deps, s, q);
      return capForAgents(a, limited, () => toSelected(a).length, toObservationsDocument);
    },
    listCategories: () => JSON.parse(s.build.payloads.get('/api/categories')!.body.toString('utf8')) as unknown[],
    getSeriesUpdates: async (args) => ({ ...(await answerUpdates(deps, s, args)) }),
    getChanges: async (args) => {
      const { query: _, ...doc } = await answerChanges(s.data.changes, args, s.build.manifest.data_version);
      return doc;
    },
    provenance: (series) => {
      const entry = s.data.entries.get(series);
      if (!entry) return undefined;
      const upstream =
        entry.source === 'STATCAN'
          ? { kind: 'statcan-wds', tableId: entry.tableId, vectorIds: entry.vectorIds }
          : { kind: 'boc-valet', seriesNames: entry.seriesNames };
      // A demo build's values come from the built-in demo upstream: its provenance says so, as `source` does.
      return {
        sourceUrl: sourceUrl(entry),
        upstream,
        ...(s.build.manifest.demo && {
          note: 'demo build: generated values in the wire format of this upstream, not real data',
        }),
      };
    },
  });
  const hosts = options.allowedHosts ?? [...LOCAL_HOSTS];
  return {
    name: 'economy',
    basePath: '/api',
    openapi: OPENAPI_PATH,
    load: loadRegistryData,
    close: () => storesFor.close(),
    health: async (s) => {
      const pulls = toPullCheck(
        storesFor(s.build.manifest.demo).cache.failedSince(now().getTime() - FAILED_PULL_WINDOW_MS),
      );
      // The shared store's check is there only while it does not answer: healthy, the answer is the tree's healthz.json.
      const store = await storesFor.health();
      return store ? [pulls, store] : [pulls];
    },
    routes(r) {
      registryRoutes(r);
      observationRoutes(r, deps);
      fredRoutes(r, { ...deps, search: (text, s) => rankSeries(text, s.data.search) });
      mountMcp(r, mcpDeps, { allowedHosts: hosts, allowedOrigins: hosts, cacheTtlMs: DAY_MS });
    },
  };
}
