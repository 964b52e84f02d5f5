// The cold-burst figure: how many upstream requests a burst of concurrent requests for one series nobody has
// asked for yet causes (the economy contract: one pull in flight per series, the others wait for it). Its
// own small table in the report, beside the build and server tables.
import { formatTable } from '../pipeline/core/progress.ts';

export interface ColdBurstResult {
  service: string;
  series: string;
  source: string;
  frequency: string;
  /** Concurrent requests fired at once, with an empty cache. */
  requests: number;
  /** Of them, answered 200. */
  ok: number;
  /** Of the 200s, answered with `cached: false`: they waited for the pull rather than coming after it. */
  pulled: number;
  upstreamCalls: number;
  /** First request sent to last answer received. */
  ms: number;
  /** How long the fake upstream took to answer each request. */
  upstreamDelayMs: number;
  /** Exactly `expectedCalls` upstream requests, and every request answered 200. */
  met: boolean;
  /** Upstream requests the row is held to: 1 for a burst on one series, one per series for the nightly snapshot. */
  expectedCalls?: number;
}

export const COLD_BURST_TARGET = 'exactly 1 upstream call';
const targetOf = (r: ColdBurstResult) =>
  (r.expectedCalls ?? 1) === 1 ? COLD_BURST_TARGET : `exactly ${r.expectedCalls} upstream calls (1 a series)`;

export function formatColdBursts(results: readonly ColdBurstResult[]): string {
  const rows: (string | number)[][] = [
    ['cold burst', 'source', 'requests', '200s', 'waited for the pull', 'upstream calls', 'ms', 'target', 'result'],
  ];
  for (const r of results) {
    const missed = [
      ...(r.upstreamCalls === (r.expectedCalls ?? 1) ? [] : [`${r.upstreamCalls} calls`]),
      ...(r.ok === r.requests ? [] : [`${r.requests - r.ok} not 200`]),
    ];
    rows.push([
      `${r.service} ${r.series}`,
      `${r.source} ${r.frequency}`,
      r.requests,
      r.ok,
      r.pulled,
      r.upstreamCalls,
      Math.round(r.ms),
      targetOf(r),
      r.met ? 'met' : `NOT met: ${missed.join(', ')}`,
    ]);
  }
  const delays = [...new Set(results.map((r) => r.upstreamDelayMs))].join(' or ');
  return [
    formatTable(rows),
    `  cold burst: concurrent requests for one series (with different date ranges) to the app with an empty STATE_DIR, its upstream`,
    `  base URLs pointing at a fake upstream on 127.0.0.1 that answers after ${delays} ms; upstream calls: requests the fake received`,
    '  during the burst; waited for the pull: answers that say `cached: false`. The nightly snapshot row is `npm run snapshot`',
    '  (snapshotAll) over every series of the registry with an empty STATE_DIR, against the same fake: its requests are the',
    '  series, its 200s the series pulled.',
  ].join('\n');
}
