// Runs `server/main.ts` as a child process, as `npm start -- --service X --port 0` does, for tests that
// need the real process: its exit code and stderr, several processes sharing one STATE_DIR, a process
// that must survive hostile traffic.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');

export interface ServerProcess {
  base: string;
  /** The line the server printed for the service: name, base URL, data version. */
  line: string;
  port: number;
  child: ChildProcess;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  /** SIGTERM, then the exit code (SIGKILL after 10 s). */
  stop(): Promise<number | null>;
}

export interface ServerProcessOptions {
  dataDir: string;
  stateDir: string;
  env?: Record<string, string>;
  /** `start` runs server/start.mjs, as `npm start` does (the compiled server); default: the sources through tsx. */
  entry?: 'sources' | 'start';
}

export function startServerProcess(service: string, options: ServerProcessOptions): Promise<ServerProcess> {
  const entry = options.entry === 'start' ? ['server/start.mjs'] : ['--import', 'tsx', 'server/main.ts'];
  const child = spawn(process.execPath, [...entry, '--service', service, '--port', '0', '--data', options.dataDir], {
    cwd: ROOT,
    // DATABASE_URL only when a test gives one: never the shell's, which may name a real database.
    env: {
      ...process.env,
      LOG: 'off',
      RELOAD_INTERVAL_MS: '0',
      STATE_DIR: options.stateDir,
      DATABASE_URL: '',
      ...options.env,
    },
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (!m) return;
      const port = Number(m[1]);
      resolve({
        base: `http://127.0.0.1:${port}`,
        line: out.split('\n').find((l) => l.includes(m[0]))!,
        port,
        child,
        stderr: () => err,
        exited,
        stop: async () => {
          if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
          const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
          child.kill('SIGTERM');
          const code = await exited;
          clearTimeout(kill);
          return code;
        },
      });
    });
    void exited.then((code) => reject(new Error(`${service} server exited with ${code} before listening:\n${err}`)));
  });
}
