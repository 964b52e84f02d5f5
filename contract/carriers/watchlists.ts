// Watchlists (docs/contracts/changes.md, "Watchlists"): a signed-in key's lists of carriers, read by the
// server's routes and by `npm run deliver`. Limits per plan, the cursor of a list's change feed, and the
// Standard Webhooks payload of a delivery.
import { randomBytes } from 'node:crypto';

/** Lists per key and carriers per list, by plan: `WATCHLIST_FREE_MAX`, `WATCHLIST_PREMIUM_MAX` (`lists,carriers`). */
export interface WatchlistLimits {
  lists: number;
  carriers: number;
}

export const DEFAULT_WATCHLIST_LIMITS = {
  free: { lists: 1, carriers: 25 },
  premium: { lists: 100, carriers: 10_000 },
} as const satisfies Record<'free' | 'premium', WatchlistLimits>;

/** `lists,carriers` (two whole numbers, at least 1) as limits; throws naming the setting. */
export function parseWatchlistLimits(name: string, raw: string): WatchlistLimits {
  const m = /^\s*(\d{1,6})\s*,\s*(\d{1,6})\s*$/.exec(raw);
  const lists = Number(m?.[1]);
  const carriers = Number(m?.[2]);
  if (!m || lists < 1 || carriers < 1)
    throw new Error(`${name} must be two whole numbers of at least 1, lists then carriers per list (1,25), not ${raw}`);
  return { lists, carriers };
}

/** The changes a page of a list's feed holds at most. */
export const WATCHLIST_PAGE = 1000;

export const WATCHLIST_ID = /^wl_[0-9a-f]{16}$/;
export const newWatchlistId = () => `wl_${randomBytes(8).toString('hex')}`;

/** A webhook secret as Standard Webhooks writes it: `whsec_` and 32 random bytes in base64. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * A place in the change record: every change up to carrier `carrier` of the build whose first page is
 * `<build>.json` (made at `built_at`) has been seen; carrier 4294967295 is the whole build.
 */
export interface FeedPosition {
  build: string;
  built_at: string;
  carrier: number;
}

/** Past every carrier of a build. */
export const WHOLE_BUILD = 0xffffffff;

const CURSOR_PREFIX = 'c1_';

export function encodeCursor(p: FeedPosition): string {
  return `${CURSOR_PREFIX}${Buffer.from(JSON.stringify([p.build, p.built_at, p.carrier])).toString('base64url')}`;
}

/** The position a cursor names, or undefined when it is not one this service wrote. */
export function decodeCursor(cursor: string): FeedPosition | undefined {
  if (!cursor.startsWith(CURSOR_PREFIX) || cursor.length > 300) return undefined;
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor.slice(CURSOR_PREFIX.length), 'base64url').toString('utf8'));
    if (!Array.isArray(v) || v.length !== 3) return undefined;
    const [build, builtAt, carrier] = v as unknown[];
    if (typeof build !== 'string' || !/^[0-9a-z-]{1,80}$/.test(build)) return undefined;
    if (typeof builtAt !== 'string' || !Number.isFinite(Date.parse(builtAt))) return undefined;
    if (typeof carrier !== 'number' || !Number.isInteger(carrier) || carrier < 0 || carrier > WHOLE_BUILD)
      return undefined;
    return { build, built_at: builtAt, carrier };
  } catch {
    return undefined;
  }
}

/** The event type of a delivery. */
export const WEBHOOK_EVENT = 'carriers.watchlist.changes';
