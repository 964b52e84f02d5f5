// Carriers' watchlists in the shared store (PostgreSQL): the interface of watchlist-store.ts over the
// carriers' migrations. The limit on lists per key holds across servers: the count and the insert run in one
// transaction under a lock on the key (pg_advisory_xact_lock), so concurrent adds are taken one at a time.
import type { Migration, PostgresStore } from './postgres.ts';
import type { Delivery, Watchlist, WatchlistStore } from './watchlist-store.ts';

export const WATCHLIST_MIGRATION: Migration = {
  name: 'carriers/003-watchlists',
  sql: `
    CREATE TABLE carriers_watchlists (
      id             text PRIMARY KEY,
      key_id         text NOT NULL,
      name           text NOT NULL,
      carriers       jsonb NOT NULL,  -- carrier ids, ascending
      created_at     timestamptz NOT NULL,
      updated_at     timestamptz NOT NULL,
      start          text NOT NULL,
      webhook_url    text,
      webhook_secret text
    );
    CREATE INDEX carriers_watchlists_by_key ON carriers_watchlists (key_id, created_at);
    CREATE TABLE carriers_webhook_deliveries (
      list_id      text NOT NULL,
      build        text NOT NULL,
      data_version text NOT NULL,
      msg_id       text NOT NULL,
      status       text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
      attempts     integer NOT NULL,
      created_at   timestamptz NOT NULL,
      next_at      timestamptz NOT NULL,
      last_at      timestamptz,
      last_status  integer,
      last_error   text,
      PRIMARY KEY (list_id, build)
    );
    CREATE INDEX carriers_webhook_deliveries_due ON carriers_webhook_deliveries (status, next_at);
  `,
};

interface ListRow {
  id: string;
  key_id: string;
  name: string;
  carriers: number[];
  created_at: Date;
  updated_at: Date;
  start: string;
  webhook_url: string | null;
  webhook_secret: string | null;
}

interface DeliveryRow extends Omit<Delivery, 'created_at' | 'next_at' | 'last_at'> {
  created_at: Date;
  next_at: Date;
  last_at: Date | null;
}

const toList = (r: ListRow): Watchlist => ({
  id: r.id,
  key_id: r.key_id,
  name: r.name,
  carriers: r.carriers,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
  start: r.start,
  webhook: r.webhook_url && r.webhook_secret ? { url: r.webhook_url, secret: r.webhook_secret } : null,
});

const toDelivery = (r: DeliveryRow): Delivery => ({
  ...r,
  created_at: r.created_at.toISOString(),
  next_at: r.next_at.toISOString(),
  last_at: r.last_at?.toISOString() ?? null,
});

const LIVE_KEY = 'key_id IN (SELECT id FROM carriers_api_keys WHERE revoked_at IS NULL)';
const DELIVERY_PARAMS = (d: Delivery) => [
  d.list_id,
  d.build,
  d.data_version,
  d.msg_id,
  d.status,
  d.attempts,
  d.created_at,
  d.next_at,
  d.last_at,
  d.last_status,
  d.last_error,
];

/** The shared store's watchlists; `ready` applies the carriers' migrations first. */
export function postgresWatchlists(db: PostgresStore, ready: () => Promise<void>): WatchlistStore {
  const query: PostgresStore['query'] = async (sql, params) => {
    await ready();
    return db.query(sql, params);
  };
  return {
    async create(list, maxLists) {
      await ready();
      return db.transaction(async (q) => {
        await q('SELECT pg_advisory_xact_lock(hashtext($1))', [`carriers_watchlists:${list.key_id}`]);
        const [row] = await q<{ n: number }>('SELECT count(*)::int AS n FROM carriers_watchlists WHERE key_id = $1', [
          list.key_id,
        ]);
        if ((row?.n ?? 0) >= maxLists) return false;
        await q(
          `INSERT INTO carriers_watchlists (id, key_id, name, carriers, created_at, updated_at, start, webhook_url, webhook_secret)
           VALUES ($1, $2, $3, $4, $5, $5, $6, $7, $8)`,
          [
            list.id,
            list.key_id,
            list.name,
            JSON.stringify(list.carriers),
            list.created_at,
            list.start,
            list.webhook?.url ?? null,
            list.webhook?.secret ?? null,
          ],
        );
        return true;
      });
    },
    async list(keyId) {
      const rows = await query<ListRow>('SELECT * FROM carriers_watchlists WHERE key_id = $1 ORDER BY created_at, id', [
        keyId,
      ]);
      return rows.map(toList);
    },
    async get(keyId, id) {
      const [row] = await query<ListRow>('SELECT * FROM carriers_watchlists WHERE key_id = $1 AND id = $2', [
        keyId,
        id,
      ]);
      return row ? toList(row) : undefined;
    },
    async replace(keyId, id, to, now) {
      const [row] = await query<ListRow>(
        `UPDATE carriers_watchlists SET name = $3, carriers = $4, webhook_url = $5, webhook_secret = $6, updated_at = $7
         WHERE key_id = $1 AND id = $2 RETURNING *`,
        [keyId, id, to.name, JSON.stringify(to.carriers), to.webhook?.url ?? null, to.webhook?.secret ?? null, now],
      );
      return row ? toList(row) : undefined;
    },
    async remove(keyId, id) {
      await ready();
      return db.transaction(async (q) => {
        const gone = await q('DELETE FROM carriers_watchlists WHERE key_id = $1 AND id = $2 RETURNING id', [keyId, id]);
        if (gone.length) await q('DELETE FROM carriers_webhook_deliveries WHERE list_id = $1', [id]);
        return gone.length > 0;
      });
    },
    async withWebhooks() {
      const rows = await query<ListRow>(
        `SELECT * FROM carriers_watchlists WHERE webhook_url IS NOT NULL AND ${LIVE_KEY} ORDER BY created_at, id`,
      );
      return rows.map(toList);
    },
    async addDelivery(d) {
      const rows = await query(
        `INSERT INTO carriers_webhook_deliveries
           (list_id, build, data_version, msg_id, status, attempts, created_at, next_at, last_at, last_status, last_error)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT (list_id, build) DO NOTHING RETURNING list_id`,
        DELIVERY_PARAMS(d),
      );
      return rows.length > 0;
    },
    async claim(d, now, until) {
      const rows = await query(
        `UPDATE carriers_webhook_deliveries SET next_at = $3
         WHERE list_id = $1 AND build = $2 AND status = 'pending' AND next_at <= $4 RETURNING list_id`,
        [d.list_id, d.build, until, now],
      );
      return rows.length > 0;
    },
    async updateDelivery(d) {
      await query(
        `UPDATE carriers_webhook_deliveries SET status = $5, attempts = $6, next_at = $8, last_at = $9,
           last_status = $10, last_error = $11
         WHERE list_id = $1 AND build = $2 AND data_version = $3 AND msg_id = $4 AND created_at = $7`,
        DELIVERY_PARAMS(d),
      );
    },
    async delivery(listId, build) {
      const [row] = await query<DeliveryRow>(
        'SELECT * FROM carriers_webhook_deliveries WHERE list_id = $1 AND build = $2',
        [listId, build],
      );
      return row ? toDelivery(row) : undefined;
    },
    async due(now) {
      const rows = await query<DeliveryRow>(
        `SELECT * FROM carriers_webhook_deliveries WHERE status = 'pending' AND next_at <= $1
           AND list_id IN (SELECT id FROM carriers_watchlists WHERE webhook_url IS NOT NULL AND ${LIVE_KEY})
         ORDER BY next_at, list_id, build`,
        [now],
      );
      return rows.map(toDelivery);
    },
    async lastDelivery(listId) {
      const [row] = await query<DeliveryRow>(
        'SELECT * FROM carriers_webhook_deliveries WHERE list_id = $1 ORDER BY created_at DESC, build DESC LIMIT 1',
        [listId],
      );
      return row ? toDelivery(row) : undefined;
    },
  };
}
