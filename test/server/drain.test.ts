// The first step of a shutdown (server/core/http-server.ts, drainConnections): keep-alive clients are told
// to go, idle connections closed, and answers still given.
import { request, Agent } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/core/app.ts';
import { createServiceServer, DRAIN_BODY_GRACE_MS, drainConnections } from '../../server/core/http-server.ts';
import { facilities } from '../../server/facilities/routes.ts';
import { readJsonBody } from '../../server/core/body.ts';
import { waitFor } from '../helpers/wait.ts';
import { type buildFixture, readOnlyFixture } from '../helpers/facilities.ts';

let fx: Awaited<ReturnType<typeof buildFixture>>;
beforeAll(async () => {
  fx = await readOnlyFixture();
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

  it('closes a connection half-way through its request head at once, and one with half a body after a moment', async () => {
    // Facilities with one route that reads a JSON body, as the carriers tool route does.
    let reading = false;
    const withBody: typeof facilities = {
      ...facilities,
      routes(r) {
        facilities.routes(r);
        r.post('/echo', async (req, res) => {
          reading = true;
          res.end(JSON.stringify(await readJsonBody(req, 1000)));
        });
      },
    };
    const app = createApp(withBody, { dataDir: fx.outDir, log: null, reloadIntervalMs: 0 });
    const server = createServiceServer(app, { keepAliveTimeout: 60_000 });
    await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
    const { port } = server.address() as AddressInfo;
    const open = (bytes: string) =>
      new Promise<Socket>((res, rej) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write(bytes);
          res(socket);
        });
        socket.on('error', rej);
        // Read what comes (the 405 of the POST), or the socket never reports its end.
        socket.resume();
      });
    const closedAfter = (socket: Socket, from: number) =>
      new Promise<number>((res) => socket.once('close', () => res(performance.now() - from)));
    try {
      const head = await open('GET /api/v1/stats HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half');
      // A POST whose body stops half-way, to a route that waits for all of it.
      const body = await open(
        'POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":',
      );
      const connections = () => new Promise<number>((r) => server.getConnections((_, n) => r(n)));
      await waitFor('the route is reading the half body', async () => reading && (await connections()) === 2);
      const start = performance.now();
      const headClosed = closedAfter(head, start);
      const bodyClosed = closedAfter(body, start);
      const serverClosed = new Promise<number>((res) => server.close(() => res(performance.now() - start)));
      drainConnections(server, app.handler);
      expect(await headClosed).toBeLessThan(500);
      const bodyMs = await bodyClosed;
      expect(bodyMs).toBeGreaterThanOrEqual(DRAIN_BODY_GRACE_MS - 50);
      expect(bodyMs).toBeLessThan(DRAIN_BODY_GRACE_MS + 1500);
      expect(await serverClosed).toBeLessThan(DRAIN_BODY_GRACE_MS + 2000);
    } finally {
      app.close();
      server.closeAllConnections();
    }
  });
});
