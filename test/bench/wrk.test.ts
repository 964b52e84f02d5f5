// The bench's wrk client (bench/wrk.ts): the script it writes, the figures it reads back, and a real run
// against a server on 127.0.0.1 when wrk is installed (a visible skip otherwise).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { luaString, runWrk, toLoadResult, wrkScript, wrkVersion } from '../../bench/wrk.ts';

const version = wrkVersion();
if (!version) console.warn('skipped: wrk not installed (apt-get install wrk): the bench wrk run test');

describe('wrk script', () => {
  it('escapes every byte outside printable ASCII, and quotes and backslashes', () => {
    expect(luaString('/api/search?q=a+b')).toBe('"/api/search?q=a+b"');
    expect(luaString('say "hi" \\ é\n')).toBe('"say \\34hi\\34 \\92 \\195\\169\\10"');
  });

  it('reads the paths from their file and sends the headers', () => {
    const script = wrkScript('/tmp/x/paths.txt', { authorization: 'Bearer sk_1' });
    expect(script).toContain('io.lines("/tmp/x/paths.txt")');
    expect(script).toContain('wrk.headers["authorization"] = "Bearer sk_1"');
    expect(wrkScript('/tmp/x/paths.txt', undefined)).not.toContain('wrk.headers[');
  });

  it('turns the printed figures into the bench result, errors and 4xx apart', () => {
    const out =
      'Running 1s test\n{"requests":1000,"durationUs":2000000,"p50":1500,"p90":2500,"p99":4200,"max":9000,"connect":0,"read":1,"write":0,"status":10,"timeout":2}\n';
    expect(toLoadResult(out)).toEqual({
      rps: 495,
      requests: 1000,
      p50Ms: 1.5,
      p90Ms: 2.5,
      p99Ms: 4.2,
      maxMs: 9,
      errors: 3,
      timeouts: 2,
      non2xx: 10,
      durationSec: 2,
    });
    expect(() => toLoadResult('wrk: unable to connect\n')).toThrow(/no figures/);
  });
});

describe.skipIf(!version)('wrk run', () => {
  let server: Server;
  let port: number;
  const seen: { url: string; auth: string | undefined }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push({ url: req.url ?? '', auth: req.headers.authorization });
      res.statusCode = req.url?.startsWith('/missing') ? 404 : 200;
      res.end('{}');
    });
    await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((res) => server?.close(res));
  });

  it('asks every path in turn with the headers, and counts 4xx apart from successes', async () => {
    const paths = ['/a?q=%C3%A9', '/b', '/c', '/missing'];
    const result = await runWrk({
      port,
      paths,
      headers: { authorization: 'Bearer sk_test' },
      connections: 4,
      durationSec: 1,
    });
    expect(result.requests).toBeGreaterThan(20);
    expect(new Set(seen.map((s) => s.url))).toEqual(new Set(paths));
    expect(seen.every((s) => s.auth === 'Bearer sk_test')).toBe(true);
    // One path in four is a 404: wrk stops mid-cycle, so the count is within one cycle of a quarter.
    expect(Math.abs(result.non2xx - result.requests / 4)).toBeLessThanOrEqual(4);
    expect(result.errors).toBe(0);
    expect(result.p50Ms).toBeGreaterThan(0);
    expect(result.p99Ms).toBeGreaterThanOrEqual(result.p50Ms);
    expect(result.rps).toBeCloseTo((result.requests - result.non2xx) / result.durationSec, 6);
  });

  it('fails clearly when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((res) => closed.listen(0, '127.0.0.1', res));
    const dead = (closed.address() as AddressInfo).port;
    await new Promise((res) => closed.close(res));
    await expect(runWrk({ port: dead, paths: ['/'], connections: 2, durationSec: 1 })).rejects.toThrow(
      /wrk exited with 1: unable to connect/,
    );
  });
});
