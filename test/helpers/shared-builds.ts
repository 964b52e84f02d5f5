// The default fixture builds, made once per run by test/setup/fixtures.ts and read by many suites: a caller
// gets the shared input and tree, read-only, and a temporary folder of its own for anything it writes. A suite
// that wrote into one would change what the others read: test/setup/shared-builds-guard.ts fails it.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { inject } from 'vitest';
import { tempDir } from './server.ts';

export type FixtureService = 'facilities' | 'carriers' | 'economy';

export interface SharedBuild {
  /** The build's input folder (economy has none: its demo upstream is built in). */
  input: string;
  outDir: string;
  summary: unknown;
  /** Every file under `root` (input and tree) and its SHA-256, as setup made them. */
  root: string;
  files: Record<string, string>;
}

declare module 'vitest' {
  interface ProvidedContext {
    fixtures: Record<FixtureService, SharedBuild> | undefined;
  }
}

/** Each file under `dir` and its SHA-256. */
export function fingerprint(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files[relative(dir, path)] = createHash('sha256').update(readFileSync(path)).digest('hex');
  }
  return files;
}

/** The shared builds this suite has read, for the guard to check after it. */
export const readBuilds = new Set<FixtureService>();
/** The readers' own folders, removed by the guard after the suite (whether or not the suite removed them). */
export const readerRoots: { remove(): Promise<void> }[] = [];

/** The files of the shared builds this suite read that differ from what setup made. */
export function changedSharedFiles(): string[] {
  const changed: string[] = [];
  for (const service of readBuilds) {
    const shared = inject('fixtures')![service];
    const now = fingerprint(shared.root);
    for (const name of new Set([...Object.keys(shared.files), ...Object.keys(now)]))
      if (shared.files[name] !== now[name]) changed.push(`${service}: ${name}`);
  }
  return changed;
}

/** The shared build of `service`, or undefined outside the project that makes them (each caller then builds). */
export async function sharedBuild<S>(service: FixtureService) {
  const shared = inject('fixtures')?.[service];
  if (!shared) return undefined;
  readBuilds.add(service);
  const root = await tempDir(`${service}-reader`);
  readerRoots.push(root);
  return {
    root,
    input: shared.input,
    outDir: shared.outDir,
    buildDir: join(shared.outDir, service),
    stateDir: join(root.path, 'state'),
    summary: shared.summary as S,
  };
}
