// `npm start` runs server/start.mjs: the server compiled into one module under node_modules/.shardline,
// rebuilt when a source is newer. The compiled server must behave as the sources do, including the files
// it finds relative to them (schemas/ for parameter validation).
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.ts';
import { buildCarriersFixture } from '../helpers/carriers.ts';
import { buildFixture } from '../helpers/facilities.ts';
import { ROOT, startServerProcess, type ServerProcess } from '../helpers/process.ts';

let built: Awaited<ReturnType<typeof buildFixture>>;
let server: ServerProcess;
let base = '';
let line = '';

beforeAll(async () => {
  built = await buildFixture();
  server = await startServerProcess('facilities', {
    dataDir: built.outDir,
    stateDir: join(built.root.path, 'state'),
    entry: 'start',
  });
  ({ base, line } = server);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await built.root.remove();
});

describe('npm start (server/start.mjs)', () => {
  it('prints the base URL line and serves from the compiled module', async () => {
    expect(line).toMatch(/^facilities\s+http:\/\/127\.0\.0\.1:\d+\/api\/v1\s+data [0-9a-f]{16}/);
    const res = await fetch(`${base}/api/v1/spine`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { facilities: unknown[] }).facilities.length).toBeGreaterThan(0);
  });

  it('finds the parameter schemas beside the sources: a bad limit is a 400 problem', async () => {
    const res = await fetch(`${base}/api/v1/search?q=a&limit=0`);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(((await res.json()) as { errors: { parameter: string }[] }).errors.map((e) => e.parameter)).toEqual([
      'limit',
    ]);
  });

  it('stops when npm itself is sent SIGTERM (the script execs node, so npm signals the server, not a shell)', async () => {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const child = spawn(npm, ['start', '--', '--service', 'facilities', '--port', '0', '--data', built.outDir], {
      cwd: ROOT,
      env: { ...process.env, LOG: 'off', RELOAD_INTERVAL_MS: '0', STATE_DIR: join(built.root.path, 'state-npm') },
    });
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (b: Buffer) => {
        out += b.toString();
        const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
        if (m) resolve(m[0]);
      });
      child.on('exit', () => reject(new Error(`npm start exited early: ${out}`)));
    });
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const npmExited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    child.kill('SIGTERM');
    await npmExited;
    // The server is gone with it: its port refuses connections (an orphan would keep answering).
    await waitFor(
      'the port refuses connections',
      () =>
        fetch(`${url}/healthz`).then(
          () => false,
          () => true,
        ),
      { timeout: 5_000, interval: 100 },
    );
  }, 60_000);

  it('left compiled modules no older than the newest source: the server and the carriers search thread', () => {
    const compiled = (name: string) => statSync(join(ROOT, 'node_modules', '.shardline', name)).mtimeMs;
    expect(compiled('server.mjs')).toBeGreaterThanOrEqual(statSync(join(ROOT, 'server', 'main.ts')).mtimeMs);
    expect(compiled('search-thread.mjs')).toBeGreaterThanOrEqual(
      statSync(join(ROOT, 'server', 'carriers', 'search-thread.ts')).mtimeMs,
    );
  });
});

describe('npm start, carriers: search runs on the thread compiled beside the server', () => {
  it('answers a name search and a carrier number search', async () => {
    const carriers = await buildCarriersFixture();
    const proc = await startServerProcess('carriers', {
      dataDir: carriers.outDir,
      stateDir: carriers.stateDir,
      entry: 'start',
    });
    try {
      const byName = (await (await fetch(`${proc.base}/api/search?q=alpha+freight`)).json()) as {
        total: number;
        results: { carrier_id: number }[];
      };
      expect(byName.total).toBeGreaterThan(0);
      expect(byName.results[0]!.carrier_id).toBe(1000001);
      const byNumber = (await (await fetch(`${proc.base}/api/search?q=USDOT+1000001`)).json()) as { total: number };
      expect(byNumber.total).toBe(1);
      expect(proc.stderr()).toBe('');
    } finally {
      await proc.stop();
      await carriers.root.remove();
    }
  }, 60_000);
});
