// The watchlists' webhook deliveries (docs/contracts/changes.md, "Webhooks"): for each list with a webhook
// whose key is not revoked, one delivery owed per build of the served tree after the list was made (or its
// last delivery) that changed one of its carriers; then every delivery due, attempted once. A failed attempt
// (no 2xx in 10 s, a connection error, a redirect, an address refused) is retried with back-off until a day
// after the delivery was owed; each attempt is recorded in the account store before and after it is made,
// so a run killed mid-attempt leaves it due again a minute later, and one answered 2xx is never sent again.
import { decodeCursor, WEBHOOK_EVENT } from '../../contract/carriers/watchlists.ts';
import { buildName, type ChangeEntry } from '../../contract/core/changes.ts';
import type { LoadedBuild } from '../core/build.ts';
import type { Delivery, Watchlist, WatchlistStore } from '../core/watchlist-store.ts';
import { openCarrierChanges } from './changes.ts';
import { buildChanges } from './watchlist-feed.ts';
import { checkWebhookUrl, postWebhook, type Resolve, WebhookRefused } from './webhooks.ts';

/** How long a delivery is retried after it was owed. */
export const RETRY_FOR_MS = 24 * 60 * 60 * 1000;
/** The first retry's wait; each next one doubles it, up to MAX_BACKOFF_MS. */
export const FIRST_BACKOFF_MS = 30_000;
export const MAX_BACKOFF_MS = 2 * 60 * 60 * 1000;
/** A delivery taken for an attempt is due again after this if the run never records the outcome. */
export const CLAIM_MS = 60_000;

export interface DeliverOptions {
  build: LoadedBuild;
  store: WatchlistStore;
  allowPrivate: boolean;
  now?: () => Date;
  resolve?: Resolve;
  timeoutMs?: number;
  log?: (line: string) => void;
}

export interface DeliverSummary {
  lists: number;
  /** Deliveries added for builds that changed a listed carrier. */
  owed: number;
  attempted: number;
  delivered: number;
  /** Attempts that failed and will be retried. */
  retrying: number;
  /** Deliveries given up: no 2xx within RETRY_FOR_MS. */
  failed: number;
}

const baseOf = buildName;

/** The wait after `attempts` failed attempts. */
export const backoffMs = (attempts: number) => Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (attempts - 1));

/** The builds of the tree a list may be owed a delivery for: those after its start and after its last delivery. */
async function owedBuilds(store: WatchlistStore, list: Watchlist, builds: readonly ChangeEntry[]) {
  const start = decodeCursor(list.start)?.built_at ?? '';
  const last = await store.lastDelivery(list.id);
  const lastAt = (last && builds.find((b) => baseOf(b) === last.build)?.built_at) ?? '';
  // ISO times in UTC compare as text: the later of the two.
  const from = [start, lastAt].sort().at(-1) ?? '';
  return builds.filter((b) => b.built_at > from);
}

export async function deliver(o: DeliverOptions): Promise<DeliverSummary> {
  const now = o.now ?? (() => new Date());
  const log = o.log ?? (() => undefined);
  const history = openCarrierChanges(o.build);
  const summary: DeliverSummary = { lists: 0, owed: 0, attempted: 0, delivered: 0, retrying: 0, failed: 0 };
  try {
    const lists = await o.store.withWebhooks();
    summary.lists = lists.length;
    const byId = new Map(lists.map((l) => [l.id, l]));
    for (const list of lists)
      for (const b of await owedBuilds(o.store, list, history.builds)) {
        if ((await buildChanges(history, list.carriers, b.href)).length === 0) continue;
        const at = now().toISOString();
        const added = await o.store.addDelivery({
          list_id: list.id,
          build: baseOf(b),
          data_version: b.data_version,
          msg_id: `msg_${list.id.slice(3)}_${baseOf(b)}`,
          status: 'pending',
          attempts: 0,
          created_at: at,
          next_at: at,
          last_at: null,
          last_status: null,
          last_error: null,
        });
        if (added) summary.owed++;
      }
    for (const d of await o.store.due(now())) {
      const list = byId.get(d.list_id);
      if (!list?.webhook) continue;
      const started = now();
      if (!(await o.store.claim(d, started, new Date(started.getTime() + CLAIM_MS)))) continue;
      summary.attempted++;
      const outcome = await attempt(o, history, list, d, started);
      const attempts = d.attempts + 1;
      const at = now();
      const gaveUp = !outcome.ok && at.getTime() - Date.parse(d.created_at) >= RETRY_FOR_MS;
      const next: Delivery = {
        ...d,
        status: outcome.ok ? 'delivered' : gaveUp ? 'failed' : 'pending',
        attempts,
        next_at: new Date(at.getTime() + backoffMs(attempts)).toISOString(),
        last_at: at.toISOString(),
        last_status: outcome.status ?? null,
        last_error: outcome.error ?? null,
      };
      await o.store.updateDelivery(next);
      if (outcome.ok) summary.delivered++;
      else if (gaveUp) summary.failed++;
      else summary.retrying++;
      log(
        `${list.id} build ${d.data_version}: ${outcome.ok ? `delivered (${outcome.status})` : `${outcome.error}${gaveUp ? ', given up after 24 hours' : `, retried in ${Math.round(backoffMs(attempts) / 1000)} s`}`}`,
      );
    }
  } finally {
    history.close();
  }
  return summary;
}

/** One attempt: the body of the build's changes to the list's carriers, to the URL checked again now. */
async function attempt(
  o: DeliverOptions,
  history: ReturnType<typeof openCarrierChanges>,
  list: Watchlist,
  d: Delivery,
  at: Date,
): Promise<{ ok: boolean; status?: number; error?: string }> {
  const build = history.builds.find((b) => baseOf(b) === d.build);
  if (!build) return { ok: false, error: `build ${d.data_version} is no longer in the change history` };
  let target: Awaited<ReturnType<typeof checkWebhookUrl>>;
  try {
    target = await checkWebhookUrl(list.webhook!.url, o.allowPrivate, o.resolve);
  } catch (err) {
    if (err instanceof WebhookRefused) return { ok: false, error: `refused: the URL ${err.message}` };
    throw err;
  }
  const changes = await buildChanges(history, list.carriers, build.href);
  const body = JSON.stringify({
    type: WEBHOOK_EVENT,
    timestamp: at.toISOString(),
    data: {
      watchlist: list.id,
      name: list.name,
      data_version: build.data_version,
      built_at: build.built_at,
      previous: build.previous,
      changes,
    },
  });
  return postWebhook(target, list.webhook!.secret, { id: d.msg_id, timestamp: at, body }, o.timeoutMs);
}
