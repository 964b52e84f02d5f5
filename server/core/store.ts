// Mutable state behind one small interface: API keys, monthly allowance counters and the explain summaries.
// `openSqliteStore` keeps it in one embedded SQLite file under STATE_DIR (docs/contracts/common.md "State"),
// safe for several processes on one machine, and the default; `openPostgresStore` (store-postgres.ts) keeps
// it in PostgreSQL when DATABASE_URL is set, for any number of servers on any number of machines
// (docs/contracts/common.md "Several servers, one shared store").
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ConfigError } from '../../contract/core/settings.ts';
import { Lru } from './cache.ts';
import type { StoreHealth } from './postgres.ts';
import { sqliteWatchlists, WATCHLIST_SQLITE_SCHEMA, type WatchlistStore } from './watchlist-store.ts';

export type Plan = 'free' | 'premium';
export const PLANS: readonly Plan[] = ['free', 'premium'];

export interface CreatedKey {
  id: string;
  /** The secret. Returned once, here; only its hash is stored. */
  key: string;
  plan: Plan;
  label: string;
  created_at: string;
}

export interface KeyInfo {
  id: string;
  plan: Plan;
  label: string;
  created_at: string;
  revoked: boolean;
}

export interface FoundKey {
  id: string;
  plan: Plan;
  revoked: boolean;
}

export interface Consumption {
  ok: boolean;
  used: number;
  remaining: number;
}

/** One explain summary, cached per carrier and build (docs/contracts/carriers.md, "Explain"). */
export interface ExplainEntry {
  carrier_id: number;
  data_version: string;
  summary: string;
  generator: string;
  /** ISO date-time of the generation. */
  generated_at: string;
}

/** Reachable or not, for /healthz (server/core/postgres.ts); the embedded store is always reachable. */
export type { StoreHealth } from './postgres.ts';

/**
 * Where carriers' mutable state lives: the embedded SQLite file under STATE_DIR (openSqliteStore, the
 * default) or the shared PostgreSQL database of DATABASE_URL (store-postgres.ts). Every method that reads
 * or writes state answers with a promise: the shared store is across a network. A store that does not
 * answer rejects with StoreUnavailableError (503 `store_unavailable`), within seconds, never later.
 */
export interface AccountStore {
  /** Where the state is, for messages: a file path, or host:port/database (never a password). */
  readonly name: string;
  createKey(plan: Plan, label: string, now: Date): Promise<CreatedKey>;
  listKeys(): Promise<KeyInfo[]>;
  /** False when no key has this id. Revoking twice keeps the first revocation time. */
  revokeKey(id: string, now: Date): Promise<boolean>;
  /** By hash, compared in constant time; undefined for an unknown key. */
  findKey(key: string): Promise<FoundKey | undefined>;
  /**
   * A number that changes whenever a key may have been created or revoked since it was last read: by this
   * store, or by any other connection to the same state (another server process, the keys CLI). A findKey
   * answer obtained after reading the epoch holds while the epoch stays the same. Read on every signed-in
   * request, so it never waits: each store keeps it up to date on its own (SQLite: checked at most once a
   * millisecond; PostgreSQL: told by the database, and changing on every read while it cannot be told).
   */
  keysEpoch(): number;
  /** Atomically: if used < limit for `month` (YYYY-MM), add one and return { ok: true, used, remaining }; else { ok: false, used, remaining: 0 }. */
  consume(keyId: string, month: string, limit: number): Promise<Consumption>;
  /** Give back one unit (a lookup that failed after consume, e.g. 404): keeps "a 4xx does not count". */
  refund(keyId: string, month: string): Promise<void>;
  usage(keyId: string, month: string): Promise<number>;
  /** The cached explain summary of a carrier in the build `dataVersion`, if any. */
  explainGet(carrierId: number, dataVersion: string): Promise<ExplainEntry | undefined>;
  /**
   * Stores a summary unless one is already stored for its carrier and build: the first writer wins, so
   * every process answers the same text. A new summary removes the summaries of other builds, of any
   * carrier, made over a day before it (EXPLAIN_KEEP_MS): the cache holds the builds of about a day.
   * Returns the stored entry and whether this call inserted it.
   */
  explainPut(entry: ExplainEntry): Promise<{ entry: ExplainEntry; inserted: boolean }>;
  /** Carriers' watchlists and their webhook deliveries (watchlist-store.ts). */
  readonly watchlists: WatchlistStore;
  /** For /healthz: whether the store answers now (at most a second old). */
  health(): Promise<StoreHealth>;
  close(): Promise<void>;
}

/** `sl_` + 32 random bytes in base64url (RFC 4648 §5): 256 bits, 46 characters, safe in a header. */
export const KEY_PATTERN = /^sl_[A-Za-z0-9_-]{43}$/;
export const KEY_ID_PATTERN = /^key_[0-9a-f]{12}$/;
const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

/**
 * A summary of another build is kept this long after a newer summary (explainPut): a server still on the
 * older build (a reload under way, or one that never reloads) keeps finding its own.
 */
export const EXPLAIN_KEEP_MS = 24 * 60 * 60 * 1000;

/**
 * Keys remembered by a store at most (known and unknown alike), in the core's recently-used cache: a flood
 * of unknown keys pushes out only keys not used lately, a generation at a time, never every valid key at once.
 */
export const KNOWN_KEYS_MAX = 10_000;

/** How long a process waits for another one's write lock before failing (SQLite busy_timeout). */
const BUSY_TIMEOUT_MS = 5_000;

export function toKeyHash(key: string): string {
  // The one-shot form: no Hash object per signed-in request.
  return hash('sha256', key, 'hex');
}

/** A new key with its id, for `plan`, made `now`: what createKey stores (as a hash) and returns (once). */
export function newCreatedKey(plan: Plan, label: string, now: Date): CreatedKey {
  if (!PLANS.includes(plan)) throw new Error(`plan must be one of ${PLANS.join(', ')}, got ${JSON.stringify(plan)}`);
  return {
    id: `key_${randomBytes(6).toString('hex')}`,
    key: `sl_${randomBytes(32).toString('base64url')}`,
    plan,
    label,
    created_at: now.toISOString(),
  };
}

/**
 * The row found by the hash index is the key's only if the hashes are equal, compared in constant time on
 * their bytes: neither step's timing says anything about the key itself.
 */
export function sameHash(stored: string, asked: string): boolean {
  const a = Buffer.from(stored, 'hex');
  const b = Buffer.from(asked, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

export function assertMonth(month: string): void {
  if (!MONTH_PATTERN.test(month)) throw new Error(`month must be YYYY-MM, got ${JSON.stringify(month)}`);
}

export function assertLimit(limit: number): void {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new Error(`limit must be a non-negative integer, got ${limit}`);
}

/** The instant before which summaries of other builds go when `entry` is stored; undefined for a bad date. */
export function explainCutoff(entry: ExplainEntry): Date | undefined {
  const cutoff = Date.parse(entry.generated_at) - EXPLAIN_KEEP_MS;
  return Number.isFinite(cutoff) ? new Date(cutoff) : undefined;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS api_keys (
    id         TEXT PRIMARY KEY,
    key_hash   TEXT NOT NULL UNIQUE,  -- sha256 of the key, hex; the unique index is the lookup path
    plan       TEXT NOT NULL CHECK (plan IN ('free', 'premium')),
    label      TEXT NOT NULL,
    created_at TEXT NOT NULL,
    revoked_at TEXT
  ) STRICT;
  CREATE TABLE IF NOT EXISTS usage (
    key_id TEXT NOT NULL,
    month  TEXT NOT NULL,             -- YYYY-MM, UTC
    used   INTEGER NOT NULL CHECK (used >= 0),
    PRIMARY KEY (key_id, month)
  ) STRICT, WITHOUT ROWID;
  -- A generic key-value table of earlier stores, never used: the explain summaries have their own.
  DROP TABLE IF EXISTS cache;
  CREATE TABLE IF NOT EXISTS explain_cache (
    carrier_id   INTEGER NOT NULL,
    data_version TEXT NOT NULL,
    summary      TEXT NOT NULL,
    generator    TEXT NOT NULL,
    generated_at TEXT NOT NULL,
    PRIMARY KEY (carrier_id, data_version)
  ) STRICT, WITHOUT ROWID;
  -- The pruning path of explainPut: by build, then by age, so it reads the rows of other builds alone.
  CREATE INDEX IF NOT EXISTS explain_cache_by_build ON explain_cache (data_version, generated_at);
`;

/** Runs `fn` again every 10 ms while it fails with SQLITE_BUSY, for up to BUSY_TIMEOUT_MS. */
function whileBusy<T>(fn: () => T): T {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      return fn();
    } catch (err) {
      if ((err as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
}

/** The account store's file under STATE_DIR. */
export const ACCOUNTS_FILE = 'accounts.sqlite';

/** Opens the store file, ready for reads and writes, or a ConfigError saying why it cannot be used. */
function openDatabase(file: string): Database.Database {
  const fresh = !existsSync(file);
  let db: Database.Database | undefined;
  try {
    // `timeout` is SQLite's busy_timeout: a writer waits for another process's lock instead of failing.
    db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
    // A new store is the owner's only: it holds every key's hash and label. SQLite gives the -wal and -shm
    // files it makes next the database file's permissions. An existing store keeps the ones it was given.
    if (fresh) chmodSync(file, 0o600);
    const d = db;
    // WAL: readers never block the writer and the writer never blocks readers (https://sqlite.org/wal.html).
    // Switching a new file to WAL takes an exclusive lock and SQLite answers SQLITE_BUSY at once, without
    // its busy handler, while another process opening the same fresh directory holds one: retried here.
    whileBusy(() => d.pragma('journal_mode = WAL'));
    d.pragma('synchronous = NORMAL');
    whileBusy(() => d.exec(SCHEMA + WATCHLIST_SQLITE_SCHEMA));
    // Every signed-in request may write (the allowance): a store this user can read but not write, or a
    // damaged file, is told now rather than as a 500 on each request.
    whileBusy(() => d.exec('BEGIN IMMEDIATE; ROLLBACK'));
    return d;
  } catch (err) {
    db?.close();
    if (err instanceof Error && (err as { code?: string }).code?.startsWith('SQLITE_')) {
      throw new ConfigError(`the account store ${file} cannot be used: ${err.message}`);
    }
    throw err;
  }
}

/**
 * The embedded store: one SQLite file under `stateDir`. Its statements are synchronous and take
 * microseconds; the methods answer with settled promises, as the interface asks.
 */
export function openSqliteStore(stateDir: string): AccountStore {
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const file = join(stateDir, ACCOUNTS_FILE);
  const db = openDatabase(file);

  const insertKey = db.prepare<[string, string, Plan, string, string]>(
    'INSERT INTO api_keys (id, key_hash, plan, label, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  const selectKeys = db.prepare<
    [],
    { id: string; plan: Plan; label: string; created_at: string; revoked_at: string | null }
  >('SELECT id, plan, label, created_at, revoked_at FROM api_keys ORDER BY created_at, id');
  const updateRevoked = db.prepare<[string, string]>(
    'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?',
  );
  const selectByHash = db.prepare<[string], { id: string; key_hash: string; plan: Plan; revoked_at: string | null }>(
    'SELECT id, key_hash, plan, revoked_at FROM api_keys WHERE key_hash = ?',
  );
  const selectDataVersion = db.prepare('PRAGMA data_version').pluck();
  const knownKeys = new Lru<FoundKey | null>(KNOWN_KEYS_MAX);
  let seenVersion = -1;
  let versionCheckedAt = -Infinity;
  let epoch = 0;
  // Keys are read on every signed-in request: answered from memory while no other connection (the keys CLI,
  // another server process) has committed anything since, which PRAGMA data_version tells in one cheap
  // statement, asked at most once a millisecond (a key revoked elsewhere stops working within that); this
  // connection's own key changes clear the memory directly.
  const forgetKeys = () => {
    knownKeys.clear();
    epoch++;
  };
  const checkVersion = () => {
    const now = performance.now();
    if (now - versionCheckedAt < 1) return;
    versionCheckedAt = now;
    const version = selectDataVersion.get() as number;
    if (version !== seenVersion) {
      seenVersion = version;
      forgetKeys();
    }
  };
  const lookUp = (hash: string): FoundKey | undefined => {
    const row = selectByHash.get(hash);
    if (!row || !sameHash(row.key_hash, hash)) return undefined;
    return { id: row.id, plan: row.plan, revoked: row.revoked_at !== null };
  };
  const selectUsed = db.prepare<[string, string], { used: number }>(
    'SELECT used FROM usage WHERE key_id = ? AND month = ?',
  );
  const upsertUsed = db.prepare<[string, string]>(
    'INSERT INTO usage (key_id, month, used) VALUES (?, ?, 1) ON CONFLICT (key_id, month) DO UPDATE SET used = used + 1',
  );
  const decrementUsed = db.prepare<[string, string]>(
    'UPDATE usage SET used = used - 1 WHERE key_id = ? AND month = ? AND used > 0',
  );
  const selectExplain = db.prepare<[number, string], ExplainEntry>(
    'SELECT carrier_id, data_version, summary, generator, generated_at FROM explain_cache WHERE carrier_id = ? AND data_version = ?',
  );
  // DO NOTHING on conflict: a row is never replaced, so the first summary stored is the one every process serves.
  const insertExplain = db.prepare<[number, string, string, string, string]>(
    'INSERT INTO explain_cache (carrier_id, data_version, summary, generator, generated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (carrier_id, data_version) DO NOTHING',
  );
  // A summary describes one build's profile, and a build is served for a day or so: once a summary is
  // stored, the summaries of other builds, of every carrier, generated over EXPLAIN_KEEP_MS before it are
  // removed, so the table holds about the carriers explained in the builds of the last day instead of one
  // row per carrier and nightly build. The margin keeps the newer build's rows when a server still on the
  // older build stores its own: data versions are hashes and do not say which build is newer. `<> ?` as two
  // statements, `< ?` and `> ?`: each a range of the index on (data_version, generated_at), so only the
  // other builds' rows are read (SQLite scans the whole index for the two joined by OR).
  const deleteOlderExplains = db.prepare<[string, string]>(
    'DELETE FROM explain_cache WHERE data_version < ? AND generated_at < ?',
  );
  const deleteNewerExplains = db.prepare<[string, string]>(
    'DELETE FROM explain_cache WHERE data_version > ? AND generated_at < ?',
  );
  const explainPutTx = db.transaction((entry: ExplainEntry): { entry: ExplainEntry; inserted: boolean } => {
    const inserted =
      insertExplain.run(entry.carrier_id, entry.data_version, entry.summary, entry.generator, entry.generated_at)
        .changes > 0;
    if (inserted) {
      const cutoff = explainCutoff(entry)?.toISOString();
      if (cutoff !== undefined) {
        deleteOlderExplains.run(entry.data_version, cutoff);
        deleteNewerExplains.run(entry.data_version, cutoff);
      }
      return { entry, inserted };
    }
    const stored = selectExplain.get(entry.carrier_id, entry.data_version);
    if (!stored)
      throw new Error(`explain cache: no entry for carrier ${entry.carrier_id} after an insert that found one`);
    return { entry: stored, inserted };
  });

  // Read-then-write under BEGIN IMMEDIATE: the write lock is taken before the read, so two processes
  // sharing the file can never both see `used < limit` for the last unit (https://sqlite.org/lang_transaction.html).
  const consumeTx = db.transaction((keyId: string, month: string, limit: number): Consumption => {
    const used = selectUsed.get(keyId, month)?.used ?? 0;
    if (used >= limit) return { ok: false, used, remaining: 0 };
    upsertUsed.run(keyId, month);
    return { ok: true, used: used + 1, remaining: limit - used - 1 };
  });

  return {
    name: file,
    async createKey(plan, label, now) {
      const created = newCreatedKey(plan, label, now);
      forgetKeys();
      insertKey.run(created.id, toKeyHash(created.key), plan, label, created.created_at);
      return created;
    },
    async listKeys() {
      return selectKeys.all().map((r) => ({
        id: r.id,
        plan: r.plan,
        label: r.label,
        created_at: r.created_at,
        revoked: r.revoked_at !== null,
      }));
    },
    async revokeKey(id, now) {
      forgetKeys();
      return updateRevoked.run(now.toISOString(), id).changes > 0;
    },
    async findKey(key) {
      const keyHash = toKeyHash(key);
      checkVersion();
      const known = knownKeys.get(keyHash);
      if (known !== undefined) return known ?? undefined;
      const found = lookUp(keyHash);
      // The key the LRU drops is still valid: the epoch stays.
      knownKeys.set(keyHash, found ?? null);
      return found;
    },
    keysEpoch() {
      checkVersion();
      return epoch;
    },
    async consume(keyId, month, limit) {
      assertMonth(month);
      assertLimit(limit);
      return consumeTx.immediate(keyId, month, limit);
    },
    async refund(keyId, month) {
      assertMonth(month);
      decrementUsed.run(keyId, month);
    },
    async usage(keyId, month) {
      assertMonth(month);
      return selectUsed.get(keyId, month)?.used ?? 0;
    },
    async explainGet(carrierId, dataVersion) {
      return selectExplain.get(carrierId, dataVersion);
    },
    async explainPut(entry) {
      return explainPutTx.immediate(entry);
    },
    watchlists: sqliteWatchlists(db),
    async health() {
      return { ok: true };
    },
    async close() {
      db.close();
    },
  };
}
