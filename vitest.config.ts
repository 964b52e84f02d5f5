import { defineConfig } from 'vitest/config';

// One run, two projects: the shared-store suites get one PostgreSQL server for the whole run (started by
// test/setup/postgres.ts only when one of them is queued); every other suite runs in "main", where the
// default fixture builds are made once (test/setup/fixtures.ts).
const STORE = 'test/server/store/**/*.test.ts';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Suites start real servers and write real build trees; two cores, so keep workers modest.
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'main',
          include: ['test/**/*.test.ts'],
          exclude: [STORE],
          globalSetup: ['test/setup/fixtures.ts'],
          setupFiles: ['test/setup/shared-builds-guard.ts'],
        },
      },
      { extends: true, test: { name: 'postgres', include: [STORE], globalSetup: ['test/setup/postgres.ts'] } },
    ],
  },
});
