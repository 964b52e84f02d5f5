// Mutable state behind one small interface: API keys, monthly allowance counters and the explain summaries.
// `openSqliteStore` keeps it in one embedded SQLite file under STATE_DIR (contracts/common.md "State"),
// safe for several processes on one machine; a shared store for several machines implements the same
// interface later.
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ConfigError } from '../../contract/core/settings.ts';

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

/** One explain summary, cached per carrier and build (contracts/carriers.md, "Explain"). */
export interface ExplainEntry {
  carrier_id: number;
  data_version: string;
  summary: string;
  generator: string;
  /** ISO date-time of the generation. */
  generated_at: string;
}

export interface AccountStore {
  createKey(plan: Plan, label: string, now: Date): CreatedKey;
  listKeys(): KeyInfo[];
  /** False when no key has this id. Revoking twice keeps the first revocation time. */
  revokeKey(id: string, now: Date): boolean;
  /** By hash, compared in constant time; undefined for an unknown key. */
  findKey(key: string): FoundKey | undefined;
  /**
   * A number that changes whenever a key may have been created or revoked since it was last read: by this
   * store, or by any other connection to the same state (checked at most once a millisecond). A findKey
   * answer obtained after reading the epoch holds while the epoch stays the same.
   */
  keysEpoch(): number;
  /** Atomically: if used < limit for `month` (YYYY-MM), add one and return { ok: true, used, remaining }; else { ok: false, used, remaining: 0 }. */
  consume(keyId: string, month: string, limit: number): Consumption;
  /** Give back one unit (a lookup that failed after consume, e.g. 404): keeps "a 4xx does not count". */
  refund(keyId: string, month: string): void;
  usage(keyId: string, month: string): number;
  /** The cached explain summary of a carrier in the build `dataVersion`, if any. */
  explainGet(carrierId: number, dataVersion: string): ExplainEntry | undefined;
  /**
   * Stores a summary unless one is already stored for its carrier and build: the first writer wins, so
   * every process answers the same text. A new summary removes the carrier's summaries of other builds made
   * over a day before it (EXPLAIN_KEEP_MS).
   * Returns the stored entry and whether this call inserted it.
   */
  explainPut(entry: ExplainEntry): { entry: ExplainEntry; inserted: boolean };
  close(): void;
}

/** `sl_` + 32 random bytes in base64url (RFC 4648 §5): 256 bits, 46 characters, safe in a header. */
export const KEY_PATTERN = /^sl_[A-Za-z0-9_-]{43}$/;
export const KEY_ID_PATTERN = /^key_[0-9a-f]{12}$/;
const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

/** A carrier's summaries of other builds are kept this long after a newer summary of it (explainPut). */
export const EXPLAIN_KEEP_MS = 24 * 60 * 60 * 1000;

/** How long a process waits for another one's write lock before failing (SQLite busy_timeout). */
const BUSY_TIMEOUT_MS = 5_000;

export function toKeyHash(key: string): string {
  // The one-shot form: no Hash object per signed-in request.
  return hash('sha256', key, 'hex');
}

function newKey(): string {
  return `sl_${randomBytes(32).toString('base64url')}`;
}

function newKeyId(): string {
  return `key_${randomBytes(6).toString('hex')}`;
}

function assertMonth(month: string): void {
  if (!MONTH_PATTERN.test(month)) throw new Error(`month must be YYYY-MM, got ${JSON.stringify(month)}`);
}

function assertLimit(limit: number): void {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new Error(`limit must be a non-negative integer, got ${limit}`);
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
    whileBusy(() => d.exec(SCHEMA));
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

export function openSqliteStore(stateDir: string): AccountStore {
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const db = openDatabase(join(stateDir, ACCOUNTS_FILE));

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
  const knownKeys = new Map<string, FoundKey | null>();
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
  // The index finds the row by hash; the final comparison is constant-time on the hash bytes, so neither
  // step's timing says anything about the key itself.
  const lookUp = (hash: string): FoundKey | undefined => {
    const row = selectByHash.get(hash);
    if (!row) return undefined;
    const a = Buffer.from(row.key_hash, 'hex');
    const b = Buffer.from(hash, 'hex');
    if (a.length !== b.length || !timingSafeEqual(a, b)) return undefined;
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
  // A summary describes one build's profile, and a build is served for a day or so: once a carrier gets a
  // summary, its summaries of other builds generated over EXPLAIN_KEEP_MS before it are removed, so the table
  // keeps about one row per carrier explained instead of one per carrier and nightly build. The margin keeps
  // the newer build's row when a server still on the older build (a reload under way, or one that never
  // reloads) stores its own: data versions are hashes and do not say which build is newer.
  const deleteOtherExplains = db.prepare<[number, string, string]>(
    'DELETE FROM explain_cache WHERE carrier_id = ? AND data_version <> ? AND generated_at < ?',
  );
  const explainPutTx = db.transaction((entry: ExplainEntry): { entry: ExplainEntry; inserted: boolean } => {
    const inserted =
      insertExplain.run(entry.carrier_id, entry.data_version, entry.summary, entry.generator, entry.generated_at)
        .changes > 0;
    if (inserted) {
      const cutoff = Date.parse(entry.generated_at) - EXPLAIN_KEEP_MS;
      if (Number.isFinite(cutoff))
        deleteOtherExplains.run(entry.carrier_id, entry.data_version, new Date(cutoff).toISOString());
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
    createKey(plan, label, now) {
      if (!PLANS.includes(plan))
        throw new Error(`plan must be one of ${PLANS.join(', ')}, got ${JSON.stringify(plan)}`);
      forgetKeys();
      const created = { id: newKeyId(), key: newKey(), plan, label, created_at: now.toISOString() };
      insertKey.run(created.id, toKeyHash(created.key), plan, label, created.created_at);
      return created;
    },
    listKeys() {
      return selectKeys.all().map((r) => ({
        id: r.id,
        plan: r.plan,
        label: r.label,
        created_at: r.created_at,
        revoked: r.revoked_at !== null,
      }));
    },
    revokeKey(id, now) {
      forgetKeys();
      return updateRevoked.run(now.toISOString(), id).changes > 0;
    },
    findKey(key) {
      const keyHash = toKeyHash(key);
      checkVersion();
      const known = knownKeys.get(keyHash);
      if (known !== undefined) return known ?? undefined;
      const found = lookUp(keyHash);
      // Only a bound on memory: the keys forgotten are still valid, so the epoch stays.
      if (knownKeys.size >= 10_000) knownKeys.clear();
      knownKeys.set(keyHash, found ?? null);
      return found;
    },
    keysEpoch() {
      checkVersion();
      return epoch;
    },
    consume(keyId, month, limit) {
      assertMonth(month);
      assertLimit(limit);
      return consumeTx.immediate(keyId, month, limit);
    },
    refund(keyId, month) {
      assertMonth(month);
      decrementUsed.run(keyId, month);
    },
    usage(keyId, month) {
      assertMonth(month);
      return selectUsed.get(keyId, month)?.used ?? 0;
    },
    explainGet(carrierId, dataVersion) {
      return selectExplain.get(carrierId, dataVersion);
    },
    explainPut(entry) {
      return explainPutTx.immediate(entry);
    },
    close() {
      db.close();
    },
  };
}
