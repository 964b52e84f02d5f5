// One request through node:http, which neither decodes bodies nor adds Accept-Encoding: what a test of
// codings, tags and conditional requests must see as the server sent it.
import { request, type IncomingHttpHeaders } from 'node:http';

export interface PlainAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body's bytes as sent (still compressed when Content-Encoding says so). */
  body: Buffer;
}

/** `target`: a port on 127.0.0.1 or a base URL (`http://127.0.0.1:8081`). */
export function sendPlain(
  target: number | string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<PlainAnswer> {
  const port = typeof target === 'number' ? target : Number(new URL(target).port);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}
