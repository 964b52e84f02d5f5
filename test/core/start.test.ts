// `npm start` runs server/start.mjs: the server compiled into one module under node_modules/.shardline,
// rebuilt when a source is newer. The compiled server must behave as the sources do, including the files
// it finds relative to them (schemas/ for parameter validation).
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixture } from '../helpers/facilities.ts';
import { ROOT, startServerProcess, type ServerProcess } from '../helpers/process.ts';

let built: Awaited<ReturnType<typeof buildFixture>>;
let server: ServerProcess;
let base = '';
let line = '';

beforeAll(async () => {
  built = await buildFixture();
  server = await startServerProcess('facilities', { dataDir: built.outDir, stateDir: join(built.root.path, 'state'), entry: 'start' });
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
    expect(((await res.json()) as { errors: { parameter: string }[] }).errors.map((e) => e.parameter)).toEqual(['limit']);
  });

  it('left a compiled module no older than the newest source', () => {
    const compiled = statSync(join(ROOT, 'node_modules', '.shardline', 'server.mjs')).mtimeMs;
    expect(compiled).toBeGreaterThanOrEqual(statSync(join(ROOT, 'server', 'main.ts')).mtimeMs);
  });
});
