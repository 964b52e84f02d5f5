// The shared store's connection (DATABASE_URL, docs/contracts/common.md, "Several servers, one shared store"):
// one node-postgres pool per URL and process, time limits so a silent database is a 503 `store_unavailable`
// within seconds (POSTGRES_TIMEOUTS), and versioned migrations applied once each under an advisory lock.
import pg from 'pg';
import { ConfigError } from '../../contract/core/settings.ts';
import { HttpError } from '../../contract/core/problem.ts';

/** What a 503 `store_unavailable` says in Retry-After: a database restart takes seconds. */
export const STORE_RETRY_AFTER_S = 2;

export interface PostgresTimeouts {
  /** A new connection, or a free one from a full pool. */
  connectMs: number;
  /** statement_timeout, enforced by the server. */
  statementMs: number;
  /** query_timeout, enforced by the client: the answer to one query. */
  queryMs: number;
}

export const POSTGRES_TIMEOUTS: PostgresTimeouts = { connectMs: 2000, statementMs: 2000, queryMs: 2500 };

/** The advisory lock every server takes to migrate: one number for the whole schema of this product. */
const MIGRATION_LOCK = 7_307_011_804_451_231_915n;

/** Migrations wait for each other (another server migrating) longer than a request waits for a query. */
const MIGRATION_TIMEOUT_MS = 30_000;

/**
 * DATABASE_URL: unset or empty is no shared store (undefined); otherwise a postgres:// or postgresql://
 * address, or a ConfigError. The value is never repeated in the message: it may hold a password.
 */
export function databaseUrlSetting(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') || url.hostname === '')
    throw new ConfigError('DATABASE_URL must be a postgres://user:password@host:port/database address');
  return raw;
}

/** Where a URL points, without its user or password: for logs. */
export function describeDatabase(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
  } catch {
    return 'the database';
  }
}

/** The shared store did not answer: 503 `store_unavailable`, with the seconds to wait in Retry-After. */
export class StoreUnavailableError extends HttpError {
  constructor(readonly reason: string) {
    super(503, 'store_unavailable', `the shared store did not answer; retry in ${STORE_RETRY_AFTER_S} s`, undefined, {
      'Retry-After': String(STORE_RETRY_AFTER_S),
    });
    this.name = 'StoreUnavailableError';
  }
}

/** Error codes of the socket under a connection: the database cannot be reached. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/**
 * SQLSTATE classes of a database that cannot serve now, whatever the query: 08 connection exception,
 * 53 insufficient resources (too many connections), 57 operator intervention (shut down, starting up, a
 * statement cancelled by statement_timeout), 58 system error; 28 and 3D (refused credentials, no such
 * database) are a setting to fix, but a request cannot be served either.
 */
const UNAVAILABLE_CLASSES = new Set(['08', '53', '57', '58', '28', '3D']);

/** Messages node-postgres gives without a code for a connection that failed, timed out or ended. */
const CLIENT_MESSAGES =
  /connection terminated|timeout exceeded when trying to connect|query read timeout|not queryable|connection error|cannot use a pool after calling end/i;

/** True when `err` says the database could not serve the query (as opposed to a query of ours that is wrong). */
export function isStoreDown(err: unknown): boolean {
  if (err instanceof StoreUnavailableError) return true;
  const code = (err as { code?: unknown })?.code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code)) return UNAVAILABLE_CLASSES.has(code.slice(0, 2));
  }
  return CLIENT_MESSAGES.test((err as Error)?.message ?? '');
}

export interface Migration {
  /** Unique across the product, prefixed by its service (`economy/001-observations`); recorded once applied. */
  name: string;
  sql: string;
}

export interface StoreLogLine {
  event: 'store_unavailable' | 'store_available' | 'store_migrated' | 'store_connection_lost';
  store: string;
  error?: string;
  migrations?: string[];
}

export type StoreHealth = { ok: true } | { ok: false; since: number; error: string };

/**
 * A query runner: the pool's, or a transaction's client. `sql` may be a named statement, `{ name, text }`:
 * prepared once on each connection and only bound and run after, which spares the database parsing and
 * planning it again (for the statements of the hot path).
 */
export type Query = <R extends pg.QueryResultRow = pg.QueryResultRow>(
  sql: string | NamedStatement,
  params?: unknown[],
) => Promise<R[]>;

/** A statement prepared under `name` on each connection that runs it; the name is unique in the product. */
export interface NamedStatement {
  name: string;
  text: string;
}

export interface PostgresStore {
  /** Where it points, without credentials. */
  readonly name: string;
  /** Runs one statement; a database that does not answer throws StoreUnavailableError. */
  query: Query;
  /** Runs `fn` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (query: Query) => Promise<T>): Promise<T>;
  /**
   * Applies the migrations of `migrations` not yet recorded in `schema_migrations`, in order, each in its own
   * transaction, under a session-level advisory lock so servers starting together apply each once (the others
   * wait, then find it recorded). Once it resolved in this process, later calls with the same list resolve at
   * once; after a failure the next call tries again.
   */
  migrate(migrations: readonly Migration[]): Promise<void>;
  /** Reachable or not, checked at most once a second with a 1 s limit: for /healthz. */
  health(): Promise<StoreHealth>;
  /** Gives back this handle; the pool ends with the last one. */
  close(): Promise<void>;
}

export interface PostgresOptions {
  timeouts?: Partial<PostgresTimeouts>;
  /** Connections per process (default 10). */
  maxConnections?: number;
  log?: (line: StoreLogLine) => void;
}

export const stderrStoreLog = (line: StoreLogLine) => process.stderr.write(`${JSON.stringify(line)}\n`);

interface Shared {
  pool: pg.Pool;
  handles: number;
  store: Omit<PostgresStore, 'close'>;
}

const pools = new Map<string, Shared>();

/**
 * The store at `url`: the pool already open in this process for that URL, or a new one. The options of
 * the first opener apply.
 */
export function openPostgres(url: string, options: PostgresOptions = {}): PostgresStore {
  let shared = pools.get(url);
  if (!shared) {
    const made = createShared(url, options);
    pools.set(url, made);
    shared = made;
  }
  shared.handles++;
  const it = shared;
  let closed = false;
  return {
    ...it.store,
    async close() {
      if (closed) return;
      closed = true;
      if (--it.handles > 0) return;
      if (pools.get(url) === it) pools.delete(url);
      await it.pool.end().catch(() => undefined);
    },
  };
}

function createShared(url: string, options: PostgresOptions): Shared {
  const timeouts = { ...POSTGRES_TIMEOUTS, ...options.timeouts };
  const log = options.log ?? stderrStoreLog;
  const name = describeDatabase(url);
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: timeouts.connectMs,
    statement_timeout: timeouts.statementMs,
    query_timeout: timeouts.queryMs,
    // A connection left in a transaction by a request that gave up is closed by the server.
    idle_in_transaction_session_timeout: Math.max(5000, timeouts.queryMs * 2),
    idleTimeoutMillis: 10_000,
    keepAlive: true,
    // Idle connections do not keep a process alive that has nothing else to do.
    allowExitOnIdle: true,
    application_name: 'shardline',
  });
  // An idle pooled connection the database closed (a restart, a fail-over) is dropped by the pool; without
  // a listener that would be an uncaught error.
  pool.on('error', (err) => log({ event: 'store_connection_lost', store: name, error: err.message }));

  let down: { since: number; error: string } | undefined;
  const wentDown = (reason: string) => {
    if (down) return down;
    down = { since: Date.now(), error: reason };
    log({ event: 'store_unavailable', store: name, error: reason });
    return down;
  };
  const failed = (err: unknown): never => {
    if (!isStoreDown(err)) throw err;
    const reason = err instanceof StoreUnavailableError ? err.reason : ((err as Error)?.message ?? String(err));
    wentDown(reason);
    throw err instanceof StoreUnavailableError ? err : new StoreUnavailableError(reason);
  };
  const answered = () => {
    if (down) {
      down = undefined;
      log({ event: 'store_available', store: name });
    }
  };

  const query: Query = async (sql, params) => {
    try {
      const r = await pool.query(sql, params);
      answered();
      return r.rows;
    } catch (err) {
      return failed(err);
    }
  };

  const transaction = async <T>(fn: (q: Query) => Promise<T>): Promise<T> => {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (err) {
      return failed(err);
    }
    let broken: unknown;
    const q: Query = async (sql, params) => {
      try {
        return (await client.query(sql, params)).rows;
      } catch (err) {
        if (isStoreDown(err)) broken = err;
        throw err;
      }
    };
    try {
      await q('BEGIN');
      const result = await fn(q);
      await q('COMMIT');
      answered();
      return result;
    } catch (err) {
      if (!broken) await client.query('ROLLBACK').catch((e: unknown) => (broken = e));
      return failed(err);
    } finally {
      // A connection that failed is dropped rather than handed to the next query.
      client.release(broken ? (broken as Error) : undefined);
    }
  };

  const migrated = new Map<string, Promise<void>>();
  const migrate = (migrations: readonly Migration[]): Promise<void> => {
    const key = migrations.map((m) => m.name).join('\n');
    let done = migrated.get(key);
    if (!done) {
      done = applyMigrations(url, timeouts.connectMs, migrations).then(
        (applied) => {
          answered();
          if (applied.length) log({ event: 'store_migrated', store: name, migrations: applied });
        },
        (err: unknown) => {
          migrated.delete(key);
          return failed(err);
        },
      );
      migrated.set(key, done);
    }
    return done;
  };

  let checked: { at: number; health: Promise<StoreHealth> } | undefined;
  const health = (): Promise<StoreHealth> => {
    const now = Date.now();
    if (checked && now - checked.at < 1000) return checked.health;
    const ping = Promise.race([
      query('SELECT 1'),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new StoreUnavailableError('no answer to a ping within 1 s')), 1000).unref(),
      ),
    ]).then(
      (): StoreHealth => ({ ok: true }),
      (err: unknown): StoreHealth => {
        if (!isStoreDown(err)) return { ok: false, since: now, error: (err as Error).message };
        const d = wentDown(err instanceof StoreUnavailableError ? err.reason : String(err));
        return { ok: false, since: d.since, error: d.error };
      },
    );
    checked = { at: now, health: ping };
    return ping;
  };

  return { pool, handles: 0, store: { name, query, transaction, migrate, health } };
}

/**
 * Applies what `migrations` has that `schema_migrations` does not, under the advisory lock, on a connection
 * of its own (its statements may wait for another server's migrations longer than a request's); returns
 * the names applied.
 */
async function applyMigrations(url: string, connectMs: number, migrations: readonly Migration[]): Promise<string[]> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: connectMs,
    statement_timeout: MIGRATION_TIMEOUT_MS,
    query_timeout: MIGRATION_TIMEOUT_MS + 5000,
    application_name: 'shardline migrations',
  });
  // A connection lost mid-migration fails the query in progress; the event itself needs a listener.
  client.on('error', () => undefined);
  try {
    await client.connect();
    const q = async (sql: string, params?: unknown[]) => (await client.query(sql, params)).rows;
    // Session-level: released by the unlock below, or by the server when this connection ends.
    await q('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK.toString()]);
    await q(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         name text PRIMARY KEY,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const done = new Set((await q('SELECT name FROM schema_migrations')).map((r) => r.name as string));
    const applied: string[] = [];
    for (const m of migrations) {
      if (done.has(m.name)) continue;
      await q('BEGIN');
      try {
        await q(m.sql);
        await q('INSERT INTO schema_migrations (name) VALUES ($1)', [m.name]);
        await q('COMMIT');
      } catch (err) {
        await q('ROLLBACK').catch(() => undefined);
        throw err;
      }
      applied.push(m.name);
    }
    await q('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK.toString()]);
    return applied;
  } finally {
    await client.end().catch(() => undefined);
  }
}
