// One GET over node:http rather than fetch: fetch asks for gzip and br on its own, and the bench must see
// the identity body that autocannon gets (autocannon sends no Accept-Encoding).
import { request } from 'node:http';

export interface Fetched {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Header names and values as received, in order (names in the sender's case). */
  rawHeaders: string[];
  body: Buffer;
}

export function getLocal(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  timeoutMs = 10_000,
): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'GET',
        headers: { ...headers, 'accept-encoding': 'identity' },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            rawHeaders: res.rawHeaders,
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`GET ${path}: no answer in ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}
