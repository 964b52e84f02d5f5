import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Suites start real servers and write real build trees; two cores, so keep workers modest.
    pool: 'forks',
    maxWorkers: 2,
  },
});
