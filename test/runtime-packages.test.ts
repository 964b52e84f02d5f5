// What `npm ci --omit=dev` installs on a server or the nightly machine, read from package-lock.json: at most
// RUNTIME_LIMIT packages, and none that runs an install script unless package.json's allowScripts names it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const RUNTIME_LIMIT = 150;

interface LockEntry {
  dev?: boolean;
  hasInstallScript?: boolean;
}
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockEntry>;
};
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  allowScripts?: Record<string, boolean>;
};

/** The lock's installed packages that are not dev-only, by name (`node_modules/a/node_modules/b` → `b`). */
const runtime = Object.entries(lock.packages)
  .filter(([path, entry]) => path.startsWith('node_modules/') && !entry.dev)
  .map(([path, entry]) => ({ name: path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length), entry }));

describe('runtime packages', () => {
  it(`installs at most ${RUNTIME_LIMIT} packages without the dev ones`, () => {
    // Every direct dependency is among them: the count reads the lock the way npm does.
    for (const name of Object.keys(manifest.dependencies)) expect(runtime.map((p) => p.name)).toContain(name);
    expect(runtime.length).toBeLessThanOrEqual(RUNTIME_LIMIT);
  });

  it('runs no install script that package.json does not allow', () => {
    const scripted = runtime.filter((p) => p.entry.hasInstallScript).map((p) => p.name);
    expect(scripted.length).toBeGreaterThan(0);
    expect(scripted.filter((name) => manifest.allowScripts?.[name] !== true)).toEqual([]);
  });

  it('installs no renderer package for the API reference: its bundle is vendored', () => {
    expect(runtime.filter((p) => p.name.startsWith('@scalar/')).map((p) => p.name)).toEqual([]);
  });
});
