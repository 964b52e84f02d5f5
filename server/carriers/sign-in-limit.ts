// Failed sign-ins limited per client address (docs/contracts/common.md, "Hostile input and faults"): after
// `failuresPerMinute` requests from one address with a malformed, unknown or revoked key, every request
// from it that gives a key is a 429 `sign_in_limited` until its minute is over, so keys cannot be guessed
// at the speed of the network. Counted in each server process's memory.
import type { IncomingHttpHeaders } from 'node:http';
import { isIPv6 } from 'node:net';
import { HttpError } from '../../contract/core/problem.ts';
import { Lru } from '../core/cache.ts';

export const SIGN_IN_WINDOW_MS = 60_000;
/** The contract's bound: 30 failed sign-ins a minute from one address. */
export const DEFAULT_SIGN_IN_FAILURES = 30;
/** Addresses counted at once at most, the least recently failed forgotten first: a bound on memory. */
const ADDRESSES_MAX = 100_000;

export interface SignInLimitOptions {
  /** Failed sign-ins an address may make in a minute (SIGN_IN_FAILURES_PER_MINUTE). */
  failuresPerMinute: number;
  /** Reverse proxies in front of the server whose X-Forwarded-For entries are trusted (TRUSTED_PROXIES); 0: none. */
  trustedProxies: number;
  /** Milliseconds, for tests; default performance.now. */
  now?: () => number;
}

export interface SignInRequest {
  headers: IncomingHttpHeaders;
  socket?: { remoteAddress?: string | undefined } | null;
}

/**
 * The address a request is counted under: the socket's, or with `trustedProxies` N > 0 the N-th entry of
 * X-Forwarded-For from the right (each trusted proxy appends the address it was reached from; entries
 * further left are the client's to write). IPv6 addresses count by their /64, which one host is given.
 */
export function clientAddress(req: SignInRequest, trustedProxies: number): string {
  let address = req.socket?.remoteAddress ?? '';
  if (trustedProxies > 0) {
    const header = req.headers['x-forwarded-for'];
    const hops = (Array.isArray(header) ? header.join(',') : (header ?? ''))
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean);
    // Fewer entries than proxies: the leftmost one, the furthest any proxy saw.
    const pick = hops[Math.max(0, hops.length - trustedProxies)];
    if (pick !== undefined) address = pick;
  }
  return toAddressKey(address);
}

function toAddressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  // The first four groups of the expanded address: its /64.
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups.slice(0, 4).join(':')}::/64`;
}

export class SignInLimiter {
  private readonly failures = new Lru<{ count: number; resetAt: number }>(ADDRESSES_MAX);
  private readonly now: () => number;

  constructor(private readonly options: SignInLimitOptions) {
    this.now = options.now ?? (() => performance.now());
  }

  /** 429 `sign_in_limited`, with Retry-After, while the request's address is over its failures. */
  check(req: SignInRequest): void {
    const key = clientAddress(req, this.options.trustedProxies);
    const entry = this.failures.get(key);
    if (!entry) return;
    const now = this.now();
    if (now >= entry.resetAt) {
      this.failures.delete(key);
      return;
    }
    if (entry.count < this.options.failuresPerMinute) return;
    const seconds = Math.max(1, Math.ceil((entry.resetAt - now) / 1000));
    throw new HttpError(
      429,
      'sign_in_limited',
      `more than ${this.options.failuresPerMinute} failed sign-ins in a minute from this address; retry in ${seconds} s`,
      undefined,
      { 'Retry-After': String(seconds) },
    );
  }

  /** Counts one failed sign-in for the request's address; the minute starts at its first failure. */
  fail(req: SignInRequest): void {
    const key = clientAddress(req, this.options.trustedProxies);
    const now = this.now();
    const entry = this.failures.get(key);
    if (!entry || now >= entry.resetAt) this.failures.set(key, { count: 1, resetAt: now + SIGN_IN_WINDOW_MS });
    else entry.count++;
  }
}
