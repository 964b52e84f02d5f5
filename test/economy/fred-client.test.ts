// A FRED client library reading Canadian series from /fred unchanged: node-fred (npm), whose base URL is fixed
// at https://api.stlouisfed.org/fred/, reaches this server the way a client behind a TLS-inspecting proxy does.
// The test's proxy on 127.0.0.1 answers CONNECT, ends TLS with a certificate for api.stlouisfed.org signed
// by a CA made here with openssl (given to the client's process as NODE_EXTRA_CA_CERTS), and hands each
// request to this server's /fred over the fake upstream of test/helpers/economy-routes.ts. What the library
// returns is compared with what /fred answers.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { TLSSocket } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RoutesUnderTest, START, startObservationRoutes } from '../helpers/economy-routes.ts';
import { tempDir } from '../helpers/server.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HOST = 'api.stlouisfed.org';

/** A CA and a certificate for HOST signed by it, made with openssl in `dir`. */
function makeCertificates(dir: string): { ca: string; key: string; cert: string } {
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  run('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=shardline test CA');
  run('req', ...ec, '-keyout', 'leaf.key', '-out', 'leaf.csr', '-subj', `/CN=${HOST}`);
  writeFileSync(join(dir, 'ext.cnf'), `subjectAltName=DNS:${HOST}\n`);
  run(
    ...['x509', '-req', '-in', 'leaf.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial'],
    ...['-out', 'leaf.pem', '-days', '2', '-extfile', 'ext.cnf'],
  );
  const read = (name: string) => readFileSync(join(dir, name), 'utf8');
  return { ca: join(dir, 'ca.pem'), key: read('leaf.key'), cert: read('leaf.pem') };
}

/** The proxy: CONNECT to HOST:443 ends TLS here, and each request inside goes to `target` + its path. */
async function startProxy(key: string, cert: string, target: (path: string) => string) {
  const seen: string[] = [];
  const inner = createServer(async (req, res) => {
    seen.push(req.url ?? '');
    const answer = await fetch(target(req.url ?? '/'));
    res.writeHead(answer.status, { 'Content-Type': answer.headers.get('content-type') ?? 'text/plain' });
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  const proxy: Server = createServer((_req, res) => {
    res.statusCode = 405;
    res.end();
  });
  proxy.on('connect', (req, socket) => {
    if (req.url !== `${HOST}:443`) {
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n', () => {
      inner.emit('connection', new TLSSocket(socket, { isServer: true, key, cert }));
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        proxy.closeAllConnections();
        inner.closeAllConnections();
        proxy.close(() => r());
      }),
  };
}

/** Runs `calls` (the body of an async function given `fred`, a node-fred client) in a child; its JSON result. */
function runClient(calls: string, env: Record<string, string>): Promise<unknown> {
  const script = `import Fred from 'node-fred';
const fred = new (Fred.default ?? Fred)('abcdefghijklmnopqrstuvwxyz123456');
const out = await (async () => { ${calls} })();
process.stdout.write(JSON.stringify(out));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c));
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`node-fred exited ${code}: ${stderr}`));
      else resolve(JSON.parse(stdout));
    });
  });
}

describe('node-fred, a FRED client library, pointed at /fred', () => {
  let routes: RoutesUnderTest;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let env: Record<string, string>;
  const fredJson = async (path: string) =>
    (await fetch(routes.url(`${path}${path.includes('?') ? '&' : '?'}file_type=json`))).json();

  beforeAll(async () => {
    routes = await startObservationRoutes(() => new Date(START), 'economy-fred-client');
    dir = await tempDir('fred-client');
    const { ca, key, cert } = makeCertificates(dir.path);
    proxy = await startProxy(key, cert, routes.url);
    env = { HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: ca };
  });
  afterAll(async () => {
    await proxy?.close();
    await routes?.close();
    await dir?.remove();
  });

  it('reads a series, its observations, its vintage dates and a search as /fred answers them', async () => {
    const got = (await runClient(
      `return {
        series: await fred.series.getSeries('CPI_ALL_ITEMS'),
        observations: await fred.series.getObservationsForSeries('CPI_ALL_ITEMS', { observation_start: '2025-11-01' }),
        vintages: await fred.series.getVintageDatesSeries('CPI_ALL_ITEMS'),
        search: await fred.series.getSeriesThatMatchesSearch('usd'),
        children: await fred.categories.getChildCategories(0),
      };`,
      env,
    )) as { [k in 'series' | 'observations' | 'vintages' | 'search' | 'children']: Record<string, unknown> };
    expect(got.series).toEqual(await fredJson('/fred/series?series_id=CPI_ALL_ITEMS'));
    expect(got.observations).toEqual(
      await fredJson('/fred/series/observations?series_id=CPI_ALL_ITEMS&observation_start=2025-11-01'),
    );
    expect((got.observations.observations as { date: string; value: string }[]).map((o) => [o.date, o.value])).toEqual([
      ['2025-11-01', '164.5'],
      ['2025-12-01', '.'],
      ['2026-01-01', '165'],
    ]);
    expect(got.vintages).toEqual(await fredJson('/fred/series/vintagedates?series_id=CPI_ALL_ITEMS'));
    expect((got.search.seriess as { id: string }[]).map((s) => s.id)).toEqual(['USD_CAD']);
    expect((got.children.categories as unknown[]).length).toBe(8);
    // Every request went through the proxy to /fred, with the key and the file type the library sends.
    expect(
      proxy.seen.every((p) => p.startsWith('/fred/') && p.includes('api_key=') && p.includes('file_type=json')),
    ).toBe(true);
  });

  it('gets FRED’s error document for an unknown series, which the library rejects with as it is', async () => {
    // node-fred rejects with the body of an HTTP error: FRED's { error_code, error_message }.
    const got = await runClient(
      `try { await fred.series.getSeries('NOPE'); return 'no error'; } catch (err) { return err; }`,
      env,
    );
    expect(got).toEqual({ error_code: 400, error_message: 'Bad Request.  The series NOPE does not exist.' });
  });
});
