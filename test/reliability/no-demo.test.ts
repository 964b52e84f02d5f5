// Production start (docs/contracts/common.md, "Hostile input and faults"): with --no-demo or DEMO=off a
// missing dist-data/<service>/ stops the start with the folder's name, building nothing; and the demo
// check of a plain `npm start` never moves a half-published tree that a live build owns.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { processStart } from '../../pipeline/core/lock.ts';
import { buildFixture } from '../helpers/facilities.ts';
import { ROOT, startServerProcess } from '../helpers/process.ts';
import { tempDir } from '../helpers/server.ts';

/** Runs a command in the project to its exit (a start that is refused exits by itself). */
function run(
  cmd: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: ROOT,
      env: { ...process.env, LOG: 'off', RELOAD_INTERVAL_MS: '0', DATABASE_URL: '', DEMO: '', ...env },
    });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

const serverMain = ['--import', 'tsx', 'server/main.ts', '--service', 'facilities', '--port', '0'];

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function emptyDataDir() {
  const root = await tempDir('no-demo');
  cleanup.push(() => root.remove());
  const dataDir = join(root.path, 'dist-data');
  const stateDir = join(root.path, 'state');
  mkdirSync(dataDir);
  return { dataDir, stateDir };
}

describe('a production start with no build', () => {
  it('npm start -- --no-demo stops with the missing folder named, and builds nothing', async () => {
    const { dataDir, stateDir } = await emptyDataDir();
    const r = await run(
      'npm',
      ['start', '--', '--no-demo', '--service', 'facilities', '--port', '0', '--data', dataDir],
      {
        STATE_DIR: stateDir,
      },
    );
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`cannot serve facilities: ${join(dataDir, 'facilities')} is missing: build it first`);
    expect(readdirSync(dataDir)).toEqual([]);
  }, 120_000);

  it('DEMO=off does the same (any case)', async () => {
    const { dataDir, stateDir } = await emptyDataDir();
    const r = await run(process.execPath, [...serverMain, '--data', dataDir], { STATE_DIR: stateDir, DEMO: 'OFF' });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`cannot serve facilities: ${join(dataDir, 'facilities')} is missing`);
    expect(r.stderr).not.toContain('building demo data');
    expect(readdirSync(dataDir)).toEqual([]);
  }, 60_000);

  it('DEMO other than on or off stops the start, naming the variable', async () => {
    const { dataDir, stateDir } = await emptyDataDir();
    const r = await run(process.execPath, [...serverMain, '--data', dataDir], { STATE_DIR: stateDir, DEMO: 'no' });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('DEMO must be on or off, not no');
    expect(readdirSync(dataDir)).toEqual([]);
  }, 60_000);

  it('--no-demo with a publish cut short says so, and leaves the previous build where it is', async () => {
    const fx = await buildFixture();
    cleanup.push(() => fx.root.remove());
    renameSync(fx.buildDir, `${fx.buildDir}.prev`);
    const r = await run(process.execPath, [...serverMain, '--no-demo', '--data', fx.outDir], {
      STATE_DIR: join(fx.root.path, 'state'),
    });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`${fx.buildDir} is missing (a publish was cut short: ${fx.buildDir}.prev holds`);
    expect(existsSync(fx.buildDir)).toBe(false);
    expect(existsSync(`${fx.buildDir}.prev`)).toBe(true);
  }, 60_000);
});

describe('npm start’s demo check and a half-published tree', () => {
  it('never moves the tree of a publish a live build owns: the start stops, naming that build', async () => {
    const fx = await buildFixture();
    cleanup.push(() => fx.root.remove());
    // A build that is alive (this process) holds the lock, between its two renames.
    renameSync(fx.buildDir, `${fx.buildDir}.prev`);
    const lock = join(fx.outDir, '.facilities.lock');
    writeFileSync(lock, `${process.pid} ${processStart(process.pid)}`);
    const r = await run(process.execPath, [...serverMain, '--data', fx.outDir], {
      STATE_DIR: join(fx.root.path, 'state'),
    });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`another build of facilities is running (pid ${process.pid}, lock ${lock})`);
    expect(existsSync(fx.buildDir)).toBe(false);
    expect(existsSync(`${fx.buildDir}.prev`)).toBe(true);
    expect(readFileSync(lock, 'utf8')).toBe(`${process.pid} ${processStart(process.pid)}`);
  }, 60_000);

  it('puts back the previous build of a publish whose build was killed, and serves it (not demo data)', async () => {
    const fx = await buildFixture();
    cleanup.push(() => fx.root.remove());
    const version = (JSON.parse(readFileSync(join(fx.buildDir, 'manifest.json'), 'utf8')) as { data_version: string })
      .data_version;
    renameSync(fx.buildDir, `${fx.buildDir}.prev`);
    writeFileSync(join(fx.outDir, '.facilities.lock'), '999999999 12345');
    const server = await startServerProcess('facilities', {
      dataDir: fx.outDir,
      stateDir: join(fx.root.path, 'state'),
    });
    cleanup.push(async () => void (await server.stop()));
    expect(server.line).toContain(`data ${version}`);
    expect(server.line).not.toContain('DEMO');
    expect(existsSync(`${fx.buildDir}.prev`)).toBe(false);
    expect(existsSync(join(fx.outDir, '.facilities.lock'))).toBe(false);
  }, 60_000);
});
