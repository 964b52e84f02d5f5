// The headers every response carries (docs/contracts/common.md): X-Data-Version, X-Content-Type-Options
// and, as the route's access allows, CORS's (server/core/cors.ts). The app stamps the list on the response
// when a request arrives, one list made once per loaded build for the public routes and one made per request
// for a signed-in route; the writers (payloads, problems, static files) put it in the headers they write in
// one go, which keeps Node on its fast header path (no setHeader before writeHead).
import type { ServerResponse } from 'node:http';

const STAMP = Symbol('shardline.headers');

type Stamped = ServerResponse & { [STAMP]?: readonly string[] };

/** `headers` is a flat list, name then value: `['X-Data-Version', 'abc', …]`. */
export function stampHeaders(res: ServerResponse, headers: readonly string[]): void {
  (res as Stamped)[STAMP] = headers;
}

export function stampedHeaders(res: ServerResponse): readonly string[] | undefined {
  return (res as Stamped)[STAMP];
}

/** For writers that set headers one by one (streams, SDK transports): the same headers, set now. */
export function setStampedHeaders(res: ServerResponse): void {
  const list = stampedHeaders(res);
  if (list === undefined || res.headersSent) return;
  for (let i = 0; i < list.length; i += 2) appendHeader(res, list[i]!, list[i + 1]!);
}

/**
 * Vary is a list: a value joins what is there (Vary: Accept-Encoding, Origin), once; other headers are
 * replaced, so setting the stamp twice changes nothing.
 */
function appendHeader(res: ServerResponse, name: string, value: string): void {
  const had = name === 'Vary' ? res.getHeader('Vary') : undefined;
  if (had === undefined) return void res.setHeader(name, value);
  const list = String(had);
  if (!list.split(',').some((v) => v.trim().toLowerCase() === value.toLowerCase()))
    res.setHeader(name, `${list}, ${value}`);
}
