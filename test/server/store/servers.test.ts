// Three carriers server processes (server/main.ts, as `npm start -- --service carriers` runs them) on one
// PostgreSQL database (docs/contracts/common.md, "Several servers, one shared store"): the free allowance exact
// across all three, a key revoked with `npm run keys` refused by all three within 5 s (and by a fourth
// behind a proxy that drops NOTIFY, as a transaction pooler does), and the database
// stopped under load: 503 store_unavailable within 5 s (never a hang), /healthz degraded, no unit lost or
// counted twice, and service again by itself once it is back.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toMonth } from '../../../server/carriers/quota.ts';
import { openPostgresStore } from '../../../server/core/store-postgres.ts';
import type { AccountStore, CreatedKey } from '../../../server/core/store.ts';
import { CENSUS } from '../../fixtures/carriers.ts';
import { within } from '../../helpers/account-store.ts';
import { buildCarriersFixture } from '../../helpers/carriers.ts';
import { startNoticeDroppingProxy } from '../../helpers/pooler.ts';
import { startOutageProxy, type OutageProxy } from '../../helpers/outage.ts';
import { sharedPostgres } from '../../helpers/postgres.ts';
import { ROOT, startServerProcess, type ServerProcess } from '../../helpers/process.ts';

const pg = sharedPostgres();
const ALLOWANCE = 25;
const REQUESTS = 300;
const carriers = CENSUS.map((c) => c[0]);

interface Answer {
  server: number;
  status: number;
  code?: string;
  retryAfter: string | null;
  remaining: string | null;
  startedAt: number;
  ms: number;
}

/** One profile request; a request that fails outright (no answer) is a status of 0. */
async function lookup(server: ServerProcess, index: number, key: string, carrier: number): Promise<Answer> {
  const startedAt = performance.now();
  try {
    const res = await fetch(`${server.base}/api/carrier/${carrier}`, {
      headers: { Authorization: `Bearer ${key}` },
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await res.json()) as { code?: string };
    return {
      server: index,
      status: res.status,
      code: body.code,
      retryAfter: res.headers.get('retry-after'),
      remaining: res.headers.get('ratelimit-remaining'),
      startedAt,
      ms: performance.now() - startedAt,
    };
  } catch {
    return {
      server: index,
      status: 0,
      retryAfter: null,
      remaining: null,
      startedAt,
      ms: performance.now() - startedAt,
    };
  }
}

/** `npm run keys -- …` as an operator runs it, on the shared store. */
function npmKeys(
  databaseUrl: string,
  ...args: string[]
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  return new Promise((resolve, reject) => {
    const child = spawn(npm, ['run', '--silent', 'keys', '--', ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe.skipIf(!pg)('three carriers servers on one PostgreSQL database', () => {
  // The servers reach the database through a proxy that can take it down for this suite alone.
  let db: OutageProxy;
  let url = '';
  let fx: Awaited<ReturnType<typeof buildCarriersFixture>>;
  let store: AccountStore;
  let servers: ServerProcess[] = [];
  let healthz = '';

  beforeAll(async () => {
    [db, fx, url] = await Promise.all([
      startOutageProxy(pg!.port),
      buildCarriersFixture(),
      pg!.createDatabase('servers'),
    ]);
    store = openPostgresStore(url, { log: () => undefined, warn: () => undefined });
    await (store as ReturnType<typeof openPostgresStore>).ready();
    healthz = readFileSync(join(fx.outDir, 'carriers', 'healthz.json'), 'utf8');
    const env = { DATABASE_URL: db.via(url), FREE_PROFILE_LOOKUPS: String(ALLOWANCE) };
    servers = await Promise.all(
      [0, 1, 2].map(() => startServerProcess('carriers', { dataDir: fx.outDir, stateDir: fx.stateDir, env })),
    );
  }, 120_000);
  afterAll(async () => {
    for (const s of servers) await s.stop();
    await store?.close();
    await db?.close();
    await fx?.root.remove();
  });

  it('/healthz is the build healthz.json, byte for byte, while the database answers', async () => {
    for (const s of servers) {
      const res = await fetch(`${s.base}/healthz`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(healthz);
    }
  });

  it(`gives exactly ${ALLOWANCE} 200s to ${REQUESTS} concurrent lookups with one free key, spread over the three`, async () => {
    const key = await store.createKey('free', 'three servers', new Date());
    const answers = await Promise.all(
      Array.from({ length: REQUESTS }, (_, i) =>
        lookup(servers[i % 3]!, i % 3, key.key, carriers[i % carriers.length]!),
      ),
    );
    const ok = answers.filter((a) => a.status === 200);
    const limited = answers.filter((a) => a.status === 429);
    expect(
      answers.filter((a) => a.status !== 200 && a.status !== 429),
      'statuses other than 200 and 429',
    ).toEqual([]);
    expect(ok).toHaveLength(ALLOWANCE);
    expect(limited).toHaveLength(REQUESTS - ALLOWANCE);
    // Each remaining count from 24 down to 0 was handed out exactly once, whichever server answered.
    expect(ok.map((a) => Number(a.remaining)).sort((a, b) => a - b)).toEqual(
      Array.from({ length: ALLOWANCE }, (_, i) => i),
    );
    for (const a of limited) expect([a.code, a.remaining]).toEqual(['quota_exhausted', '0']);
    for (const i of [0, 1, 2])
      expect(
        limited.some((a) => a.server === i),
        `server ${i}`,
      ).toBe(true);
    expect(await store.usage(key.id, toMonth(new Date()))).toBe(ALLOWANCE);
  }, 60_000);

  it('refuses a key revoked with npm run keys on all three within 5 s', async () => {
    const key = await store.createKey('premium', 'revoked with the CLI', new Date());
    // Signed in on every server, on kept-alive connections, long enough for each to trust what it remembers.
    const warmUntil = performance.now() + 1500;
    while (performance.now() < warmUntil)
      for (const [i, s] of servers.entries()) expect((await lookup(s, i, key.key, carriers[0]!)).status).toBe(200);
    const revoked = await npmKeys(url, 'revoke', key.id);
    expect(revoked, revoked.stderr).toMatchObject({ code: 0, stdout: `revoked ${key.id}\n` });
    const at = performance.now();
    const seen = await Promise.all(
      servers.map(async (s, i) => {
        await within(5000, `server ${i} still accepted the revoked key`, async () => {
          return (await lookup(s, i, key.key, carriers[0]!)).status === 401;
        });
        return performance.now() - at;
      }),
    );
    for (const ms of seen) expect(ms).toBeLessThan(5000);
    console.log(`revocation refused by the three servers after ${seen.map((ms) => Math.round(ms)).join(', ')} ms`);
  }, 60_000);

  it('refuses a revoked key within 5 s on a server whose key notices never arrive (a pooler that drops NOTIFY)', async () => {
    const proxy = await startNoticeDroppingProxy(pg!.port);
    const behind = await startServerProcess('carriers', {
      dataDir: fx.outDir,
      stateDir: fx.stateDir,
      env: { DATABASE_URL: proxy.via(url), FREE_PROFILE_LOOKUPS: String(ALLOWANCE) },
    });
    try {
      const key = await store.createKey('premium', 'behind a pooler', new Date());
      // Signed in on a kept-alive connection, long enough for the server to trust what it remembers.
      const warmUntil = performance.now() + 3000;
      while (performance.now() < warmUntil) expect((await lookup(behind, 3, key.key, carriers[0]!)).status).toBe(200);
      await store.revokeKey(key.id, new Date());
      const at = performance.now();
      // The trigger's notice left the database and the proxy dropped it: only the version tells the server.
      await within(2000, 'the revocation notice never reached the proxy', () => proxy.dropped() > 0);
      await within(5500, 'the server behind the pooler still accepted the revoked key', async () => {
        return (await lookup(behind, 3, key.key, carriers[0]!)).status === 401;
      });
      console.log(`revocation refused behind the pooler after ${Math.round(performance.now() - at)} ms`);
    } finally {
      await behind.stop();
      await proxy.close();
    }
  }, 60_000);

  it('answers 503 store_unavailable within 5 s while the database is down, loses no unit, and serves again', async () => {
    const month = toMonth(new Date());
    // Enough free keys that none runs out during the run: every 200 is a unit the database must hold.
    const keys: CreatedKey[] = [];
    for (let i = 0; i < 60; i++) keys.push(await store.createKey('free', `outage ${i}`, new Date()));
    const premium = await store.createKey('premium', 'outage premium', new Date());
    const answers: (Answer & { free: boolean })[] = [];
    let running = true;
    let n = 0;
    // Two workers per server, and one premium worker per server, each one request at a time, 20 ms apart.
    const worker = async (s: ServerProcess, i: number, free: boolean) => {
      while (running) {
        const key = free ? keys[n++ % keys.length]! : premium;
        answers.push({ ...(await lookup(s, i, key.key, carriers[n % carriers.length]!)), free });
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const workers = servers.flatMap((s, i) => [worker(s, i, true), worker(s, i, true), worker(s, i, false)]);
    const since = (t: number) => answers.filter((a) => a.startedAt >= t);
    const eachServer = (list: Answer[], test: (a: Answer) => boolean) =>
      [0, 1, 2].every((i) => list.some((a) => a.server === i && test(a)));
    try {
      await within(
        10_000,
        'the servers did not answer 20 lookups',
        () => answers.filter((a) => a.status === 200).length > 20,
      );

      // From the moment the stop is asked: a fast shutdown ends the connections first.
      const stoppedAt = performance.now();
      await db.stop();
      const unavailable = (a: Answer) => a.status === 503 && a.code === 'store_unavailable';
      const downMs = await within(5000, 'not every server answered 503 store_unavailable', () =>
        eachServer(since(stoppedAt), unavailable),
      );
      // Free and premium alike, once each server knew.
      await within(5000, 'premium lookups were still answered', () =>
        eachServer(
          since(performance.now() - 200).filter((a) => !a.free),
          unavailable,
        ),
      );
      for (const [i, s] of servers.entries()) {
        const res = await fetch(`${s.base}/healthz`);
        expect(res.status, `server ${i}`).toBe(200);
        const health = (await res.json()) as { status: string; checks: { name: string; status: string }[] };
        expect(health.status).toBe('degraded');
        expect(health.checks.find((c) => c.name === 'account_store')?.status).toBe('degraded');
        // Search needs no store: still answered.
        expect((await fetch(`${s.base}/api/search?q=a`)).status).toBe(200);
      }
      // Load goes on while it is down: every server refuses a few more lookups, each answered within 5 s.
      const checkedAt = performance.now();
      await within(5000, 'the servers stopped answering while the database was down', () =>
        [0, 1, 2].every((i) => since(checkedAt).filter((a) => a.server === i && unavailable(a)).length >= 5),
      );

      await db.start();
      const startedAt = performance.now();
      const upMs = await within(10_000, 'not every server answered 200 again', () =>
        eachServer(since(startedAt), (a) => a.status === 200),
      );
      await within(5000, 'premium lookups were not answered again', () =>
        eachServer(
          since(performance.now() - 200).filter((a) => !a.free),
          (a) => a.status === 200,
        ),
      );
      const recoveredAt = performance.now();
      await within(5000, 'not every server went on answering', () =>
        [0, 1, 2].every((i) => since(recoveredAt).filter((a) => a.server === i && a.status === 200).length >= 3),
      );
      running = false;
      await Promise.all(workers);

      const statuses = new Set(answers.map((a) => `${a.status} ${a.code ?? ''}`.trim()));
      expect([...statuses].sort()).toEqual(['200', '503 store_unavailable']);
      for (const a of answers.filter((x) => x.status === 503)) expect(a.retryAfter).toMatch(/^[1-9]\d*$/);
      // Never a hang: every request answered within 5 s.
      expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(5000);
      // Every 200 to a free key is a unit in the database, and every unit is a 200.
      const served = answers.filter((a) => a.free && a.status === 200).length;
      const counted = (await Promise.all(keys.map((k) => store.usage(k.id, month)))).reduce((a, b) => a + b, 0);
      expect(counted).toBe(served);
      for (const s of servers) {
        await within(
          3000,
          'health still degraded',
          async () => (await (await fetch(`${s.base}/healthz`)).text()) === healthz,
        );
        expect(s.child.exitCode).toBeNull();
      }
      console.log(
        `outage: ${answers.length} requests, ${served} free 200s counted, slowest answer ${Math.round(Math.max(...answers.map((a) => a.ms)))} ms; every server 503 within ${Math.round(downMs)} ms of the stop, 200 within ${Math.round(upMs)} ms of the start`,
      );
    } finally {
      running = false;
      await Promise.all(workers);
    }
  }, 60_000);
});
