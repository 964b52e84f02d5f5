// The server process: refuses damaged builds with a clear message, prints its base URL, stops cleanly on
// SIGTERM; and the build CLI's exit codes.
import { spawn, spawnSync } from 'node:child_process';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/core/app.ts';
import { DataError } from '../../server/core/build.ts';
import { facilities } from '../../server/facilities/routes.ts';
import { buildFixture } from '../helpers/facilities.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const tsx = (args: string[]) => [process.execPath, ['--import', 'tsx', ...args]] as const;

let fx: Awaited<ReturnType<typeof buildFixture>>;
beforeAll(async () => {
  fx = await buildFixture();
});
afterAll(() => fx.root.remove());

function damaged(name: string, damage: (dir: string) => void): string {
  const out = join(fx.root.path, name);
  cpSync(fx.outDir, out, { recursive: true });
  damage(join(out, 'facilities'));
  return out;
}

describe('loading a build', () => {
  it.each([
    [
      'a missing manifest',
      (d: string) => writeFileSync(join(d, 'manifest.json'), ''),
      /manifest\.json is not valid JSON/,
    ],
    [
      'a changed document',
      (d: string) => appendFileSync(join(d, 'api/v1/stats.json'), ' '),
      /stats\.json does not match checksums\.json/,
    ],
    [
      'changed checksums',
      (d: string) => appendFileSync(join(d, 'checksums.json'), ' '),
      /checksums\.json does not match the manifest/,
    ],
    [
      'a manifest that is not a manifest',
      (d: string) => writeFileSync(join(d, 'manifest.json'), '{"service":"facilities"}'),
      /manifest\.json is damaged/,
    ],
  ])('refuses %s with a clear message', (_label, damage, message) => {
    const dir = damaged(`damaged-${_label.replaceAll(' ', '-')}`, damage);
    expect(() => createApp(facilities, { dataDir: dir, log: () => {} })).toThrow(DataError);
    expect(() => createApp(facilities, { dataDir: dir, log: () => {} })).toThrow(message);
  });
});

describe('server process', () => {
  it('prints its base URL, serves, and exits 0 on SIGTERM', async () => {
    const [cmd, args] = tsx(['server/main.ts', '--service', 'facilities', '--port', '0', '--data', fx.outDir]);
    const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, LOG: 'off' } });
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (b: Buffer) => {
        out += b.toString();
        const m = /(http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on('exit', () => reject(new Error(`exited early: ${out}`)));
    });
    expect(out).toMatch(/^facilities\s+http:\/\/127\.0\.0\.1:\d+\/api\/v1\s+data [0-9a-f]{16}\n/);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const code = await new Promise<number | null>((resolve) => {
      child.on('exit', (c) => resolve(c));
      child.kill('SIGTERM');
    });
    expect(code).toBe(0);
  });

  it('logs each request as a JSON line on stdout, and writes every line before it exits on SIGTERM', async () => {
    const [cmd, args] = tsx(['server/main.ts', '--service', 'facilities', '--port', '0', '--data', fx.outDir]);
    const env = { ...process.env, LOG: 'json', STATE_DIR: join(fx.root.path, 'log-state') };
    const child = spawn(cmd, args, { cwd: ROOT, env });
    let out = '';
    const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (b: Buffer) => {
        out += b.toString();
        const m = /(http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(out);
        if (m) resolve(m[1]!);
      });
      void exited.then(() => reject(new Error(`exited early: ${out}`)));
    });
    expect((await fetch(`${url}/api/v1/stats?key=secret`)).status).toBe(200);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect((await fetch(`${url}/nothing`)).status).toBe(404);
    // At once: the lines are still gathered, short of a write; the stop must write them.
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const lines = out.trim().split('\n').slice(1);
    expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toEqual(
      [
        ['/api/v1/stats', 200],
        ['/healthz', 200],
        ['/nothing', 404],
      ].map(([path, status]) => ({
        level: 30,
        time: expect.any(Number),
        method: 'GET',
        path,
        status,
        ms: expect.any(Number),
        service: 'facilities',
      })),
    );
    expect(out).not.toContain('secret');
  });

  it('builds demo data first when the data folder has no build, and says it is demo data', async () => {
    const empty = join(fx.root.path, 'fresh-data');
    const [cmd, args] = tsx(['server/main.ts', '--service', 'facilities', '--port', '0', '--data', empty]);
    const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, LOG: 'off' } });
    let out = '';
    const line = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (b: Buffer) => {
        out += b.toString();
        if (out.includes('\n')) resolve(out);
      });
      child.on('exit', () => reject(new Error(`exited early: ${out}`)));
    });
    child.kill('SIGTERM');
    expect(line).toMatch(
      /^facilities\s+http:\/\/127\.0\.0\.1:\d+\/api\/v1\s+data [0-9a-f]{16}\s+\(DEMO DATA: generated, not real\)/,
    );
    const manifest = JSON.parse(readFileSync(join(empty, 'facilities', 'manifest.json'), 'utf8')) as {
      demo: boolean;
      counts: { facilities: number };
    };
    expect(manifest.demo).toBe(true);
    expect(manifest.counts.facilities).toBeGreaterThan(100);
    // Three demo editions built in a row: a change history to show, each build labelled demo.
    const history = JSON.parse(readFileSync(join(empty, 'facilities', 'changes', 'index.json'), 'utf8')) as {
      builds: { previous: string | null; demo: boolean; counts: { added: number; removed: number; changed: number } }[];
    };
    expect(history.builds.map((b) => [b.demo, b.previous === null])).toEqual([
      [true, false],
      [true, false],
      [true, true],
    ]);
    expect(history.builds[0]!.counts).toMatchObject({ added: 1, removed: 1 });
  }, 60_000);

  it('says which port is taken and exits 1, leaving nothing running', async () => {
    const taken = createNetServer();
    await new Promise<void>((res) => taken.listen(0, '127.0.0.1', res));
    const busy = (taken.address() as AddressInfo).port;
    try {
      const [cmd, args] = tsx([
        'server/main.ts',
        '--service',
        'facilities',
        '--port',
        String(busy),
        '--data',
        fx.outDir,
      ]);
      const r = spawnSync(cmd, args, {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 30_000,
        env: { ...process.env, LOG: 'off' },
      });
      expect(r.status).toBe(1);
      expect(r.stderr).toBe(
        `cannot serve facilities: port ${busy} on 127.0.0.1 is in use; choose another with --port (one service) or PORT_FACILITIES\n`,
      );
    } finally {
      taken.close();
    }
  });

  it('stops the services it started when a later one cannot start, and exits 1 with one line', () => {
    // facilities starts first; carriers has a folder without a manifest (a damaged copy).
    const dir = join(fx.root.path, 'later-fails');
    cpSync(fx.outDir, dir, { recursive: true });
    mkdirSync(join(dir, 'carriers'));
    const [cmd, args] = tsx(['server/main.ts', '--port', '0', '--data', dir]);
    const r = spawnSync(cmd, args, {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, LOG: 'off', STATE_DIR: join(fx.root.path, 'later-fails-state') },
    });
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^facilities\s+http:/);
    expect(r.stderr).toMatch(/^cannot serve carriers: .*manifest\.json is missing/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it.each([
    [{ LOG: 'maybe' }, 'LOG must be json or off, not maybe\n'],
    [{ PORT_FACILITIES: '0x10' }, 'PORT_FACILITIES must be a port from 0 to 65535, not 0x10\n'],
    [{ PORT_FACILITIES: '70000' }, 'PORT_FACILITIES must be a port from 0 to 65535, not 70000\n'],
  ])('stops at start on the setting %j, exit 1', (env, message) => {
    const [cmd, args] = tsx(['server/main.ts', '--service', 'facilities', '--data', fx.outDir]);
    const r = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', timeout: 30_000, env: { ...process.env, ...env } });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(message);
  });

  it('refuses to start on a damaged build, exit code 1 and the reason', () => {
    const dir = damaged('damaged-start', (d) => appendFileSync(join(d, 'api/v1/spine.json'), 'x'));
    const [cmd, args] = tsx(['server/main.ts', '--service', 'facilities', '--port', '0', '--data', dir]);
    const r = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/cannot serve facilities: .*spine\.json does not match checksums\.json/);
  });

  it('refuses a STATE_DIR inside the data folder or one that is not a folder, exit code 1 and the reason', () => {
    const file = join(fx.root.path, 'not-a-folder');
    writeFileSync(file, '');
    for (const [stateDir, message] of [
      [join(fx.outDir, 'facilities', 'state'), /STATE_DIR .*facilities\/state is inside the data folder/],
      [file, /STATE_DIR .*not-a-folder is not a folder/],
    ] as const) {
      const [cmd, args] = tsx(['server/main.ts', '--service', 'facilities', '--port', '0', '--data', fx.outDir]);
      const r = spawnSync(cmd, args, {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 30_000,
        env: { ...process.env, STATE_DIR: stateDir },
      });
      expect(r.status, stateDir).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
    }
    expect(existsSync(join(fx.outDir, 'facilities', 'state'))).toBe(false);
  });

  it.each([
    [['--service', 'nope'], 2, /--service must be one of facilities/],
    [['--port', '99999', '--service', 'facilities'], 2, /--port must be an integer/],
    [['--bogus'], 2, /Unknown option '--bogus'/],
    [['--port', '0x10', '--service', 'facilities'], 2, /--port must be an integer/],
    [['--service', 'facilities', 'carriers'], 2, /unexpected argument "carriers"/],
  ])('rejects bad arguments %j', (argv, status, message) => {
    const [cmd, args] = tsx(['server/main.ts', ...argv]);
    const r = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(status);
    expect(r.stderr).toMatch(message);
  });
});

describe('build CLI', () => {
  it.each([
    [[], 2, /--service must be one of/],
    [['--service', 'facilities'], 2, /--input is required/],
    [
      ['--service', 'facilities', '--input', '/nonexistent/x'],
      1,
      /build failed, nothing was published: input folder .* cannot be read/,
    ],
    [['--service', 'facilities', '--input', '.', '--year', '1900'], 2, /--year must be a year/],
    [
      ['--service', 'carriers', '--input', '.', '--year', '2024'],
      2,
      /--year applies to facilities builds only, not carriers/,
    ],
    [
      ['--service', 'facilities', '--input', '.', '--as-of', '2026-01-01'],
      2,
      /--as-of applies to carriers builds only, not facilities/,
    ],
    [['--service', 'facilities', '--input', '.', 'extra'], 2, /unexpected argument "extra"/],
  ])('%j exits %i with a clear message', (argv, status, message) => {
    const [cmd, args] = tsx(['pipeline/cli.ts', ...argv]);
    const r = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(status);
    expect(r.stderr).toMatch(message);
  });

  it('builds, prints progress and a summary, exits 0', () => {
    const out = join(fx.root.path, 'cli-out');
    const [cmd, args] = tsx([
      'pipeline/cli.ts',
      '--service',
      'facilities',
      '--input',
      fx.input,
      '--out',
      out,
      '--year',
      '2024',
    ]);
    const r = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/\[build facilities\] .*reading ontario\/ghg-registry\.csv/);
    expect(r.stderr).toMatch(/ontario\/ghg-registry\.csv\s+ontario_ghg\s+12\s+11\s+duplicate 1/);
    expect(r.stderr).toMatch(/published facilities [0-9a-f]{16} to /);
  });
});
