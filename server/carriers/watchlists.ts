// Watchlist routes (docs/contracts/changes.md, "Watchlists"): a signed-in key's lists of carriers, kept in
// the account store so any server answers for any list, and each list's change feed. Not counted against
// the free allowance; never cached (`no-store`). Another key's list is a 404, as one that does not exist.
import type { ServerResponse } from 'node:http';
import {
  newWatchlistId,
  newWebhookSecret,
  WATCHLIST_ID,
  WATCHLIST_PAGE,
  type WatchlistLimits,
} from '../../contract/carriers/watchlists.ts';
import { NO_STORE } from '../../contract/core/layout.ts';
import { invalidParameters, notFound } from '../../contract/core/problem.ts';
import { schemas } from '../../contract/core/schemas.ts';
import type { WatchlistInput } from '../../contract/types/carriers/watchlist-input.ts';
import type { WatchlistChangesParameters } from '../../contract/types/carriers/watchlist-changes-query.ts';
import { parseJsonBody, readBody, requireJsonType } from '../core/body.ts';
import { parseQuery, queryOf, toParameterErrors } from '../core/params.ts';
import { sendAnswer } from '../core/payload.ts';
import type { RecordStore } from '../core/record-store.ts';
import { type RouteRequest, type Routes, type ServiceState, SIGNED_IN } from '../core/service.ts';
import type { AccountStore, Plan } from '../core/store.ts';
import type { Watchlist } from '../core/watchlist-store.ts';
import type { Account } from './auth.ts';
import type { CarrierChanges } from './changes.ts';
import { newestCursor, watchlistChanges } from './watchlist-feed.ts';
import { checkWebhookUrl, type Resolve, WebhookRefused } from './webhooks.ts';

/** A list of 10,000 carrier ids and a webhook URL fit well within this. */
export const MAX_WATCHLIST_BODY_BYTES = 256 * 1024;

export interface WatchlistOptions {
  accounts: () => AccountStore;
  signIn(req: RouteRequest): Promise<Account>;
  limits: Record<Plan, WatchlistLimits>;
  allowPrivate: boolean;
  now: () => Date;
  /** How webhook host names are resolved (tests give their own). */
  resolve?: Resolve;
}

interface WatchlistData {
  profiles: RecordStore;
  changes: CarrierChanges;
}

/** A list as the routes answer it: the webhook's secret only where `showSecret`, its latest delivery always. */
async function toAnswer(store: AccountStore, list: Watchlist, showSecret: boolean) {
  let webhook = null;
  if (list.webhook) {
    const d = await store.watchlists.lastDelivery(list.id);
    webhook = {
      url: list.webhook.url,
      ...(showSecret ? { secret: list.webhook.secret } : {}),
      last_delivery: d
        ? {
            data_version: d.data_version,
            at: d.last_at,
            status: d.status,
            attempts: d.attempts,
            response_status: d.last_status,
          }
        : null,
    };
  }
  return {
    id: list.id,
    name: list.name,
    carriers: list.carriers,
    created_at: list.created_at,
    updated_at: list.updated_at,
    cursor: list.start,
    webhook,
  };
}

/** Every watchlist answer is the key's own: never stored by a cache. */
const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  sendAnswer(res, body, { status, cacheControl: NO_STORE, headers });

/** The body of a POST or PUT, checked: its schema, the key's limits, the carriers of the build, the webhook URL. */
async function readInput(
  req: RouteRequest,
  s: ServiceState<WatchlistData>,
  account: Account,
  o: WatchlistOptions,
): Promise<{ name: string; carriers: number[]; webhookUrl: string | null }> {
  requireJsonType(req);
  const body = parseJsonBody(await readBody(req, MAX_WATCHLIST_BODY_BYTES));
  const validate = schemas().get('carriers/watchlist-input');
  if (!validate(body)) throw invalidParameters(toParameterErrors(validate.errors ?? [], 'body'));
  const input = body as WatchlistInput;
  const carriers = [...new Set(input.carriers)].sort((a, b) => a - b);
  const limit = o.limits[account.plan];
  if (carriers.length > limit.carriers)
    throw invalidParameters([
      {
        parameter: 'body/carriers',
        message: `holds ${carriers.length} carriers; a ${account.plan} key's list holds at most ${limit.carriers}`,
      },
    ]);
  const unknown = carriers.filter((id) => s.data.profiles.indexOf(id) < 0);
  if (unknown.length)
    throw invalidParameters([
      { parameter: 'body/carriers', message: `names carriers not in this build: ${unknown.join(', ')}` },
    ]);
  const webhookUrl = input.webhook?.url ?? null;
  if (webhookUrl !== null)
    try {
      await checkWebhookUrl(webhookUrl, o.allowPrivate, o.resolve);
    } catch (err) {
      if (!(err instanceof WebhookRefused)) throw err;
      throw invalidParameters([{ parameter: 'body/webhook/url', message: err.message }]);
    }
  return { name: input.name, carriers, webhookUrl };
}

/** The key's list `id`, or the 404 another key's list or none gets alike. */
async function ownList(store: AccountStore, account: Account, id: string | undefined): Promise<Watchlist> {
  const list = id !== undefined && WATCHLIST_ID.test(id) ? await store.watchlists.get(account.id, id) : undefined;
  if (!list) throw notFound(`no watchlist ${id} of this key`);
  return list;
}

export function mountWatchlists<D extends WatchlistData>(r: Routes<D>, base: string, o: WatchlistOptions): void {
  r.post(
    `${base}/watchlists`,
    async (req, res, s) => {
      const account = await o.signIn(req);
      const input = await readInput(req, s, account, o);
      const store = o.accounts();
      const now = o.now().toISOString();
      const list = {
        id: newWatchlistId(),
        key_id: account.id,
        name: input.name,
        carriers: input.carriers,
        created_at: now,
        start: newestCursor(s.data.changes),
        webhook: input.webhookUrl === null ? null : { url: input.webhookUrl, secret: newWebhookSecret() },
      };
      const max = o.limits[account.plan].lists;
      if (!(await store.watchlists.create(list, max)))
        throw invalidParameters([
          { parameter: 'body', message: `a ${account.plan} key keeps at most ${max} watchlist(s): remove one first` },
        ]);
      const answer = await toAnswer(store, { ...list, updated_at: now }, true);
      send(res, 201, answer, { Location: `${base}/watchlists/${list.id}` });
    },
    SIGNED_IN,
  );

  r.get(
    `${base}/watchlists`,
    async (req, res) => {
      const account = await o.signIn(req);
      const store = o.accounts();
      const lists = await store.watchlists.list(account.id);
      send(res, 200, { results: await Promise.all(lists.map((l) => toAnswer(store, l, false))) });
    },
    SIGNED_IN,
  );

  r.get(
    `${base}/watchlists/:id`,
    async (req, res) => {
      const account = await o.signIn(req);
      const store = o.accounts();
      send(res, 200, await toAnswer(store, await ownList(store, account, req.params.id), false));
    },
    SIGNED_IN,
  );

  r.put(
    `${base}/watchlists/:id`,
    async (req, res, s) => {
      const account = await o.signIn(req);
      const store = o.accounts();
      const before = await ownList(store, account, req.params.id);
      const input = await readInput(req, s, account, o);
      // The secret stays the list's while it has a webhook; a new webhook gets a new one, shown in this answer.
      const webhook =
        input.webhookUrl === null
          ? null
          : { url: input.webhookUrl, secret: before.webhook?.secret ?? newWebhookSecret() };
      const after = await store.watchlists.replace(
        account.id,
        before.id,
        { name: input.name, carriers: input.carriers, webhook },
        o.now(),
      );
      if (!after) throw notFound(`no watchlist ${before.id} of this key`);
      send(res, 200, await toAnswer(store, after, before.webhook === null && webhook !== null));
    },
    SIGNED_IN,
  );

  r.delete(
    `${base}/watchlists/:id`,
    async (req, res) => {
      const account = await o.signIn(req);
      const store = o.accounts();
      const list = await ownList(store, account, req.params.id);
      if (!(await store.watchlists.remove(account.id, list.id))) throw notFound(`no watchlist ${list.id} of this key`);
      send(res, 204, undefined);
    },
    SIGNED_IN,
  );

  r.get(
    `${base}/watchlists/:id/changes`,
    async (req, res, s) => {
      const account = await o.signIn(req);
      const list = await ownList(o.accounts(), account, req.params.id);
      const q = parseQuery<WatchlistChangesParameters>(queryOf(req), 'carriers/watchlist-changes-query');
      const page = await watchlistChanges(s.data.changes, list.carriers, q.cursor ?? list.start, WATCHLIST_PAGE);
      send(res, 200, page);
    },
    SIGNED_IN,
  );
}
