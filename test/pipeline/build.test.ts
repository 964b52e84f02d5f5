// The build skeleton every service runs: the lock is held while its stages run, and a failed stage leaves
// nothing behind.
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBuild } from '../../pipeline/core/build.ts';
import { tempDir } from '../helpers/server.ts';

const roots: Awaited<ReturnType<typeof tempDir>>[] = [];
afterAll(async () => {
  for (const r of roots) await r.remove();
});

async function outDir(): Promise<string> {
  const root = await tempDir('skeleton');
  roots.push(root);
  return root.path;
}

describe('runBuild', () => {
  it('holds the lock while the stages run, so a second build of the service is refused', async () => {
    const out = await outDir();
    const second = await runBuild('demo-service', { outDir: out }, [], async () => {
      expect(existsSync(join(out, '.demo-service.lock'))).toBe(true);
      return runBuild('demo-service', { outDir: out }, [], async () => 'ran').then(
        () => 'ran',
        (err: Error) => err.message,
      );
    });
    expect(second).toMatch(/demo-service/);
    expect(second).not.toBe('ran');
  });

  it('rethrows a failed stage with no lock, temporary folder or build left', async () => {
    const out = await outDir();
    await expect(
      runBuild('demo-service', { outDir: out }, [], async ({ sink }) => {
        await sink.writeText('partial.txt', 'half');
        throw new Error('stage failed');
      }),
    ).rejects.toThrow('stage failed');
    expect(await readdir(out)).toEqual([]);
  });
});
