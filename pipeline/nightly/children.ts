// The nightly job's steps that use the servers' state (the account store, the economy cache and archive) run
// the server's own commands as child processes: the pipeline never opens that state. Each step's summary is
// its last line on stderr, kept in the job's notes; a step that fails leaves the build as it is.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ChildRun {
  ok: boolean;
  /** Its last line on stderr: the summary, or why it stopped. */
  summary: string;
}

/** Runs `cli` (a path under the repository) with `args` and `env`; never rejects. */
export function runChild(cli: string, args: readonly string[], env: Readonly<Record<string, string | undefined>>) {
  return new Promise<ChildRun>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, cli), ...args], {
      cwd: ROOT,
      env: { ...env } as NodeJS.ProcessEnv,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (c: string) => {
      stderr = (stderr + c).slice(-4096);
    });
    child.on('error', (err) => resolve({ ok: false, summary: `could not start: ${err.message}` }));
    child.on('close', (code) => {
      const last = stderr.trim().split('\n').at(-1) ?? '';
      resolve({ ok: code === 0, summary: last || `exit ${code}` });
    });
  });
}

export type DeliverRun = ChildRun;

/** The watchlists' webhook deliveries on the carriers build in `outDir` (`npm run deliver`). */
export const runDeliver = (outDir: string, env: Readonly<Record<string, string | undefined>>) =>
  runChild('server/carriers/deliver-cli.ts', ['--data', outDir], env);

/**
 * Today's snapshot of every economy series the build in `outDir` lists (`npm run snapshot`): one pull per
 * series not yet pulled today, through the servers' cache and archive (STATE_DIR or DATABASE_URL).
 */
export const runSnapshot = (outDir: string, env: Readonly<Record<string, string | undefined>>) =>
  runChild('server/economy/snapshot-cli.ts', ['--data', outDir], env);
