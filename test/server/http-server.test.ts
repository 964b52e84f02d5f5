// The HTTP server every service listens on (server/core/http-server.ts): a request that does not arrive in
// time gets a 408 problem, not a connection held open for Node's five minutes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_TIMEOUT_MS } from '../../server/core/http-server.ts';
import { join } from 'node:path';
import { createEconomyService } from '../../server/economy/routes.ts';
import { facilities } from '../../server/facilities/routes.ts';
import { type buildEconomyFixture, readOnlyEconomyFixture } from '../helpers/economy.ts';
import { type buildFixture, readOnlyFixture } from '../helpers/facilities.ts';
import { rawRequest } from '../helpers/raw-http.ts';
import { startService } from '../helpers/server.ts';

let fx: Awaited<ReturnType<typeof buildFixture>>;
let econ: Awaited<ReturnType<typeof buildEconomyFixture>>;
let srv: Awaited<ReturnType<typeof startService>>;
let mcp: Awaited<ReturnType<typeof startService>>;
beforeAll(async () => {
  fx = await readOnlyFixture();
  srv = await startService(facilities, fx.outDir, { requestTimeout: 1500 });
  // A route that reads a body: the economy service's /mcp.
  econ = await readOnlyEconomyFixture();
  mcp = await startService(createEconomyService({ stateDir: join(econ.root.path, 'state'), env: {} }), econ.outDir, {
    requestTimeout: 1500,
  });
});
afterAll(async () => {
  await srv.close();
  await mcp.close();
  await fx.root.remove();
  await econ.root.remove();
});

const portOf = (s: { base: string }) => Number(new URL(s.base).port);

describe('request time limits', () => {
  it('is 30 s by default, a tenth of Node’s', () => {
    expect(REQUEST_TIMEOUT_MS).toBe(30_000);
  });

  it.each([
    ['a head that never ends', () => srv, 'GET /api/v1/stats HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n'],
    [
      'a body that stops short of its Content-Length',
      () => mcp,
      'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\r\n{',
    ],
  ])('answers %s with 408 request_timeout within the limit', async (_label, server, bytes) => {
    const started = Date.now();
    const { response } = await rawRequest(
      portOf(server()),
      { head: Buffer.from(bytes, 'latin1') },
      { timeoutMs: 8000 },
    );
    expect(response?.status).toBe(408);
    expect(response?.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(response!.body.toString('utf8'))).toMatchObject({ status: 408, code: 'request_timeout' });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('still serves a request that arrives in time', async () => {
    expect((await fetch(`${srv.base}/api/v1/stats`)).status).toBe(200);
  });
});
