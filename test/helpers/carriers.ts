// Builds the carriers fixture into a temp folder and serves it with a fresh account store.
import { join } from 'node:path';
import { expect } from 'vitest';
import { schemas } from '../../contract/core/schemas.ts';
import { buildCarriers } from '../../pipeline/carriers/index.ts';
import { openSqliteStore, type AccountStore } from '../../server/core/store.ts';
import { type CarriersOptions, createCarriersService } from '../../server/carriers/routes.ts';
import { AS_OF, writeCarriersFixture } from '../fixtures/carriers.ts';
import { PINNED_CLOCK } from './facilities.ts';
import { startService, tempDir } from './server.ts';
import { sharedBuild } from './shared-builds.ts';

export async function buildCarriersFixture() {
  const root = await tempDir('carriers');
  const input = join(root.path, 'input');
  const outDir = join(root.path, 'dist-data');
  await writeCarriersFixture(input);
  const summary = await buildCarriers({ input, outDir, asOf: AS_OF, now: PINNED_CLOCK });
  return { root, input, outDir, buildDir: join(outDir, 'carriers'), stateDir: join(root.path, 'state'), summary };
}

type Built = Awaited<ReturnType<typeof buildCarriersFixture>>;

/** The run's default build, read-only, with a temporary folder (`root`, `stateDir`) of the caller's own. */
export async function readOnlyCarriersFixture(): Promise<Built> {
  return (await sharedBuild<Built['summary']>('carriers')) ?? buildCarriersFixture();
}

export async function serveCarriers(
  built: Awaited<ReturnType<typeof buildCarriersFixture>>,
  options: {
    freeLookups?: number;
    corsOrigins?: ReadonlySet<string>;
    now?: () => Date;
    watchlists?: CarriersOptions['watchlists'];
  } = {},
) {
  let store: AccountStore | undefined;
  const accounts = () => (store ??= openSqliteStore(built.stateDir));
  const running = await startService(
    createCarriersService({
      accounts,
      freeLookups: options.freeLookups ?? 25,
      now: options.now,
      watchlists: options.watchlists,
    }),
    built.outDir,
    { corsOrigins: options.corsOrigins },
  );
  return {
    ...running,
    accounts,
    close: async () => {
      await running.close();
      await store?.close();
    },
  };
}

export async function serveCarriersFixture() {
  const built = await readOnlyCarriersFixture();
  const running = await serveCarriers(built);
  return {
    ...built,
    ...running,
    close: async () => {
      await running.close();
      await built.root.remove();
    },
  };
}

// biome-ignore lint/suspicious/noExplicitAny: response bodies are untyped JSON, read field by field in assertions
export type Json = Record<string, any>;

/** Asserts an RFC 9457 problem response with this status and code (schema-checked), and returns its body. */
export async function expectProblem(res: Response, status: number, code: string): Promise<Json> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const body = (await res.json()) as Json;
  schemas().assert('core/problem', body, 'problem');
  expect(body.code).toBe(code);
  return body;
}
