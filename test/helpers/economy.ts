// Builds the economy registry into a temp folder with a pinned clock and serves its registry routes:
// shared by the economy test files. The service definition here is a local stand-in with the registry
// routes only; the real one (server/economy/routes.ts) adds the observation and MCP routes.
import { join } from 'node:path';
import { buildEconomy, type EconomyBuildConfig } from '../../pipeline/economy/index.ts';
import { OPENAPI_PATH } from '../../contract/economy/api.ts';
import type { ServiceDefinition } from '../../server/core/service.ts';
import { loadRegistryData, registryRoutes, type EconomyRegistryData } from '../../server/economy/registry-routes.ts';
import { startService, tempDir } from './server.ts';
import { sharedBuild } from './shared-builds.ts';

export const ECONOMY_CLOCK = () => new Date('2026-11-22T12:00:00.000Z');

export const economyRegistryService: ServiceDefinition<EconomyRegistryData> = {
  name: 'economy',
  basePath: '/api',
  openapi: OPENAPI_PATH,
  load: loadRegistryData,
  routes: registryRoutes,
};

export async function buildEconomyFixture(options: Partial<Omit<EconomyBuildConfig, 'outDir'>> = {}) {
  const root = await tempDir('economy');
  const outDir = join(root.path, 'dist-data');
  const summary = await buildEconomy({ demo: true, now: ECONOMY_CLOCK, ...options, outDir });
  return { root, outDir, buildDir: join(outDir, 'economy'), summary };
}

type Built = Awaited<ReturnType<typeof buildEconomyFixture>>;

/** The run's default build, read-only, with a temporary folder (`root`) of the caller's own. */
export async function readOnlyEconomyFixture(): Promise<Built> {
  return (await sharedBuild<Built['summary']>('economy')) ?? buildEconomyFixture();
}

/** Serves a build with a service definition: economyRegistryService, or a fuller one that includes its routes. */
export async function serveEconomy<D>(built: { outDir: string }, def: ServiceDefinition<D>) {
  return startService(def, built.outDir);
}

export async function serveEconomyFixture() {
  const built = await readOnlyEconomyFixture();
  const running = await serveEconomy(built, economyRegistryService);
  return {
    ...built,
    ...running,
    close: async () => {
      await running.close();
      await built.root.remove();
    },
  };
}
