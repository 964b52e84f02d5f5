// A published economy build served on a real socket with the observation routes over a fake upstream of its
// own (node:http on 127.0.0.1) speaking WDS and Valet, and FRED's face over them: a three-series registry, a clock the test moves, so
// pulls on different days make vintages. Shared by the observation and real-time route tests.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { toManifest } from '../../contract/core/manifest.ts';
import { openSink } from '../../pipeline/core/sink.ts';
import type { RegistryEntry } from '../../contract/economy/types.ts';
import type { ServiceDefinition } from '../../server/core/service.ts';
import { createObservationCache } from '../../server/economy/cache.ts';
import { fredRoutes } from '../../server/economy/fred-routes.ts';
import { observationRoutes } from '../../server/economy/observations-routes.ts';
import type { ObservationStores } from '../../server/economy/stores.ts';
import { createStatcanClient } from '../../contract/economy/upstream/statcan.ts';
import { createValetClient } from '../../contract/economy/upstream/valet.ts';
import { createRealtimeArchive } from '../../server/economy/realtime-archive.ts';
import { createVintageArchive } from '../../server/economy/vintages.ts';
import { startService, tempDir, type Running } from './server.ts';

export const DAY = 86_400_000;
export const START = Date.parse('2026-03-10T12:00:00.000Z');

const base = {
  tableId: null,
  unitsDetail: '',
  description: '',
  vectorIds: [] as number[],
  seriesNames: [] as string[],
  scalarFactorCode: 0,
  lastVerified: '2026-03-01',
};
export const REGISTRY: RegistryEntry[] = [
  {
    ...base,
    id: 'CPI_ALL_ITEMS',
    title: 'CPI',
    source: 'STATCAN',
    tableId: '18-10-0004-01',
    units: 'Index, 2002=100',
    frequency: 'monthly',
    category: 'prices',
    vectorIds: [41690973],
  },
  {
    ...base,
    id: 'USD_CAD',
    title: 'USD/CAD',
    source: 'BOC',
    units: 'CAD per USD',
    frequency: 'daily',
    category: 'exchange-rates',
    seriesNames: ['FXUSDCAD'],
  },
  {
    ...base,
    id: 'BROKEN',
    title: 'Broken',
    source: 'STATCAN',
    units: 'units',
    frequency: 'monthly',
    category: 'output',
    vectorIds: [999],
  },
];

export interface Upstream {
  base: string;
  pulls: Map<string, number>;
  /** CPI values by refPer, as WDS will send them. */
  cpi: Map<string, number | null>;
  failing: boolean;
  close(): Promise<void>;
}

export async function startUpstream(): Promise<Upstream> {
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      // Counted per WDS vector (or Valet path), so the failing series does not count as a CPI pull.
      const vector = path.endsWith('/getDataFromVectorsAndLatestNPeriods')
        ? `#${(JSON.parse(body) as { vectorId: number }[])[0]?.vectorId}`
        : '';
      up.pulls.set(path + vector, (up.pulls.get(path + vector) ?? 0) + 1);
      res.setHeader('Content-Type', 'application/json');
      setTimeout(() => {
        if (up.failing || vector === '#999') {
          res.statusCode = 500;
          res.end('{"message":"Internal error"}');
          return;
        }
        if (path.endsWith('/getDataFromVectorsAndLatestNPeriods')) {
          const vectorDataPoint = [...up.cpi].map(([refPer, value]) => ({
            refPer,
            refPer2: '',
            value,
            decimals: 1,
            scalarFactorCode: 0,
            symbolCode: 0,
            statusCode: value === null ? 1 : 0,
            securityLevelCode: 0,
          }));
          res.end(
            JSON.stringify([
              {
                status: 'SUCCESS',
                object: {
                  responseStatusCode: 0,
                  productId: 18100004,
                  coordinate: '2.2.0.0.0.0.0.0.0.0',
                  vectorId: 41690973,
                  vectorDataPoint,
                },
              },
            ]),
          );
        } else if (path === '/valet/observations/FXUSDCAD/json') {
          const observations = ['2026-03-02', '2026-03-03', '2026-03-04'].map((d, i) => ({
            d,
            FXUSDCAD: { v: (1.35 + i / 100).toFixed(4) },
          }));
          res.end(
            JSON.stringify({ terms: {}, seriesDetail: { FXUSDCAD: { label: 'USD/CAD' } }, observations }, null, 4),
          );
        } else {
          res.statusCode = 404;
          res.end('{"message":"no such method"}');
        }
      }, 30);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const up: Upstream = {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    pulls: new Map(),
    cpi: new Map([
      ['2025-10-01', 164.1],
      ['2025-11-01', 164.5],
      ['2025-12-01', null], // `..`: left out
      ['2026-01-01', 165.0],
    ]),
    failing: false,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  return up;
}

export const WDS_PULL = '/wds/getDataFromVectorsAndLatestNPeriods#41690973';

/** A JSON answer as the route tests read it. */
export type JsonBody = Record<string, unknown> & { observations: Record<string, unknown>[] };

export interface RoutesUnderTest {
  up: Upstream;
  running: Running<Map<string, RegistryEntry>>;
  url: (path: string) => string;
  get(path: string): Promise<Response>;
  json(path: string): Promise<{ res: Response; body: JsonBody }>;
  stores: ObservationStores;
  close(): Promise<void>;
}

/** The smallest published economy build createApp accepts, in `outDir`: a manifest and its checksums. */
export async function publishEmptyEconomyBuild(outDir: string, builtAt: Date): Promise<void> {
  const sink = await openSink({ service: 'economy', outDir, compress: false });
  await sink.publish(
    toManifest({ service: 'economy', demo: false, sources: [], options: {}, counts: {}, codeHash: 'test', builtAt }),
  );
}

/** The routes served over a fresh STATE_DIR and a fresh fake upstream, on the clock `now`. */
export async function startObservationRoutes(now: () => Date, name = 'economy-routes'): Promise<RoutesUnderTest> {
  const root = await tempDir(name);
  const up = await startUpstream();
  const outDir = join(root.path, 'dist-data');
  await publishEmptyEconomyBuild(outDir, new Date(START));

  const stateDir = join(root.path, 'state', 'economy');
  const vintages = createVintageArchive(stateDir);
  const stores: ObservationStores = {
    vintages,
    realtime: createRealtimeArchive(vintages),
    cache: createObservationCache({
      dir: stateDir,
      upstreams: {
        STATCAN: createStatcanClient({ baseUrl: `${up.base}/wds` }),
        BOC: createValetClient({ baseUrl: `${up.base}/valet` }),
      },
      now,
      vintages,
      log: () => {},
    }),
  };
  const def: ServiceDefinition<Map<string, RegistryEntry>> = {
    name: 'economy',
    basePath: '/api',
    load: () => new Map(REGISTRY.map((e) => [e.id, e])),
    routes: (r) => {
      const deps = {
        entry: (id: string, s: { data: Map<string, RegistryEntry> }) => s.data.get(id),
        entries: (s: { data: Map<string, RegistryEntry> }) => s.data.values(),
        stores: () => stores,
        now,
      };
      observationRoutes(r, deps);
      // FRED's face, its search a plain match of the words in ids and titles.
      fredRoutes(r, {
        ...deps,
        search: (text, s) =>
          [...s.data.values()]
            .filter((e) => `${e.id} ${e.title}`.toLowerCase().includes(text.toLowerCase()))
            .map(
              ({
                vectorIds: _v,
                seriesNames: _n,
                scalarFactorCode: _f,
                unitsDetail: _u,
                lastVerified: _l,
                ...rec
              }) => ({
                ...rec,
                sourceLabel: rec.source === 'STATCAN' ? ('Statistics Canada' as const) : ('Bank of Canada' as const),
              }),
            ),
      });
    },
  };
  const running = await startService(def, outDir);
  const url = (path: string) => `${running.base}${path}`;
  return {
    up,
    running,
    url,
    get: (path) => fetch(url(path)),
    async json(path) {
      const res = await fetch(url(path));
      return { res, body: (await res.json()) as JsonBody };
    },
    stores,
    async close() {
      await running.close();
      await up.close();
      await root.remove();
    },
  };
}
