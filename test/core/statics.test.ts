// The static tree under sirv while a publish replaces files: sirv announces the size and ETag it listed
// when the tree was loaded, so a file replaced since must not go out under them; the publish keeps the tree
// they were listed from in `<service>.prev` (moved by a rename, modification times kept), which has the
// right body. Replacing manifest.json in place
// with reloads off (so the server never looks at it again) puts the server in the state a publish leaves
// between the server's manifest check and sirv's open of the file, every time.
import { Agent, createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpSync, existsSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
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
  let listedAt: Date;

  beforeAll(async () => {
    fx = await buildFixture();
    manifest = join(fx.outDir, 'facilities', 'manifest.json');
    original = readFileSync(manifest);
    listedAt = statSync(manifest).mtime;
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

  /** Puts the listed file back as it was listed: its bytes and its modification time. */
  const restore = () => {
    writeFileSync(manifest, original);
    utimesSync(manifest, listedAt, listedAt);
  };
  /** The live tree as `<service>.prev`, as the publish's rename leaves it: modification times kept. */
  const keepPrevious = (live: string) => cpSync(live, `${live}.prev`, { recursive: true, preserveTimestamps: true });

  it('serves the file as listed while it is unchanged', async () => {
    restore();
    const answer = await fetchIdentity(port, '/manifest.json', 3000);
    expect(answer).toEqual({ status: 200, body: original });
  });

  // The same size: the first byte changed (`{` to ` `, still JSON), written a minute after the listing.
  const sameSize = () => Buffer.concat([Buffer.from(' '), original.subarray(1)]);
  const changes = [
    ['shorter', () => original.subarray(0, original.length - 5)],
    ['longer', () => Buffer.concat([original, Buffer.from('     ')])],
    ['the same size with other bytes', sameSize],
  ] as const;
  const replace = (bytes: Buffer) => {
    writeFileSync(manifest, bytes);
    const later = new Date(listedAt.getTime() + 60_000);
    utimesSync(manifest, later, later);
  };

  it('answers a file gone from the live tree (between the publish\'s renames) from the previous tree, or closes at once', async () => {
    const live = join(fx.outDir, 'facilities');
    rmSync(manifest);
    const without = await fetchIdentity(port, '/manifest.json', 2000);
    keepPrevious(live);
    writeFileSync(join(`${live}.prev`, 'manifest.json'), original);
    utimesSync(join(`${live}.prev`, 'manifest.json'), listedAt, listedAt);
    const withPrevious = await fetchIdentity(port, '/manifest.json', 2000);
    rmSync(`${live}.prev`, { recursive: true, force: true });
    restore();
    expect(without).not.toHaveProperty('status');
    expect((without as { error: string }).error).not.toBe('timed out');
    expect(withPrevious).toEqual({ status: 200, body: original });
  });

  it.each(changes)('answers the listed file from the previous tree when the file is now %s', async (_label, next) => {
    const live = join(fx.outDir, 'facilities');
    keepPrevious(live);
    replace(next());
    const answer = await fetchIdentity(port, '/manifest.json', 2000);
    rmSync(`${live}.prev`, { recursive: true, force: true });
    restore();
    expect(answer).toEqual({ status: 200, body: original });
  });

  it('closes the connection when the previous tree\'s file is not the one listed either', async () => {
    const live = join(fx.outDir, 'facilities');
    keepPrevious(live);
    const previous = join(`${live}.prev`, 'manifest.json');
    writeFileSync(previous, sameSize());
    utimesSync(previous, new Date(listedAt.getTime() + 1), new Date(listedAt.getTime() + 1));
    replace(sameSize());
    const answer = await fetchIdentity(port, '/manifest.json', 2000);
    rmSync(`${live}.prev`, { recursive: true, force: true });
    restore();
    expect(answer).not.toHaveProperty('status');
    expect((answer as { error: string }).error).not.toBe('timed out');
  });

  it.each(changes)('closes the connection at once, with no 200, when the file is now %s and no previous tree has it', async (_label, next) => {
    expect(existsSync(join(fx.outDir, 'facilities.prev'))).toBe(false);
    replace(next());
    // Well under the 5 s keep-alive time-out after which a short body would end anyway.
    const answer = await fetchIdentity(port, '/manifest.json', 2000);
    expect(answer).not.toHaveProperty('status');
    expect((answer as { error: string }).error).not.toBe('timed out');
    restore();
  });
});
