// Starts a service's app on a real socket (port 0) for tests, and builds fixture data into temp folders.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createApp, type ServiceApp } from '../../server/core/app.ts';
import type { LogLine } from '../../server/core/log.ts';
import type { ServiceDefinition } from '../../server/core/service.ts';
import { createServiceServer } from '../../server/core/http-server.ts';

export interface Running<D> {
  base: string;
  app: ServiceApp<D>;
  logs: LogLine[];
  close(): Promise<void>;
}

export async function startService<D>(
  def: ServiceDefinition<D>,
  dataDir: string,
  options: { reloadIntervalMs?: number; requestTimeout?: number; corsOrigins?: ReadonlySet<string> } = {},
): Promise<Running<D>> {
  const logs: LogLine[] = [];
  const app = createApp(def, {
    dataDir,
    log: (l) => logs.push(l),
    reloadIntervalMs: options.reloadIntervalMs ?? 0,
    corsOrigins: options.corsOrigins,
  });
  // The server npm start runs. fetch keeps connections alive; with Node's 5 s default a slow test can reuse
  // a socket the server is closing at that moment and see ECONNRESET. Tests close every connection themselves.
  const server = createServiceServer(app, { keepAliveTimeout: 120_000, requestTimeout: options.requestTimeout });
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    app,
    logs,
    close: () =>
      new Promise((res) => {
        app.close();
        server.closeAllConnections();
        server.close(() => res());
      }),
  };
}

export async function tempDir(prefix: string): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), `shardline-${prefix}-`));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** Where the real upstream samples live; tests that need them skip visibly when it is absent. */
export const SHARED_DATA = join(import.meta.dirname, '..', '..', '..', 'shared', 'data');
