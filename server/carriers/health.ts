// Carriers' /healthz check (docs/contracts/common.md, "Health"): `account_store` is degraded while the
// shared store (DATABASE_URL) does not answer, saying since when and why; search and the public documents are
// still served (a 200). The embedded store is a file beside the server: nothing to check.
import type { HealthCheck } from '../../contract/core/manifest.ts';
import { healthyChecks } from '../../contract/core/manifest.ts';
import type { StoreHealth } from '../core/store.ts';

export const ACCOUNT_STORE_CHECK = 'account_store';

export function toStoreCheck(health: StoreHealth, store: string): HealthCheck {
  if (health.ok) return healthyChecks('carriers').find((c) => c.name === ACCOUNT_STORE_CHECK)!;
  return {
    name: ACCOUNT_STORE_CHECK,
    status: 'degraded',
    detail: `the shared store ${store} has not answered since ${new Date(health.since).toISOString()} (${health.error}): signed-in routes answer 503 store_unavailable until it does`,
  };
}
