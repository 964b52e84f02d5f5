// Child processes of the bench: builds (so their peak RSS is their own) and servers (so autocannon, which
// saturates a core, does not share one with the server it measures). Every child is killed when the bench
// exits, whatever the way out.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ChildMessage, ParentMessage } from './protocol.ts';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));

const live = new Set<ChildProcess>();

export function killAllChildren(): void {
  for (const proc of live) proc.kill('SIGKILL');
  live.clear();
}
process.on('exit', killAllChildren);

export interface Child {
  pid: number;
  /** performance.now() just before spawn. */
  spawnedAt: number;
  send(message: ParentMessage): void;
  /** The next message of this type; rejects on an error message, on exit, or after timeoutMs. */
  next<T extends ChildMessage['type']>(type: T, timeoutMs: number): Promise<Extract<ChildMessage, { type: T }>>;
  /** Asks the child to stop, and kills it if it has not exited within graceMs. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Builds run with a larger young generation, as `npm run build` does: they allocate a row object per input
 * line, and with V8's default semi-space many survive one scavenge and get promoted, which makes the old
 * generation's collections grow with the heap (2.1 M carriers: 719 s with the default, 541 s with 64 MB).
 */
export const BUILD_NODE_FLAGS = ['--max-semi-space-size=64'];

/** `stdout`: a file descriptor for the child's stdout (a server's request log); default our stderr. */
export function startChild(script: string, label: string, nodeFlags: readonly string[] = [], stdout = 2): Child {
  const spawnedAt = performance.now();
  // tsx as a loader (not the tsx CLI, which would put one more process between us and the measured one).
  // The child's stdout goes to our stderr unless given: stdout is kept for the report.
  const proc = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', script], {
    cwd: ROOT,
    stdio: ['ignore', stdout, 2, 'ipc'],
    env: { ...process.env, LOG: 'off' },
  });
  live.add(proc);
  const inbox: ChildMessage[] = [];
  const waiters = new Set<() => void>();
  let exitCode: number | null | undefined;
  let exitSignal: string | null = null;
  const wake = () => {
    for (const w of [...waiters]) w();
  };
  proc.on('message', (m) => {
    inbox.push(m as ChildMessage);
    wake();
  });
  proc.on('exit', (code, signal) => {
    live.delete(proc);
    exitCode = code;
    exitSignal = signal;
    wake();
  });
  proc.on('error', (err) => {
    inbox.push({ type: 'error', message: `${label}: ${err.message}` });
    wake();
  });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));

  return {
    pid: proc.pid ?? -1,
    spawnedAt,
    send(message) {
      if (proc.connected) proc.send(message);
    },
    next(type, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const i = inbox.findIndex((m) => m.type === type || m.type === 'error');
          if (i >= 0) {
            const m = inbox.splice(i, 1)[0]!;
            done();
            if (m.type === 'error') reject(new Error(`${label}: ${m.message}`));
            else resolve(m as Extract<ChildMessage, { type: typeof type }>);
          } else if (exitCode !== undefined) {
            done();
            reject(new Error(`${label} exited (${exitSignal ?? `code ${exitCode}`}) before sending ${type}`));
          }
        };
        const timer = setTimeout(() => {
          done();
          proc.kill('SIGKILL');
          reject(new Error(`${label}: no ${type} within ${Math.round(timeoutMs / 1000)} s; killed`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    async stop(graceMs = 5000) {
      if (exitCode !== undefined) return;
      if (proc.connected) proc.send({ type: 'stop' } satisfies ParentMessage);
      const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
