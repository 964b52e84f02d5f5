// Economy's state in PostgreSQL (DATABASE_URL): the embedded stores' interfaces over three tables
// (economy_observations, economy_pull_leases with the back-off, economy_vintages), one round trip a statement,
// `scope` keeping a demo build's state apart; lease expiry is by the database's clock, shared by every server.
import { isValidIsoDate } from '../../contract/core/dates.ts';
import { Lru } from '../core/cache.ts';
import type { Migration, PostgresStore } from '../core/postgres.ts';
import {
  assertSeriesId,
  extrasOf,
  isObservationList,
  stderrLog,
  toStoredExtras,
  type CacheLogLine,
  type SeriesExtras,
} from './state-files.ts';
import type { LeaseState, ObservationCopies, ObservationCopy, PullFailure, PullLeases } from './state.ts';
import { toVintageDate, type VintageArchive, type VintageSnapshot } from './vintages.ts';

export type EconomyScope = 'live' | 'demo';

export const ECONOMY_MIGRATIONS: readonly Migration[] = [
  {
    name: 'economy/001-observations-leases-vintages',
    sql: `
      CREATE TABLE economy_observations (
        scope text NOT NULL,
        series text NOT NULL,
        key text NOT NULL,
        source text NOT NULL,
        as_of timestamptz NOT NULL,
        observations json NOT NULL,
        PRIMARY KEY (scope, series)
      );
      CREATE TABLE economy_pull_leases (
        scope text NOT NULL,
        series text NOT NULL,
        holder text,
        expires_at timestamptz,
        failures integer NOT NULL DEFAULT 0,
        last_error text,
        failed_at bigint,
        retry_at bigint,
        PRIMARY KEY (scope, series)
      );
      CREATE TABLE economy_vintages (
        scope text NOT NULL,
        series text NOT NULL,
        vintage date NOT NULL,
        as_of timestamptz NOT NULL,
        source text NOT NULL,
        observations json NOT NULL,
        PRIMARY KEY (scope, series, vintage)
      );`,
  },
  {
    // The points published without a value and the upstream's release time, beside the observations.
    name: 'economy/002-missing-points-and-release-times',
    sql: `
      ALTER TABLE economy_observations ADD COLUMN extra json;
      ALTER TABLE economy_vintages ADD COLUMN extra json;`,
  },
];

/** The store, migrated first: the first statement of a process (or the first after a failed migration) applies them. */
function migrated(pg: PostgresStore): PostgresStore['query'] {
  return async (sql, params) => {
    await pg.migrate(ECONOMY_MIGRATIONS);
    return pg.query(sql, params);
  };
}

const iso = (t: Date | string) => new Date(t).toISOString();
const jsonOrNull = (x: unknown) => (x === null ? null : JSON.stringify(x));

export function createPostgresCopies(
  pg: PostgresStore,
  scope: EconomyScope,
  log: (line: CacheLogLine) => void = stderrLog,
): ObservationCopies {
  const query = migrated(pg);
  return {
    async read(series, after) {
      assertSeriesId(series);
      const rows = await query<{ key: string; source: string; as_of: Date; observations: unknown; extra: unknown }>(
        `SELECT key, source, as_of, observations, extra FROM economy_observations
          WHERE scope = $1 AND series = $2 AND ($3::timestamptz IS NULL OR as_of > $3::timestamptz)`,
        [scope, series, after ?? null],
      );
      const row = rows[0];
      if (!row) return undefined;
      const extras = extrasOf(row.extra as SeriesExtras | null);
      if (!isObservationList(row.observations) || !extras) {
        log({
          event: 'cache_copy_unreadable',
          series,
          error: 'the stored observations are not a list of {date, value}',
        });
        return undefined;
      }
      const { key, source, observations } = row;
      return { series, key, source, asOf: iso(row.as_of), observations, ...extras };
    },
    async write(copy: ObservationCopy) {
      assertSeriesId(copy.series);
      await query(
        `INSERT INTO economy_observations AS o (scope, series, key, source, as_of, observations, extra)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (scope, series) DO UPDATE
            SET key = EXCLUDED.key, source = EXCLUDED.source, as_of = EXCLUDED.as_of,
                observations = EXCLUDED.observations, extra = EXCLUDED.extra
          WHERE o.as_of <= EXCLUDED.as_of`,
        [
          ...[scope, copy.series, copy.key, copy.source, copy.asOf, JSON.stringify(copy.observations)],
          jsonOrNull(toStoredExtras(copy)),
        ],
      );
    },
  };
}

interface LeaseRow {
  holder: string | null;
  live: boolean;
  failures: number;
  last_error: string | null;
  failed_at: string | null;
  retry_at: string | null;
}

function toState(row: LeaseRow | undefined): LeaseState {
  if (!row) return {};
  const failure: PullFailure | undefined =
    row.failures > 0 && row.failed_at !== null && row.retry_at !== null
      ? {
          failures: row.failures,
          error: row.last_error ?? 'no reason recorded',
          failedAt: Number(row.failed_at),
          retryAt: Number(row.retry_at),
        }
      : undefined;
  return {
    ...(row.live && row.holder !== null && { heldBy: row.holder }),
    ...(failure && { failure }),
  };
}

const STATE_COLUMNS = `holder, (holder IS NOT NULL AND expires_at > clock_timestamp()) AS live,
  failures, last_error, failed_at, retry_at`;

/** Leases in economy_pull_leases: one row per series, taken with one conditional upsert. */
export function createPostgresLeases(pg: PostgresStore, scope: EconomyScope): PullLeases {
  const query = migrated(pg);
  const state = async (series: string) =>
    toState(
      (
        await query<LeaseRow>(`SELECT ${STATE_COLUMNS} FROM economy_pull_leases WHERE scope = $1 AND series = $2`, [
          scope,
          series,
        ])
      )[0],
    );
  return {
    shared: true,
    async take(series, holder, ttlMs, now) {
      const rows = await query(
        `INSERT INTO economy_pull_leases AS l (scope, series, holder, expires_at)
         VALUES ($1, $2, $3, clock_timestamp() + $4 * interval '1 millisecond')
         ON CONFLICT (scope, series) DO UPDATE
            SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
          WHERE (l.holder IS NULL OR l.expires_at <= clock_timestamp() OR l.holder = EXCLUDED.holder)
            AND (l.retry_at IS NULL OR l.retry_at <= $5)
         RETURNING 1`,
        [scope, series, holder, ttlMs, now],
      );
      if (rows.length) return { taken: true };
      return { taken: false, ...(await state(series)) };
    },
    async renew(series, holder, ttlMs) {
      const rows = await query(
        `UPDATE economy_pull_leases SET expires_at = clock_timestamp() + $4 * interval '1 millisecond'
          WHERE scope = $1 AND series = $2 AND holder = $3
         RETURNING 1`,
        [scope, series, holder, ttlMs],
      );
      return rows.length > 0;
    },
    async release(series, holder) {
      await query(
        `UPDATE economy_pull_leases SET holder = NULL, expires_at = NULL
          WHERE scope = $1 AND series = $2 AND holder = $3`,
        [scope, series, holder],
      );
    },
    async succeeded(series, holder) {
      // The failures are cleared whoever holds the lease now: a good copy was written.
      await query(
        `UPDATE economy_pull_leases
            SET holder = CASE WHEN holder = $3 THEN NULL ELSE holder END,
                expires_at = CASE WHEN holder = $3 THEN NULL ELSE expires_at END,
                failures = 0, last_error = NULL, failed_at = NULL, retry_at = NULL
          WHERE scope = $1 AND series = $2`,
        [scope, series, holder],
      );
    },
    async failed(series, holder, error, at, backoff) {
      // `failures` on the right is the count before this one: the wait is base × 2^(failures before), capped,
      // as backoffOf reckons it.
      const rows = await query<LeaseRow>(
        `UPDATE economy_pull_leases
            SET holder = NULL, expires_at = NULL, failures = failures + 1, last_error = $4, failed_at = $5,
                retry_at = $5 + LEAST($7::float8, $6::float8 * power(2, LEAST(failures, 60)))::bigint
          WHERE scope = $1 AND series = $2 AND holder = $3
         RETURNING ${STATE_COLUMNS}`,
        [scope, series, holder, error, at, backoff.baseMs, backoff.maxMs],
      );
      return toState(rows[0]).failure;
    },
    state,
  };
}

/**
 * The vintage archive in economy_vintages. Lists are read from the database on each call (another server
 * may have added a day) but answered with the same array while the days are the same, so bodies keyed by
 * its identity are kept; a snapshot read again is the kept copy while its `as_of` is unchanged.
 */
export function createPostgresVintages(
  pg: PostgresStore,
  scope: EconomyScope,
  options: { cacheSize?: number } = {},
): VintageArchive {
  const query = migrated(pg);
  const lists = new Map<string, readonly string[]>();
  // Kept: a daily series' snapshot is ~230 kB of JSON to move and parse; one copy keeps its bodies' key.
  const snapshots = new Lru<VintageSnapshot>(options.cacheSize ?? 200);
  return {
    async write(snapshot) {
      assertSeriesId(snapshot.series);
      const vintage = toVintageDate(snapshot.asOf);
      await query(
        `INSERT INTO economy_vintages AS v (scope, series, vintage, as_of, source, observations, extra)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (scope, series, vintage) DO UPDATE
            SET as_of = EXCLUDED.as_of, source = EXCLUDED.source, observations = EXCLUDED.observations,
                extra = EXCLUDED.extra
          WHERE v.as_of <= EXCLUDED.as_of`,
        [
          ...[scope, snapshot.series, vintage, snapshot.asOf, snapshot.source, JSON.stringify(snapshot.observations)],
          jsonOrNull(toStoredExtras(snapshot)),
        ],
      );
      return vintage;
    },
    async list(series) {
      assertSeriesId(series);
      const days = (
        await query<{ day: string }>(
          `SELECT to_char(vintage, 'YYYY-MM-DD') AS day FROM economy_vintages
            WHERE scope = $1 AND series = $2 ORDER BY vintage`,
          [scope, series],
        )
      ).map((r) => r.day);
      const kept = lists.get(series);
      if (kept && kept.length === days.length && kept.every((d, i) => d === days[i])) return kept;
      lists.set(series, days);
      return days;
    },
    async read(series, vintage, readOptions) {
      assertSeriesId(series);
      if (!isValidIsoDate(vintage)) return undefined;
      const key = `${series}/${vintage}`;
      const hit = snapshots.get(key);
      // The observations travel only when the kept copy is not the stored one.
      const rows = await query<{ as_of: Date; source: string; observations: unknown; extra: unknown }>(
        `SELECT as_of, source, CASE WHEN as_of = $4::timestamptz THEN NULL ELSE observations END AS observations,
                CASE WHEN as_of = $4::timestamptz THEN NULL ELSE extra END AS extra
           FROM economy_vintages WHERE scope = $1 AND series = $2 AND vintage = $3`,
        [scope, series, vintage, hit?.asOf ?? null],
      );
      const row = rows[0];
      if (!row) return undefined;
      if (hit && row.observations === null) return hit;
      const extras = extrasOf(row.extra as SeriesExtras | null);
      if (!isObservationList(row.observations) || !extras) return undefined;
      const doc: VintageSnapshot = {
        series,
        vintage,
        asOf: iso(row.as_of),
        source: row.source,
        observations: row.observations,
        ...extras,
      };
      if (readOptions?.keep !== false) snapshots.set(key, doc);
      return doc;
    },
  };
}
