// The static tree under sirv while a publish replaces files: sirv announces the sizes it listed when the
// tree was loaded, so a file replaced since must not go out under them; the publish keeps the tree they
// were listed from in `<service>.prev`, which has the right body. Replacing manifest.json in place
// with reloads off (so the server never looks at it again) puts the server in the state a publish leaves
// between the server's manifest check and sirv's open of the file, every time.
import { Agent, createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/core/app.ts';
import { facilities } from '../../server/facilities/routes.ts';
import { buildFixture } from '../helpers/facilities.ts';

type Answer = { status: number; body: Buffer } | { error: string };

/**
 * GET without Accept-Encoding (the identity file, not its precompressed siblings), bounded by `ms`, on a
 * keep-alive connection as browsers and API clients use: there a short body leaves the client waiting and
 * extra bytes become the start of the next response.
 */
function fetchIdentity(port: number, path: string, ms: number): Promise<Answer> {
  return new Promise((resolve) => {
    const agent = new Agent({ keepAlive: true });
    const req = get({ host: '127.0.0.1', port, path, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', (err) => resolve({ error: err.message }));
    });
    req.on('error', (err) => resolve({ error: err.message }));
    req.on('close', () => agent.destroy());
    req.setTimeout(ms, () => {
      resolve({ error: 'timed out' });
      req.destroy();
    });
  });
}

describe('static files replaced after the tree was listed', () => {
  let fx: Awaited<ReturnType<typeof buildFixture>>;
  let server: Server;
  let port: number;
  let manifest: string;
  let original: Buffer;

  beforeAll(async () => {
    fx = await buildFixture();
    manifest = join(fx.outDir, 'facilities', 'manifest.json');
    original = readFileSync(manifest);
    const app = createApp(facilities, { dataDir: fx.outDir, log: null, reloadIntervalMs: 0 });
    server = createServer(app.handler);
    await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((res) => server?.close(res));
    await fx?.root.remove();
  });

  it('serves the file as listed while it is unchanged', async () => {
    writeFileSync(manifest, original);
    const answer = await fetchIdentity(port, '/manifest.json', 3000);
    expect(answer).toEqual({ status: 200, body: original });
  });

  const changes = [
    ['shorter', () => original.subarray(0, original.length - 5)],
    ['longer', () => Buffer.concat([original, Buffer.from('     ')])],
  ] as const;

  it('answers a file gone from the live tree (between the publish\'s renames) from the previous tree, or closes at once', async () => {
    const live = join(fx.outDir, 'facilities');
    rmSync(manifest);
    const without = await fetchIdentity(port, '/manifest.json', 2000);
    cpSync(live, `${live}.prev`, { recursive: true });
    writeFileSync(join(`${live}.prev`, 'manifest.json'), original);
    const withPrevious = await fetchIdentity(port, '/manifest.json', 2000);
    rmSync(`${live}.prev`, { recursive: true, force: true });
    writeFileSync(manifest, original);
    expect(without).not.toHaveProperty('status');
    expect((without as { error: string }).error).not.toBe('timed out');
    expect(withPrevious).toEqual({ status: 200, body: original });
  });

  it.each(changes)('answers the listed file from the previous tree when the file is now %s', async (_label, next) => {
    const live = join(fx.outDir, 'facilities');
    cpSync(live, `${live}.prev`, { recursive: true });
    writeFileSync(manifest, next());
    const answer = await fetchIdentity(port, '/manifest.json', 2000);
    rmSync(`${live}.prev`, { recursive: true, force: true });
    writeFileSync(manifest, original);
    expect(answer).toEqual({ status: 200, body: original });
  });

  it.each(changes)('closes the connection at once, with no 200, when the file is now %s and no previous tree has it', async (_label, next) => {
    expect(existsSync(join(fx.outDir, 'facilities.prev'))).toBe(false);
    writeFileSync(manifest, next());
    // Well under the 5 s keep-alive time-out after which a short body would end anyway.
    const answer = await fetchIdentity(port, '/manifest.json', 2000);
    expect(answer).not.toHaveProperty('status');
    expect((answer as { error: string }).error).not.toBe('timed out');
    writeFileSync(manifest, original);
  });
});
