// The observation cache and vintage archive of each kind of build, over the upstreams that kind uses: the
// real adapters at STATCAN_WDS_URL and BOC_VALET_URL, or the built-in demo upstream for a demo build. Their
// state is kept under STATE_DIR/economy/ by default, or in PostgreSQL when DATABASE_URL is set
// (state-postgres.ts), shared by every server that uses the same database.
import { join } from 'node:path';
import type { HealthCheck } from '../../contract/core/manifest.ts';
import { createDemoUpstreams } from '../../contract/economy/upstream/demo.ts';
import { createStatcanClient, toStatcanBaseUrl } from '../../contract/economy/upstream/statcan.ts';
import { createValetClient, toValetBaseUrl } from '../../contract/economy/upstream/valet.ts';
import { urlSetting, wholeNumberSetting } from '../../contract/core/settings.ts';
import { upstreamMaxBytesSetting } from '../../contract/economy/upstream/port.ts';
import { databaseUrlSetting, openPostgres, type PostgresStore, type StoreLogLine } from '../core/postgres.ts';
import { createObservationCache, PULL_LEASE_MS, type ObservationCache } from './cache.ts';
import type { CacheLogLine } from './state-files.ts';
import {
  createPostgresCopies,
  createPostgresLeases,
  createPostgresVintages,
  ECONOMY_MIGRATIONS,
} from './state-postgres.ts';
import { createRealtimeArchive, type RealtimeArchive } from './realtime-archive.ts';
import { createVintageArchive, type VintageArchive } from './vintages.ts';
import { readSetting } from '../../contract/core/settings-registry.ts';

export interface ObservationStores {
  cache: ObservationCache;
  vintages: VintageArchive;
  /** The archive folded into real-time histories, for ALFRED's parameters. */
  realtime: RealtimeArchive;
}

export interface ObservationStoresOptions {
  /** STATE_DIR; the stores live in `<stateDir>/economy/` (demo: `<stateDir>/economy/demo/`) without DATABASE_URL. */
  stateDir: string;
  /**
   * Where STATCAN_WDS_URL, BOC_VALET_URL, UPSTREAM_MAX_BYTES, DATABASE_URL and ECONOMY_PULL_LEASE_MS are read
   * (process.env in the server).
   */
  env: Readonly<Record<string, string | undefined>>;
  now?: () => Date;
  log?: (line: CacheLogLine) => void;
  storeLog?: (line: StoreLogLine) => void;
  /** Limit on one upstream pull; default 15 s. */
  timeoutMs?: number;
}

/** The upstream base URLs, each an http(s) address or a ConfigError naming its variable. */
export function toUpstreamUrls(env: Readonly<Record<string, string | undefined>>): { statcan: string; valet: string } {
  const urls = { statcan: toStatcanBaseUrl(env), valet: toValetBaseUrl(env) };
  urlSetting('STATCAN_WDS_URL', urls.statcan);
  urlSetting('BOC_VALET_URL', urls.valet);
  return urls;
}

/**
 * ECONOMY_PULL_LEASE_MS: how long a pull lease lives without renewal, so how soon another server takes over
 * from one that died mid-pull. 30 s by default, which is also the most the contract allows.
 */
export function pullLeaseSetting(raw: string | undefined): number {
  return wholeNumberSetting(
    'ECONOMY_PULL_LEASE_MS',
    raw,
    PULL_LEASE_MS,
    1000,
    `a whole number of milliseconds from 1000 to ${PULL_LEASE_MS}`,
    PULL_LEASE_MS,
  );
}

/**
 * The stores for a build (`stores(demo)`); `close()` for a shutdown (see ObservationCache.close); `health()`
 * the /healthz check of the shared store, only while it does not answer (none without DATABASE_URL).
 */
export type ObservationStoresFor = ((demo: boolean) => ObservationStores) & {
  close(): void;
  /** For a command that is done: closes the caches and the shared store now, without a drain window. */
  end(): Promise<void>;
  health(): Promise<HealthCheck | undefined>;
};

/**
 * The real and the demo stores, each made on first use. The demo ones are kept apart (their own folder, or
 * scope `demo` in PostgreSQL) so generated numbers never enter the real cache or vintage archive. The
 * settings are checked now, at start-up, not on the first pull; with DATABASE_URL the tables are created
 * or migrated now too (a database that does not answer yet is tried again by the first request).
 */
export function createObservationStores(options: ObservationStoresOptions): ObservationStoresFor {
  const now = options.now ?? (() => new Date());
  const urls = toUpstreamUrls(options.env);
  const maxBytes = upstreamMaxBytesSetting(readSetting(options.env, 'UPSTREAM_MAX_BYTES'));
  const leaseMs = pullLeaseSetting(readSetting(options.env, 'ECONOMY_PULL_LEASE_MS'));
  const databaseUrl = databaseUrlSetting(readSetting(options.env, 'DATABASE_URL'));
  const pg: PostgresStore | undefined = databaseUrl ? openPostgres(databaseUrl, { log: options.storeLog }) : undefined;
  // Failures are logged by the store (store_unavailable); requests try again.
  pg?.migrate(ECONOMY_MIGRATIONS).catch(() => undefined);
  const made = new Map<boolean, ObservationStores>();
  const storesFor = (demo: boolean) => {
    let stores = made.get(demo);
    if (!stores) {
      const dir = demo ? join(options.stateDir, 'economy', 'demo') : join(options.stateDir, 'economy');
      const scope = demo ? 'demo' : 'live';
      const vintages = pg ? createPostgresVintages(pg, scope) : createVintageArchive(dir, { log: options.log });
      const upstreams = demo
        ? createDemoUpstreams({ now })
        : {
            STATCAN: createStatcanClient({ baseUrl: urls.statcan, maxBytes }),
            BOC: createValetClient({ baseUrl: urls.valet, maxBytes }),
          };
      const cache = createObservationCache({
        ...(pg
          ? { copies: createPostgresCopies(pg, scope, options.log), leases: createPostgresLeases(pg, scope) }
          : { dir }),
        upstreams,
        now,
        vintages,
        leaseMs,
        timeoutMs: options.timeoutMs,
        log: options.log,
      });
      stores = { cache, vintages, realtime: createRealtimeArchive(vintages) };
      made.set(demo, stores);
    }
    return stores;
  };
  return Object.assign(storesFor, {
    close() {
      for (const stores of made.values()) stores.cache.close();
      // The requests still draining may need the store for a moment (a vintage list): the pool ends after them.
      if (pg)
        setTimeout(
          () =>
            void pg
              .close()
              .catch((err: unknown) =>
                process.stderr.write(`[economy] closing the store failed: ${(err as Error).message}\n`),
              ),
          1000,
        ).unref();
    },
    async end() {
      for (const stores of made.values()) stores.cache.close();
      await pg?.close();
    },
    async health(): Promise<HealthCheck | undefined> {
      const h = await pg?.health();
      if (!h || h.ok) return undefined;
      return {
        name: 'store',
        status: 'degraded',
        detail: `the shared store (PostgreSQL) has not answered since ${new Date(h.since).toISOString()}: ${h.error}; requests that need it get 503 store_unavailable`,
      };
    },
  });
}
