// The watchlist operations of the carriers OpenAPI document (docs/contracts/changes.md, "Watchlists").
import { NO_STORE } from '../../contract/core/layout.ts';
import { type OperationSpec, type ParameterSpec, problem, type ResponseSpec } from '../core/openapi.ts';

const LIST_ID: ParameterSpec = {
  name: 'id',
  in: 'path',
  description: 'The list’s id (`wl_` and 16 hex digits), as its creation gave it.',
  schema: { type: 'string', pattern: '^wl_[0-9a-f]{16}$' },
};

export function watchlistOperations(
  base: string,
  r: Record<'unauthorized' | 'signInLimited' | 'notJson', ResponseSpec>,
) {
  const json = (schema: string, description: string): ResponseSpec => ({
    description,
    content: { 'application/json': schema },
    cache: NO_STORE,
  });
  const signedIn = { 401: r.unauthorized, 429: r.signInLimited };
  const noList = problem(
    404,
    ['not_found'],
    'No list with this id of this key (another key’s list is not found either).',
  );
  const bad = problem(
    400,
    ['invalid_parameter'],
    'A body that is not a list (`errors` names each fault), over the plan’s limits (lists per key, carriers per list: WATCHLIST_FREE_MAX, WATCHLIST_PREMIUM_MAX), carriers not in the build (every unknown id listed), or a webhook URL that is not https or points inside the network (loopback, private, link-local, metadata; allowed with WEBHOOK_ALLOW_PRIVATE=1).',
  );
  const tooLarge = problem(413, ['payload_too_large'], 'The request body is over 256 KB (262,144 bytes).');
  const body = {
    description: 'The list: a name, its carriers and, optionally, a webhook; at most 256 KB.',
    required: true,
    content: { 'application/json': 'carriers/watchlist-input' },
  };
  const ops: OperationSpec[] = [
    {
      method: 'post',
      path: `${base}/watchlists`,
      operationId: 'createWatchlist',
      summary: 'Create a watchlist',
      tag: 'Watchlists',
      description:
        'Signed in; not counted against the free allowance. A list of carriers whose changes the key follows (`GET /api/watchlists/{id}/changes`) and, with a webhook, receives after each build that changed one (signed per Standard Webhooks with the `secret`, shown in this answer only).',
      security: 'bearer',
      requestBody: body,
      responses: {
        ...signedIn,
        201: { ...json('carriers/watchlist', 'The list, with its webhook’s secret.'), headers: ['Location'] },
        400: bad,
        413: tooLarge,
        415: r.notJson,
      },
    },
    {
      method: 'get',
      path: `${base}/watchlists`,
      operationId: 'listWatchlists',
      summary: 'The key’s watchlists',
      tag: 'Watchlists',
      description: 'Signed in. Every list of the key, oldest first, each webhook with its latest delivery.',
      security: 'bearer',
      responses: { ...signedIn, 200: json('carriers/watchlists', 'The lists.') },
    },
    {
      method: 'get',
      path: `${base}/watchlists/{id}`,
      operationId: 'getWatchlist',
      summary: 'One watchlist',
      tag: 'Watchlists',
      description: 'Signed in. The list, its webhook’s latest delivery (`last_delivery`), never the secret.',
      parameters: [LIST_ID],
      security: 'bearer',
      responses: { ...signedIn, 200: json('carriers/watchlist', 'The list.'), 404: noList },
    },
    {
      method: 'put',
      path: `${base}/watchlists/{id}`,
      operationId: 'replaceWatchlist',
      summary: 'Replace a watchlist',
      tag: 'Watchlists',
      description:
        'Signed in. Replaces the name, the carriers and the webhook (none given: removed). A webhook kept keeps its secret; one added where there was none gets a new secret, shown in this answer.',
      parameters: [LIST_ID],
      security: 'bearer',
      requestBody: body,
      responses: {
        ...signedIn,
        200: json('carriers/watchlist', 'The list as replaced.'),
        400: bad,
        404: noList,
        413: tooLarge,
        415: r.notJson,
      },
    },
    {
      method: 'delete',
      path: `${base}/watchlists/{id}`,
      operationId: 'deleteWatchlist',
      summary: 'Delete a watchlist',
      tag: 'Watchlists',
      description: 'Signed in. Removes the list and its deliveries.',
      parameters: [LIST_ID],
      security: 'bearer',
      responses: { ...signedIn, 204: { description: 'Removed.' }, 404: noList },
    },
    {
      method: 'get',
      path: `${base}/watchlists/{id}/changes`,
      operationId: 'getWatchlistChanges',
      summary: 'A watchlist’s changes',
      tag: 'Watchlists',
      description:
        'Signed in; not counted. Every change to a listed carrier after `cursor` (from the list’s creation without one), oldest build first, at most 1,000; `next_cursor` gives what follows, and once caught up only what later builds bring.',
      parameters: [LIST_ID],
      query: 'carriers/watchlist-changes-query',
      security: 'bearer',
      responses: {
        ...signedIn,
        200: json('carriers/watchlist-changes', 'The changes and the next cursor.'),
        400: problem(400, ['invalid_parameter'], 'A cursor this list’s feed did not give.'),
        404: noList,
        410: problem(410, ['history_expired'], 'A cursor older than the kept change history (the last 400 builds).'),
      },
    },
  ];
  return ops;
}
