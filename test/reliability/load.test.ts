// The free allowance counted across processes: two carriers server processes (server/main.ts) share one
// STATE_DIR, ten free keys get an allowance of 7 lookups each, and 200 concurrent profile requests spread
// over the keys and both processes. Exactly 7 per key succeed, every other one is a 429 problem, and the
// store's counters say 7 for every key: no unit lost or given twice between the processes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemas } from '../../contract/core/schemas.ts';
import { toMonth } from '../../server/carriers/quota.ts';
import { openSqliteStore, type CreatedKey } from '../../server/core/store.ts';
import { CENSUS } from '../fixtures/carriers.ts';
import { type buildCarriersFixture, readOnlyCarriersFixture } from '../helpers/carriers.ts';
import { startServerProcess, type ServerProcess } from '../helpers/process.ts';

const KEYS = 10;
const ALLOWANCE = 7;
const REQUESTS = 200;

describe(`${REQUESTS} concurrent profile lookups over ${KEYS} free keys and two server processes`, () => {
  let fx: Awaited<ReturnType<typeof buildCarriersFixture>>;
  let servers: ServerProcess[] = [];
  let keys: CreatedKey[] = [];

  beforeAll(async () => {
    fx = await readOnlyCarriersFixture();
    const store = openSqliteStore(fx.stateDir);
    keys = await Promise.all(Array.from({ length: KEYS }, (_, i) => store.createKey('free', `load ${i}`, new Date())));
    await store.close();
    const env = { FREE_PROFILE_LOOKUPS: String(ALLOWANCE) };
    servers = await Promise.all(
      [0, 1].map(() => startServerProcess('carriers', { dataDir: fx.outDir, stateDir: fx.stateDir, env })),
    );
  }, 60_000);
  afterAll(async () => {
    for (const s of servers) await s.stop();
    await fx.root.remove();
  });

  it(`gives exactly ${ALLOWANCE} successes per key and 429 for the rest`, async () => {
    const month = toMonth(new Date());
    const carriers = CENSUS.map((c) => c[0]);
    // Request i: key i mod 10, process alternating per round of keys, so every key is used on both.
    const results = await Promise.all(
      Array.from({ length: REQUESTS }, async (_, i) => {
        const key = keys[i % KEYS]!;
        const server = servers[Math.floor(i / KEYS) % 2]!;
        const res = await fetch(`${server.base}/api/carrier/${carriers[i % carriers.length]}`, {
          headers: { Authorization: `Bearer ${key.key}` },
        });
        return {
          key: key.id,
          server: server.port,
          status: res.status,
          headers: res.headers,
          body: (await res.json()) as Record<string, unknown>,
        };
      }),
    );

    const ok = results.filter((r) => r.status === 200);
    const limited = results.filter((r) => r.status === 429);
    expect(
      ok.length + limited.length,
      `other statuses: ${results.filter((r) => r.status !== 200 && r.status !== 429).map((r) => r.status)}`,
    ).toBe(REQUESTS);
    expect(ok).toHaveLength(KEYS * ALLOWANCE);
    expect(limited).toHaveLength(REQUESTS - KEYS * ALLOWANCE);
    for (const key of keys)
      expect(
        ok.filter((r) => r.key === key.id),
        key.id,
      ).toHaveLength(ALLOWANCE);
    // Both processes served successes and refusals: the count really was shared.
    for (const s of servers) {
      expect(ok.some((r) => r.server === s.port)).toBe(true);
      expect(limited.some((r) => r.server === s.port)).toBe(true);
    }
    for (const r of ok) {
      expect(r.body.carrier_id).toBeTypeOf('number');
      expect(Number(r.headers.get('ratelimit-remaining'))).toBeLessThan(ALLOWANCE);
    }
    for (const r of limited) {
      expect(r.headers.get('content-type')).toBe('application/problem+json');
      expect(r.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(r.headers.get('ratelimit-remaining')).toBe('0');
      schemas().assert('core/problem', r.body, '429 body');
      expect(r.body).toMatchObject({ status: 429, code: 'quota_exhausted' });
    }
    // Each remaining count from 6 down to 0 was handed out exactly once per key.
    for (const key of keys) {
      const remaining = ok
        .filter((r) => r.key === key.id)
        .map((r) => Number(r.headers.get('ratelimit-remaining')))
        .sort((a, b) => a - b);
      expect(remaining, key.id).toEqual(Array.from({ length: ALLOWANCE }, (_, i) => i));
    }

    const store = openSqliteStore(fx.stateDir);
    try {
      for (const key of keys) expect(await store.usage(key.id, month), key.id).toBe(ALLOWANCE);
    } finally {
      await store.close();
    }
    for (const s of servers) expect(s.child.exitCode).toBeNull();
  }, 60_000);
});
