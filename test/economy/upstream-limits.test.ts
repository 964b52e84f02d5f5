// Limits on what comes in (docs/contracts/common.md): an upstream answer larger than UPSTREAM_MAX_BYTES fails
// the pull without being held whole (refused on its Content-Length, or cut off once the bytes read pass the
// limit, the connection then closed), and a failed pull names its real cause (the resolver's ENOTFOUND, the
// time-out, the limit), which the 503s of the back-off window repeat.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegistryEntry } from '../../contract/economy/types.ts';
import {
  fetchUpstreamJson,
  UPSTREAM_MAX_BYTES_DEFAULT,
  UpstreamError,
  upstreamMaxBytesSetting,
} from '../../contract/economy/upstream/port.ts';
import { createValetClient } from '../../contract/economy/upstream/valet.ts';
import { ConfigError } from '../../contract/core/settings.ts';
import { createObservationCache } from '../../server/economy/cache.ts';
import { createVintageArchive } from '../../server/economy/vintages.ts';
import { tempDir } from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';

const LIMIT = 64 * 1024;
/** 64 MiB of a JSON string, sent in 16 KiB chunks as the reader drains them: a thousand times the limit. */
const CHUNK = Buffer.alloc(16 * 1024, 'a');
const CHUNKS = 4096;
/** What the socket buffers on both sides may hold before the reader stops: far below the whole answer. */
const BUFFERED = 8 * 1024 * 1024;

let server: Server;
let base: string;
/** Bytes each answer got out before its connection closed, by path. */
const sent = new Map<string, number>();
/** The paths whose connection the server saw closed. */
const closed = new Set<string>();

function stream(res: ServerResponse, path: string, declare: boolean) {
  res.writeHead(200, {
    'Content-Type': 'application/json',
    ...(declare ? { 'Content-Length': String(CHUNKS * CHUNK.length + 2) } : {}),
  });
  res.once('close', () => closed.add(path));
  let n = 0;
  let bytes = 0;
  const next = () => {
    if (res.destroyed) return;
    if (n === CHUNKS) return void res.end('"}');
    n++;
    bytes += CHUNK.length;
    sent.set(path, bytes);
    if (res.write(n === 1 ? Buffer.concat([Buffer.from('{"'), CHUNK]) : CHUNK)) setImmediate(next);
    else res.once('drain', next);
  };
  next();
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/declared') return stream(res, path, true);
    if (path.startsWith('/chunked')) return stream(res, '/chunked', false);
    if (path === '/small') return void res.end('{"ok":true}');
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const ask = (path: string, maxBytes = LIMIT) =>
  fetchUpstreamJson(`${base}${path}`, {}, { timeoutMs: 10_000, label: 'Test', maxBytes });

describe('UPSTREAM_MAX_BYTES', () => {
  it('reads a whole number of bytes, 64 MiB by default, and refuses anything else naming the variable', () => {
    expect(upstreamMaxBytesSetting(undefined)).toBe(UPSTREAM_MAX_BYTES_DEFAULT);
    expect(UPSTREAM_MAX_BYTES_DEFAULT).toBe(67_108_864);
    expect(upstreamMaxBytesSetting('1048576')).toBe(1_048_576);
    for (const raw of ['1e6', '-1', '100', 'lots']) {
      expect(() => upstreamMaxBytesSetting(raw)).toThrow(ConfigError);
      expect(() => upstreamMaxBytesSetting(raw)).toThrow(/UPSTREAM_MAX_BYTES/);
    }
  });

  it('takes an answer within the limit', async () => {
    expect(await ask('/small')).toEqual({ ok: true });
  });

  it('refuses an answer whose Content-Length is over the limit before reading its body', async () => {
    const err = await ask('/declared').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as Error).message).toMatch(/more than UPSTREAM_MAX_BYTES \(65536 bytes; Content-Length 67108866\)/);
    // The server got out a fraction of the answer before the connection went.
    await waitFor('the upstream saw its connection close', () => closed.has('/declared'));
    expect(sent.get('/declared')!).toBeLessThan(BUFFERED);
  });

  it('cuts off an answer without a length once the bytes read pass the limit', async () => {
    const err = await ask('/chunked').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as Error).message).toMatch(/more than UPSTREAM_MAX_BYTES \(65536 bytes; over 65536 bytes read\)/);
    await waitFor('the upstream saw its connection close', () => closed.has('/chunked'));
    expect(sent.get('/chunked')!).toBeLessThan(BUFFERED);
  });

  it('the adapters take the limit: a Valet pull of an answer over it fails', async () => {
    const valet = createValetClient({ baseUrl: `${base}/chunked`, maxBytes: LIMIT });
    await expect(valet.getObservations(['FXUSDCAD'], {}, AbortSignal.timeout(5000))).rejects.toThrow(
      /UPSTREAM_MAX_BYTES \(65536 bytes/,
    );
  });
});

describe('the cause of a failed pull', () => {
  it("names the resolver's code for a host that does not exist", async () => {
    const err = await fetchUpstreamJson(
      'http://upstream.invalid/valet/observations/X/json',
      {},
      { timeoutMs: 10_000, label: 'Valet' },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as Error).message).toMatch(
      /^Valet \/valet\/observations\/X\/json: fetch failed \((ENOTFOUND|EAI_AGAIN)\)$/,
    );
  });

  it('the 503s of the back-off window repeat why the last pull failed', async () => {
    const dir = await tempDir('limits');
    try {
      const entry = {
        id: 'FX_TEST',
        title: 'FX',
        source: 'BOC',
        tableId: null,
        units: 'CAD',
        unitsDetail: '',
        frequency: 'daily',
        category: 'exchange-rates',
        description: '',
        vectorIds: [],
        seriesNames: ['FXTEST'],
        scalarFactorCode: 0,
        lastVerified: '2026-11-01',
      } as RegistryEntry;
      const now = () => new Date('2026-11-27T12:00:00Z');
      const cache = createObservationCache({
        dir: dir.path,
        upstreams: {
          BOC: createValetClient({ baseUrl: `${base}/chunked`, maxBytes: LIMIT }),
          STATCAN: { label: 'Statistics Canada', pull: () => Promise.resolve({ observations: [], missing: [] }) },
        },
        now,
        vintages: createVintageArchive(dir.path, {}),
      });
      const first = await cache.get(entry).catch((e: unknown) => e);
      expect((first as Error).message).toMatch(/UPSTREAM_MAX_BYTES/);
      expect((first as { status?: number }).status).toBe(503);
      const again = await cache.get(entry).catch((e: unknown) => e);
      expect((again as { status?: number }).status).toBe(503);
      expect((again as Error).message).toMatch(/the last attempt failed: .*UPSTREAM_MAX_BYTES/);
      cache.close();
    } finally {
      await dir.remove();
    }
  });
});
