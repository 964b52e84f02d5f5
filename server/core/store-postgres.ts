// The account store in PostgreSQL (DATABASE_URL): keys, monthly allowance counters and explain summaries that
// every server and the keys CLI share (docs/contracts/common.md, "Several servers, one shared store"). The
// allowance is one atomic upsert per request; keys cost nothing while remembered, forgotten on a trigger's
// NOTIFY or, where a pooler drops notices, when the keys version read every second moves (KEYS_TRUST_MS).
import pg from 'pg';
import {
  type Migration,
  type NamedStatement,
  type PostgresOptions,
  type PostgresStore,
  POSTGRES_TIMEOUTS,
  describeDatabase,
  openPostgres,
} from './postgres.ts';
import {
  type AccountStore,
  type ExplainEntry,
  type FoundKey,
  type Plan,
  KNOWN_KEYS_MAX,
  assertLimit,
  assertMonth,
  explainCutoff,
  newCreatedKey,
  sameHash,
  toKeyHash,
} from './store.ts';
import { Lru } from './cache.ts';
import { postgresWatchlists, WATCHLIST_MIGRATION } from './watchlist-postgres.ts';

/** The channel the keys table's trigger notifies on every change. */
export const KEYS_CHANNEL = 'carriers_api_keys';

/** The carriers service's migrations, in order; names are recorded in `schema_migrations` once applied. */
export const CARRIERS_MIGRATIONS: readonly Migration[] = [
  {
    name: 'carriers/001-accounts',
    sql: `
      CREATE TABLE carriers_api_keys (
        id         text PRIMARY KEY,
        key_hash   text NOT NULL UNIQUE,  -- sha256 of the key, hex; the unique index is the lookup path
        plan       text NOT NULL CHECK (plan IN ('free', 'premium')),
        label      text NOT NULL,
        created_at timestamptz NOT NULL,
        revoked_at timestamptz
      );
      CREATE TABLE carriers_usage (
        key_id text NOT NULL,
        month  text NOT NULL CHECK (month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),  -- UTC
        used   integer NOT NULL CHECK (used >= 0),
        PRIMARY KEY (key_id, month)
      );
      CREATE TABLE carriers_explain_cache (
        carrier_id   integer NOT NULL,
        data_version text NOT NULL,
        summary      text NOT NULL,
        generator    text NOT NULL,
        generated_at timestamptz NOT NULL,
        PRIMARY KEY (carrier_id, data_version)
      );
      -- The pruning path of explainPut: by build, then by age, so it reads the rows of other builds alone.
      CREATE INDEX carriers_explain_cache_by_build ON carriers_explain_cache (data_version, generated_at);
      -- Every change to the keys, whoever makes it, tells the servers to forget the keys they remember.
      CREATE FUNCTION carriers_api_keys_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('${KEYS_CHANNEL}', '');
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER carriers_api_keys_changed
        AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON carriers_api_keys
        FOR EACH STATEMENT EXECUTE FUNCTION carriers_api_keys_changed();
    `,
  },
  {
    // A notice can be lost on the way (a pooler drops NOTIFY): a version each server re-reads tells it too.
    // A table row, not a sequence: a sequence moves before the change commits, so a server could forget,
    // read the old row again and remember it after the version it saw.
    name: 'carriers/002-keys-version',
    sql: `
      CREATE TABLE carriers_keys_version (
        one     boolean PRIMARY KEY DEFAULT true CHECK (one),
        version bigint NOT NULL
      );
      INSERT INTO carriers_keys_version (one, version) VALUES (true, 0);
      CREATE OR REPLACE FUNCTION carriers_api_keys_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE carriers_keys_version SET version = version + 1;
        PERFORM pg_notify('${KEYS_CHANNEL}', '');
        RETURN NULL;
      END
      $$;
    `,
  },
  WATCHLIST_MIGRATION,
];

/** How often the key listener's connection re-reads the keys' version (and so shows it is still there). */
export const KEYS_PING_MS = 1000;
/** Remembered keys are used only while the version was read within this long; a revocation anywhere is seen within it at worst. */
export const KEYS_TRUST_MS = 2500;
const READ_KEYS_VERSION = 'SELECT version::text AS version FROM carriers_keys_version';
/** Wait before connecting the listener again after it was lost. */
const KEYS_RECONNECT_MS = 500;

// The statements of signed-in requests, prepared once on each pooled connection: parsing and planning them
// again for every request would cost the database about as much again as running them.
const FIND_KEY: NamedStatement = {
  name: 'carriers_find_key',
  text: 'SELECT id, key_hash, plan, revoked_at IS NOT NULL AS revoked FROM carriers_api_keys WHERE key_hash = $1',
};
// One statement: the update takes the row's lock and checks `used < limit` on its latest version, so
// concurrent consumers anywhere are counted one at a time; a limit of 0 inserts nothing. `before` is the row
// as the statement found it, for the answer when nothing was left.
const CONSUME: NamedStatement = {
  name: 'carriers_consume',
  text: `WITH taken AS (
           INSERT INTO carriers_usage AS u (key_id, month, used)
           SELECT $1, $2, 1 WHERE $3::integer > 0
           ON CONFLICT (key_id, month) DO UPDATE SET used = u.used + 1 WHERE u.used < $3::integer
           RETURNING u.used
         )
         SELECT (SELECT used FROM taken) AS used,
                (SELECT used FROM carriers_usage WHERE key_id = $1 AND month = $2) AS before`,
};
const USAGE: NamedStatement = {
  name: 'carriers_usage',
  text: 'SELECT used FROM carriers_usage WHERE key_id = $1 AND month = $2',
};
const EXPLAIN_GET: NamedStatement = {
  name: 'carriers_explain_get',
  text: 'SELECT carrier_id, data_version, summary, generator, generated_at FROM carriers_explain_cache WHERE carrier_id = $1 AND data_version = $2',
};

/** `used` is an integer column: a larger allowance is as good as unlimited. */
const MAX_LIMIT = 2 ** 31 - 1;

export interface PostgresStoreOptions extends PostgresOptions {
  /** Tells why the key listener's connection was lost or could not be made (default: nothing). */
  warn?: (message: string) => void;
}

interface KeyRow {
  id: string;
  key_hash: string;
  plan: Plan;
  revoked: boolean;
}

interface ExplainRow {
  carrier_id: number;
  data_version: string;
  summary: string;
  generator: string;
  generated_at: Date;
}

const toEntry = (r: ExplainRow): ExplainEntry => ({
  carrier_id: r.carrier_id,
  data_version: r.data_version,
  summary: r.summary,
  generator: r.generator,
  generated_at: r.generated_at.toISOString(),
});

/**
 * The key listener: a connection of its own that LISTENs to KEYS_CHANNEL and re-reads the keys' version
 * every KEYS_PING_MS, and says whether the keys remembered can be trusted now. Started by the first key
 * look-up, so the keys CLI never opens it.
 */
class KeyListener {
  /** Changes whenever the remembered keys are forgotten. */
  epoch = 0;
  private client: pg.Client | undefined;
  private connecting = false;
  private live = false;
  private confirmedAt = Number.NEGATIVE_INFINITY;
  private pinging = false;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private lastWarning = '';
  /** The keys' version last read; undefined until the connection has read it. */
  private version: string | undefined;

  constructor(
    private readonly url: string,
    private readonly ready: () => Promise<void>,
    private readonly forget: () => void,
    private readonly warn: (message: string) => void,
  ) {}

  /** True while a notice of any change would have reached this process: the remembered keys hold. */
  trusted(): boolean {
    if (!this.timer && !this.closed) this.start();
    return this.live && performance.now() - this.confirmedAt < KEYS_TRUST_MS;
  }

  private start(): void {
    this.timer = setInterval(() => this.tick(), KEYS_PING_MS);
    this.timer.unref();
    this.connect();
  }

  private bump(): void {
    this.epoch++;
    this.forget();
  }

  private tick(): void {
    if (this.closed) return;
    if (!this.client) {
      this.connect();
      return;
    }
    if (this.pinging || !this.live) return;
    this.pinging = true;
    const client = this.client;
    client.query<{ version: string }>(READ_KEYS_VERSION).then(
      (result) => {
        this.pinging = false;
        if (this.client !== client) return;
        this.seen(result.rows[0]?.version);
        this.confirmedAt = performance.now();
      },
      (err: unknown) => {
        this.pinging = false;
        this.lost(client, err);
      },
    );
  }

  private connect(): void {
    if (this.connecting || this.closed) return;
    this.connecting = true;
    const client = new pg.Client({
      connectionString: this.url,
      connectionTimeoutMillis: POSTGRES_TIMEOUTS.connectMs,
      query_timeout: KEYS_PING_MS,
      keepAlive: true,
      application_name: 'shardline keys listener',
    });
    client.on('notification', () => this.bump());
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    this.client = client;
    // The version's table comes with the migrations: they are waited for before the connection is made.
    this.ready()
      .then(() => client.connect())
      .then(() => client.query(`LISTEN ${KEYS_CHANNEL}`))
      .then(() => client.query<{ version: string }>(READ_KEYS_VERSION))
      .then(
        (result) => {
          this.connecting = false;
          if (this.client !== client || this.closed) return;
          // Notices sent while no listener was there are lost: what was remembered before goes.
          this.version = result.rows[0]?.version;
          this.bump();
          this.live = true;
          this.confirmedAt = performance.now();
          this.lastWarning = '';
        },
        (err: unknown) => {
          this.connecting = false;
          this.lost(client, err);
        },
      );
  }

  /** A version read: a change since the last read forgets, as its notice would have. */
  private seen(version: string | undefined): void {
    if (version === this.version) return;
    this.version = version;
    this.bump();
  }

  private lost(client: pg.Client, err: unknown): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.live = false;
    this.bump();
    client.end().catch(() => undefined);
    if (this.closed) return;
    const message = `the key listener's connection to ${describeDatabase(this.url)} was lost or not made (${(err as Error)?.message ?? String(err)}); keys are read from the database on every request until it is back`;
    if (message !== this.lastWarning) this.warn(message);
    this.lastWarning = message;
    // The ticks reconnect; the first one a little sooner.
    setTimeout(() => this.tick(), KEYS_RECONNECT_MS).unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.live = false;
    if (this.timer) clearInterval(this.timer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}

/**
 * The account store in the PostgreSQL database at `url`. Opening makes no connection; the migrations run
 * on the first method called (or on `ready()`), and every method waits for them.
 */
export function openPostgresStore(
  url: string,
  options: PostgresStoreOptions = {},
): AccountStore & { ready(): Promise<void> } {
  const db: PostgresStore = openPostgres(url, options);
  const ready = () => db.migrate(CARRIERS_MIGRATIONS);
  const known = new Lru<FoundKey | null>(KNOWN_KEYS_MAX);
  const listener = new KeyListener(url, ready, () => known.clear(), options.warn ?? (() => undefined));
  let ownEpoch = 0;

  const readKey = async (hash: string): Promise<FoundKey | undefined> => {
    await ready();
    const [row] = await db.query<KeyRow>(FIND_KEY, [hash]);
    if (!row || !sameHash(row.key_hash, hash)) return undefined;
    return { id: row.id, plan: row.plan, revoked: row.revoked };
  };

  return {
    name: db.name,
    ready,
    async createKey(plan, label, now) {
      const created = newCreatedKey(plan, label, now);
      await ready();
      await db.query(
        'INSERT INTO carriers_api_keys (id, key_hash, plan, label, created_at) VALUES ($1, $2, $3, $4, $5)',
        [created.id, toKeyHash(created.key), plan, label, created.created_at],
      );
      // This store's own change is seen at once, without waiting for the notice.
      known.clear();
      ownEpoch++;
      return created;
    },
    async listKeys() {
      await ready();
      const rows = await db.query<{ id: string; plan: Plan; label: string; created_at: Date; revoked: boolean }>(
        'SELECT id, plan, label, created_at, revoked_at IS NOT NULL AS revoked FROM carriers_api_keys ORDER BY created_at, id',
      );
      return rows.map((r) => ({
        id: r.id,
        plan: r.plan,
        label: r.label,
        created_at: r.created_at.toISOString(),
        revoked: r.revoked,
      }));
    },
    async revokeKey(id, now) {
      await ready();
      const rows = await db.query(
        'UPDATE carriers_api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2 RETURNING id',
        [now.toISOString(), id],
      );
      known.clear();
      ownEpoch++;
      return rows.length > 0;
    },
    async findKey(key) {
      const hash = toKeyHash(key);
      if (listener.trusted()) {
        const remembered = known.get(hash);
        if (remembered !== undefined) return remembered ?? undefined;
      }
      // Remembered only if nothing was forgotten while the row was read: a notice that came meanwhile may
      // be about this very key.
      const before = listener.epoch + ownEpoch;
      const found = await readKey(hash);
      if (listener.trusted() && listener.epoch + ownEpoch === before) {
        known.set(hash, found ?? null);
      }
      return found;
    },
    keysEpoch() {
      // While no notice could reach this process, every read is a new epoch: nothing remembered is used.
      if (!listener.trusted()) ownEpoch++;
      return listener.epoch + ownEpoch;
    },
    async consume(keyId, month, limit) {
      assertMonth(month);
      assertLimit(limit);
      await ready();
      const [row] = await db.query<{ used: number | null; before: number | null }>(CONSUME, [
        keyId,
        month,
        Math.min(limit, MAX_LIMIT),
      ]);
      if (row?.used != null) return { ok: true, used: row.used, remaining: Math.max(0, limit - row.used) };
      return { ok: false, used: Math.max(row?.before ?? 0, limit), remaining: 0 };
    },
    async refund(keyId, month) {
      assertMonth(month);
      await ready();
      await db.query('UPDATE carriers_usage SET used = used - 1 WHERE key_id = $1 AND month = $2 AND used > 0', [
        keyId,
        month,
      ]);
    },
    async usage(keyId, month) {
      assertMonth(month);
      await ready();
      const [row] = await db.query<{ used: number }>(USAGE, [keyId, month]);
      return row?.used ?? 0;
    },
    async explainGet(carrierId, dataVersion) {
      await ready();
      const [row] = await db.query<ExplainRow>(EXPLAIN_GET, [carrierId, dataVersion]);
      return row ? toEntry(row) : undefined;
    },
    async explainPut(entry) {
      await ready();
      const cutoff = explainCutoff(entry);
      // The insert and the pruning in one statement (the rule in store.ts's SQLite store): the first writer
      // wins, and the rows of other builds made over a day before are removed, those another server is
      // removing at the same moment skipped rather than waited for.
      const [row] = await db.query<{ inserted: boolean }>(
        `WITH inserted AS (
           INSERT INTO carriers_explain_cache (carrier_id, data_version, summary, generator, generated_at)
           VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (carrier_id, data_version) DO NOTHING
           RETURNING 1
         ), pruned AS (
           DELETE FROM carriers_explain_cache
           WHERE (carrier_id, data_version) IN (
             SELECT carrier_id, data_version FROM carriers_explain_cache
             WHERE $6::timestamptz IS NOT NULL AND EXISTS (SELECT 1 FROM inserted)
               AND ((data_version < $2 AND generated_at < $6) OR (data_version > $2 AND generated_at < $6))
             FOR UPDATE SKIP LOCKED
           )
         )
         SELECT EXISTS (SELECT 1 FROM inserted) AS inserted`,
        [entry.carrier_id, entry.data_version, entry.summary, entry.generator, entry.generated_at, cutoff ?? null],
      );
      if (row?.inserted) return { entry, inserted: true };
      const [stored] = await db.query<ExplainRow>(EXPLAIN_GET, [entry.carrier_id, entry.data_version]);
      if (!stored)
        throw new Error(`explain cache: no entry for carrier ${entry.carrier_id} after an insert that found one`);
      return { entry: toEntry(stored), inserted: false };
    },
    watchlists: postgresWatchlists(db, ready),
    health: () => db.health(),
    async close() {
      await listener.close();
      await db.close();
    },
  };
}
