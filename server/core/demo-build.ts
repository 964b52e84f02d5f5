// npm start on a fresh clone: a service whose build folder is missing gets demo data from the build CLI, run
// as a child process, so the server holds no pipeline code. This file sits two folders below the project
// root, as the compiled server does (server/start.mjs), so the root resolves the same from both.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Builds demo data into `dataDir/<service>/` unless a build is there. The child finishes a publish that
 * was killed and says what it builds on stderr, which it shares with the server.
 */
export async function ensureBuilt(service: string, dataDir: string): Promise<void> {
  if (existsSync(join(dataDir, service))) return;
  const args = ['--import', 'tsx', join(ROOT, 'pipeline/cli.ts')];
  args.push('--service', service, '--out', dataDir, '--demo-inputs', '--if-missing');
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 2, 2] });
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`the demo build of ${service} failed (exit ${code}); its reason is above`);
}
