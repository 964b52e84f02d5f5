// `npm start` runs server/start.mjs: the server compiled into one module under node_modules/.shardline,
// rebuilt when a source is newer. The compiled server must behave as the sources do, including the files
// it finds relative to them (schemas/ for parameter validation).
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixture } from '../helpers/facilities.ts';

const ROOT = join(import.meta.dirname, '..', '..');
let built: Awaited<ReturnType<typeof buildFixture>>;
let child: ReturnType<typeof spawn> | undefined;
let base = '';
let line = '';

beforeAll(async () => {
  built = await buildFixture();
  child = spawn(process.execPath, ['server/start.mjs', '--service', 'facilities', '--port', '0', '--data', built.outDir], {
    cwd: ROOT,
    env: { ...process.env, LOG: 'off', RELOAD_INTERVAL_MS: '0', STATE_DIR: join(built.root.path, 'state') },
  });
  let err = '';
  child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
  line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child!.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    child!.on('exit', (code) => reject(new Error(`exited with ${code}: ${err}`)));
  });
  base = /(http:\/\/127\.0\.0\.1:\d+)/.exec(line)![1]!;
}, 120_000);

afterAll(async () => {
  child?.kill('SIGTERM');
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
    expect(((await res.json()) as { errors: { parameter: string }[] }).errors.map((e) => e.parameter)).toEqual(['limit']);
  });

  it('left a compiled module no older than the newest source', () => {
    const compiled = statSync(join(ROOT, 'node_modules', '.shardline', 'server.mjs')).mtimeMs;
    expect(compiled).toBeGreaterThanOrEqual(statSync(join(ROOT, 'server', 'main.ts')).mtimeMs);
  });
});
