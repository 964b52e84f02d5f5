// STATE_DIR (docs/contracts/common.md, "State"; docs/configuration.md), resolved and checked alike by the server,
// the keys CLI and the nightly job. Never inside the data folder: a rebuild renames the published tree away,
// key store and all, and a CDN upload would publish it.
import { accessSync, constants, mkdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { type Env, settingOrDefault } from './settings-registry.ts';

export function stateDirOf(env: Env): string {
  return resolve(settingOrDefault(env, 'STATE_DIR'));
}

/** `p` with symbolic links resolved as far as it exists (the rest appended as written). */
function realOf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    const parent = dirname(p);
    return parent === p ? p : join(realOf(parent), basename(p));
  }
}

function isInside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** True when `child` is `parent` or inside it, symbolic links resolved. */
export function isInsideFolder(child: string, parent: string): boolean {
  return isInside(realOf(child), realOf(parent));
}

/** Makes `stateDir` ready (see above), or throws an Error that says what is wrong with it. */
export function prepareStateDir(stateDir: string, dataDir: string): void {
  if (isInsideFolder(stateDir, dataDir)) {
    throw new Error(
      `STATE_DIR ${stateDir} is inside the data folder ${dataDir}: a rebuild would move it away and a CDN upload would publish it; set STATE_DIR to a folder outside it`,
    );
  }
  let isFolder = false;
  try {
    isFolder = statSync(stateDir).isDirectory();
  } catch {
    try {
      mkdirSync(stateDir, { recursive: true, mode: 0o700 });
      isFolder = true;
    } catch (err) {
      throw new Error(`STATE_DIR ${stateDir} cannot be created: ${(err as Error).message}`);
    }
  }
  if (!isFolder) throw new Error(`STATE_DIR ${stateDir} is not a folder`);
  try {
    accessSync(stateDir, constants.W_OK | constants.X_OK);
  } catch {
    throw new Error(`STATE_DIR ${stateDir} is not writable by this user`);
  }
}
