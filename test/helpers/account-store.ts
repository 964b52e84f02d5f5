// Helpers for tests of the account store (server/core/store.ts, store-postgres.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { openPostgresStore } from '../../server/core/store-postgres.ts';
import { type AccountStore, openSqliteStore } from '../../server/core/store.ts';
import { sharedPostgres } from './postgres.ts';
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

export interface Opened {
  store: AccountStore;
  /** Another store on the same state, as another server process has. */
  another(): AccountStore;
  /** The same state opened again, after `store` was closed. */
  reopen(): AccountStore;
  cleanup(): Promise<void>;
}

export interface Backend {
  name: string;
  skip: boolean;
  open(): Promise<Opened>;
}

const quiet = () => undefined;
let databases = 0;

/**
 * The account store's two backends for one suite run against both: the embedded SQLite file under a
 * temporary STATE_DIR, and PostgreSQL (a database of its own per `open`, on the run's server; skipped where
 * it is not installed). `prefix` names the suite's folders and databases.
 */
export function storeBackends(prefix: string): { sqlite: Backend; postgres: Backend } {
  const pg = sharedPostgres();
  const sqlite: Backend = {
    name: 'SQLite under STATE_DIR',
    skip: false,
    async open() {
      const dir = mkdtempSync(join(tmpdir(), `shardline-${prefix}-`));
      const state = join(dir, 'state');
      const others: AccountStore[] = [];
      const track = (s: AccountStore) => {
        others.push(s);
        return s;
      };
      return {
        store: track(openSqliteStore(state)),
        another: () => track(openSqliteStore(state)),
        reopen: () => track(openSqliteStore(state)),
        async cleanup() {
          for (const s of others) await s.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  };

  const postgres: Backend = {
    name: 'PostgreSQL',
    skip: !pg,
    async open() {
      // A database of its own for each test: nothing one test stores is seen by another.
      const url = await pg!.createDatabase(`${prefix}_${++databases}`);
      const others: AccountStore[] = [];
      const track = (s: AccountStore) => {
        others.push(s);
        return s;
      };
      let pools = 0;
      // A URL of its own is a pool of its own (server/core/postgres.ts keeps one per URL), as in another process.
      const apart = () =>
        track(openPostgresStore(`${url}?application_name=${prefix}_${++pools}`, { log: quiet, warn: quiet }));
      return {
        store: track(openPostgresStore(url, { log: quiet, warn: quiet })),
        another: apart,
        reopen: apart,
        async cleanup() {
          for (const s of others) await s.close();
        },
      };
    },
  };
  return { sqlite, postgres };
}
