// A query string over 4 KiB (MAX_QUERY_BYTES) is a 414 uri_too_long problem on every path of a service,
// routes and static files alike, before anything reads it; a request line over Node's 16 KiB header limit
// is the same 414, not the 431 of a long header. Over raw sockets, so the bytes go out as written.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_QUERY_BYTES } from '../../server/core/params.ts';
import { serveFixture } from '../helpers/facilities.ts';
import { parseResponse, rawRequest, toRequest, type RawResponse } from '../helpers/raw-http.ts';

let served: Awaited<ReturnType<typeof serveFixture>>;
let port: number;

beforeAll(async () => {
  served = await serveFixture();
  port = Number(new URL(served.base).port);
});
afterAll(() => served.close());

async function send(method: string, target: string, headers: [string, string][] = []): Promise<RawResponse> {
  const { response, error } = await rawRequest(port, toRequest(method, target, headers), {
    head: method === 'HEAD',
  });
  if (!response) throw new Error(`no response: ${error}`);
  return response;
}

/** Sends the bytes in `parts`, one write each, the next once the server has read the last; the response. */
function sendInParts(parts: string[]): Promise<RawResponse | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect({ port, host: '127.0.0.1' }, () => {
      const next = (i: number) => {
        if (i < parts.length && !socket.destroyed) socket.write(parts[i]!, () => setImmediate(() => next(i + 1)));
      };
      next(0);
    });
    socket.on('data', (b: Buffer) => chunks.push(b));
    socket.on('error', () => {});
    socket.on('close', () => resolve(parseResponse(Buffer.concat(chunks))));
  });
}

function expectProblem(r: RawResponse, status: number, code: string): void {
  expect(r.status).toBe(status);
  expect(r.headers['content-type']).toBe('application/problem+json');
  const body = JSON.parse(r.body.toString('utf8')) as { code: string; status: number; type: string };
  expect(body).toMatchObject({ code, status, type: `/problems/${code.replaceAll('_', '-')}` });
}

/** `?q=` and padding: a query string of exactly `bytes` bytes. */
const queryOf = (bytes: number, pad = 'a') =>
  `?q=${pad.repeat(Math.ceil((bytes - 2) / pad.length)).slice(0, bytes - 2)}`;

describe('a query string over 4 KiB', () => {
  it.each([
    ['GET', '/api/v1/search'],
    ['GET', '/api/v1/facility/ONF-000001'],
    ['HEAD', '/api/v1/search'],
    ['GET', '/manifest.json'],
    ['GET', '/healthz'],
    ['GET', '/no/such/path'],
    ['POST', '/api/v1/search'],
    ['OPTIONS', '/api/v1/search'],
  ])('%s %s: 414 uri_too_long', async (method, path) => {
    const r = await send(method, `${path}${queryOf(MAX_QUERY_BYTES + 1)}`);
    expect(r.status).toBe(414);
    if (method !== 'HEAD') expectProblem(r, 414, 'uri_too_long');
  });

  it('of any characters: spaces (+), escapes and a fragment after it count as the client wrote them', async () => {
    for (const pad of ['+', '%20', '%E2%82%AC', '&x=1'])
      expectProblem(await send('GET', `/api/v1/search${queryOf(MAX_QUERY_BYTES + 1, pad)}`), 414, 'uri_too_long');
  });

  it('at exactly 4 KiB is read as usual: a 400 for the too long q, a 200 for a long unknown parameter', async () => {
    expectProblem(await send('GET', `/api/v1/search${queryOf(MAX_QUERY_BYTES)}`), 400, 'invalid_parameter');
    const padded = `?q=cement&pad=${'x'.repeat(MAX_QUERY_BYTES - 'q=cement&pad='.length)}`;
    expect(padded.length - 1).toBe(MAX_QUERY_BYTES);
    expect((await send('GET', `/api/v1/search${padded}`)).status).toBe(200);
  });

  it('a long path without a query is not a 414', async () => {
    expectProblem(await send('GET', `/${'a'.repeat(MAX_QUERY_BYTES * 2)}`), 404, 'not_found');
  });

  it('has its problem page', async () => {
    const r = await send('GET', '/problems/uri-too-long');
    expect(r.status).toBe(200);
    expect(r.body.toString('utf8')).toMatch(/^URI too long\n\n.*4,096 bytes/);
  });
});

describe('a request line over 16 KiB (Node refuses it before the app)', () => {
  const line = `GET /api/v1/search?q=${'a'.repeat(17_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`;

  it('in one write: 414 uri_too_long, the same problem as a 4 KiB query', async () => {
    expectProblem((await sendInParts([line]))!, 414, 'uri_too_long');
  });

  it('arriving in parts: 414 uri_too_long', async () => {
    const r = await sendInParts([line.slice(0, 6000), line.slice(6000, 12_000), line.slice(12_000)]);
    expectProblem(r!, 414, 'uri_too_long');
  });

  it('a header over 16 KiB is still 431 headers_too_large', async () => {
    const r = await send('GET', '/healthz', [['X-Pad', 'a'.repeat(17_000)]]);
    expectProblem(r, 431, 'headers_too_large');
  });
});
