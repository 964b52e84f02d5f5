// The static tree while a publish replaces files: the server answers with the size and ETag it listed
// when the tree was loaded, so a file replaced since must not go out under them; the server holds the
// listed file open (server/core/held-tree.ts), and the publish keeps the tree they were listed from in
// `<service>.prev` (moved by a rename, modification times kept): either has the right body. Replacing
// manifest.json in place with reloads off (so the server never looks at it again) puts the server in the
// state a publish leaves between the server's manifest check and its read of the file, every time.
import { createHash } from 'node:crypto';
import { Agent, get } from 'node:http';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendPlain } from '../helpers/plain-http.ts';
import { facilities } from '../../server/facilities/routes.ts';
import { buildFixture } from '../helpers/facilities.ts';
import { startService, type Running } from '../helpers/server.ts';

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
  let server: Running<unknown>;
  let port: number;
  let manifest: string;
  let original: Buffer;
  let listedAt: Date;

  beforeAll(async () => {
    fx = await buildFixture();
    manifest = join(fx.outDir, 'facilities', 'manifest.json');
    original = readFileSync(manifest);
    listedAt = statSync(manifest).mtime;
    server = await startService(facilities, fx.outDir);
    port = Number(new URL(server.base).port);
  });

  afterAll(async () => {
    await server?.close();
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

  it.each(changes)('answers the listed file from the previous tree when the file is now %s', async (_label, next) => {
    const live = join(fx.outDir, 'facilities');
    keepPrevious(live);
    replace(next());
    const answer = await fetchIdentity(port, '/manifest.json', 2000);
    rmSync(`${live}.prev`, { recursive: true, force: true });
    restore();
    expect(answer).toEqual({ status: 200, body: original });
  });

  it("closes the connection when the previous tree's file is not the one listed either", async () => {
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

  it.each(changes)(
    'closes the connection at once, with no 200, when the file is now %s and no previous tree has it',
    async (_label, next) => {
      expect(existsSync(join(fx.outDir, 'facilities.prev'))).toBe(false);
      replace(next());
      // A short body would leave the client waiting (the server keeps an idle connection open for minutes).
      const answer = await fetchIdentity(port, '/manifest.json', 2000);
      expect(answer).not.toHaveProperty('status');
      expect((answer as { error: string }).error).not.toBe('timed out');
      restore();
    },
  );

  // Last: the removed file's copy held since the listing stays the listed one for this server's life.
  it("answers a file removed from the live tree (moved away, or between the publish's renames) from the copy held since the listing", async () => {
    rmSync(manifest);
    const without = await fetchIdentity(port, '/manifest.json', 2000);
    restore();
    expect(without).toEqual({ status: 200, body: original });
  });
});

describe('the static tree answered as the routes are', () => {
  let fx: Awaited<ReturnType<typeof buildFixture>>;
  let server: Running<unknown>;
  let port: number;
  let live: string;
  let checksums: Record<string, string>;
  /** A file of the tree with gzip and brotli siblings that no route answers, as a URL path. */
  let compressed: string;

  beforeAll(async () => {
    fx = await buildFixture();
    live = join(fx.outDir, 'facilities');
    checksums = (JSON.parse(readFileSync(join(live, 'checksums.json'), 'utf8')) as { files: Record<string, string> })
      .files;
    expect(checksums['report.json.gz'] && checksums['report.json.br']).toBeTruthy();
    compressed = '/report.json';
    // Files in the folder that are not the build's: a STATE_DIR put inside it by mistake, a stray copy.
    mkdirSync(join(live, 'state'));
    writeFileSync(join(live, 'state', 'accounts.sqlite'), 'SQLite format 3');
    writeFileSync(join(live, 'stray.json'), '{}');
    // A stray coding beside a listed file that has none: not the build's bytes either.
    writeFileSync(join(live, 'manifest.json.gz'), 'not gzip');
    server = await startService(facilities, fx.outDir);
    port = Number(new URL(server.base).port);
  });

  afterAll(async () => {
    await server?.close();
    await fx?.root.remove();
  });

  const tagOf = (rel: string) => `"${checksums[rel]!.slice(0, 32)}"`;

  it('gives a file the strong ETag of its checksum, as its route gives the same bytes', async () => {
    const file = await sendPlain(port, '/api/v1/spine.json');
    const route = await sendPlain(port, '/api/v1/spine');
    expect(file.status).toBe(200);
    expect(file.headers.etag).toBe(tagOf('api/v1/spine.json'));
    expect(file.headers.etag).toBe(route.headers.etag);
    expect(file.body.equals(route.body)).toBe(true);
    expect(file.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(file.headers['x-data-version']).toBe(route.headers['x-data-version']);
  });

  it('tags manifest.json and checksums.json by their own hashes', async () => {
    const manifest = await sendPlain(port, '/manifest.json');
    const sum = createHash('sha256').update(manifest.body).digest('hex');
    expect(manifest.headers.etag).toBe(`"${sum.slice(0, 32)}"`);
    const sums = await sendPlain(port, '/checksums.json');
    expect(sums.headers.etag).toBe(`"${createHash('sha256').update(sums.body).digest('hex').slice(0, 32)}"`);
  });

  const gzipTag = (tag: string) => `${tag.slice(0, -1)}-gz"`;
  it.each([
    ['the tag of the gzip body', gzipTag],
    ['its weak form', (tag: string) => `W/${gzipTag(tag)}`],
    ['a list holding it', (tag: string) => `"nope", ${gzipTag(tag)}`],
    ['*', () => '*'],
  ])('answers If-None-Match with %s by a 304 that carries the caching headers', async (_label, header) => {
    const res = await sendPlain(port, compressed, {
      'If-None-Match': header(tagOf(compressed.slice(1))),
      'Accept-Encoding': 'gzip',
    });
    expect(res.status).toBe(304);
    expect(res.body.length).toBe(0);
    expect(res.headers.etag).toBe(`${tagOf(compressed.slice(1)).slice(0, -1)}-gz"`);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers['x-data-version']).toMatch(/^[0-9a-f]{16}$/);
    expect(res.headers.vary).toBe('Accept-Encoding');
  });

  it("answers another tag with the file, the identity body's tag for the gzip body among them", async () => {
    const gzip = await sendPlain(port, compressed, {
      'If-None-Match': tagOf(compressed.slice(1)),
      'Accept-Encoding': 'gzip',
    });
    expect(gzip.status).toBe(200);
    expect(gzip.body.equals(readFileSync(join(live, `${compressed.slice(1)}.gz`)))).toBe(true);
    const res = await sendPlain(port, compressed, { 'If-None-Match': '"0000", W/"1960-1700000000000"' });
    expect(res.status).toBe(200);
    expect(res.body.equals(readFileSync(join(live, compressed.slice(1))))).toBe(true);
  });

  it.each([
    ['gzip;q=0', undefined],
    ['gzip;q=0, *', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=1, br;q=0.1', 'gzip'],
    ['br, gzip', 'br'],
    ['identity', undefined],
  ])('sends the coding Accept-Encoding %j weighs highest: %j', async (header, coding) => {
    const res = await sendPlain(port, compressed, { 'Accept-Encoding': header });
    const rel = compressed.slice(1);
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe(coding);
    const suffix = coding === 'br' ? '.br' : coding === 'gzip' ? '.gz' : '';
    expect(res.body.equals(readFileSync(join(live, rel + suffix)))).toBe(true);
    expect(res.headers.etag).toBe(coding ? `${tagOf(rel).slice(0, -1)}-${coding === 'br' ? 'br' : 'gz'}"` : tagOf(rel));
  });

  it('answers another method on a file of the tree with 405 and Allow, as a problem', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const res = await sendPlain(port, '/manifest.json', {}, method);
      expect(res.status, method).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD');
      expect(res.headers['content-type']).toBe('application/problem+json');
      expect(JSON.parse(res.body.toString('utf8'))).toMatchObject({ status: 405, code: 'method_not_allowed' });
    }
  });

  it("serves only the build's files: not a stray file in its folder, not a compressed sibling by name", async () => {
    for (const path of ['/state/accounts.sqlite', '/stray.json', '/stray', `${compressed}.gz`, `${compressed}.br`]) {
      const res = await sendPlain(port, path, { 'Accept-Encoding': 'gzip, br' });
      expect(res.status, path).toBe(404);
      expect(res.headers['content-type'], path).toBe('application/problem+json');
      expect(res.headers['content-encoding'], path).toBeUndefined();
      const post = await sendPlain(port, path, {}, 'POST');
      expect(post.status, path).toBe(404);
    }
    expect(checksums[`${compressed.slice(1)}.gz`]).toBeTruthy();
  });

  it('sends a listed file as it is when the only sibling beside it is not in the checksums', async () => {
    const res = await sendPlain(port, '/manifest.json', { 'Accept-Encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBeUndefined();
    expect(res.body.equals(readFileSync(join(live, 'manifest.json')))).toBe(true);
  });

  it('answers a path the tree does not have with a 404 problem and no ETag', async () => {
    const res = await sendPlain(port, '/nothing-here.json');
    expect(res.status).toBe(404);
    expect(res.headers.etag).toBeUndefined();
    expect(res.headers['content-type']).toBe('application/problem+json');
  });
});

describe('a listed file cut short while it is being sent', () => {
  let fx: Awaited<ReturnType<typeof buildFixture>>;
  let server: Running<unknown>;
  let port: number;
  let big: string;
  // Far more than the socket buffers and the read-ahead hold, so most of it is still to be read.
  const SIZE = 32 * 1024 * 1024;

  beforeAll(async () => {
    fx = await buildFixture();
    const live = join(fx.outDir, 'facilities');
    // A large download of the build: listed in checksums.json, whose new hash goes into the manifest.
    big = join(live, 'bulk.csv');
    const bytes = Buffer.alloc(SIZE, 'a,b\n');
    writeFileSync(big, bytes);
    const sumsPath = join(live, 'checksums.json');
    const sums = JSON.parse(readFileSync(sumsPath, 'utf8')) as { files: Record<string, string> };
    sums.files['bulk.csv'] = createHash('sha256').update(bytes).digest('hex');
    const sumsBody = JSON.stringify(sums);
    writeFileSync(sumsPath, sumsBody);
    const manifestPath = join(live, 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { checksums_sha256: string };
    manifest.checksums_sha256 = createHash('sha256').update(sumsBody).digest('hex');
    writeFileSync(manifestPath, JSON.stringify(manifest));
    server = await startService(facilities, fx.outDir);
    port = Number(new URL(server.base).port);
  });

  afterAll(async () => {
    await server?.close();
    await fx?.root.remove();
  });

  it('closes the connection at once instead of ending the body short of its Content-Length', async () => {
    const agent = new Agent({ keepAlive: true });
    const answer = await new Promise<{ length: string | undefined; received: number; error?: string }>((resolve) => {
      let received = 0;
      let length: string | undefined;
      const req = get({ host: '127.0.0.1', port, path: '/bulk.csv', agent }, (res) => {
        length = res.headers['content-length'];
        // The head is out: the file is cut in place (an edit by hand) before most of it is read.
        res.pause();
        truncateSync(big, 10);
        res.on('data', (c: Buffer) => (received += c.length));
        res.on('end', () => resolve({ length, received }));
        res.on('error', (err) => resolve({ length, received, error: err.message }));
        res.resume();
      });
      req.on('error', (err) => resolve({ length, received, error: err.message }));
      // A short body on a kept-alive connection leaves the client waiting for the rest.
      req.setTimeout(3000, () => {
        resolve({ length, received, error: 'timed out' });
        req.destroy();
      });
    });
    agent.destroy();
    expect(answer.length).toBe(String(SIZE));
    expect(answer.received).toBeLessThan(SIZE);
    expect(answer.error).toBeDefined();
    expect(answer.error).not.toBe('timed out');
  });
});
