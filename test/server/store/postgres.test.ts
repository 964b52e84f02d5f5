// The shared store's connection (server/core/postgres.ts): DATABASE_URL, which failures are the store's,
// versioned migrations applied once when several servers start together, and time limits that turn a
// database that does not answer into 503 store_unavailable, never a hang, with service resumed after.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../../../contract/core/settings.ts';
import {
  databaseUrlSetting,
  isStoreDown,
  openPostgres,
  POSTGRES_TIMEOUTS,
  StoreUnavailableError,
  type Migration,
  type StoreLogLine,
} from '../../../server/core/postgres.ts';
import { startOutageProxy, type OutageProxy } from '../../helpers/outage.ts';
import { sharedPostgres } from '../../helpers/postgres.ts';

const server = sharedPostgres();

describe('DATABASE_URL', () => {
  it('is a postgres:// or postgresql:// address; anything else stops the start without repeating it', () => {
    expect(databaseUrlSetting(undefined)).toBeUndefined();
    expect(databaseUrlSetting('')).toBeUndefined();
    expect(databaseUrlSetting('postgres://u:secret@db.internal:5432/shardline')).toBe(
      'postgres://u:secret@db.internal:5432/shardline',
    );
    expect(databaseUrlSetting('postgresql://db/shardline')).toBe('postgresql://db/shardline');
    for (const bad of ['mysql://u:secret@db/x', 'db.internal:5432', 'postgres:///socket-only', 'secret'])
      expect(() => databaseUrlSetting(bad), bad).toThrow(ConfigError);
    try {
      databaseUrlSetting('mysql://u:secret@db/x');
    } catch (err) {
      expect((err as Error).message).not.toContain('secret');
    }
  });
});

describe('isStoreDown', () => {
  it('tells a database that cannot serve from a query of ours that is wrong', () => {
    const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });
    for (const down of [
      coded('ECONNREFUSED'),
      coded('ETIMEDOUT'),
      coded('57P01', 'terminating connection due to administrator command'),
      coded('57P03', 'the database system is starting up'),
      coded('57014', 'canceling statement due to statement timeout'),
      coded('53300', 'too many connections'),
      coded('08006'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Query read timeout'),
    ])
      expect(isStoreDown(down), down.message).toBe(true);
    for (const bug of [coded('42P01', 'relation does not exist'), coded('23505'), new TypeError('x is undefined')])
      expect(isStoreDown(bug), bug.message).toBe(false);
  });
});

describe('a database that never answers', () => {
  let hole: Server;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    // Accepts connections and says nothing: a firewall that drops packets, a host that froze.
    hole = createServer((s) => void sockets.push(s));
    await new Promise<void>((r) => hole.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => hole.close(() => r()));
  });

  it('is a StoreUnavailableError within the connection time limit, logged once', async () => {
    // The limits: a request that connects and then waits for an answer still has its 503 within 5 s.
    expect(POSTGRES_TIMEOUTS.connectMs + POSTGRES_TIMEOUTS.queryMs).toBeLessThanOrEqual(5_000);
    expect(POSTGRES_TIMEOUTS.statementMs).toBeLessThanOrEqual(POSTGRES_TIMEOUTS.queryMs);
    const lines: StoreLogLine[] = [];
    const { port } = hole.address() as { port: number };
    const pg = openPostgres(`postgres://u:secret@127.0.0.1:${port}/db`, { log: (l) => lines.push(l) });
    try {
      for (let i = 0; i < 2; i++) {
        const started = Date.now();
        const err = await pg.query('SELECT 1').catch((e: unknown) => e);
        expect(err).toBeInstanceOf(StoreUnavailableError);
        expect(err).toMatchObject({ status: 503, code: 'store_unavailable', headers: { 'Retry-After': '2' } });
        expect(Date.now() - started).toBeLessThan(POSTGRES_TIMEOUTS.connectMs + 1_000);
      }
      expect(lines).toEqual([expect.objectContaining({ event: 'store_unavailable', store: `127.0.0.1:${port}/db` })]);
      expect(JSON.stringify(lines)).not.toContain('secret');
      expect(await pg.health()).toMatchObject({ ok: false });
    } finally {
      await pg.close();
    }
  });
});

describe.skipIf(!server)('a real PostgreSQL', () => {
  let url: string;
  let proxy: OutageProxy;
  beforeAll(async () => {
    url = await server!.createDatabase('core_store');
    proxy = await startOutageProxy(server!.port);
  });
  afterAll(async () => proxy?.close());

  const MIGRATIONS: Migration[] = [
    { name: 'test/001-table', sql: 'CREATE TABLE applied (n int NOT NULL); INSERT INTO applied VALUES (1)' },
    { name: 'test/002-row', sql: 'INSERT INTO applied VALUES (2)' },
  ];

  it('applies each migration once when several servers migrate at the same moment, and later ones after', async () => {
    // Each its own URL string: its own pool and migration session, as separate processes have.
    const stores = Array.from({ length: 6 }, (_, i) =>
      openPostgres(`${url}?application_name=s${i}`, { log: () => {} }),
    );
    try {
      await Promise.all(stores.map((s) => s.migrate(MIGRATIONS)));
      const q = stores[0]!.query;
      expect((await q('SELECT n FROM applied ORDER BY n')).map((r) => r.n)).toEqual([1, 2]);
      expect((await q('SELECT name FROM schema_migrations ORDER BY name')).map((r) => r.name)).toEqual([
        'test/001-table',
        'test/002-row',
      ]);
      const more = [...MIGRATIONS, { name: 'test/003-row', sql: 'INSERT INTO applied VALUES (3)' }];
      await Promise.all(stores.map((s) => s.migrate(more)));
      expect((await q('SELECT n FROM applied ORDER BY n')).map((r) => r.n)).toEqual([1, 2, 3]);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it('rolls a failing migration back whole, records nothing, and tries it again on the next call', async () => {
    const pg = openPostgres(`${url}?application_name=failing`, { log: () => {} });
    try {
      const broken = [{ name: 'test/010-broken', sql: 'CREATE TABLE half (n int); SELECT no_such_function()' }];
      await expect(pg.migrate(broken)).rejects.toMatchObject({ code: '42883' });
      expect(await pg.query("SELECT to_regclass('half') AS t")).toEqual([{ t: null }]);
      const fixed = [{ name: 'test/010-broken', sql: 'CREATE TABLE half (n int)' }];
      await pg.migrate(fixed);
      expect(await pg.query("SELECT count(*)::int AS n FROM schema_migrations WHERE name = 'test/010-broken'")).toEqual(
        [{ n: 1 }],
      );
    } finally {
      await pg.close();
    }
  });

  it('stops a statement at the time limit, as a store that did not answer', async () => {
    const pg = openPostgres(`${url}?application_name=slow`, { log: () => {} });
    try {
      const started = Date.now();
      await expect(pg.query('SELECT pg_sleep(10)')).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(Date.now() - started).toBeLessThan(3_500);
      expect(await pg.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await pg.close();
    }
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    const pg = openPostgres(`${url}?application_name=tx`, { log: () => {} });
    try {
      await pg.query('CREATE TABLE IF NOT EXISTS tx (n int)');
      await pg.transaction(async (q) => {
        await q('INSERT INTO tx VALUES (1)');
      });
      await expect(
        pg.transaction(async (q) => {
          await q('INSERT INTO tx VALUES (2)');
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      expect(await pg.query('SELECT n FROM tx')).toEqual([{ n: 1 }]);
    } finally {
      await pg.close();
    }
  });

  it('says unavailable while the server is stopped, logs going and coming back, and resumes by itself', async () => {
    const lines: StoreLogLine[] = [];
    const pg = openPostgres(`${proxy.via(url)}?application_name=restart`, { log: (l) => lines.push(l) });
    try {
      expect(await pg.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
      expect(await pg.health()).toEqual({ ok: true });
      await proxy.stop();
      try {
        const started = Date.now();
        await expect(pg.query('SELECT 1')).rejects.toBeInstanceOf(StoreUnavailableError);
        expect(Date.now() - started).toBeLessThan(5_000);
        // Health is asked of the database at most once a second: the answer turns within that.
        await vi.waitFor(
          async () => expect(await pg.health()).toMatchObject({ ok: false, error: expect.any(String) }),
          {
            timeout: 3_000,
            interval: 50,
          },
        );
      } finally {
        await proxy.start();
      }
      expect(await pg.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
      await vi.waitFor(async () => expect(await pg.health()).toEqual({ ok: true }), { timeout: 3_000, interval: 50 });
      expect(lines.map((l) => l.event).filter((e) => e !== 'store_connection_lost')).toEqual([
        'store_unavailable',
        'store_available',
      ]);
    } finally {
      await pg.close();
    }
  }, 60_000);
});
