// What `npm start` does for economy on a fresh clone: demo inputs into a new folder, then a build from
// that folder, which holds the demo marker and no registry.json of its own.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProgress } from '../../pipeline/core/progress.ts';
import { PIPELINES, writeDemo } from '../../pipeline/services.ts';
import { tempDir } from '../helpers/server.ts';

let root: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  root = await tempDir('economy-demo-build');
});
afterAll(() => root.remove());

describe('economy demo build', () => {
  it('builds the repository registry, labelled demo, from a demo folder that did not exist before', async () => {
    const input = join(root.path, 'not-yet', 'economy');
    await writeDemo('economy', input);
    await PIPELINES.economy!.build({ input, outDir: join(root.path, 'out'), progress: createProgress('economy demo') });
    const manifest = JSON.parse(readFileSync(join(root.path, 'out', 'economy', 'manifest.json'), 'utf8')) as {
      demo: boolean;
    };
    expect(manifest.demo).toBe(true);
    const registry = JSON.parse(
      readFileSync(join(import.meta.dirname, '..', '..', 'data', 'economy', 'registry.json'), 'utf8'),
    ) as unknown[];
    expect(JSON.parse(readFileSync(join(root.path, 'out', 'economy', 'registry.json'), 'utf8'))).toHaveLength(
      registry.length,
    );
  });

  it('refuses an input folder that holds neither a registry.json nor the demo marker', async () => {
    await expect(
      PIPELINES.economy!.build({
        input: root.path,
        outDir: join(root.path, 'out2'),
        progress: createProgress('economy demo'),
      }),
    ).rejects.toThrow(/no registry\.json/);
  });
});
