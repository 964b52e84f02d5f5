// The yardstick: a bare node:http server answering each path from a Map of the app's own captured responses, head
// and body. What the ratio to it measures is what the app adds to make them (docs/reference/serving-anchors.md).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getLocal } from './http.ts';

export interface BareEntry {
  body: Buffer;
  /** The app's headers as a flat name/value list, so a request costs one Map read and one writeHead. */
  headers: string[];
}

export type BareTable = Map<string, BareEntry>;

/** Headers node:http writes on its own (per connection or per response), not part of what the app chose. */
const NODE_OWN = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** The app's headers from a raw header list (name, value, name, value …, as received), Node's own left out. */
export function toBareHeaders(rawHeaders: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (!NODE_OWN.has(rawHeaders[i]!.toLowerCase())) out.push(rawHeaders[i]!, rawHeaders[i + 1]!);
  }
  return out;
}

/**
 * Every response the load tests ask for is captured from the real app once, with the headers the test
 * sends (a bearer key), so the bare server answers with the app's exact head and bytes and the comparison
 * stays like for like. The bare server itself ignores request headers.
 */
export async function captureInto(
  table: BareTable,
  port: number,
  paths: readonly string[],
  headers: Record<string, string> = {},
  concurrency = 4,
): Promise<number> {
  let next = 0;
  let captured = 0;
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next++]!;
      if (table.has(path)) continue;
      const res = await getLocal(port, path, headers);
      if (res.status !== 200)
        throw new Error(
          `capturing ${path} from the app: status ${res.status}: ${res.body.toString('utf8').slice(0, 300)}`,
        );
      table.set(path, { body: res.body, headers: toBareHeaders(res.rawHeaders) });
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
