// Answers made at run time are compressed as the static files are: br or gzip by Accept-Encoding's
// weights, with Vary, on a real socket; a cached answer keeps its coded body, made once.
import * as zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PlainAnswer as Answer, sendPlain as send } from '../helpers/plain-http.ts';
import { COMPRESS_MIN_BYTES } from '../../server/core/payload.ts';
import { searchKey } from '../../server/carriers/routes.ts';
import { searchKey as facilitiesSearchKey } from '../../server/facilities/search.ts';
import { join } from 'node:path';
import { buildCarriers } from '../../pipeline/carriers/index.ts';
import { silentProgress } from '../../pipeline/core/progress.ts';
import { AS_OF, writeCensusOnlyFixture } from '../fixtures/carriers.ts';
import { serveCarriers } from '../helpers/carriers.ts';
import { serveEconomyFixture } from '../helpers/economy.ts';
import { PINNED_CLOCK, serveFixture } from '../helpers/facilities.ts';
import { tempDir } from '../helpers/server.ts';

/**
 * Asks `path` without a coding, then with each: the identity body is above the size that is compressed,
 * each coding decodes to it, every answer says Vary, and each coding has a tag of its own.
 */
async function expectCodings(base: string, path: string): Promise<Answer> {
  const plain = await send(base, path);
  expect(plain.status, path).toBe(200);
  expect(plain.body.length, path).toBeGreaterThan(COMPRESS_MIN_BYTES);
  expect(plain.headers['content-encoding'], path).toBeUndefined();
  expect(plain.headers.vary, path).toBe('Accept-Encoding');
  const br = await send(base, path, { 'Accept-Encoding': 'gzip, deflate, br' });
  expect(br.headers['content-encoding'], path).toBe('br');
  expect(zlib.brotliDecompressSync(br.body).equals(plain.body), path).toBe(true);
  expect(br.body.length, path).toBeLessThan(plain.body.length / 2);
  expect(Number(br.headers['content-length'])).toBe(br.body.length);
  const gz = await send(base, path, { 'Accept-Encoding': 'gzip;q=1, br;q=0.5' });
  expect(gz.headers['content-encoding'], path).toBe('gzip');
  expect(zlib.gunzipSync(gz.body).equals(plain.body), path).toBe(true);
  const refused = await send(base, path, { 'Accept-Encoding': 'br;q=0, gzip;q=0' });
  expect(refused.headers['content-encoding'], path).toBeUndefined();
  expect(new Set([plain.headers.etag, br.headers.etag, gz.headers.etag]).size, path).toBe(3);
  for (const a of [br, gz, refused]) expect(a.headers.vary, path).toBe('Accept-Encoding');
  return br;
}

describe('facilities search', () => {
  let fx: Awaited<ReturnType<typeof serveFixture>>;
  beforeAll(async () => {
    fx = await serveFixture();
  });
  afterAll(async () => {
    await fx?.close();
  });

  it.each(['/api/v1/search?limit=49'])('compresses %s per Accept-Encoding, once for a cached answer', async (path) => {
    const first = await expectCodings(fx.base, path);
    // Asked again: the cache keeps the answer, and the brotli body sent is the one made before.
    const again = await send(fx.base, path, { 'Accept-Encoding': 'br' });
    const third = await send(fx.base, path, { 'Accept-Encoding': 'br' });
    expect(again.body.equals(first.body)).toBe(true);
    const identity = zlib.brotliDecompressSync(third.body);
    const q = new URL(fx.base + path).searchParams;
    const held = fx.app.state().data.searches.get(facilitiesSearchKey({ limit: Number(q.get('limit')) }));
    expect(held?.body.equals(identity)).toBe(true);
    expect(held?.br?.equals(third.body)).toBe(true);
  });
});

describe('carriers search', () => {
  let root: Awaited<ReturnType<typeof tempDir>>;
  let srv: Awaited<ReturnType<typeof serveCarriers>>;
  beforeAll(async () => {
    // The census with its forty LONE STAR FREIGHT carriers: a page of results above the compressed size.
    root = await tempDir('carriers-compression');
    const input = join(root.path, 'input');
    const outDir = join(root.path, 'dist-data');
    await writeCensusOnlyFixture(input);
    const summary = await buildCarriers({ input, outDir, asOf: AS_OF, now: PINNED_CLOCK, progress: silentProgress });
    const stateDir = join(root.path, 'state');
    srv = await serveCarriers({ root, input, outDir, buildDir: join(outDir, 'carriers'), stateDir, summary });
  });
  afterAll(async () => {
    await srv?.close();
    await root?.remove();
  });

  it('compresses a page of results per Accept-Encoding, once for a cached answer', async () => {
    const path = '/api/search?q=lone%20star&limit=100';
    const first = await expectCodings(srv.base, path);
    await send(srv.base, path, { 'Accept-Encoding': 'br' });
    const held = srv.app.state().data.searches.get(searchKey({ q: 'lone star', limit: 100 }));
    expect(held?.br?.equals(first.body)).toBe(true);
    const later = await send(srv.base, path, { 'Accept-Encoding': 'br' });
    expect(later.body.equals(first.body)).toBe(true);
  });

  it("compresses a signed-in carrier's profile per Accept-Encoding, each coding with a tag of its own", async () => {
    const key = (await srv.accounts().createKey('premium', 'compression', new Date())).key;
    const found = JSON.parse((await send(srv.base, '/api/search?q=lone%20star&limit=1')).body.toString()) as {
      results: { carrier_id: number }[];
    };
    const id = found.results[0]?.carrier_id;
    expect(id).toBeGreaterThan(0);
    const path = `/api/carrier/${id}`;
    const auth = { Authorization: `Bearer ${key}` };
    const plain = await send(srv.base, path, auth);
    expect(plain.status).toBe(200);
    expect(plain.body.length).toBeGreaterThan(COMPRESS_MIN_BYTES);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await send(srv.base, path, { ...auth, 'Accept-Encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe(plain.headers['cache-control']);
    expect(zlib.brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    const gz = await send(srv.base, path, { ...auth, 'Accept-Encoding': 'gzip' });
    expect(zlib.gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(new Set([plain.headers.etag, br.headers.etag, gz.headers.etag]).size).toBe(3);
    for (const a of [plain, br, gz]) expect(a.headers.vary).toContain('Accept-Encoding');
    // The revalidation of the brotli copy is a 304; the identity tag does not stand for it.
    const same = await send(srv.base, path, {
      ...auth,
      'Accept-Encoding': 'br',
      'If-None-Match': String(br.headers.etag),
    });
    expect(same.status).toBe(304);
    const crossed = { ...auth, 'Accept-Encoding': 'br', 'If-None-Match': String(plain.headers.etag) };
    expect((await send(srv.base, path, crossed)).status).toBe(200);
    // The JSON export (profile and monthly history) is over the size that is compressed; the CSV of one
    // carrier's figures is under it and goes out as it is.
    for (const format of ['json']) {
      const exportPath = `${path}/export?format=${format}`;
      const whole = await send(srv.base, exportPath, auth);
      expect(whole.status, format).toBe(200);
      expect(whole.body.length, format).toBeGreaterThan(COMPRESS_MIN_BYTES);
      const coded = await send(srv.base, exportPath, { ...auth, 'Accept-Encoding': 'gzip' });
      expect(coded.headers['content-encoding'], format).toBe('gzip');
      expect(zlib.gunzipSync(coded.body).equals(whole.body), format).toBe(true);
    }
  });
});

describe('economy', () => {
  let fx: Awaited<ReturnType<typeof serveEconomyFixture>>;
  beforeAll(async () => {
    fx = await serveEconomyFixture();
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('compresses a ranked page of series per Accept-Encoding', async () => {
    await expectCodings(fx.base, '/api/series?q=price&limit=50');
  });
});
