// The observation cache and vintage archive of each kind of build, over the upstreams that kind uses: the
// real adapters at STATCAN_WDS_URL and BOC_VALET_URL, or the built-in demo upstream for a demo build.
import { join } from 'node:path';
import { createDemoUpstreams } from '../../contract/economy/upstream/demo.ts';
import { createStatcanClient, toStatcanBaseUrl } from '../../contract/economy/upstream/statcan.ts';
import { createValetClient, toValetBaseUrl } from '../../contract/economy/upstream/valet.ts';
import { urlSetting } from '../../contract/core/settings.ts';
import { upstreamMaxBytesSetting } from '../../contract/economy/upstream/port.ts';
import { createObservationCache, type ObservationCache } from './cache.ts';
import type { CacheLogLine } from './state-files.ts';
import { createVintageArchive, type VintageArchive } from './vintages.ts';

export interface ObservationStores {
  cache: ObservationCache;
  vintages: VintageArchive;
}

export interface ObservationStoresOptions {
  /** STATE_DIR; the stores live in `<stateDir>/economy/` (demo: `<stateDir>/economy/demo/`). */
  stateDir: string;
  /** Where STATCAN_WDS_URL and BOC_VALET_URL are read (process.env in the server). */
  env: Readonly<Record<string, string | undefined>>;
  now?: () => Date;
  log?: (line: CacheLogLine) => void;
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

/** The stores for a build (`stores(demo)`), and `close()` for a shutdown: see ObservationCache.close. */
export type ObservationStoresFor = ((demo: boolean) => ObservationStores) & { close(): void };

/**
 * The real and the demo stores, each made on first use. The demo ones live in their own folder so generated
 * numbers never enter the real cache or vintage archive. The URLs are checked now, at start-up, not on the
 * first pull.
 */
export function createObservationStores(options: ObservationStoresOptions): ObservationStoresFor {
  const now = options.now ?? (() => new Date());
  const urls = toUpstreamUrls(options.env);
  const maxBytes = upstreamMaxBytesSetting(options.env.UPSTREAM_MAX_BYTES);
  const made = new Map<boolean, ObservationStores>();
  const storesFor = (demo: boolean) => {
    let stores = made.get(demo);
    if (!stores) {
      const dir = demo ? join(options.stateDir, 'economy', 'demo') : join(options.stateDir, 'economy');
      const vintages = createVintageArchive(dir, { log: options.log });
      const upstreams = demo
        ? createDemoUpstreams({ now })
        : {
            STATCAN: createStatcanClient({ baseUrl: urls.statcan, maxBytes }),
            BOC: createValetClient({ baseUrl: urls.valet, maxBytes }),
          };
      const cache = createObservationCache({
        dir,
        upstreams,
        now,
        vintages,
        timeoutMs: options.timeoutMs,
        log: options.log,
      });
      stores = { cache, vintages };
      made.set(demo, stores);
    }
    return stores;
  };
  return Object.assign(storesFor, {
    close() {
      for (const stores of made.values()) stores.cache.close();
    },
  });
}
