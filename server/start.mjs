// `npm start`: the server (server/main.ts) compiled into one ES module, node_modules/.shardline/server.mjs,
// rebuilt with esbuild whenever a source file is newer than it. Starting from the compiled module skips
// loading the TypeScript loader and transforming every source file on each start, which is most of the
// start-up time on a small machine. Packages stay external, resolved from node_modules as usual, and the
// module sits two folders below the project root like the sources, so paths relative to the sources
// (schemas/, data/) resolve the same. The carriers search thread (server/carriers/search-thread.ts) is
// compiled beside it, as search-thread.mjs. If compiling fails, the sources run through tsx instead.
import { mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'node_modules', '.shardline', 'server.mjs');
const THREAD_OUT = join(dirname(OUT), 'search-thread.mjs');
const SOURCES = ['server', 'pipeline', 'contract'];

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function builtAt() {
  try {
    return Math.min(statSync(OUT).mtimeMs, statSync(THREAD_OUT).mtimeMs);
  } catch {
    return -1;
  }
}

async function compile() {
  const { build } = await import('esbuild');
  mkdirSync(dirname(OUT), { recursive: true });
  const bundle = async (contents, out) => {
    const tmp = `${out}.${process.pid}.tmp`;
    await build({
      stdin: { contents, resolveDir: ROOT, loader: 'ts', sourcefile: 'start-entry.ts' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      outfile: tmp,
      logLevel: 'warning',
    });
    // Renamed into place, so a server starting at the same moment never reads half a module.
    renameSync(tmp, out);
  };
  // The thread's module first: a server module newer than it is one whose thread is ready.
  await bundle("export { serveSearches } from './server/carriers/search-thread.ts';\n", THREAD_OUT);
  await bundle("export { main } from './server/main.ts';\nexport { runCli } from './pipeline/core/cli.ts';\n", OUT);
}

let entry;
try {
  if (builtAt() < Math.max(...SOURCES.map((d) => newestSource(join(ROOT, d))))) await compile();
  entry = await import(pathToFileURL(OUT).href);
} catch (err) {
  process.stderr.write(`compiling the server failed (${err?.message ?? err}); running the sources through tsx\n`);
  await import('tsx/esm');
  entry = { ...(await import('../server/main.ts')), ...(await import('../pipeline/core/cli.ts')) };
}
await entry.runCli(() => entry.main(process.argv.slice(2)));
