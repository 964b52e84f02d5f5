// The free plan's monthly allowance of profile lookups (docs/contracts/carriers.md "Access"): one unit per
// successful profile response, per UTC calendar month, counted atomically in the store.
// Headers: RateLimit-Limit / -Remaining / -Reset (delta seconds), the separate fields of
// draft-ietf-httpapi-ratelimit-headers-06 that the contract names (later drafts fold them into one
// `RateLimit` field), and Retry-After in seconds on 429 (RFC 9110 §10.2.3, RFC 6585 §4).
import { HttpError } from '../../contract/core/problem.ts';
import type { AccountStore } from '../core/store.ts';
import type { Account } from './auth.ts';

export interface ProfileCharge {
  /** RateLimit-* headers for a free key's response; empty for premium. */
  headers: Record<string, string>;
  /** The unit taken, for `refundProfileLookup`; undefined when nothing was counted (premium). */
  unit?: { keyId: string; month: string };
}

/** The UTC calendar month of `now`, as the store's counter key: `YYYY-MM`. */
export function toMonth(now: Date): string {
  return now.toISOString().slice(0, 7);
}

/** Whole seconds from `now` until the first instant of the next UTC month (at least 1). */
export function secondsToNextMonth(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

function rateLimitHeaders(limit: number, remaining: number, reset: number): Record<string, string> {
  return {
    'RateLimit-Limit': String(limit),
    'RateLimit-Remaining': String(remaining),
    'RateLimit-Reset': String(reset),
  };
}

/** 429 `quota_exhausted`, with the RateLimit-* headers and Retry-After until the month renews. */
function exhausted(limit: number, reset: number, headers: Record<string, string>): HttpError {
  return new HttpError(
    429,
    'quota_exhausted',
    `the free plan allows ${limit} profile lookups per calendar month (UTC); the allowance renews in ${reset} s`,
    undefined,
    {
      ...headers,
      'Retry-After': String(reset),
    },
  );
}

/**
 * Counts one profile lookup for a free account, in the UTC month `clock` gives, before the lookup runs.
 * Resolves with the headers for the response, or rejects with 429 `quota_exhausted` when this month's
 * `limit` is used up (503 `store_unavailable` when the store does not answer: nothing is served uncounted).
 * A lookup that then fails with a 4xx must call `refundProfileLookup` with the result, so that only
 * successes count. A premium account counts nothing.
 */
export async function chargeProfileLookup(
  store: AccountStore,
  account: Account,
  clock: () => Date,
  limit: number,
): Promise<ProfileCharge> {
  if (account.plan === 'premium') return { headers: {} };
  // The clock is read only here: a premium lookup has no month to count in.
  const now = clock();
  const month = toMonth(now);
  const reset = secondsToNextMonth(now);
  const result = await store.consume(account.id, month, limit);
  const headers = rateLimitHeaders(limit, result.remaining, reset);
  if (!result.ok) throw exhausted(limit, reset, headers);
  return { headers, unit: { keyId: account.id, month } };
}

/** What is left this month, and its RateLimit-* headers, for a free account. */
async function allowanceOf(
  store: AccountStore,
  account: Account,
  clock: () => Date,
  limit: number,
): Promise<{ remaining: number; reset: number; headers: Record<string, string> }> {
  const now = clock();
  const reset = secondsToNextMonth(now);
  const remaining = Math.max(0, limit - (await store.usage(account.id, toMonth(now))));
  return { remaining, reset, headers: rateLimitHeaders(limit, remaining, reset) };
}

/**
 * For a conditional request the client's copy answers (304): nothing is counted, as GitHub does not count
 * a 304 against its rate limit, but a used-up allowance is still 429, and the headers say what is left.
 * Premium: nothing to read.
 */
export async function peekProfileLookup(
  store: AccountStore,
  account: Account,
  clock: () => Date,
  limit: number,
): Promise<ProfileCharge> {
  if (account.plan === 'premium') return { headers: {} };
  const { remaining, reset, headers } = await allowanceOf(store, account, clock, limit);
  if (remaining === 0) throw exhausted(limit, reset, headers);
  return { headers };
}

/**
 * The RateLimit-* headers of what is left, for a free key's response that counts nothing (a 400 or 404 of
 * the profile route): as GitHub does, every response to a rate-limited client says where it stands.
 * Empty for premium.
 */
export async function allowanceHeaders(
  store: AccountStore,
  account: Account,
  clock: () => Date,
  limit: number,
): Promise<Record<string, string>> {
  return account.plan === 'premium' ? {} : (await allowanceOf(store, account, clock, limit)).headers;
}

/** Gives back the unit a charge took (into the month it was taken from); a no-op for premium charges. */
export async function refundProfileLookup(store: AccountStore, charge: ProfileCharge): Promise<void> {
  if (charge.unit) await store.refund(charge.unit.keyId, charge.unit.month);
}
