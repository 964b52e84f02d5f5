// Which account store the carriers service and the keys CLI use (docs/contracts/common.md, "State" and "Several
// servers, one shared store"): PostgreSQL when DATABASE_URL is set, else the embedded SQLite file under
// STATE_DIR, as always, so `npm start` needs no database.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { databaseUrlSetting, isStoreDown, stderrStoreLog } from '../core/postgres.ts';
import { openPostgresStore } from '../core/store-postgres.ts';
import { ACCOUNTS_FILE, openSqliteStore, type AccountStore, type StoreHealth } from '../core/store.ts';
import { readSetting } from '../../contract/core/settings-registry.ts';

export interface Accounts {
  /** The store; the embedded one is opened on first use. */
  store: () => AccountStore;
  /** For /healthz, when the store is shared; undefined for the embedded one. */
  health?: () => Promise<StoreHealth>;
  /** The database's address, when shared: `DATABASE_URL` as given. */
  databaseUrl?: string;
}

/**
 * The service's store: PostgreSQL for DATABASE_URL (migrated in the background, so a database not up yet does
 * not stop the start), else SQLite under `stateDir`, opened on first use so a server nobody signs in to makes
 * no state, but at once when it exists so an unwritable or damaged file stops the start with the reason.
 */
export function openAccounts(
  stateDir: string,
  env: NodeJS.ProcessEnv,
  warn: (message: string) => void = (m) => process.stderr.write(`[carriers] ${m}\n`),
): Accounts {
  const databaseUrl = databaseUrlSetting(readSetting(env, 'DATABASE_URL'));
  if (databaseUrl) {
    const store = openPostgresStore(databaseUrl, { log: stderrStoreLog, warn });
    store.ready().catch((err: unknown) => {
      if (!isStoreDown(err)) warn(`the tables of ${store.name} could not be made: ${(err as Error).message}`);
    });
    return { store: () => store, health: () => store.health(), databaseUrl };
  }
  let store: AccountStore | undefined = existsSync(join(stateDir, ACCOUNTS_FILE))
    ? openSqliteStore(stateDir)
    : undefined;
  return { store: () => (store ??= openSqliteStore(stateDir)) };
}
