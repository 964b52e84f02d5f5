// The yardstick: a bare node:http server answering each path with one Map read of a precomputed Buffer and
// its headers. It has no router, no log, no conditional GET: what is left when serving costs nothing.
// Comparing the app with it in the same run cancels the VM's noise (shared/reference/serving-anchors.md).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Payload } from '../server/core/payload.ts';
import { getLocal } from './http.ts';

export interface BareEntry {
  body: Buffer;
  /** Built once, so a request costs one Map read and one writeHead. */
  headers: Record<string, string | number>;
}

export type BareTable = Map<string, BareEntry>;

export function toBareEntry(body: Buffer, type: string, etag: string): BareEntry {
  return { body, headers: { 'content-type': type, 'content-length': body.length, etag } };
}

/** The same Buffers the app serves, keyed by URL path: the app adds a charset to JSON types, so does this. */
export function toBareTable(payloads: ReadonlyMap<string, Payload>): BareTable {
  const table: BareTable = new Map();
  for (const [path, p] of payloads) {
    const type = p.type.startsWith('application/json') && !p.type.includes('charset') ? `${p.type}; charset=utf-8` : p.type;
    table.set(path, toBareEntry(p.body, type, p.etag));
  }
  return table;
}

/**
 * Responses computed per request (searches, signed-in lookups) are captured from the real app once, with
 * the headers the load test sends (a bearer key), so the bare server answers them with the app's exact
 * bytes and the comparison stays like for like. The bare server itself ignores request headers.
 */
export async function captureInto(table: BareTable, port: number, paths: readonly string[], headers: Record<string, string> = {}, concurrency = 4): Promise<number> {
  let next = 0;
  let captured = 0;
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next++]!;
      if (table.has(path)) continue;
      const res = await getLocal(port, path, headers);
      if (res.status !== 200) throw new Error(`capturing ${path} from the app: status ${res.status}: ${res.body.toString('utf8').slice(0, 300)}`);
      table.set(path, toBareEntry(res.body, String(res.headers['content-type'] ?? 'application/json'), String(res.headers.etag ?? '')));
      captured++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return captured;
}

export function createBareHandler(table: BareTable): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const entry = table.get(req.url ?? '');
    if (!entry) {
      res.statusCode = 404;
      res.end();
      return;
    }
    res.writeHead(200, entry.headers);
    res.end(entry.body);
  };
}
