// The two halves meet only in contract/ (README, "Architecture"): every entry point's module graph, as esbuild
// bundles it, holds files of its own half and of contract/ only.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The project files an entry point reaches, relative to the root (packages left out). */
async function sourcesOf(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
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

  it('contract/ imports neither half', async () => {
    const files = await sourcesOf('contract/types/generate.ts');
    expect(files.filter((f) => !f.startsWith('contract/'))).toEqual([]);
  });
});
