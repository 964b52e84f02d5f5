// The build lock (pipeline/core/lock.ts): a lock left by a killed build is taken over, by one
// build only when several start together; a lock naming a pid that the system has since given to another
// process is a dead build's too; a live holder stops the build with its pid; an empty lock or guard (its
// writer killed between creating and writing it) is taken over once 10 s old, never sooner.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireLock, processStart } from '../../pipeline/core/lock.ts';
import { tempDir } from '../helpers/server.ts';

const ROOT = join(import.meta.dirname, '..', '..');

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  dir = await tempDir('lock');
});
afterEach(async () => {
  await dir.remove();
});

interface Contender {
  /** Resolves once the process is started and waiting for the word to go. */
  ready: Promise<void>;
  /** Tells it to try the lock now. */
  go(): void;
  /** What it got: `got` or `locked` (or an error), once it has tried. */
  result: Promise<string>;
  /** Lets it go (a holder releases the lock by exiting) and waits for its exit. */
  finish(): Promise<void>;
}

/**
 * A child process that takes the lock when told to (a line on its stdin) and holds it until its stdin ends:
 * every contender is started and waiting before any tries, so the takeovers race, and a holder holds the
 * lock until every other has tried, however slowly the machine starts them.
 */
function contender(outDir: string): Contender {
  const script = `
    import { acquireLock } from './pipeline/core/lock.ts';
    const lines = process.stdin.setEncoding('utf8')[Symbol.asyncIterator]();
    process.stdout.write('ready\\n');
    await lines.next();
    try {
      await acquireLock(${JSON.stringify(outDir)}, 'carriers');
      process.stdout.write('got\\n');
    } catch (err) {
      process.stdout.write((/another build of carriers is running/.test(err.message) ? 'locked' : 'error: ' + err.message) + '\\n');
    }
    for await (const _ of { [Symbol.asyncIterator]: () => lines });
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT });
  let out = '';
  let onLine: (() => void) | undefined;
  child.stdout.on('data', (b: Buffer) => {
    out += b.toString();
    onLine?.();
  });
  child.stderr.on('data', (b: Buffer) => (out += b.toString()));
  const line = (n: number) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const lines = out.split('\n');
        if (lines.length > n) resolve(lines[n - 1]!.trim());
      };
      onLine = check;
      child.once('exit', () => (out.split('\n').length > n ? check() : reject(new Error(`exited: ${out}`))));
      check();
    });
  const ready = line(1).then(() => undefined);
  return {
    ready,
    go: () => child.stdin.write('go\n'),
    result: ready.then(() => line(2)),
    finish: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin.end();
      }),
  };
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

  /** An empty file at `path`, last modified `ageMs` ago. */
  const emptyFile = (path: string, ageMs: number) => {
    writeFileSync(path, '');
    const at = new Date(Date.now() - ageMs);
    utimesSync(path, at, at);
  };

  it('takes over an empty lock 11 s old (its writer was killed before it wrote its pid)', async () => {
    emptyFile(join(dir.path, '.facilities.lock'), 11_000);
    const lock = await acquireLock(dir.path, 'facilities');
    expect(readFileSync(lock, 'utf8')).toBe(`${process.pid} ${processStart(process.pid)}`);
    expect(readdirSync(dir.path)).toEqual(['.facilities.lock']);
  });

  it('does not take over an empty lock 2 s old (a build writing its pid this instant)', async () => {
    const path = join(dir.path, '.facilities.lock');
    emptyFile(path, 2_000);
    await expect(acquireLock(dir.path, 'facilities')).rejects.toThrow(`could not take the build lock ${path}`);
    expect(readFileSync(path, 'utf8')).toBe('');
    expect(readdirSync(dir.path)).toEqual(['.facilities.lock']);
  });

  it('removes an empty takeover guard 11 s old, then takes over a dead build’s lock', async () => {
    writeFileSync(join(dir.path, '.facilities.lock'), '999999999 12345');
    emptyFile(join(dir.path, '.facilities.lock.takeover'), 11_000);
    const lock = await acquireLock(dir.path, 'facilities');
    expect(readFileSync(lock, 'utf8').split(' ')[0]).toBe(String(process.pid));
    expect(readdirSync(dir.path)).toEqual(['.facilities.lock']);
  });

  it('lets exactly one of several builds take over a killed build’s lock', async () => {
    for (let round = 0; round < 3; round++) {
      writeFileSync(join(dir.path, '.carriers.lock'), '999999999 12345');
      const contenders = Array.from({ length: 4 }, () => contender(dir.path));
      await Promise.all(contenders.map((c) => c.ready));
      for (const c of contenders) c.go();
      const results = await Promise.all(contenders.map((c) => c.result));
      await Promise.all(contenders.map((c) => c.finish()));
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
