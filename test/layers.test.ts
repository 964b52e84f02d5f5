// The two halves meet only in contract/ (docs/architecture.md): every entry point's module graph, as esbuild
// bundles it, holds files of its own half and of contract/ only. The web explorer (web/) is a third part,
// bundled for the browser by the pipeline, which reaches none of the others' code.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** The project files an entry point reaches, relative to the root (packages left out). */
async function sourcesOf(entry: string, platform: 'node' | 'browser' = 'node'): Promise<string[]> {
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    metafile: true,
    // Nothing is written: the folder only lets a script import its stylesheet, as the explorer's do.
    outdir: 'layers-out',
    platform,
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
  });
  return Object.keys(result.metafile.inputs).sort();
}

const ENTRIES = {
  server: ['server/main.ts', 'server/carriers/search-thread.ts', 'server/carriers/keys.ts'],
  pipeline: ['pipeline/cli.ts', 'pipeline/demo/cli.ts', 'pipeline/generate/cli.ts', 'pipeline/nightly/cli.ts'],
} as const;

describe('layers', () => {
  for (const [half, entries] of Object.entries(ENTRIES)) {
    const other = half === 'server' ? 'pipeline/' : 'server/';
    it.each(entries)(`${half}: %s reaches ${half}/ and contract/ only`, async (entry) => {
      const files = await sourcesOf(entry);
      expect(files.length).toBeGreaterThan(2);
      expect(files.some((f) => f.startsWith('contract/'))).toBe(true);
      expect(files.filter((f) => f.startsWith(other))).toEqual([]);
      expect(files.filter((f) => !f.startsWith(`${half}/`) && !f.startsWith('contract/'))).toEqual([]);
    });
  }

  // The explorer runs in the browser: its sources reach web/ and, for types only, contract/ (erased, so not
  // bundled); never the server's or the pipeline's code.
  it.each(['web/facilities/main.ts', 'web/carriers/main.ts', 'web/economy/main.ts'])(
    'web: %s reaches web/ only',
    async (entry) => {
      const files = await sourcesOf(entry, 'browser');
      expect(files.length).toBeGreaterThan(2);
      expect(files.filter((f) => !f.startsWith('web/'))).toEqual([]);
    },
  );

  it('contract/ imports neither half', async () => {
    const files = await sourcesOf('contract/types/generate.ts');
    expect(files.filter((f) => !f.startsWith('contract/'))).toEqual([]);
  });
});
