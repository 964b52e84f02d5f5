// The embedded account store's own file (test/server/store/ holds the suite both stores pass), sign-in and the
// free allowance (docs/contracts/carriers.md "Access").
import { spawn } from 'node:child_process';
import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authenticate, requirePremium, type Account } from '../../server/carriers/auth.ts';
import { chargeProfileLookup, refundProfileLookup, secondsToNextMonth, toMonth } from '../../server/carriers/quota.ts';
import { HttpError } from '../../contract/core/problem.ts';
import { openSqliteStore, toKeyHash, type AccountStore } from '../../server/core/store.ts';
import { waitFor } from '../helpers/wait.ts';

const CHILD = join(import.meta.dirname, '..', 'fixtures', 'consume-child.ts');
const NOW = new Date('2026-02-27T00:00:00Z');
const MONTH = '2026-02';

let dir: string;
let store: AccountStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'shardline-accounts-'));
  store = openSqliteStore(join(dir, 'state'));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The HttpError `fn` throws, or its promise rejects with. */
async function thrown(fn: () => unknown): Promise<HttpError> {
  try {
    await fn();
  } catch (err) {
    if (err instanceof HttpError) return err;
    throw err;
  }
  throw new Error('expected an HttpError');
}

describe('the SQLite file', () => {
  it('stores only the hash of a key', async () => {
    const { key } = await store.createKey('premium', 'hash check', NOW);
    await store.close();
    const files = readdirSync(join(dir, 'state')).filter((f) => f.startsWith('accounts.sqlite'));
    const bytes = Buffer.concat(files.map((f) => readFileSync(join(dir, 'state', f))));
    expect(bytes.includes(key)).toBe(false);
    expect(bytes.includes(key.slice(3))).toBe(false);
    expect(bytes.includes(toKeyHash(key))).toBe(true);
    store = openSqliteStore(join(dir, 'state'));
  });

  function race(stateDir: string, keyId: string, limit: number, perChild: number): Promise<number[]> {
    const startAt = String(Date.now() + 2_000);
    const run = () =>
      new Promise<number>((resolve, reject) => {
        const child = spawn(process.execPath, [
          '--import',
          'tsx',
          CHILD,
          stateDir,
          keyId,
          MONTH,
          String(limit),
          String(perChild),
          startAt,
        ]);
        let out = '';
        let err = '';
        child.stdout.on('data', (b: Buffer) => (out += b.toString()));
        child.stderr.on('data', (b: Buffer) => (err += b.toString()));
        child.on('error', reject);
        child.on('exit', (code) =>
          code === 0
            ? resolve((JSON.parse(out) as { ok: number }).ok)
            : reject(new Error(`child exited ${code}: ${err}`)),
        );
      });
    return Promise.all([run(), run()]);
  }

  it('gives exactly one success for 50 concurrent consumes against limit 1 from two processes', async () => {
    const { id } = await store.createKey('free', 'race', NOW);
    const oks = await race(join(dir, 'state'), id, 1, 25);
    expect(oks[0]! + oks[1]!).toBe(1);
    expect(await store.usage(id, MONTH)).toBe(1);
  });

  it('counts exactly when two processes open a fresh state directory at once', async () => {
    const fresh = join(dir, 'fresh');
    const oks = await race(fresh, 'key_000000000001', 30, 25);
    expect(oks[0]! + oks[1]!).toBe(30);
    const other = openSqliteStore(fresh);
    expect(await other.usage('key_000000000001', MONTH)).toBe(30);
    await other.close();
  });
});

describe('older stores', () => {
  it('opens a store with the generic cache table of earlier versions, drops that table and keeps the keys', async () => {
    const created = await store.createKey('free', 'before', NOW);
    await store.close();
    const db = new Database(join(dir, 'state', 'accounts.sqlite'));
    db.exec(
      `CREATE TABLE cache (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT; INSERT INTO cache VALUES ('k', 'v')`,
    );
    db.close();
    store = openSqliteStore(join(dir, 'state'));
    expect((await store.findKey(created.key))?.id).toBe(created.id);
    const check = new Database(join(dir, 'state', 'accounts.sqlite'), { readonly: true });
    const tables = check
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all()
      .map((t) => t.name);
    check.close();
    expect(tables).toEqual(['api_keys', 'explain_cache', 'usage', 'watchlists', 'webhook_deliveries']);
  });
});

describe('authenticate', () => {
  const req = (authorization?: string) =>
    ({ headers: authorization === undefined ? {} : { authorization } }) as IncomingMessage;

  it('returns the account of a valid key, whatever the case of the scheme', async () => {
    const { id, key } = await store.createKey('premium', 'ok', NOW);
    expect(await authenticate(req(`Bearer ${key}`), store)).toEqual({ id, plan: 'premium' });
    expect(await authenticate(req(`bearer   ${key}`), store)).toEqual({ id, plan: 'premium' });
  });

  it.each([
    ['no header', undefined, 'Bearer'],
    ['an empty header', '', 'Bearer'],
    ['another scheme', 'Basic dXNlcjpwYXNz', 'Bearer'],
    ['Bearer with no token', 'Bearer ', 'Bearer'],
    ['a token of the wrong shape', 'Bearer abc', 'Bearer error="invalid_token"'],
    ['an unknown key', `Bearer sl_${'A'.repeat(43)}`, 'Bearer error="invalid_token"'],
  ])('answers 401 unauthorized for %s', async (_label, header, challenge) => {
    const err = await thrown(() => authenticate(req(header), store));
    expect([err.status, err.code]).toEqual([401, 'unauthorized']);
    expect(err.headers).toEqual({ 'WWW-Authenticate': challenge });
  });

  it('answers 401 for a revoked key, and never echoes the token', async () => {
    const { id, key } = await store.createKey('free', 'gone', NOW);
    await store.revokeKey(id, NOW);
    const err = await thrown(() => authenticate(req(`Bearer ${key}`), store));
    expect([err.status, err.code, err.headers['WWW-Authenticate']]).toEqual([
      401,
      'unauthorized',
      'Bearer error="invalid_token"',
    ]);
    expect(err.detail).not.toContain(key);
    expect((await thrown(() => authenticate(req('Bearer secret-ish'), store))).detail).not.toContain('secret-ish');
  });

  describe('on a keep-alive connection', () => {
    const onSocket = (socket: object, authorization: string) =>
      ({ headers: { authorization }, socket }) as unknown as IncomingMessage;

    it('signs the same header in again without hashing or looking up the key', async () => {
      const { id, key } = await store.createKey('premium', 'kept', NOW);
      const socket = {};
      const findKey = vi.spyOn(store, 'findKey');
      expect(await authenticate(onSocket(socket, `Bearer ${key}`), store)).toEqual({ id, plan: 'premium' });
      expect(await authenticate(onSocket(socket, `Bearer ${key}`), store)).toEqual({ id, plan: 'premium' });
      expect(findKey).toHaveBeenCalledTimes(1);
      // Another connection, or a request with no connection, looks the key up itself.
      await authenticate(onSocket({}, `Bearer ${key}`), store);
      await authenticate(req(`Bearer ${key}`), store);
      expect(findKey).toHaveBeenCalledTimes(3);
    });

    it('checks another header in full, even after a valid one', async () => {
      const a = await store.createKey('premium', 'a', NOW);
      const b = await store.createKey('free', 'b', NOW);
      const socket = {};
      expect((await authenticate(onSocket(socket, `Bearer ${a.key}`), store)).id).toBe(a.id);
      expect(await authenticate(onSocket(socket, `Bearer ${b.key}`), store)).toEqual({ id: b.id, plan: 'free' });
      expect((await thrown(() => authenticate(onSocket(socket, `Bearer ${a.key.slice(0, -1)}x`), store))).status).toBe(
        401,
      );
      expect((await thrown(() => authenticate(onSocket(socket, 'Basic dXNlcjpwYXNz'), store))).status).toBe(401);
    });

    it('stops accepting a key revoked by this store at once', async () => {
      const { id, key } = await store.createKey('premium', 'soon gone', NOW);
      const socket = {};
      await authenticate(onSocket(socket, `Bearer ${key}`), store);
      await store.revokeKey(id, NOW);
      expect((await thrown(() => authenticate(onSocket(socket, `Bearer ${key}`), store))).status).toBe(401);
    });

    it('stops accepting a key revoked by another process within a millisecond or so', async () => {
      const { id, key } = await store.createKey('premium', 'revoked elsewhere', NOW);
      const socket = {};
      await authenticate(onSocket(socket, `Bearer ${key}`), store);
      const cli = openSqliteStore(join(dir, 'state'));
      await cli.revokeKey(id, NOW);
      await cli.close();
      // The store asks SQLite whether anything changed at most once a millisecond.
      await waitFor(
        'the revoked key is refused',
        () =>
          Promise.resolve(authenticate(onSocket(socket, `Bearer ${key}`), store)).then(
            () => false,
            (err: HttpError) => err.status === 401,
          ),
        { timeout: 1_000, interval: 1 },
      );
    });
  });

  it('requirePremium answers 403 premium_required for a free account', async () => {
    expect(() => requirePremium({ id: 'key_a', plan: 'premium' })).not.toThrow();
    const err = await thrown(() => requirePremium({ id: 'key_a', plan: 'free' }));
    expect([err.status, err.code]).toEqual([403, 'premium_required']);
  });
});

describe('chargeProfileLookup', () => {
  const free: Account = { id: 'key_free00000000', plan: 'free' };
  const premium: Account = { id: 'key_prem00000000', plan: 'premium' };

  it.each([
    ['2026-02-27T00:00:00Z', '2026-02', 2 * 86_400],
    ['2026-12-31T23:59:59Z', '2026-12', 1],
    ['2026-12-31T23:59:59.250Z', '2026-12', 1],
    ['2026-03-01T00:00:00Z', '2026-03', 31 * 86_400],
    ['2028-02-01T12:00:00Z', '2028-02', 29 * 86_400 - 12 * 3_600],
  ])('at %s the month is %s and resets in %i s', (iso, month, seconds) => {
    expect(toMonth(new Date(iso))).toBe(month);
    expect(secondsToNextMonth(new Date(iso))).toBe(seconds);
  });

  it('charges a free key and sends the RateLimit headers', async () => {
    const charge = await chargeProfileLookup(store, free, () => NOW, 2);
    expect(charge.headers).toEqual({ 'RateLimit-Limit': '2', 'RateLimit-Remaining': '1', 'RateLimit-Reset': '172800' });
    expect((await chargeProfileLookup(store, free, () => NOW, 2)).headers['RateLimit-Remaining']).toBe('0');
    expect(await store.usage(free.id, MONTH)).toBe(2);
  });

  it('answers 429 quota_exhausted with Retry-After to the next UTC month', async () => {
    await chargeProfileLookup(store, free, () => NOW, 1);
    const err = await thrown(() => chargeProfileLookup(store, free, () => NOW, 1));
    expect([err.status, err.code]).toEqual([429, 'quota_exhausted']);
    expect(err.headers).toEqual({
      'Retry-After': '172800',
      'RateLimit-Limit': '1',
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': '172800',
    });
    expect(await store.usage(free.id, MONTH)).toBe(1);
  });

  it('refunds into the month that was charged', async () => {
    const charge = await chargeProfileLookup(store, free, () => new Date('2026-02-28T23:59:59Z'), 1);
    expect((await store.consume(free.id, '2026-03', 1)).ok).toBe(true);
    await refundProfileLookup(store, charge);
    expect([await store.usage(free.id, '2026-02'), await store.usage(free.id, '2026-03')]).toEqual([0, 1]);
  });

  it('never charges or limits a premium key, nor reads the clock or the store for it', async () => {
    const clock = vi.fn(() => NOW);
    const consume = vi.spyOn(store, 'consume');
    const charge = await chargeProfileLookup(store, premium, clock, 0);
    expect(charge).toEqual({ headers: {} });
    expect(clock).not.toHaveBeenCalled();
    expect(consume).not.toHaveBeenCalled();
    await refundProfileLookup(store, charge);
    expect(await store.usage(premium.id, MONTH)).toBe(0);
  });
});
