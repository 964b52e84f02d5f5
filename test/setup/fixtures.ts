// The default fixture builds, made once for every suite that only reads them (test/helpers/shared-builds.ts).
import type { TestProject } from 'vitest/node';
import { buildCarriersFixture } from '../helpers/carriers.ts';
import { buildEconomyFixture } from '../helpers/economy.ts';
import { buildFixture } from '../helpers/facilities.ts';
import { fingerprint, type FixtureService, type SharedBuild } from '../helpers/shared-builds.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [facilities, carriers, economy] = await Promise.all([
    buildFixture(),
    buildCarriersFixture(),
    buildEconomyFixture(),
  ]);
  const builds = { facilities, carriers, economy };
  const provided = {} as Record<FixtureService, SharedBuild>;
  for (const [service, b] of Object.entries(builds) as [FixtureService, (typeof builds)[FixtureService]][]) {
    provided[service] = {
      input: 'input' in b ? b.input : '',
      outDir: b.outDir,
      summary: b.summary,
      root: b.root.path,
      files: fingerprint(b.root.path),
    };
  }
  project.provide('fixtures', provided);
  return async () => {
    await Promise.all(Object.values(builds).map((b) => b.root.remove()));
  };
}
