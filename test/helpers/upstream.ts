// A fake upstream on 127.0.0.1 for the nightly tests: each path answers a file (with a strong ETag and a
// Last-Modified, honouring If-None-Match with 304), a status, a truncated body, a stall or a hang; any
// other path can go to a fallback handler. Behaviours can be changed between requests; every request is
// recorded.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGzip, gzipSync } from 'node:zlib';

export type Behavior =
  | { kind: 'file'; body: Buffer; validators?: boolean }
  | { kind: 'status'; status: number }
  /** Promises the whole length, sends half, then drops the connection. */
  | { kind: 'truncate'; body: Buffer }
  /** Sends the headers and half the body, then nothing more. */
  | { kind: 'stall'; body: Buffer }
  /** Accepts the request and never answers. */
  | { kind: 'hang' }
  /** The body gzip-compressed (`Content-Encoding: gzip`), whole or cut in the middle. */
  | { kind: 'gzip'; body: Buffer; cut?: boolean };

export interface FakeUpstream {
  base: string;
  set(path: string, behavior: Behavior): void;
  /** A behaviour for the next request to `path` only (queued in front of the standing one). */
  once(path: string, behavior: Behavior): void;
  requests: { path: string; ifNoneMatch?: string; ifModifiedSince?: string; acceptEncoding?: string }[];
  close(): Promise<void>;
}

const LAST_MODIFIED = 'Sat, 31 Oct 2026 04:00:00 GMT';

export async function startFakeUpstream(
  fallback?: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<FakeUpstream> {
  const behaviors = new Map<string, Behavior>();
  const queued = new Map<string, Behavior[]>();
  const requests: FakeUpstream['requests'] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const ifNoneMatch = req.headers['if-none-match'];
    const ifModifiedSince = req.headers['if-modified-since'];
    const acceptEncoding = req.headers['accept-encoding'];
    requests.push({
      path,
      ...(ifNoneMatch ? { ifNoneMatch } : {}),
      ...(ifModifiedSince ? { ifModifiedSince } : {}),
      ...(acceptEncoding ? { acceptEncoding } : {}),
    });
    const b = queued.get(path)?.shift() ?? behaviors.get(path);
    if (!b) {
      if (fallback) return fallback(req, res);
      res.writeHead(404).end('not here');
      return;
    }
    switch (b.kind) {
      case 'file': {
        const etag = `"${createHash('sha256').update(b.body).digest('hex').slice(0, 16)}"`;
        const validators = b.validators ?? true;
        if (validators && ifNoneMatch === etag) {
          res.writeHead(304, { ETag: etag }).end();
          return;
        }
        res.writeHead(200, {
          'Content-Type': 'text/csv',
          'Content-Length': b.body.length,
          ...(validators ? { ETag: etag, 'Last-Modified': LAST_MODIFIED } : {}),
        });
        res.end(b.body);
        return;
      }
      case 'status':
        res.writeHead(b.status, { 'Content-Type': 'text/plain' }).end(`status ${b.status}`);
        return;
      case 'truncate':
        res.writeHead(200, { 'Content-Length': b.body.length });
        res.write(b.body.subarray(0, Math.floor(b.body.length / 2)), () => res.destroy());
        return;
      case 'stall':
        res.writeHead(200, { 'Content-Length': b.body.length });
        res.write(b.body.subarray(0, Math.floor(b.body.length / 2)));
        return;
      case 'hang':
        return;
      case 'gzip': {
        // Coded whatever the request asks. Cut: a stream flushed part-way and then ended cleanly, with a
        // Content-Length that matches what was sent, so only the missing gzip trailer tells.
        let gz = gzipSync(b.body);
        if (b.cut) {
          const z = createGzip();
          const parts: Buffer[] = [];
          z.on('data', (c: Buffer) => parts.push(c));
          z.write(b.body.subarray(0, Math.floor(b.body.length / 2)));
          z.flush(() => {
            gz = Buffer.concat(parts);
            res.writeHead(200, { 'Content-Encoding': 'gzip', 'Content-Length': gz.length }).end(gz);
            z.close();
          });
          return;
        }
        res.writeHead(200, { 'Content-Encoding': 'gzip', 'Content-Length': gz.length }).end(gz);
        return;
      }
    }
  });
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    set: (path, behavior) => void behaviors.set(path, behavior),
    once: (path, behavior) => void queued.set(path, [...(queued.get(path) ?? []), behavior]),
    requests,
    close: () =>
      new Promise((res) => {
        server.closeAllConnections();
        server.close(() => res());
      }),
  };
}
