// Methane and anomaly flags with the reasons that fired them (docs/contracts/facilities.md).
import { round } from '../../contract/core/values.ts';
import type { FederalRow, OntarioRow } from './rows.ts';
import type { Delta, Flags, SeriesPoint } from '../../contract/facilities/record.ts';
import { toAdjustedOntario } from './records.ts';

export const METHANE_SHARE = 0.1;
export const METHANE_TONNES = 25_000;
export const YOY_CHANGE = 0.5;
export const DISAGREEMENT_PCT = 10;

const t = (n: number) => `${Math.round(n).toLocaleString('en-CA')} t`;

/**
 * Methane per program in that program's latest year with a methane figure: the CH4 CO2e over the total
 * without biomass CO2 (the basis both programs share). The indicator table has no gas breakdown.
 */
function methaneReason(
  label: string,
  rows: readonly { year: number; ch4: number | null; total: number | null }[],
): string | undefined {
  const years = new Map<number, { ch4: number; total: number }>();
  for (const r of rows) {
    if (r.ch4 === null || r.total === null) continue;
    const y = years.get(r.year) ?? { ch4: 0, total: 0 };
    years.set(r.year, { ch4: y.ch4 + r.ch4, total: y.total + r.total });
  }
  const latest = Math.max(...years.keys());
  const v = years.get(latest);
  if (!v) return undefined;
  const share = v.total > 0 ? v.ch4 / v.total : 0;
  if (share >= METHANE_SHARE)
    return `methane: ${label} ${latest} CH4 ${t(v.ch4)} CO2e is ${round(share * 100, 1)}% of ${t(v.total)} (rule: at least ${METHANE_SHARE * 100}%)`;
  if (v.ch4 >= METHANE_TONNES)
    return `methane: ${label} ${latest} CH4 ${t(v.ch4)} CO2e (rule: at least ${t(METHANE_TONNES)})`;
  return undefined;
}

function yoyReasons(series: readonly SeriesPoint[], program: 'ontario' | 'federal'): string[] {
  const out: string[] = [];
  for (let i = 1; i < series.length; i++) {
    const prev = series[i - 1]!;
    const cur = series[i]!;
    const a = prev[program];
    const b = cur[program];
    if (cur.year !== prev.year + 1 || a === null || b === null || a <= 0) continue;
    const change = (b - a) / a;
    if (Math.abs(change) > YOY_CHANGE)
      out.push(
        `anomaly: ${program} ${prev.year}→${cur.year} changed ${change > 0 ? '+' : ''}${round(change * 100, 1)}% (${t(a)} → ${t(b)}; rule: more than ${YOY_CHANGE * 100}%)`,
      );
  }
  return out;
}

export function toFlags(args: {
  ontario: readonly OntarioRow[];
  federal: readonly FederalRow[];
  series: readonly SeriesPoint[];
  delta: Delta | null;
}): Flags {
  const methane = [
    methaneReason(
      'Ontario',
      args.ontario.map((r) => ({ year: r.year, ch4: r.ch4, total: toAdjustedOntario(r) })),
    ),
    methaneReason(
      'federal',
      args.federal.filter((r) => r.source === 'by_gas'),
    ),
  ].filter((r): r is string => !!r);
  const anomaly = [...yoyReasons(args.series, 'ontario'), ...yoyReasons(args.series, 'federal')];
  if (args.delta && Math.abs(args.delta.pct) > DISAGREEMENT_PCT) {
    anomaly.push(
      `anomaly: ${args.delta.year} provincial and federal totals differ by ${args.delta.pct}% (${t(args.delta.tonnes)}; rule: more than ${DISAGREEMENT_PCT}%)`,
    );
  }
  return { methane: methane.length > 0, anomaly: anomaly.length > 0, reasons: [...methane, ...anomaly] };
}
