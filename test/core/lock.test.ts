// The build lock (pipeline/core/sink.ts acquireLock): a lock left by a killed build is taken over, by one
// build only when several start together; a lock naming a pid that the system has since given to another
// process is a dead build's too; a live holder stops the build with its pid.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireLock, processStart } from '../../pipeline/core/sink.ts';
import { tempDir } from '../helpers/server.ts';

const ROOT = join(import.meta.dirname, '..', '..');

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  dir = await tempDir('lock');
});
afterEach(async () => {
  await dir.remove();
});

/** A child process that tries the lock at `startAt`, holds it `holdMs` if it got it, and prints what happened. */
function contender(outDir: string, holdMs: number, startAt: number): Promise<string> {
  // Each waits for the same instant, so the takeovers race rather than follow each other's start-up.
  const script = `
    import { acquireLock } from './pipeline/core/sink.ts';
    await new Promise((r) => setTimeout(r, ${startAt} - Date.now()));
    try {
      await acquireLock(${JSON.stringify(outDir)}, 'carriers');
      process.stdout.write('got');
      await new Promise((r) => setTimeout(r, ${holdMs}));
    } catch (err) {
      process.stdout.write(/another build of carriers is running/.test(err.message) ? 'locked' : 'error: ' + err.message);
    }`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    child.on('error', reject);
    child.on('exit', () => resolve(out.trim()));
  });
}

describe.skipIf(process.platform !== 'linux')('the build lock', () => {
  it('writes the pid and the start of the process that holds it', async () => {
    const lock = await acquireLock(dir.path, 'facilities');
    expect(readFileSync(lock, 'utf8')).toBe(`${process.pid} ${processStart(process.pid)}`);
    await expect(acquireLock(dir.path, 'facilities')).rejects.toThrow(
      `another build of facilities is running (pid ${process.pid}, lock ${lock})`,
    );
  });

  it('takes over a lock whose pid now names another process', async () => {
    // The parent process is alive, but it did not start when this lock says.
    writeFileSync(join(dir.path, '.facilities.lock'), `${process.ppid} 1`);
    const lock = await acquireLock(dir.path, 'facilities');
    expect(readFileSync(lock, 'utf8').split(' ')[0]).toBe(String(process.pid));
    expect(readdirSync(dir.path)).toEqual(['.facilities.lock']);
  });

  it('lets exactly one of several builds take over a killed build’s lock', async () => {
    for (let round = 0; round < 3; round++) {
      writeFileSync(join(dir.path, '.carriers.lock'), '999999999 12345');
      const startAt = Date.now() + 4000;
      const results = await Promise.all(Array.from({ length: 4 }, () => contender(dir.path, 1500, startAt)));
      expect(
        results.filter((r) => r === 'got'),
        results.join(', '),
      ).toHaveLength(1);
      expect(
        results.filter((r) => r === 'locked'),
        results.join(', '),
      ).toHaveLength(3);
      expect(readdirSync(dir.path).filter((n) => n.includes('stale'))).toEqual([]);
    }
  }, 60_000);
});
