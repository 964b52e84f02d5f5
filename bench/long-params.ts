// The long-parameter row: for each route of a service, a normal request against the slowest long value of
// any kind of character in any of its parameters (test/helpers/hostile-values.ts: the fuzz suite's kinds),
// one request at a time on a fresh connection, in the same run on the same server. Two sizes: 16 KB, and
// just under the 4 KiB query limit (MAX_QUERY_BYTES), which the schema and the route read instead of the 414.
// Each request carries a unique `n` so no cache answers it. Target: each route's worst case within 10 ms of
// its normal request (docs/contracts/common.md, "Hostile input").
import { request } from 'node:http';
import { join } from 'node:path';
import { OPENAPI_PATH as CARRIERS_OPENAPI } from '../contract/carriers/layout.ts';
import { OPENAPI_PATH as ECONOMY_OPENAPI } from '../contract/economy/api.ts';
import { OPENAPI_PATH as FACILITIES_OPENAPI } from '../contract/facilities/layout.ts';
import type { Progress } from '../pipeline/core/progress.ts';
import { MAX_QUERY_BYTES } from '../server/core/params.ts';
import { openSqliteStore } from '../server/core/store.ts';
import {
  CHAR_CLASSES,
  parameterTargets,
  toHostileValue,
  type ParameterTarget,
} from '../test/helpers/hostile-values.ts';
import { ROOT, startChild } from './children.ts';
import { median } from './report.ts';
import { SERVER_START_TIMEOUT_MS } from './settings.ts';

/** The most a route's worst long parameter may add to its normal request, ms. */
export const LONG_PARAM_TARGET_MS = 10;
const SIZES = [16_000, MAX_QUERY_BYTES - 200];
const SAMPLES = 7;
const NORMAL_SAMPLES = 21;

const OPENAPI: Record<string, string> = {
  facilities: FACILITIES_OPENAPI,
  carriers: CARRIERS_OPENAPI,
  economy: ECONOMY_OPENAPI,
};

export interface LongParamRow {
  service: string;
  /** `GET /api/search`. */
  route: string;
  normalMs: number;
  worstMs: number;
  /** The parameter, kind and size of the worst case, and the status it got. */
  worst: string;
  met: boolean;
}

interface Timed {
  ms: number;
  status: number;
}

/** One request on its own connection, timed from the first byte sent to the last byte received. */
function timeRequest(port: number, method: string, path: string, headers: Record<string, string>): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request({ host: '127.0.0.1', port, path, method, headers, agent: false, timeout: 30_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve({ ms: performance.now() - started, status: res.statusCode ?? 0 }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${path.slice(0, 80)}: no answer in 30 s`)));
    req.on('error', reject);
    req.end();
  });
}

async function getJson(port: number, path: string, headers: Record<string, string> = {}): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch (err) {
          reject(new Error(`GET ${path}: ${res.statusCode}, not JSON: ${(err as Error).message}`));
        }
      });
    });
    req.on('error', reject);
    req.end();
  });
}

async function postJson(port: number, path: string, headers: Record<string, string>, body: unknown): Promise<unknown> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: 'POST', headers: { ...headers, 'content-type': 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const answer = Buffer.concat(chunks).toString('utf8');
          if ((res.statusCode ?? 0) >= 300)
            reject(new Error(`POST ${path}: ${res.statusCode} ${answer.slice(0, 200)}`));
          else resolve(JSON.parse(answer));
        });
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

/** Values each route answers normally for its path and required parameters, read from the build served. */
async function ordinaryValues(
  service: string,
  port: number,
  headers: Record<string, string>,
): Promise<Record<string, string>> {
  const common = { type: 'invalid-parameter' };
  if (service === 'facilities') {
    const page = (await getJson(port, '/api/v1/search?limit=1')) as { results: { spine_id: string }[] };
    return { ...common, id: page.results[0]!.spine_id };
  }
  if (service === 'carriers') {
    const page = (await getJson(port, '/api/search?q=a&limit=1')) as { results: { carrier_id: number }[] };
    const carrierId = page.results[0]?.carrier_id ?? 1;
    // A watchlist of the bench's key, for the routes that read one.
    const list = (await postJson(port, '/api/watchlists', headers, { name: 'bench', carriers: [carrierId] })) as {
      id: string;
    };
    return { ...common, carrier_id: String(carrierId), q: 'trucking', id: list.id };
  }
  const series = (await getJson(port, '/api/series?limit=1')) as { id: string }[];
  const id = series[0]!.id;
  return { ...common, id, series: id, series_id: id, search_text: 'cpi', from: '2020-01-01', to: '2020-12-31' };
}

let unique = 0;
/**
 * The target with a unique unknown parameter, so that no cache keyed by the query answers it: `api_key` on
 * economy's routes, whose /api/observations and /fred refuse any other unknown parameter and ignore the key
 * FRED clients send.
 */
function uncached(target: string, service: string): string {
  const name = service === 'economy' ? 'api_key' : 'n';
  return `${target}${target.includes('?') ? '&' : '?'}${name}=${++unique}`;
}

async function medianOf(
  service: string,
  port: number,
  t: ParameterTarget,
  target: string,
  headers: Record<string, string>,
  samples: number,
): Promise<{ ms: number; status: number }> {
  await timeRequest(port, t.method, uncached(target, service), headers);
  const times: number[] = [];
  let status = 0;
  for (let i = 0; i < samples; i++) {
    const r = await timeRequest(port, t.method, uncached(target, service), headers);
    times.push(r.ms);
    status = r.status;
  }
  return { ms: median(times), status };
}

export async function measureLongParams(options: {
  service: string;
  dataDir: string;
  stateDir: string;
  progress: Progress;
}): Promise<LongParamRow[]> {
  const { service, progress } = options;
  const headers: Record<string, string> = {};
  if (service === 'carriers') {
    const store = openSqliteStore(options.stateDir);
    const key = await store.createKey('premium', 'bench long parameters', new Date());
    await store.close();
    headers.authorization = `Bearer ${key.key}`;
  }
  progress.stage(`${service}: long parameters`);
  const child = startChild(join(ROOT, 'bench', 'server-child.ts'), `app ${service} (long parameters)`);
  try {
    child.send({
      type: 'serve',
      job: {
        kind: 'app',
        service,
        dataDir: options.dataDir,
        stateDir: options.stateDir,
        log: false,
        env: { DATABASE_URL: '' },
        capture: [],
      },
    });
    const { port } = await child.next('ready', SERVER_START_TIMEOUT_MS);
    const doc = (await getJson(port, OPENAPI[service]!)) as Parameters<typeof parameterTargets>[0];
    const { targets, missing } = parameterTargets(doc, await ordinaryValues(service, port, headers));
    if (missing.length) throw new Error(`long parameters: no ordinary value for ${missing.join(', ')}`);
    const rows: LongParamRow[] = [];
    const routes = [...new Set(targets.map((t) => `${t.method} ${t.path}`))];
    for (const route of routes) {
      const mine = targets.filter((t) => `${t.method} ${t.path}` === route);
      const first = mine[0]!;
      const normal = await medianOf(service, port, first, first.normal, headers, NORMAL_SAMPLES);
      let worst = { ms: -1, label: '' };
      for (const t of mine)
        for (const cls of CHAR_CLASSES)
          for (const size of SIZES) {
            const r = await medianOf(options.service, port, t, t.target(toHostileValue(cls, size)), headers, SAMPLES);
            if (r.ms > worst.ms) worst = { ms: r.ms, label: `${t.parameter}: ${cls.name}, ${size} B → ${r.status}` };
          }
      const row = {
        service,
        route,
        normalMs: normal.ms,
        worstMs: worst.ms,
        worst: worst.label,
        met: worst.ms - normal.ms <= LONG_PARAM_TARGET_MS,
      };
      progress.info(
        `${service} ${route}: normal ${row.normalMs.toFixed(2)} ms, worst ${row.worstMs.toFixed(2)} ms (${row.worst})`,
      );
      rows.push(row);
    }
    return rows;
  } finally {
    await child.stop();
  }
}

export function formatLongParams(rows: readonly LongParamRow[]): string {
  const lines = [
    `long parameters: each route's normal request against its slowest long value (16 KB, and ${MAX_QUERY_BYTES - 200} B under the 4 KiB query limit) of any kind, median ms on a fresh connection; target: within ${LONG_PARAM_TARGET_MS} ms`,
    '| service | route | normal ms | worst ms | worst case | result |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.service} | ${r.route} | ${r.normalMs.toFixed(2)} | ${r.worstMs.toFixed(2)} | ${r.worst} | ${r.met ? 'met' : 'NOT met'} |`,
    ),
  ];
  return lines.join('\n');
}
