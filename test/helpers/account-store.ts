// Helpers for tests of the account store (server/core/store.ts, store-postgres.ts).
import { expect } from 'vitest';
import type { AccountStore } from '../../server/core/store.ts';
import { waitFor } from './wait.ts';

/**
 * Waits until `store` trusts the keys it remembers (its epoch holds): at once for SQLite, once its listener
 * is connected for PostgreSQL. Returns the epoch.
 */
export async function settledEpoch(store: AccountStore): Promise<number> {
  const started = performance.now();
  for (;;) {
    const epoch = store.keysEpoch();
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (store.keysEpoch() === epoch) return epoch;
    expect(performance.now() - started, 'the store never trusted the keys it remembers').toBeLessThan(5000);
  }
}

/** Polls `check` until it is true; fails past `ms`. Returns the milliseconds it took. */
export function within(ms: number, what: string, check: () => boolean | Promise<boolean>): Promise<number> {
  return waitFor(what, check, { timeout: ms });
}
