// npm start on a fresh clone: a service whose build folder is missing gets demo data from the build CLI, run
// as a child process, so the server holds no pipeline code. This file sits two folders below the project
// root, as the compiled server does (server/start.mjs), so the root resolves the same from both. In
// production (--no-demo, DEMO=off) a missing folder stops the start instead.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { previousDir } from '../../contract/core/layout.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A start refused in production: the service's build folder is not there. */
export class MissingBuildError extends Error {
  constructor(service: string, dir: string) {
    const cutShort = existsSync(previousDir(dir))
      ? ` (a publish was cut short: ${previousDir(dir)} holds the build before it, and the next build of ${service} puts it back)`
      : '';
    super(
      `${dir} is missing${cutShort}: build it first (npm run build -- --service ${service} ...), or start without --no-demo and DEMO=off for demo data`,
    );
    this.name = 'MissingBuildError';
  }
}

/**
 * Builds demo data into `dataDir/<service>/` unless a build is there; with `demo` false, a missing folder
 * is a MissingBuildError. The child finishes a publish that was killed, only under the build lock (never
 * one a running build owns), and says what it builds on stderr, which it shares with the server.
 */
export async function ensureBuilt(service: string, dataDir: string, demo = true): Promise<void> {
  if (existsSync(join(dataDir, service))) return;
  if (!demo) throw new MissingBuildError(service, join(dataDir, service));
  const args = ['--import', 'tsx', join(ROOT, 'pipeline/cli.ts')];
  args.push('--service', service, '--out', dataDir, '--demo-inputs', '--if-missing');
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 2, 2] });
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`the demo build of ${service} failed (exit ${code}); its reason is above`);
}
