// The build lock, `<outDir>/.<service>.lock`: the pid and start of the owner, so a killed build's lock is taken
// over at once (by one of several) and a refused build names the holder. Not proper-lockfile: its age-only
// staleness would block a dead build's lock for the whole period and lose a busy build's.
import { readFileSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import { join } from 'node:path';

/** The file-system effects the lock needs (a part of the sink's, pipeline/core/sink.ts). */
export interface LockEffects {
  readFile(path: string): Promise<Buffer | undefined>;
  rm(path: string): Promise<void>;
  /** Creates `path` only if it does not exist; false when it does. */
  createExclusive(path: string, data: string): Promise<boolean>;
  /** When `path` was last modified (ms since the epoch), or undefined when it is not there. */
  modifiedAt(path: string): Promise<number | undefined>;
}

export const fileLockEffects: LockEffects = {
  async readFile(path) {
    try {
      return await fs.readFile(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  },
  rm: (path) => fs.rm(path, { recursive: true, force: true }),
  async createExclusive(path, data) {
    try {
      await fs.writeFile(path, data, { flag: 'wx' });
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw err;
    }
  },
  modifiedAt: (path) =>
    fs.stat(path).then(
      (s) => s.mtimeMs,
      () => undefined,
    ),
};

/**
 * How old an empty lock or guard file must be to be taken for a killed writer's: a live one writes its pid
 * in the same moment it creates the file, so ten seconds is far beyond any pause of a running process.
 */
export const STALE_EMPTY_MS = 10_000;

/** True when a process with this pid is running (ours or another user's). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** What holds a lock: `build of carriers`, or `nightly job` for the nightly's own lock. */
const lockHolder = (service: string) => (service === 'nightly' ? 'nightly job' : `build of ${service}`);

/**
 * When a process started, in clock ticks since boot (Linux: /proc/<pid>/stat, field 22); undefined where
 * that cannot be read. With the pid it names one process: a pid the system gave again to another process
 * after a build was killed has another start.
 */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count from after its last `)`.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** What a lock file holds: `<pid> <start>` (the start where known). */
function lockText(): string {
  const start = processStart(process.pid);
  return start === undefined ? String(process.pid) : `${process.pid} ${start}`;
}

/**
 * The pid a lock file names when that very process is still running; undefined for no lock, a dead holder,
 * or a pid now used by another process (its start differs from the one written).
 */
function holderOf(text: string | undefined): number | undefined {
  const [pidText, start] = (text ?? '').trim().split(' ');
  const holder = Number(pidText);
  if (!Number.isInteger(holder) || holder <= 0 || !isAlive(holder)) return undefined;
  if (start !== undefined) {
    const now = processStart(holder);
    if (now !== undefined && now !== start) return undefined;
  }
  return holder;
}

async function liveHolder(lock: string, effects: LockEffects): Promise<number | undefined> {
  return holderOf((await effects.readFile(lock))?.toString('utf8'));
}

/** True when `path` is empty and was last written at least STALE_EMPTY_MS ago (its writer was killed). */
async function isStaleEmpty(path: string, text: string | undefined, effects: LockEffects): Promise<boolean> {
  if (text !== '') return false;
  const at = await effects.modifiedAt(path);
  return at !== undefined && Date.now() - at >= STALE_EMPTY_MS;
}

const lockedBy = (service: string, holder: number, lock: string) =>
  new Error(`another ${lockHolder(service)} is running (pid ${holder}, lock ${lock})`);

const pause = () => new Promise((resolve) => setTimeout(resolve, 10));

/** Takes `<outDir>/.<name>.lock` for this process (one left by a killed process is taken over); returns its path. */
export async function acquireLock(
  outDir: string,
  service: string,
  effects: LockEffects = fileLockEffects,
): Promise<string> {
  const lock = join(outDir, `.${service}.lock`);
  const mine = lockText();
  const guard = `${lock}.takeover`;
  for (let attempt = 0; attempt < 200; attempt++) {
    if (await effects.createExclusive(lock, mine)) return lock;
    const holder = await liveHolder(lock, effects);
    if (holder !== undefined) throw lockedBy(service, holder, lock);
    // Left by a build that was killed (or being written this instant). It is removed only under a second,
    // short-lived lock, after a second look: of several builds that saw it dead, one removes it and the
    // others, once inside, find the new holder's lock alive. Without the guard, one could remove the lock
    // another had just taken over.
    if (await effects.createExclusive(guard, mine)) {
      let waiting = false;
      try {
        const text = (await effects.readFile(lock))?.toString('utf8');
        // An empty lock is one being written, given a moment, until it is old enough to be a killed writer's.
        waiting = text === '' && !(await isStaleEmpty(lock, text, effects));
        if (!waiting && text !== undefined && holderOf(text) === undefined) await effects.rm(lock);
      } finally {
        await effects.rm(guard);
      }
      if (waiting) await pause();
      continue;
    }
    // Another build is taking over. A guard whose writer died (killed in that instant) is removed.
    const text = (await effects.readFile(guard))?.toString('utf8');
    if ((text && holderOf(text) === undefined) || (await isStaleEmpty(guard, text, effects))) await effects.rm(guard);
    else await pause();
  }
  throw new Error(
    `could not take the build lock ${lock}: an empty lock is a process taking it, or one killed as it did (taken over once ${STALE_EMPTY_MS / 1000} s old)`,
  );
}
