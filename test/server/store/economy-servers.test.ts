// Three economy server processes over one PostgreSQL database (docs/contracts/common.md, "Several servers, one
// shared store"), each with its own STATE_DIR, against a fake WDS and Valet on 127.0.0.1 that answer slowly in
// the real wire formats and count every pull; the tests' names say what the three must do together.
import { readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemas } from '../../../contract/core/schemas.ts';
import type { RegistryEntry } from '../../../contract/economy/types.ts';
import { respondDemo } from '../../../contract/economy/upstream/demo.ts';
import { loadRegistry } from '../../../pipeline/economy/registry.ts';
import { openPostgres } from '../../../server/core/postgres.ts';
import { buildEconomyFixture } from '../../helpers/economy.ts';
import { startOutageProxy, type OutageProxy } from '../../helpers/outage.ts';
import { sharedPostgres } from '../../helpers/postgres.ts';
import { startServerProcess, type ServerProcess } from '../../helpers/process.ts';

const shared = sharedPostgres();

/** How long a pull lease lives here: short, so a takeover is seen quickly (the default is 30 s). */
const LEASE_MS = 2_000;
/** How long the fake upstream takes to answer, as a real one does. */
const UPSTREAM_DELAY_MS = 300;

interface CountingUpstream {
  env: Record<string, string>;
  /** Pulls received per series id. */
  pulls: Map<string, number>;
  /** Series whose next pull is left unanswered (the server pulling it is about to die). */
  hangOnce: Set<string>;
  /** Resolves when a pull of `series` has arrived. */
  arrived(series: string): Promise<void>;
  close(): Promise<void>;
}

async function startCountingUpstream(entries: readonly RegistryEntry[]): Promise<CountingUpstream> {
  const byKey = new Map<string, string>();
  for (const e of entries) for (const k of [...e.vectorIds.map(String), ...e.seriesNames]) byKey.set(k, e.id);
  const pulls = new Map<string, number>();
  const hangOnce = new Set<string>();
  const waiting = new Map<string, (() => void)[]>();
  const hanging: ServerResponse[] = [];
  const seriesOf = (url: URL, body: string): string | undefined => {
    const valet = /\/observations\/([^/]+)\/json$/.exec(url.pathname);
    if (valet) return byKey.get(decodeURIComponent(valet[1]!).split(',')[0]!);
    try {
      const first = (JSON.parse(body) as { vectorId?: unknown }[])[0];
      return byKey.get(String(first?.vectorId));
    } catch {
      return undefined;
    }
  };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const series = seriesOf(url, body) ?? '?';
      pulls.set(series, (pulls.get(series) ?? 0) + 1);
      for (const w of waiting.get(series) ?? []) w();
      waiting.delete(series);
      if (hangOnce.delete(series)) {
        hanging.push(res);
        return;
      }
      setTimeout(() => {
        const answer = respondDemo(req.method ?? 'GET', url, body, { now: () => new Date(), entries });
        res.writeHead(answer.status, { 'Content-Type': 'application/json' });
        res.end(answer.body);
      }, UPSTREAM_DELAY_MS);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    env: { STATCAN_WDS_URL: `${base}/t1/wds/rest`, BOC_VALET_URL: `${base}/valet` },
    pulls,
    hangOnce,
    arrived: (series) =>
      pulls.get(series)
        ? Promise.resolve()
        : new Promise((r) => waiting.set(series, [...(waiting.get(series) ?? []), r])),
    close: () =>
      new Promise((r) => {
        for (const h of hanging) h.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

interface Answer {
  status: number;
  ms: number;
  retryAfter: string | null;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are untyped JSON, read field by field in assertions
  body: any;
}

async function request(base: string, path: string): Promise<Answer> {
  const started = Date.now();
  const res = await fetch(base + path);
  const body = await res.json();
  return { status: res.status, ms: Date.now() - started, retryAfter: res.headers.get('retry-after'), body };
}

describe.skipIf(!shared)('three economy servers over one PostgreSQL', () => {
  // The servers reach the database through a proxy that can take it down for this suite alone.
  let pg: OutageProxy;
  let url: string;
  let built: Awaited<ReturnType<typeof buildEconomyFixture>>;
  let upstream: CountingUpstream;
  let servers: ServerProcess[] = [];
  const entries = loadRegistry().entries;
  const today = () => new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    [pg, built, upstream, url] = await Promise.all([
      startOutageProxy(shared!.port),
      buildEconomyFixture({ demo: false }),
      startCountingUpstream(entries),
      shared!.createDatabase('economy_servers'),
    ]);
    url = pg.via(url);
    const env = { ...upstream.env, DATABASE_URL: url, ECONOMY_PULL_LEASE_MS: String(LEASE_MS) };
    servers = await Promise.all(
      [0, 1, 2].map((i) =>
        startServerProcess('economy', { dataDir: built.outDir, stateDir: join(built.root.path, `state-${i}`), env }),
      ),
    );
  }, 120_000);
  afterAll(async () => {
    for (const s of servers) await s.stop();
    await upstream?.close();
    await pg?.close();
    await built?.root.remove();
  });

  it('made the tables once, though the three started together', async () => {
    const store = openPostgres(url, { log: () => {} });
    try {
      // Each server migrates at start; the first request would wait for it too.
      await expect
        .poll(async () => (await store.query('SELECT name FROM schema_migrations')).map((r) => r.name), {
          timeout: 10_000,
        })
        .toEqual(['economy/001-observations-leases-vintages', 'economy/002-missing-points-and-release-times']);
    } finally {
      await store.close();
    }
    for (const s of servers) expect(s.stderr()).not.toMatch(/store_unavailable|already exists/);
  });

  it('makes exactly one upstream call for 100 concurrent cold requests spread over the three', async () => {
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        request(servers[i % 3]!.base, `/api/observations?series=CPI_ALL_ITEMS&from=${2000 + (i % 20)}-01-01`),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(100).fill(200));
    expect(upstream.pulls.get('CPI_ALL_ITEMS')).toBe(1);
    expect(new Set(answers.map((a) => a.body.asOf)).size).toBe(1);
    schemas().assert('economy/observations', answers[0]!.body, 'observations');
    expect(answers[0]!.body.observations.length).toBeGreaterThan(12);
  });

  it('lists and serves on every server the snapshot one of them wrote', async () => {
    for (const s of servers) {
      const listed = await request(s.base, '/api/vintages?series=CPI_ALL_ITEMS');
      expect(listed).toMatchObject({ status: 200, body: { series: 'CPI_ALL_ITEMS', snapshots: [today()] } });
      const snap = await request(s.base, `/api/observations?series=CPI_ALL_ITEMS&vintage=${today()}`);
      expect(snap.status).toBe(200);
      expect(snap.body.observations.length).toBeGreaterThan(12);
    }
    expect(upstream.pulls.get('CPI_ALL_ITEMS')).toBe(1);
  });

  it('takes over the lease of a server killed mid-pull once it expires, and pulls', async () => {
    const [dead, heir] = [servers[0]!, servers[1]!];
    upstream.hangOnce.add('FX_USD_CAD');
    const orphan = fetch(`${dead.base}/api/observations?series=FX_USD_CAD`).catch(() => undefined);
    await upstream.arrived('FX_USD_CAD');
    // The heir's request waits on the lease the first server holds.
    const waiting = request(heir.base, '/api/observations?series=FX_USD_CAD');
    dead.child.kill('SIGKILL');
    const killedAt = Date.now();
    await dead.exited;
    await orphan;
    const answer = await waiting;
    const afterKill = Date.now() - killedAt;
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ series: 'FX_USD_CAD', cached: false });
    expect(upstream.pulls.get('FX_USD_CAD')).toBe(2);
    // The lease ran out at most LEASE_MS after its last renewal; then one pull.
    expect(afterKill).toBeLessThan(LEASE_MS + UPSTREAM_DELAY_MS + 5_000);
    expect((await request(servers[2]!.base, '/api/observations?series=FX_USD_CAD')).body).toMatchObject({
      cached: true,
      asOf: answer.body.asOf,
    });
    expect(upstream.pulls.get('FX_USD_CAD')).toBe(2);
  }, 30_000);

  it('answers 503 store_unavailable within 5 s while PostgreSQL is stopped under load, and resumes after', async () => {
    const live = servers.slice(1);
    const healthz = readFileSync(join(built.buildDir, 'healthz.json'), 'utf8');
    expect(await (await fetch(`${live[0]!.base}/healthz`)).text()).toBe(healthz);
    // Series never asked for: every request for one needs the store (and a vintages list always does).
    const cold = entries.map((e) => e.id).filter((id) => !upstream.pulls.has(id));
    let next = 0;
    const paths = () => {
      const i = next++;
      return i % 2 === 0
        ? `/api/observations?series=${cold[(i / 2) % cold.length]}`
        : `/api/vintages?series=${cold[((i - 1) / 2) % cold.length]}`;
    };
    let loading = true;
    const seen: Answer[] = [];
    // Twelve clients asking one after another, all along; a request that fails outright is seen as status 0
    // (and ends that client: the servers are gone when a failed test stops them).
    const load = Promise.all(
      Array.from({ length: 12 }, async (_, c) => {
        while (loading) {
          const answer = await request(live[c % 2]!.base, paths()).catch(
            (err: unknown): Answer => ({ status: 0, ms: 0, retryAfter: null, body: String(err) }),
          );
          seen.push(answer);
          if (answer.status === 0) return;
        }
      }),
    );
    await expect.poll(() => seen.length, { timeout: 10_000 }).toBeGreaterThan(12);
    await pg.stop();
    const stoppedAt = seen.length;
    try {
      await expect
        .poll(() => seen.slice(stoppedAt).filter((a) => a.status === 503).length, { timeout: 10_000 })
        .toBeGreaterThan(12);
      const during = seen.slice(stoppedAt);
      expect(during.length).toBeGreaterThan(12);
      // Whatever was asked while it was down was answered, and soon: 200 when no store was needed, else 503.
      expect(Math.max(...during.map((a) => a.ms))).toBeLessThan(5_000);
      const refused = during.filter((a) => a.status === 503);
      expect(refused.length).toBeGreaterThan(0);
      for (const a of refused) {
        expect(a.body).toMatchObject({ status: 503, code: 'store_unavailable' });
        expect(Number(a.retryAfter)).toBeGreaterThan(0);
        expect(Number(a.retryAfter)).toBeLessThanOrEqual(5);
        schemas().assert('core/problem', a.body, 'store_unavailable');
      }
      expect(during.every((a) => a.status === 200 || a.status === 503)).toBe(true);
      // Still answering what needs no store, and saying what is wrong.
      for (const s of live) {
        expect((await request(s.base, '/api/series/CPI_ALL_ITEMS')).status).toBe(200);
        expect((await request(s.base, '/api/observations?series=CPI_ALL_ITEMS')).status).toBe(200);
        // Health asks the store at most once a second.
        await expect
          .poll(async () => (await request(s.base, '/healthz')).body.status, { timeout: 5_000 })
          .toBe('degraded');
        const health = await request(s.base, '/healthz');
        expect(health.status).toBe(200);
        schemas().assert('core/health', health.body, 'healthz');
        expect(health.body.status).toBe('degraded');
        expect(health.body.checks).toContainEqual(
          expect.objectContaining({ name: 'store', status: 'degraded', detail: expect.stringContaining('PostgreSQL') }),
        );
      }
    } finally {
      await pg.start();
    }
    // Back by itself: new series pulled, their snapshots listed, health ok again with the tree's bytes.
    const restartedAt = seen.length;
    await expect
      .poll(() => seen.slice(restartedAt).filter((a) => a.status === 200).length, { timeout: 10_000 })
      .toBeGreaterThan(12);
    loading = false;
    await load;
    for (const s of live) {
      const resumed = await request(s.base, `/api/vintages?series=${cold.at(-1)}`);
      expect(resumed.status).toBe(200);
      await expect.poll(async () => (await fetch(`${s.base}/healthz`)).text(), { timeout: 5_000 }).toBe(healthz);
    }
  }, 60_000);
});
