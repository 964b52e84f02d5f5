// Sign-in for the carriers service (docs/contracts/carriers.md "Access"): `Authorization: Bearer <api key>`.
import type { IncomingMessage } from 'node:http';
import { repeatsHeader } from '../core/headers.ts';
import { HttpError } from '../../contract/core/problem.ts';
import { KEY_PATTERN, type AccountStore, type Plan } from '../core/store.ts';
import type { SignInLimiter } from './sign-in-limit.ts';

export interface Account {
  id: string;
  plan: Plan;
}

// RFC 6750 §3: a request with no credentials gets the bare challenge; one with a bad token also gets
// error="invalid_token" (§3.1).
const CHALLENGE = 'Bearer';
const INVALID_TOKEN_CHALLENGE = 'Bearer error="invalid_token"';

function unauthorized(detail: string, keyGiven: boolean): HttpError {
  return new HttpError(401, 'unauthorized', detail, undefined, {
    'WWW-Authenticate': keyGiven ? INVALID_TOKEN_CHALLENGE : CHALLENGE,
  });
}

const MISSING = 'this route needs an API key in the header Authorization: Bearer <key>';

/**
 * Per connection: the account, header and key epoch of its last sign-in, so a keep-alive client's repeated
 * header is neither hashed nor looked up again. Dropped with the connection, so a key stays in memory no
 * longer than the connection that sent it.
 */
const signedIn = new WeakMap<object, { header: string; epoch: number; account: Account }>();

/**
 * The account behind the request's bearer key; 401 `unauthorized` for a missing, malformed, unknown or
 * revoked key, 503 `store_unavailable` when the key had to be read from a store that does not answer.
 * With a `limiter`, a bad key counts against the client's address, and an address over its failures gets
 * 429 `sign_in_limited` before its key is looked at.
 */
export async function authenticate(
  req: Pick<IncomingMessage, 'headers'> & {
    socket?: (object & { remoteAddress?: string | undefined }) | null;
    rawHeaders?: string[];
  },
  store: AccountStore,
  limiter?: SignInLimiter,
): Promise<Account> {
  const raw = req.headers.authorization;
  // No key, no look-up: the store is not touched for a request that cannot sign in.
  if (raw === undefined) throw unauthorized(MISSING, false);
  // Node keeps only the first Authorization, and a proxy may keep another: which key counts would depend on
  // who reads it, so two are refused (RFC 6750 §3.1, invalid_request: a request that "uses more than one
  // method for including an access token").
  if (repeatsHeader(req.rawHeaders, 'authorization')) {
    throw new HttpError(400, 'bad_request', 'send one Authorization header; this request has several', undefined, {
      'WWW-Authenticate': 'Bearer error="invalid_request"',
    });
  }
  const socket = req.socket ?? undefined;
  // Read before the look-up: a change after it moves the epoch on, and the next request looks up again.
  const epoch = store.keysEpoch();
  if (socket) {
    const last = signedIn.get(socket);
    if (last && last.header === raw && last.epoch === epoch) return last.account;
  }
  const header = raw.trim();
  // The auth scheme is case-insensitive (RFC 9110 §11.1); the token is everything after one run of spaces
  // (the spaces after the first are trimmed off: ` +(.*)` would try every split of a long run).
  const match = /^bearer(?: (.*))?$/i.exec(header);
  const token = match?.[1]?.trim() ?? '';
  if (!match || token === '') throw unauthorized(MISSING, false);
  limiter?.check(req);
  const failed = (detail: string) => {
    limiter?.fail(req);
    return unauthorized(detail, true);
  };
  // Never echo the token: a malformed one may still be someone's secret with a typo.
  if (!KEY_PATTERN.test(token)) throw failed('the bearer token is not an API key of this service');
  const found = await store.findKey(token);
  if (!found) throw failed('the API key is not known');
  if (found.revoked) throw failed('the API key has been revoked');
  const account: Account = { id: found.id, plan: found.plan };
  if (socket) signedIn.set(socket, { header: raw, epoch, account });
  return account;
}

/** 403 `premium_required` unless the account is on the premium plan. */
export function requirePremium(account: Account): void {
  if (account.plan !== 'premium')
    throw new HttpError(
      403,
      'premium_required',
      'this route is part of the premium plan; the key given is on the free plan',
    );
}
