// One download against a fake upstream on 127.0.0.1: whole files only, conditional requests, retries with
// doubling delays, and every failure (status, truncated body, stall, hang) leaving the old file in place.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { downloadFile, DownloadError, type DownloadOptions } from '../../../pipeline/nightly/fetch.ts';
import { tempDir } from '../../helpers/server.ts';
import { startFakeUpstream, type FakeUpstream } from '../../helpers/upstream.ts';

let root: Awaited<ReturnType<typeof tempDir>>;
let upstream: FakeUpstream;
const sleeps: number[] = [];
const options = (extra: Partial<DownloadOptions> = {}): DownloadOptions => ({
  timeoutMs: 400,
  retries: 2,
  retryDelayMs: 10,
  sleep: async (ms) => void sleeps.push(ms),
  ...extra,
});
const BODY = Buffer.from(`Year,Ontario GHG ID,Facility Name\r\n${'2024,1001,Plant\r\n'.repeat(5000)}`);

beforeAll(async () => {
  root = await tempDir('fetch');
  upstream = await startFakeUpstream();
});
afterAll(async () => {
  await upstream.close();
  await root.remove();
});
afterEach(() => {
  sleeps.length = 0;
  upstream.requests.length = 0;
});

async function sub(name: string): Promise<string> {
  const dir = join(root.path, name);
  await mkdir(dir);
  return dir;
}

/** Only the target may be left in the folder: no partial or temporary file. */
async function expectOnly(dir: string, names: string[]) {
  expect((await readdir(dir)).sort()).toEqual(names.sort());
}

describe('downloadFile', () => {
  it('downloads a file whole and returns its validators; a conditional request then gets 304', async () => {
    const dir = await sub('a');
    const dest = join(dir, 'ontario.csv');
    upstream.set('/a.csv', { kind: 'file', body: BODY });
    const first = await downloadFile(`${upstream.base}/a.csv`, dest, options());
    expect(first.status).toBe('downloaded');
    expect(first.bytes).toBe(BODY.length);
    expect(first.validators.etag).toMatch(/^"[0-9a-f]{16}"$/);
    expect(first.validators.lastModified).toBe('Sat, 31 Oct 2026 04:00:00 GMT');
    expect(first.validators.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect((await readFile(dest)).equals(BODY)).toBe(true);

    const second = await downloadFile(`${upstream.base}/a.csv`, dest, options({ previous: first.validators }));
    expect(second).toMatchObject({ status: 'unchanged', attempts: 1 });
    expect(upstream.requests.at(-1)).toEqual({
      path: '/a.csv',
      ifNoneMatch: first.validators.etag,
      ifModifiedSince: first.validators.lastModified,
      acceptEncoding: 'identity',
    });
    expect((await readFile(dest)).equals(BODY)).toBe(true);
    await expectOnly(dir, ['ontario.csv']);
  });

  it('calls a body identical to the last one unchanged when the upstream sends no validators', async () => {
    const dir = await sub('b');
    const dest = join(dir, 'b.csv');
    upstream.set('/b.csv', { kind: 'file', body: BODY, validators: false });
    const first = await downloadFile(`${upstream.base}/b.csv`, dest, options());
    expect(first.validators.etag).toBeUndefined();
    const again = await downloadFile(`${upstream.base}/b.csv`, dest, options({ previous: first.validators }));
    expect(again.status).toBe('unchanged');
    upstream.set('/b.csv', {
      kind: 'file',
      body: Buffer.concat([BODY, Buffer.from('2024,1002,Other\r\n')]),
      validators: false,
    });
    const changed = await downloadFile(`${upstream.base}/b.csv`, dest, options({ previous: first.validators }));
    expect(changed.status).toBe('downloaded');
    expect((await readFile(dest, 'utf8')).endsWith('2024,1002,Other\r\n')).toBe(true);
  });

  it('retries a 5xx with doubling delays and succeeds', async () => {
    const dir = await sub('c');
    upstream.set('/c.csv', { kind: 'file', body: BODY });
    upstream.once('/c.csv', { kind: 'status', status: 503 });
    upstream.once('/c.csv', { kind: 'status', status: 500 });
    const r = await downloadFile(`${upstream.base}/c.csv`, join(dir, 'c.csv'), options());
    expect(r).toMatchObject({ status: 'downloaded', attempts: 3 });
    expect(sleeps).toEqual([10, 20]);
  });

  it('gives up after the retries and leaves the old file as it was', async () => {
    const dir = await sub('d');
    const dest = join(dir, 'd.csv');
    await writeFile(dest, 'the previous download');
    upstream.set('/d.csv', { kind: 'status', status: 500 });
    const err = await downloadFile(`${upstream.base}/d.csv`, dest, options()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DownloadError);
    expect((err as Error).message).toBe(`${upstream.base}/d.csv: HTTP 500`);
    expect(upstream.requests.filter((q) => q.path === '/d.csv')).toHaveLength(3);
    expect(await readFile(dest, 'utf8')).toBe('the previous download');
    await expectOnly(dir, ['d.csv']);
  });

  it('does not retry a 404', async () => {
    const dir = await sub('e');
    await expect(downloadFile(`${upstream.base}/missing.csv`, join(dir, 'e.csv'), options())).rejects.toThrow(
      /HTTP 404/,
    );
    expect(upstream.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
    await expectOnly(dir, []);
  });

  it('refuses a truncated body and keeps no partial file', async () => {
    const dir = await sub('f');
    const dest = join(dir, 'f.csv');
    await writeFile(dest, 'old');
    upstream.set('/f.csv', { kind: 'truncate', body: BODY });
    await expect(downloadFile(`${upstream.base}/f.csv`, dest, options({ retries: 1 }))).rejects.toThrow(/f\.csv: /);
    expect(upstream.requests).toHaveLength(2);
    expect(await readFile(dest, 'utf8')).toBe('old');
    await expectOnly(dir, ['f.csv']);
  });

  it('asks for no content coding, and refuses a coded answer, whole or cut at a flush point, without retrying', async () => {
    const dir = await sub('z');
    const dest = join(dir, 'z.csv');
    upstream.set('/ok.csv', { kind: 'file', body: BODY });
    await downloadFile(`${upstream.base}/ok.csv`, dest, options());
    expect(upstream.requests.at(-1)).toMatchObject({ path: '/ok.csv', acceptEncoding: 'identity' });
    for (const cut of [false, true]) {
      upstream.set('/z.csv', { kind: 'gzip', body: Buffer.concat([BODY, BODY]), cut });
      const before = upstream.requests.length;
      await expect(downloadFile(`${upstream.base}/z.csv`, dest, options({ retries: 2 }))).rejects.toThrow(
        /z\.csv: .*gzip-coded though none was asked for/,
      );
      expect(upstream.requests.length - before).toBe(1);
      expect((await readFile(dest)).equals(BODY)).toBe(true);
    }
    await expectOnly(dir, ['z.csv']);
  });

  it('abandons an upstream that stops sending, and one that never answers', async () => {
    const dir = await sub('g');
    upstream.set('/stall.csv', { kind: 'stall', body: BODY });
    upstream.set('/hang.csv', { kind: 'hang' });
    const started = performance.now();
    await expect(
      downloadFile(`${upstream.base}/stall.csv`, join(dir, 'g.csv'), options({ retries: 0 })),
    ).rejects.toThrow(/no data for 400 ms/);
    await expect(
      downloadFile(`${upstream.base}/hang.csv`, join(dir, 'h.csv'), options({ retries: 1 })),
    ).rejects.toThrow(/no data for 400 ms/);
    // 1 + 2 attempts of 400 ms each, not minutes.
    expect(performance.now() - started).toBeLessThan(5_000);
    await expectOnly(dir, []);
  });
});
