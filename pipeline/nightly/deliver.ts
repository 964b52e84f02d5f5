// After a carriers publish the nightly job makes the watchlists' webhook deliveries: `npm run deliver` as a
// child process (the account store is the server's; the pipeline never opens it), its summary kept in the
// job's notes. A delivery run that fails leaves the build published: the next run (or a timer) delivers.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = fileURLToPath(new URL('../../server/carriers/deliver-cli.ts', import.meta.url));

export interface DeliverRun {
  ok: boolean;
  /** Its last line on stderr: the summary, or why it stopped. */
  summary: string;
}

/** Runs the delivery CLI on the carriers build in `outDir` with `env` (STATE_DIR, DATABASE_URL, WEBHOOK_*). */
export function runDeliver(outDir: string, env: Readonly<Record<string, string | undefined>>): Promise<DeliverRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--data', outDir], {
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
