// Conditional requests on a real socket, for the static tree and the routes' payloads: a coded
// representation has a tag of its own (RFC 9110 §8.8.3), so If-None-Match with the identity body's tag
// never makes a 304 for the brotli body nor the reverse; If-Modified-Since is honoured where Last-Modified
// is sent, and ignored when If-None-Match is present (RFC 9110 §13.1.3).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendPlain as send } from '../helpers/plain-http.ts';
import { serveFixture } from '../helpers/facilities.ts';

/** The request headers that ask for each coding. */
const ASKING = { identity: {}, br: { 'Accept-Encoding': 'br' }, gzip: { 'Accept-Encoding': 'gzip' } } as const;

let fx: Awaited<ReturnType<typeof serveFixture>>;
let port: number;

beforeAll(async () => {
  fx = await serveFixture();
  port = Number(new URL(fx.base).port);
});

afterAll(async () => {
  await fx?.close();
});

// A file of the tree no route answers (served by the statics), and a route's precomputed payload.
describe.each([
  ['a static file', '/report.json'],
  ['a route', '/api/v1/spine'],
])('If-None-Match on %s, per coding', (_label, path) => {
  it('has a coded form of each kind, tagged apart from the identity body', async () => {
    const plain = await send(port, path);
    const br = await send(port, path, { 'Accept-Encoding': 'br' });
    const gz = await send(port, path, { 'Accept-Encoding': 'gzip' });
    expect([plain.headers['content-encoding'], br.headers['content-encoding'], gz.headers['content-encoding']]).toEqual(
      [undefined, 'br', 'gzip'],
    );
    expect(new Set([plain.headers.etag, br.headers.etag, gz.headers.etag]).size).toBe(3);
  });

  it.each([
    ['identity', 'br'],
    ['identity', 'gzip'],
    ['br', 'identity'],
    ['gzip', 'br'],
  ] as const)('the %s tag does not validate the %s body: 200 with that body', async (from, to) => {
    const toHeaders = ASKING[to];
    const tagged = await send(port, path, ASKING[from]);
    const tag = String(tagged.headers.etag);
    for (const header of [tag, `W/${tag}`]) {
      const res = await send(port, path, { ...toHeaders, 'If-None-Match': header });
      expect(res.status, header).toBe(200);
      expect(res.body.length).toBeGreaterThan(0);
      expect(res.headers.etag).not.toBe(tag);
    }
  });

  it.each(['identity', 'br', 'gzip'] as const)(
    'the %s tag, strong or weak, alone or in a list, validates its own body: 304',
    async (coding) => {
      const headers = ASKING[coding];
      const tag = String((await send(port, path, headers)).headers.etag);
      for (const header of [tag, `W/${tag}`, `"other", ${tag}`]) {
        const res = await send(port, path, { ...headers, 'If-None-Match': header });
        expect(res.status, header).toBe(304);
        expect(res.headers.etag).toBe(tag);
        expect(res.body.length).toBe(0);
      }
    },
  );
});

describe('If-Modified-Since on static files', () => {
  const path = '/report.json';

  it('answers 304 when the file has not changed since the date, with its validators', async () => {
    const first = await send(port, path, { 'Accept-Encoding': 'br' });
    const lastModified = String(first.headers['last-modified']);
    expect(Date.parse(lastModified)).toBeGreaterThan(0);
    const later = new Date(Date.parse(lastModified) + 3600_000).toUTCString();
    for (const since of [lastModified, later]) {
      const res = await send(port, path, { 'Accept-Encoding': 'br', 'If-Modified-Since': since });
      expect(res.status, since).toBe(304);
      expect(res.body.length).toBe(0);
      expect(res.headers.etag).toBe(first.headers.etag);
      expect(res.headers['cache-control']).toBe(first.headers['cache-control']);
      expect(res.headers.vary).toBe('Accept-Encoding');
    }
  });

  it('answers 200 with the file when it changed after the date', async () => {
    const first = await send(port, path);
    const earlier = new Date(Date.parse(String(first.headers['last-modified'])) - 1000).toUTCString();
    const res = await send(port, path, { 'If-Modified-Since': earlier });
    expect(res.status).toBe(200);
    expect(res.body.equals(first.body)).toBe(true);
  });

  it('accepts the obsolete date forms a recipient must read (RFC 9110 §5.6.7)', async () => {
    const first = await send(port, path);
    const at = new Date(Date.parse(String(first.headers['last-modified'])) + 86400_000);
    const days = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
    const [dow, dd, mon, yyyy, time] = at.toUTCString().replace(',', '').split(' ') as [
      string,
      string,
      string,
      string,
      string,
    ];
    const rfc850 = `${days[at.getUTCDay()]}, ${dd}-${mon}-${yyyy.slice(2)} ${time} GMT`;
    const asctime = `${dow} ${mon} ${String(at.getUTCDate()).padStart(2, ' ')} ${time} ${yyyy}`;
    for (const since of [rfc850, asctime]) {
      expect((await send(port, path, { 'If-Modified-Since': since })).status, since).toBe(304);
    }
  });

  it('ignores a date that is not an HTTP-date', async () => {
    for (const since of ['1', 'tomorrow', '2999-01-01', 'Mon, 32 Foo 2999 99:00:00 GMT', `${'9'.repeat(4000)}`]) {
      const res = await send(port, path, { 'If-Modified-Since': since });
      expect(res.status, since).toBe(200);
    }
  });

  it('is ignored when If-None-Match is present, whether or not it matches', async () => {
    const first = await send(port, path);
    const later = new Date(Date.parse(String(first.headers['last-modified'])) + 3600_000).toUTCString();
    const res = await send(port, path, { 'If-None-Match': '"other"', 'If-Modified-Since': later });
    expect(res.status).toBe(200);
    const same = await send(port, path, { 'If-None-Match': String(first.headers.etag), 'If-Modified-Since': 'x' });
    expect(same.status).toBe(304);
  });
});
