// One PostgreSQL server for every shared-store suite of the run: initdb costs a second or two, so it is made
// once here, and each suite makes its own databases in it (test/helpers/postgres.ts).
import type { TestProject } from 'vitest/node';
import { postgresOrSkip, startPostgres } from '../helpers/postgres.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const bin = postgresOrSkip();
  if (!bin) {
    project.provide('postgres', null);
    return async () => {};
  }
  const server = await startPostgres(bin);
  project.provide('postgres', { bin, port: server.port });
  return () => server.remove();
}
