// Economy's /healthz check (docs/contracts/common.md, "Health"): degraded while the last pull of some series
// failed within the hour, naming them and why; the service still answers everything else (a 200).
import type { HealthCheck } from '../../contract/core/manifest.ts';
import { healthyChecks } from '../../contract/core/manifest.ts';

/** How far back a failed pull still degrades the service. */
export const FAILED_PULL_WINDOW_MS = 60 * 60 * 1000;

/** Series shown by name in the detail; the rest are counted. */
const NAMED = 5;

export function toPullCheck(failed: readonly { series: string; error: string }[]): HealthCheck {
  if (failed.length === 0) return healthyChecks('economy').find((c) => c.name === 'upstream_pulls')!;
  const named = failed.slice(0, NAMED).map((f) => `${f.series} (${f.error})`);
  const more = failed.length > NAMED ? `, and ${failed.length - NAMED} more` : '';
  const count = failed.length === 1 ? '1 series' : `${failed.length} series`;
  return {
    name: 'upstream_pulls',
    status: 'degraded',
    detail: `the last pull of ${count} failed within the hour: ${named.join('; ')}${more}`,
  };
}
