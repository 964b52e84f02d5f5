// FRED's conventions for an observations request (docs/contracts/economy.md, "Transforms, frequencies,
// paging and CSV"): frequency aggregation first, then the units transform, both on the whole series, before
// the date range, sort order and paging select what is answered. The formulas are FRED's
// (fredhelp.stlouisfed.org, "What Formulas are Used to Calculate Growth Rates?").
import { round } from '../../contract/core/values.ts';
import { DAY_MS } from '../../contract/core/dates.ts';
import type { Frequency, Observation } from '../../contract/economy/types.ts';

export const UNITS = ['lin', 'chg', 'ch1', 'pch', 'pc1', 'pca', 'cch', 'cca', 'log'] as const;
export type Units = (typeof UNITS)[number];
/** FRED's aggregation frequencies this service offers: weekly, monthly, quarterly, semiannual, annual. */
export const TARGET_FREQUENCIES = ['w', 'm', 'q', 'sa', 'a'] as const;
export type TargetFrequency = (typeof TARGET_FREQUENCIES)[number];
export const AGGREGATION_METHODS = ['avg', 'sum', 'eop'] as const;
export type AggregationMethod = (typeof AGGREGATION_METHODS)[number];

/** A frequency of the registry, or one aggregated to: the same ladder, finest first. */
type Step = 'daily' | TargetFrequency;
const LADDER: readonly Step[] = ['daily', 'w', 'm', 'q', 'sa', 'a'];
const OF_SERIES: Record<Frequency, Step> = { daily: 'daily', weekly: 'w', monthly: 'm', quarterly: 'q', annual: 'a' };
/** FRED's n_obs_per_yr; daily counts 260 (no values on weekends). */
const PER_YEAR: Record<Step, number> = { daily: 260, w: 52, m: 12, q: 4, sa: 2, a: 1 };

const toMs = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const toIso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** True when `target` is the series' own frequency or a lower one (FRED never disaggregates). */
export function canAggregate(series: Frequency, target: TargetFrequency): boolean {
  return LADDER.indexOf(target) >= LADDER.indexOf(OF_SERIES[series]);
}

/**
 * The first day of the period holding `iso`: weeks run Monday to Sunday (ISO 8601) and are dated by their
 * Monday; months, quarters, half-years and years by their first day (2020Q2 is 2020-04-01).
 */
export function toPeriodStart(iso: string, step: Step): string {
  if (step === 'daily') return iso;
  if (step === 'w') {
    const ms = toMs(iso);
    const weekday = (new Date(ms).getUTCDay() + 6) % 7;
    return toIso(ms - weekday * DAY_MS);
  }
  const year = iso.slice(0, 4);
  const month = Number(iso.slice(5, 7));
  const months = step === 'm' ? 1 : step === 'q' ? 3 : step === 'sa' ? 6 : 12;
  const first = month - ((month - 1) % months);
  return `${year}-${String(first).padStart(2, '0')}-01`;
}

/** The last day of the period that starts on `start`. */
function toPeriodEnd(start: string, step: Step): string {
  if (step === 'daily') return start;
  if (step === 'w') return toIso(toMs(start) + 6 * DAY_MS);
  const months = step === 'm' ? 1 : step === 'q' ? 3 : step === 'sa' ? 6 : 12;
  const d = new Date(toMs(start));
  return toIso(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1) - DAY_MS);
}

/**
 * The last day the series' newest observation speaks for: its whole period, and for a daily series the
 * weekend after a Friday (daily series have no values on weekends).
 */
function coveredUntil(last: string, own: Step): string {
  if (own !== 'daily') return toPeriodEnd(toPeriodStart(last, own), own);
  const weekday = new Date(toMs(last)).getUTCDay();
  return weekday === 5 ? toIso(toMs(last) + 2 * DAY_MS) : last;
}

const MONTHS: Partial<Record<Step, number>> = { m: 1, q: 3, sa: 6, a: 12 };

/**
 * How many of the series' own periods a `target` period holds, where that is fixed (months in a quarter,
 * quarters in a year); undefined for daily and weekly series, whose count varies with the calendar.
 */
function periodsIn(own: Step, target: Step): number | undefined {
  const a = MONTHS[own];
  const b = MONTHS[target];
  return a !== undefined && b !== undefined ? b / a : undefined;
}

/**
 * Observations (ascending) aggregated to `target`: each period's average, sum or last observation, dated by
 * the period's first day, from the observations present in it. The newest period is left out while it is not
 * over at the series' last observation (a quarter with two of its three months). A period that misses
 * observations says so (`incomplete: true`): fewer of the series' own periods than it holds (monthly and
 * coarser series), or a point in it published without a value (`missing`, ascending by date).
 */
export function aggregate(
  obs: readonly Observation[],
  series: Frequency,
  target: TargetFrequency,
  method: AggregationMethod,
  missing: readonly { date: string }[] = [],
): Observation[] {
  const last = obs.at(-1);
  if (!last) return [];
  const expected = periodsIn(OF_SERIES[series], target);
  const gaps = new Set(missing.map((m) => toPeriodStart(m.date, target)));
  const out: Observation[] = [];
  let start = '';
  let sum = 0;
  let count = 0;
  let end = 0;
  const flush = () => {
    if (count === 0) return;
    const value = method === 'avg' ? sum / count : method === 'sum' ? sum : end;
    const point: Observation = { date: start, value: round(value) };
    if ((expected !== undefined && count < expected) || gaps.has(start)) point.incomplete = true;
    out.push(point);
  };
  for (const o of obs) {
    const s = toPeriodStart(o.date, target);
    if (s !== start) {
      flush();
      start = s;
      sum = 0;
      count = 0;
    }
    sum += o.value;
    count++;
    end = o.value;
  }
  if (toPeriodEnd(start, target) <= coveredUntil(last.date, OF_SERIES[series])) flush();
  return out;
}

/** The same period one year earlier: the same day of the year, or for weeks the same weekday 52 weeks back. */
function yearAgo(iso: string, step: Step): string {
  if (step === 'w') return toIso(toMs(iso) - 364 * DAY_MS);
  return `${String(Number(iso.slice(0, 4)) - 1).padStart(4, '0')}${iso.slice(4)}`;
}

/** The period just before the one starting on `start`. */
function previousPeriod(start: string, step: Step): string {
  if (step === 'w') return toIso(toMs(start) - 7 * DAY_MS);
  return toPeriodStart(toIso(toMs(start) - DAY_MS), step);
}

/**
 * The units transform of observations (ascending) of frequency `step`. x(t−1) is the previous period's
 * observation (for a daily series, the previous observation, as FRED's daily series skip weekends and
 * holidays); "a year ago" is the observation of the same period one year earlier. A point whose transform
 * cannot be computed (no such earlier observation, a division by zero, the log of a value not above zero) is
 * left out.
 */
export function transform(obs: readonly Observation[], units: Units, step: Step): Observation[] {
  if (units === 'lin') return [...obs];
  const n = PER_YEAR[step];
  const byDate = new Map(obs.map((o) => [o.date, o.value]));
  const out: Observation[] = [];
  for (let i = 0; i < obs.length; i++) {
    const { date, value: x } = obs[i]!;
    const earlier =
      units === 'ch1' || units === 'pc1'
        ? byDate.get(yearAgo(date, step))
        : units === 'log'
          ? undefined
          : step === 'daily'
            ? obs[i - 1]?.value
            : byDate.get(previousPeriod(date, step));
    const v = apply(units, x, earlier, n);
    if (v === undefined || !Number.isFinite(v)) continue;
    // A rate of an aggregated period that misses observations is as incomplete as the period.
    out.push(obs[i]!.incomplete ? { date, value: round(v), incomplete: true } : { date, value: round(v) });
  }
  return out;
}

function apply(units: Units, x: number, prev: number | undefined, n: number): number | undefined {
  if (units === 'log') return x > 0 ? Math.log(x) : undefined;
  if (prev === undefined) return undefined;
  switch (units) {
    case 'chg':
    case 'ch1':
      return x - prev;
    case 'pch':
    case 'pc1':
      return prev === 0 ? undefined : (x / prev - 1) * 100;
    case 'pca':
      return prev === 0 ? undefined : ((x / prev) ** n - 1) * 100;
    case 'cch':
      return x > 0 && prev > 0 ? (Math.log(x) - Math.log(prev)) * 100 : undefined;
    case 'cca':
      return x > 0 && prev > 0 ? (Math.log(x) - Math.log(prev)) * 100 * n : undefined;
    default:
      return x;
  }
}

/** The frequency step observations of a series are in after an optional aggregation. */
export function stepOf(series: Frequency, target: TargetFrequency | undefined): Step {
  return target ?? OF_SERIES[series];
}
