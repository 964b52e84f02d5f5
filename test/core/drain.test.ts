// The first step of a shutdown (server/core/http-server.ts, drainConnections): keep-alive clients are told
// to go, idle connections closed, and answers still given.
import { request, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/core/app.ts';
import { createServiceServer, drainConnections } from '../../server/core/http-server.ts';
import { facilities } from '../../server/facilities/routes.ts';
import { buildFixture } from '../helpers/facilities.ts';

let fx: Awaited<ReturnType<typeof buildFixture>>;
beforeAll(async () => {
  fx = await buildFixture();
});
afterAll(() => fx.root.remove());

function get(
  port: number,
  agent: Agent,
): Promise<{ status: number; connection: string | undefined; socket: import('node:net').Socket }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/api/v1/stats', agent }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, socket: req.socket! }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('drainConnections', () => {
  it('answers with Connection: close from then on and closes the idle keep-alive connections', async () => {
    const app = createApp(facilities, { dataDir: fx.outDir, log: null, reloadIntervalMs: 0 });
    const server = createServiceServer(app, { keepAliveTimeout: 60_000 });
    await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
    const { port } = server.address() as AddressInfo;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const before = await get(port, agent);
      expect(before).toMatchObject({ status: 200, connection: 'keep-alive' });
      const idle = before.socket;
      const closed = new Promise<void>((res) => idle.once('close', () => res()));
      drainConnections(server, app.handler);
      // The idle connection is closed by the server (the agent would have reused it).
      await closed;
      const after = await get(port, agent);
      expect(after).toMatchObject({ status: 200, connection: 'close' });
    } finally {
      agent.destroy();
      app.close();
      server.closeAllConnections();
      await new Promise<void>((res) => server.close(() => res()));
    }
  });
});
