// Builds the facilities fixture into a temp folder and serves it: shared by the facilities test files.
import { join } from 'node:path';
import { buildFacilities } from '../../pipeline/facilities/index.ts';
import { facilities } from '../../server/facilities/routes.ts';
import { FIXTURE_YEAR, writeFacilitiesFixture } from '../fixtures/facilities.ts';
import { startService, tempDir } from './server.ts';

export const PINNED_CLOCK = () => new Date('2026-01-02T03:04:05.000Z');

export async function buildFixture(change?: Parameters<typeof writeFacilitiesFixture>[1]) {
  const root = await tempDir('facilities');
  const input = join(root.path, 'input');
  const outDir = join(root.path, 'dist-data');
  await writeFacilitiesFixture(input, change);
  const summary = await buildFacilities({ input, outDir, year: FIXTURE_YEAR, now: PINNED_CLOCK });
  return { root, input, outDir, buildDir: join(outDir, 'facilities'), summary };
}

export async function serveFixture() {
  const built = await buildFixture();
  const running = await startService(facilities, built.outDir);
  return {
    ...built,
    ...running,
    close: async () => {
      await running.close();
      await built.root.remove();
    },
  };
}
