// Every response carries X-Data-Version (shared/contracts/common.md). The app stamps the version on the
// response object when a request arrives; the writers (payloads, problems, static files) put it in the
// headers they write in one go, which keeps Node on its fast header path (no setHeader before writeHead).
import type { ServerResponse } from 'node:http';

const VERSION = Symbol('shardline.dataVersion');

type Stamped = ServerResponse & { [VERSION]?: string };

export function stampVersion(res: ServerResponse, version: string): void {
  (res as Stamped)[VERSION] = version;
}

export function versionOf(res: ServerResponse): string | undefined {
  return (res as Stamped)[VERSION];
}

/** For writers that set headers one by one (streams, SDK transports): the same header, set now. */
export function setVersionHeader(res: ServerResponse): void {
  const v = versionOf(res);
  if (v !== undefined && !res.headersSent) res.setHeader('X-Data-Version', v);
}
