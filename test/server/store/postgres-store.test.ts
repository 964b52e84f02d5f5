// What only the PostgreSQL account store has: its migrations, the keys it remembers until the database says
// they changed, and a database that stops answering (503 store_unavailable within seconds, then service
// again by itself, no unit lost).
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../../server/core/postgres.ts';
import { CARRIERS_MIGRATIONS, KEYS_CHANNEL, openPostgresStore } from '../../../server/core/store-postgres.ts';
import { KNOWN_KEYS_MAX } from '../../../server/core/store.ts';
import { settledEpoch, within } from '../../helpers/account-store.ts';
import { startNoticeDroppingProxy } from '../../helpers/pooler.ts';
import { startOutageProxy } from '../../helpers/outage.ts';
import { sharedPostgres } from '../../helpers/postgres.ts';

const NOW = new Date('2026-02-27T00:00:00Z');
const MONTH = '2026-02';
const quiet = () => undefined;

const shared = sharedPostgres();

async function sql<R extends pg.QueryResultRow>(url: string, text: string, params?: unknown[]): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text, params)).rows;
  } finally {
    await client.end();
  }
}

describe.skipIf(!shared)('the PostgreSQL account store', () => {
  const server = shared!;

  it('makes its tables once when several servers start at the same moment', async () => {
    const url = await server.createDatabase('migrations');
    const stores = Array.from({ length: 4 }, (_, i) =>
      openPostgresStore(`${url}?application_name=starting_${i}`, { log: quiet }),
    );
    try {
      await Promise.all(stores.map((s) => s.ready()));
      const applied = await sql<{ name: string }>(
        url,
        "SELECT name FROM schema_migrations WHERE name LIKE 'carriers/%'",
      );
      expect(applied.map((r) => r.name)).toEqual(CARRIERS_MIGRATIONS.map((m) => m.name));
      const tables = await sql<{ tablename: string }>(
        url,
        "SELECT tablename FROM pg_tables WHERE tablename LIKE 'carriers_%' ORDER BY tablename",
      );
      expect(tables.map((t) => t.tablename)).toEqual([
        'carriers_api_keys',
        'carriers_explain_cache',
        'carriers_keys_version',
        'carriers_usage',
        'carriers_watchlists',
        'carriers_webhook_deliveries',
      ]);
      // Every method waits for them: a store whose first call is a write finds its table.
      expect(await stores[0]!.consume('key_first', MONTH, 1)).toEqual({ ok: true, used: 1, remaining: 0 });
    } finally {
      for (const s of stores) await s.close();
    }
  });

  it('stores only the hash of a key', async () => {
    const url = await server.createDatabase('hashes');
    const store = openPostgresStore(url, { log: quiet });
    try {
      const { id, key } = await store.createKey('premium', 'hash check', NOW);
      const [row] = await sql<Record<string, unknown>>(url, 'SELECT * FROM carriers_api_keys WHERE id = $1', [id]);
      expect(JSON.stringify(row)).not.toContain(key.slice(3));
      expect(row?.key_hash).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      await store.close();
    }
  });

  it('reads a key once, and again only after the database says the keys changed', async () => {
    const url = await server.createDatabase('remembered');
    const store = openPostgresStore(url, { log: quiet, warn: quiet });
    try {
      const { id, key } = await store.createKey('premium', 'remembered', NOW);
      await store.findKey(key);
      const epoch = await settledEpoch(store);
      expect(await store.findKey(key)).toEqual({ id, plan: 'premium', revoked: false });
      // Revoked behind the trigger's back: the store still answers what it remembers, without reading.
      await sql(
        url,
        `ALTER TABLE carriers_api_keys DISABLE TRIGGER carriers_api_keys_changed;
         UPDATE carriers_api_keys SET revoked_at = now() WHERE id = '${id}';
         ALTER TABLE carriers_api_keys ENABLE TRIGGER carriers_api_keys_changed;`,
      );
      expect(await store.findKey(key)).toEqual({ id, plan: 'premium', revoked: false });
      expect(store.keysEpoch()).toBe(epoch);
      // The notice the trigger sends on any change: the store forgets, and reads the row again.
      await sql(url, `NOTIFY ${KEYS_CHANNEL}`);
      await within(2000, 'the notice was not heard', async () => (await store.findKey(key))?.revoked === true);
      expect(store.keysEpoch()).not.toBe(epoch);
    } finally {
      await store.close();
    }
  });

  it('behind a proxy that drops every notice, still remembers keys, and sees a revocation by the version within 5 s', async () => {
    const url = await server.createDatabase('pooled');
    const proxy = await startNoticeDroppingProxy(server.port);
    const store = openPostgresStore(proxy.via(url), { log: quiet, warn: quiet });
    try {
      const { id, key } = await store.createKey('premium', 'pooled', NOW);
      await store.findKey(key);
      // Trusted, not read on every look-up: the epoch holds, and the key is remembered from now on.
      const epoch = await settledEpoch(store);
      expect(await store.findKey(key)).toEqual({ id, plan: 'premium', revoked: false });
      await sql(url, `UPDATE carriers_api_keys SET revoked_at = now() WHERE id = '${id}'`);
      await within(2000, 'the notice never left the database', () => proxy.dropped() > 0);
      await within(5000, 'the revocation was not seen', async () => (await store.findKey(key))?.revoked === true);
      expect(store.keysEpoch()).not.toBe(epoch);
    } finally {
      await store.close();
      await proxy.close();
    }
  });

  it('keeps a key used often through a flood of unknown ones: the least recently used are forgotten, not all', async () => {
    const url = await server.createDatabase('flood');
    const store = openPostgresStore(url, { log: quiet, warn: quiet });
    try {
      const { id, key } = await store.createKey('premium', 'flood', NOW);
      await store.findKey(key);
      await settledEpoch(store);
      expect(await store.findKey(key)).toEqual({ id, plan: 'premium', revoked: false });
      // Revoked behind the trigger's back: only a store that reads the row again sees it.
      await sql(
        url,
        `ALTER TABLE carriers_api_keys DISABLE TRIGGER carriers_api_keys_changed;
         UPDATE carriers_api_keys SET revoked_at = now() WHERE id = '${id}';
         ALTER TABLE carriers_api_keys ENABLE TRIGGER carriers_api_keys_changed;`,
      );
      // More unknown keys than the store remembers, the valid key used between every hundred of them.
      const unknown = (i: number) => `sl_${String(i).padStart(43, 'A')}`;
      let looked = 0;
      for (let batch = 0; batch * 100 < KNOWN_KEYS_MAX + 500; batch++) {
        await Promise.all(Array.from({ length: 100 }, (_, i) => store.findKey(unknown(batch * 100 + i))));
        looked += 100;
        expect(await store.findKey(key)).toEqual({ id, plan: 'premium', revoked: false });
      }
      expect(looked).toBeGreaterThan(KNOWN_KEYS_MAX);
    } finally {
      await store.close();
    }
  }, 60_000);

  it('answers 503 store_unavailable within 5 s while the database is down, and serves again by itself', async () => {
    const proxy = await startOutageProxy(server.port);
    const store = openPostgresStore(proxy.via(await server.createDatabase('outage')), { log: quiet, warn: quiet });
    try {
      const { id, key } = await store.createKey('free', 'outage', NOW);
      await store.findKey(key);
      await settledEpoch(store);
      expect((await store.consume(id, MONTH, 1000)).ok).toBe(true);
      await proxy.stop();
      const timed = async (p: Promise<unknown>) => {
        const started = performance.now();
        const err = await p.then(
          () => undefined,
          (e: unknown) => e,
        );
        return { err, ms: performance.now() - started };
      };
      for (const attempt of [
        () => store.consume(id, MONTH, 1000),
        () => store.usage(id, MONTH),
        () => store.explainGet(1, 'x'),
        () => store.listKeys(),
      ] as (() => Promise<unknown>)[]) {
        const { err, ms } = await timed(attempt());
        expect(err).toBeInstanceOf(StoreUnavailableError);
        expect((err as StoreUnavailableError).status).toBe(503);
        expect((err as StoreUnavailableError).code).toBe('store_unavailable');
        expect((err as StoreUnavailableError).headers['Retry-After']).toMatch(/^\d+$/);
        expect(ms).toBeLessThan(5000);
      }
      // The key remembered is not trusted once the listener is gone: it is read, and cannot be.
      await within(5000, 'a remembered key was still trusted', async () => {
        const { err } = await timed(store.findKey(key));
        return err instanceof StoreUnavailableError;
      });
      expect(store.keysEpoch()).not.toBe(store.keysEpoch());
      const health = await store.health();
      expect(health).toMatchObject({ ok: false, since: expect.any(Number), error: expect.any(String) });

      await proxy.start();
      await within(10_000, 'the store did not answer again', async () => {
        const { err } = await timed(store.consume(id, MONTH, 1000));
        return err === undefined;
      });
      // Health is checked at most once a second.
      await within(3000, 'the store was still unhealthy', async () => (await store.health()).ok);
      // One unit before the outage, one after: none lost, none counted twice.
      expect(await store.usage(id, MONTH)).toBe(2);
      expect(await store.findKey(key)).toEqual({ id, plan: 'free', revoked: false });
      await settledEpoch(store);
    } finally {
      await store.close();
      await proxy.close();
    }
  }, 60_000);

  it('answers 503 within 5 s for a database that holds its connections and answers nothing, then serves again', async () => {
    const proxy = await startOutageProxy(server.port);
    const store = openPostgresStore(proxy.via(await server.createDatabase('silent')), { log: quiet, warn: quiet });
    const entry = { carrier_id: 1, data_version: 'v', summary: 's', generator: 'g', generated_at: NOW.toISOString() };
    try {
      const { id, key } = await store.createKey('free', 'silent', NOW);
      await store.findKey(key);
      await settledEpoch(store);
      expect(await store.findKey(key)).toMatchObject({ id });
      expect((await store.consume(id, MONTH, 1000)).ok).toBe(true);
      proxy.freeze();
      try {
        const started = performance.now();
        const failures = await Promise.all(
          [
            () => store.consume(id, MONTH, 1000),
            () => store.explainPut(entry),
            () => store.usage(id, MONTH),
            ...Array.from({ length: 12 }, () => () => store.consume(id, MONTH, 1000)),
          ].map((call) =>
            call().then(
              () => undefined,
              (err: unknown) => ({ err, ms: performance.now() - started }),
            ),
          ),
        );
        for (const f of failures) {
          expect(f?.err).toBeInstanceOf(StoreUnavailableError);
          expect(f!.ms).toBeLessThan(5000);
        }
        // The key remembered stops being trusted once the listener's connection stops answering.
        await within(5000, 'a remembered key was still trusted', async () =>
          store.findKey(key).then(
            () => false,
            (err: unknown) => err instanceof StoreUnavailableError,
          ),
        );
        expect((await store.health()).ok).toBe(false);
      } finally {
        proxy.thaw();
      }
      await within(10_000, 'the store did not answer again', () =>
        store.consume(id, MONTH, 1000).then(
          () => true,
          () => false,
        ),
      );
      expect(await store.findKey(key)).toMatchObject({ id, revoked: false });
    } finally {
      await store.close();
      await proxy.close();
    }
  }, 60_000);

  it('answers 503 at once for a database nobody listens at, and says so in its health', async () => {
    const store = openPostgresStore(`postgres://shardline@127.0.0.1:${server.port + 1}/nowhere`, {
      log: quiet,
      warn: quiet,
    });
    try {
      const started = performance.now();
      await expect(store.consume('key_a', MONTH, 1)).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(store.findKey(`sl_${'A'.repeat(43)}`)).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(performance.now() - started).toBeLessThan(5000);
      expect((await store.health()).ok).toBe(false);
    } finally {
      await store.close();
    }
  });
});
