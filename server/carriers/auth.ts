// Sign-in for the carriers service (contracts/carriers.md "Access"): `Authorization: Bearer <api key>`.
import type { IncomingMessage } from 'node:http';
import { HttpError } from '../core/problem.ts';
import { KEY_PATTERN, type AccountStore, type Plan } from '../core/store.ts';

export interface Account {
  id: string;
  plan: Plan;
}

// RFC 6750 §3: a request with no credentials gets the bare challenge; one with a bad token also gets
// error="invalid_token" (§3.1).
const CHALLENGE = 'Bearer';
const INVALID_TOKEN_CHALLENGE = 'Bearer error="invalid_token"';

function unauthorized(detail: string, keyGiven: boolean): HttpError {
  return new HttpError(401, 'unauthorized', detail, undefined, { 'WWW-Authenticate': keyGiven ? INVALID_TOKEN_CHALLENGE : CHALLENGE });
}

/** The account behind the request's bearer key; 401 `unauthorized` for a missing, malformed, unknown or revoked key. */
export function authenticate(req: Pick<IncomingMessage, 'headers'>, store: AccountStore): Account {
  const header = req.headers.authorization?.trim() ?? '';
  // The auth scheme is case-insensitive (RFC 9110 §11.1); the token is everything after one run of spaces.
  const match = /^bearer(?: +(.*))?$/i.exec(header);
  const token = match?.[1]?.trim() ?? '';
  if (!match || token === '') throw unauthorized('this route needs an API key in the header Authorization: Bearer <key>', false);
  // Never echo the token: a malformed one may still be someone's secret with a typo.
  if (!KEY_PATTERN.test(token)) throw unauthorized('the bearer token is not an API key of this service', true);
  const found = store.findKey(token);
  if (!found) throw unauthorized('the API key is not known', true);
  if (found.revoked) throw unauthorized('the API key has been revoked', true);
  return { id: found.id, plan: found.plan };
}

/** 403 `premium_required` unless the account is on the premium plan. */
export function requirePremium(account: Account): void {
  if (account.plan !== 'premium') throw new HttpError(403, 'premium_required', 'this route is part of the premium plan; the key given is on the free plan');
}
