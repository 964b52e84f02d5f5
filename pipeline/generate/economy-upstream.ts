// A fake Statistics Canada WDS and Bank of Canada Valet answering from the files `npm run generate -- --service
// economy` writes (economy.ts): the three WDS methods and the Valet call the clients make, by the end of the request
// path, whatever comes before it. Point STATCAN_WDS_URL and BOC_VALET_URL at a server from
// `createGeneratedUpstreamHandler` (tests and benchmarks listen on 127.0.0.1) and the real clients pull from it.
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';

export interface GeneratedResponse {
  status: number;
  body: string;
}

type Envelope = { status: string; object: Record<string, unknown> & { vectorDataPoint?: unknown[] } };
type ValetBody = {
  terms?: unknown;
  seriesDetail?: Record<string, unknown>;
  observations: ({ d: string } & Record<string, unknown>)[];
};

const json = (status: number, doc: unknown): GeneratedResponse => ({ status, body: JSON.stringify(doc) });
/** WDS's item for a vector it does not know (getCodeSets wdsResponseStatus 4). */
const invalidVector = (vectorId: unknown) => ({
  status: 'FAILED',
  object: { responseStatusCode: 4, productId: 0, coordinate: '.........', vectorId: Number(vectorId) || null },
});

/** Reads and parses generated files once each. */
function createFileCache(dir: string) {
  const cache = new Map<string, Promise<unknown>>();
  return (file: string): Promise<unknown> => {
    let p = cache.get(file);
    if (!p) {
      p = readFile(join(dir, file), 'utf8').then(
        (text) => JSON.parse(text) as unknown,
        () => undefined,
      );
      cache.set(file, p);
    }
    return p;
  };
}

function parseRequests(body: string | undefined): { vectorId?: unknown; latestN?: unknown }[] | undefined {
  try {
    const parsed: unknown = JSON.parse(body ?? '');
    return Array.isArray(parsed) ? (parsed as { vectorId?: unknown; latestN?: unknown }[]) : undefined;
  } catch {
    return undefined;
  }
}

/** `vectorId` as a file name: a positive integer, else undefined (no path ever comes from the request). */
const toVectorFile = (v: unknown): string | undefined =>
  Number.isSafeInteger(Number(v)) && Number(v) > 0 ? String(Number(v)) : undefined;

/** Answers one request from the generated folder `dir` (the one holding `upstream/`). */
export function createGeneratedResponder(
  dir: string,
): (method: string, url: URL, body: string | undefined) => Promise<GeneratedResponse> {
  const load = createFileCache(join(dir, 'upstream'));
  return async (method, url, body) => {
    const path = url.pathname;
    for (const wds of ['getDataFromVectorsAndLatestNPeriods', 'getSeriesInfoFromVector'] as const) {
      if (!path.endsWith(`/${wds}`)) continue;
      if (method !== 'POST') return json(405, { message: `${wds} is a POST method` });
      const list = parseRequests(body);
      if (!list) return json(406, { message: 'the body must be a JSON array of {vectorId}' });
      const items = [];
      for (const r of list) {
        const file = toVectorFile(r.vectorId);
        const doc = file ? ((await load(`wds/${wds}/${file}.json`)) as Envelope[] | undefined) : undefined;
        const item = doc?.[0];
        if (!item) {
          items.push(invalidVector(r.vectorId));
          continue;
        }
        const n = Number(r.latestN);
        const points = item.object.vectorDataPoint;
        // The files hold the whole series (latestN 6000); a smaller latestN keeps the latest periods.
        if (
          wds === 'getDataFromVectorsAndLatestNPeriods' &&
          Array.isArray(points) &&
          Number.isInteger(n) &&
          n >= 1 &&
          n < points.length
        ) {
          items.push({ ...item, object: { ...item.object, vectorDataPoint: points.slice(points.length - n) } });
        } else items.push(item);
      }
      return json(200, items);
    }
    const valet = /\/observations\/([^/]+)\/json$/.exec(path);
    if (valet) {
      if (method !== 'GET') return json(405, { message: 'observations is a GET method' });
      const names = decodeURIComponent(valet[1]!).split(',');
      const start = url.searchParams.get('start_date') ?? '';
      const end = url.searchParams.get('end_date') ?? '9999-12-31';
      const rows = new Map<string, Record<string, unknown>>();
      const seriesDetail: Record<string, unknown> = {};
      let terms: unknown;
      for (const name of names) {
        const doc = /^[A-Za-z0-9_.]+$/.test(name)
          ? ((await load(`valet/observations/${name}/json`)) as ValetBody | undefined)
          : undefined;
        // Valet's own answer to an unknown series name.
        if (!doc)
          return json(404, { message: `Series ${name} not found.`, docs: 'https://www.bankofcanada.ca/valet/docs' });
        terms ??= doc.terms;
        Object.assign(seriesDetail, doc.seriesDetail);
        for (const row of doc.observations) {
          if (row.d < start || row.d > end) continue;
          const merged = rows.get(row.d) ?? { d: row.d };
          rows.set(row.d, { ...merged, ...row });
        }
      }
      const observations = [...rows.values()].sort((a, b) => ((a.d as string) < (b.d as string) ? -1 : 1));
      return { status: 200, body: JSON.stringify({ terms, seriesDetail, observations }, null, 4) };
    }
    return json(404, { message: `no generated answer for ${method} ${path}` });
  };
}

/** The responder as a node:http request listener. */
export function createGeneratedUpstreamHandler(dir: string): (req: IncomingMessage, res: ServerResponse) => void {
  const respond = createGeneratedResponder(dir);
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const body = chunks.length ? Buffer.concat(chunks).toString('utf8') : undefined;
      respond(req.method ?? 'GET', url, body).then(
        (r) => {
          res.writeHead(r.status, { 'Content-Type': 'application/json' });
          res.end(r.body);
        },
        (err: unknown) => {
          res.writeHead(500, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ message: (err as Error).message }));
        },
      );
    });
  };
}
