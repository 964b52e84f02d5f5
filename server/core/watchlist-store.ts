// Carriers' watchlists and their webhook deliveries in the account store: the interface both stores keep,
// and the embedded store's tables (the shared store's: watchlist-postgres.ts). A key sees only its own
// lists; the limit on lists per key is checked and the list added in one transaction, so two servers
// never both add the last one.
import type Database from 'better-sqlite3';

export interface WatchlistWebhook {
  url: string;
  /** `whsec_…`: signs every delivery; shown to the key once, when the webhook is set. */
  secret: string;
}

export interface Watchlist {
  id: string;
  key_id: string;
  name: string;
  /** Ascending, each once. */
  carriers: number[];
  created_at: string;
  updated_at: string;
  /** The feed's cursor at creation: the list's changes are those after it. */
  start: string;
  webhook: WatchlistWebhook | null;
}

/** One build's POST to one list's webhook, retried until answered 2xx or a day has passed. */
export interface Delivery {
  list_id: string;
  /** The build's first page name without `.json` (its href): a data_version that came back is another build. */
  build: string;
  data_version: string;
  /** `webhook-id`: the same on every attempt, so a receiver can tell a retry. */
  msg_id: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  created_at: string;
  /** When the next attempt is due (pending). */
  next_at: string;
  last_at: string | null;
  /** The receiver's HTTP status, or null for a connection error or time-out. */
  last_status: number | null;
  last_error: string | null;
}

export type NewWatchlist = Omit<Watchlist, 'updated_at'>;

export interface WatchlistStore {
  /** Adds `list` unless its key has `maxLists` already: false then. */
  create(list: NewWatchlist, maxLists: number): Promise<boolean>;
  /** The key's lists, oldest first. */
  list(keyId: string): Promise<Watchlist[]>;
  /** The key's list `id`; undefined for another key's or none. */
  get(keyId: string, id: string): Promise<Watchlist | undefined>;
  /** Replaces name, carriers and webhook of the key's list; undefined for another key's or none. */
  replace(
    keyId: string,
    id: string,
    to: Pick<Watchlist, 'name' | 'carriers' | 'webhook'>,
    now: Date,
  ): Promise<Watchlist | undefined>;
  /** Removes the key's list and its deliveries; false for another key's or none. */
  remove(keyId: string, id: string): Promise<boolean>;
  /** Every list with a webhook whose key is not revoked: what a delivery run serves. */
  withWebhooks(): Promise<Watchlist[]>;
  /** Adds a delivery unless the list has one for that build; true when added. */
  addDelivery(d: Delivery): Promise<boolean>;
  /**
   * Takes a pending delivery due at `now` for one attempt, so no other run attempts it meanwhile: its next
   * attempt moves to `until` (a run killed mid-attempt leaves it due again then). False when another run
   * took it, or it is no longer pending.
   */
  claim(d: Pick<Delivery, 'list_id' | 'build'>, now: Date, until: Date): Promise<boolean>;
  /** Records an attempt's outcome. */
  updateDelivery(d: Delivery): Promise<void>;
  /** The list's delivery of `build`, if any. */
  delivery(listId: string, build: string): Promise<Delivery | undefined>;
  /** Pending deliveries due at `now`, of lists whose key is not revoked, oldest first. */
  due(now: Date): Promise<Delivery[]>;
  /** The list's latest delivery (by creation), for `webhook.last_delivery`. */
  lastDelivery(listId: string): Promise<Delivery | undefined>;
}

export const WATCHLIST_SQLITE_SCHEMA = `
  CREATE TABLE IF NOT EXISTS watchlists (
    id             TEXT PRIMARY KEY,
    key_id         TEXT NOT NULL,
    name           TEXT NOT NULL,
    carriers       TEXT NOT NULL,  -- JSON array of carrier ids, ascending
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL,
    start          TEXT NOT NULL,
    webhook_url    TEXT,
    webhook_secret TEXT
  ) STRICT;
  CREATE INDEX IF NOT EXISTS watchlists_by_key ON watchlists (key_id, created_at);
  CREATE TABLE IF NOT EXISTS webhook_deliveries (
    list_id      TEXT NOT NULL,
    build        TEXT NOT NULL,
    data_version TEXT NOT NULL,
    msg_id       TEXT NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts     INTEGER NOT NULL,
    created_at   TEXT NOT NULL,
    next_at      TEXT NOT NULL,
    last_at      TEXT,
    last_status  INTEGER,
    last_error   TEXT,
    PRIMARY KEY (list_id, build)
  ) STRICT;
  CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (status, next_at);
`;

interface ListRow {
  id: string;
  key_id: string;
  name: string;
  carriers: string;
  created_at: string;
  updated_at: string;
  start: string;
  webhook_url: string | null;
  webhook_secret: string | null;
}

const toList = (r: ListRow): Watchlist => ({
  id: r.id,
  key_id: r.key_id,
  name: r.name,
  carriers: JSON.parse(r.carriers) as number[],
  created_at: r.created_at,
  updated_at: r.updated_at,
  start: r.start,
  webhook: r.webhook_url && r.webhook_secret ? { url: r.webhook_url, secret: r.webhook_secret } : null,
});

const LIVE_KEY = 'key_id IN (SELECT id FROM api_keys WHERE revoked_at IS NULL)';

/** The embedded store's watchlists, on its open database (the schema above applied). */
export function sqliteWatchlists(db: Database.Database): WatchlistStore {
  const countLists = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM watchlists WHERE key_id = ?');
  const insertList = db.prepare(
    'INSERT INTO watchlists (id, key_id, name, carriers, created_at, updated_at, start, webhook_url, webhook_secret) VALUES (@id, @key_id, @name, @carriers, @created_at, @created_at, @start, @webhook_url, @webhook_secret)',
  );
  const selectLists = db.prepare<[string], ListRow>(
    'SELECT * FROM watchlists WHERE key_id = ? ORDER BY created_at, id',
  );
  const selectList = db.prepare<[string, string], ListRow>('SELECT * FROM watchlists WHERE key_id = ? AND id = ?');
  const updateList = db.prepare(
    'UPDATE watchlists SET name = @name, carriers = @carriers, webhook_url = @webhook_url, webhook_secret = @webhook_secret, updated_at = @updated_at WHERE key_id = @key_id AND id = @id',
  );
  const deleteList = db.prepare<[string, string]>('DELETE FROM watchlists WHERE key_id = ? AND id = ?');
  const deleteDeliveries = db.prepare<[string]>('DELETE FROM webhook_deliveries WHERE list_id = ?');
  const selectHooked = db.prepare<[], ListRow>(
    `SELECT * FROM watchlists WHERE webhook_url IS NOT NULL AND ${LIVE_KEY} ORDER BY created_at, id`,
  );
  const insertDelivery = db.prepare(
    'INSERT INTO webhook_deliveries (list_id, build, data_version, msg_id, status, attempts, created_at, next_at, last_at, last_status, last_error) VALUES (@list_id, @build, @data_version, @msg_id, @status, @attempts, @created_at, @next_at, @last_at, @last_status, @last_error) ON CONFLICT (list_id, build) DO NOTHING',
  );
  const updateDelivery = db.prepare(
    'UPDATE webhook_deliveries SET status = @status, attempts = @attempts, next_at = @next_at, last_at = @last_at, last_status = @last_status, last_error = @last_error WHERE list_id = @list_id AND build = @build',
  );
  const claimDelivery = db.prepare<[string, string, string, string]>(
    "UPDATE webhook_deliveries SET next_at = ? WHERE list_id = ? AND build = ? AND status = 'pending' AND next_at <= ?",
  );
  const selectDelivery = db.prepare<[string, string], Delivery>(
    'SELECT * FROM webhook_deliveries WHERE list_id = ? AND build = ?',
  );
  const selectDue = db.prepare<[string], Delivery>(
    `SELECT * FROM webhook_deliveries WHERE status = 'pending' AND next_at <= ?
       AND list_id IN (SELECT id FROM watchlists WHERE webhook_url IS NOT NULL AND ${LIVE_KEY})
     ORDER BY next_at, list_id, build`,
  );
  const selectLast = db.prepare<[string], Delivery>(
    'SELECT * FROM webhook_deliveries WHERE list_id = ? ORDER BY created_at DESC, build DESC LIMIT 1',
  );
  const createTx = db.transaction((list: NewWatchlist, maxLists: number): boolean => {
    if ((countLists.get(list.key_id)?.n ?? 0) >= maxLists) return false;
    insertList.run({
      ...list,
      carriers: JSON.stringify(list.carriers),
      webhook_url: list.webhook?.url ?? null,
      webhook_secret: list.webhook?.secret ?? null,
    });
    return true;
  });
  const removeTx = db.transaction((keyId: string, id: string): boolean => {
    const removed = deleteList.run(keyId, id).changes > 0;
    if (removed) deleteDeliveries.run(id);
    return removed;
  });
  return {
    create: async (list, maxLists) => createTx.immediate(list, maxLists),
    list: async (keyId) => selectLists.all(keyId).map(toList),
    get: async (keyId, id) => {
      const row = selectList.get(keyId, id);
      return row ? toList(row) : undefined;
    },
    async replace(keyId, id, to, now) {
      const changed = updateList.run({
        key_id: keyId,
        id,
        name: to.name,
        carriers: JSON.stringify(to.carriers),
        webhook_url: to.webhook?.url ?? null,
        webhook_secret: to.webhook?.secret ?? null,
        updated_at: now.toISOString(),
      }).changes;
      const row = changed ? selectList.get(keyId, id) : undefined;
      return row ? toList(row) : undefined;
    },
    remove: async (keyId, id) => removeTx.immediate(keyId, id),
    withWebhooks: async () => selectHooked.all().map(toList),
    addDelivery: async (d) => insertDelivery.run(d).changes > 0,
    claim: async (d, now, until) =>
      claimDelivery.run(until.toISOString(), d.list_id, d.build, now.toISOString()).changes > 0,
    async updateDelivery(d) {
      updateDelivery.run(d);
    },
    delivery: async (listId, build) => selectDelivery.get(listId, build),
    due: async (now) => selectDue.all(now.toISOString()),
    lastDelivery: async (listId) => selectLast.get(listId),
  };
}
