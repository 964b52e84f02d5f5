// Builds the facilities fixture into a temp folder and serves it: shared by the facilities test files.
import { join } from 'node:path';
import { buildFacilities } from '../../pipeline/facilities/index.ts';
import { facilities } from '../../server/facilities/routes.ts';
import { FIXTURE_YEAR, writeFacilitiesFixture } from '../fixtures/facilities.ts';
import { startService, tempDir } from './server.ts';
import { sharedBuild } from './shared-builds.ts';

export const PINNED_CLOCK = () => new Date('2026-01-02T03:04:05.000Z');

export async function buildFixture(change?: Parameters<typeof writeFacilitiesFixture>[1]) {
  const root = await tempDir('facilities');
  const input = join(root.path, 'input');
  const outDir = join(root.path, 'dist-data');
  await writeFacilitiesFixture(input, change);
  const summary = await buildFacilities({ input, outDir, year: FIXTURE_YEAR, now: PINNED_CLOCK });
  return { root, input, outDir, buildDir: join(outDir, 'facilities'), summary };
}

type Built = Awaited<ReturnType<typeof buildFixture>>;

/** The run's default build, read-only, with a temporary folder of the caller's own (`root`). */
export async function readOnlyFixture(): Promise<Built> {
  return (await sharedBuild<Built['summary']>('facilities')) ?? buildFixture();
}

export async function serveFixture() {
  const built = await readOnlyFixture();
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
