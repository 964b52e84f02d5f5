// When does an alert clear? Each BASIC's step-down (docs/api-carriers.md, "Step-down"): the coming dates on
// which an event's time weight falls (3 → 2 → 1 → out of the window), each with the measure the carrier would
// then have if nothing new happened, and its percentile against today's peer groups. The events are the
// carrier's own (carrier-events.ts), the rules the methodology's (measures.ts), and the peer groups the
// measures this build ranked (SegRanks): nothing is estimated.
import { BASICS, type Basic } from '../../contract/carriers/basics.ts';
import { type Methodology, toMonthsBefore } from '../../contract/carriers/methodology.ts';
import type { DataGap } from '../../contract/carriers/profile.ts';
import type { CarrierProfile } from '../../contract/types/carriers/profile.ts';
import { round } from '../../contract/core/values.ts';
import { applyUnit, type Basics, roundBasics, type Unit, VIOLATION_BASICS } from './carrier-events.ts';
import { type Measures, toSomeMeasures } from './measures.ts';
import { toTimeWeigher } from './methodology.ts';
import type { CarrierAggregate, CensusRow } from './types.ts';

/** One step of a category's step-down, as the profile lists it. */
export type Step = NonNullable<CarrierProfile['categories'][number]['step_down']>[number];

/** Today's ranked measures of each BASIC's peer groups, sorted: what a future measure is ranked against. */
export class SegRanks {
  private readonly groups = new Map<string, Float64Array>();

  constructor(
    items: Iterable<{ seg: string; measure: number }>,
    private readonly decimals: number,
    private readonly single: number,
  ) {
    const lists = new Map<string, number[]>();
    for (const { seg, measure } of items) {
      const list = lists.get(seg);
      if (list) list.push(measure);
      else lists.set(seg, [measure]);
    }
    for (const [seg, list] of lists) this.groups.set(seg, Float64Array.from(list).sort());
  }

  /**
   * The percentile rankPercentiles would give `measure` in group `seg`, among today's members other than the
   * carrier itself (`own`: its measure today, when it is ranked in that group).
   */
  percentile(seg: string, measure: number, own: number | undefined): number {
    const sorted = this.groups.get(seg) ?? new Float64Array(0);
    let lower = lowerBound(sorted, measure);
    let others = sorted.length;
    if (own !== undefined) {
      others--;
      if (own < measure) lower--;
    }
    return others > 0 ? round((100 * lower) / others, this.decimals) : this.single;
  }
}

function lowerBound(sorted: Float64Array, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const DAY = 86_400_000;
const addDays = (iso: string, days: number) =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

/** Time-weight functions by as-of date, made once a date (a build asks for a few hundred dates). */
export class Weighers {
  private readonly cache = new Map<string, (date: string) => number>();
  constructor(private readonly m: Methodology) {}
  at(asOf: string): (date: string) => number {
    const known = this.cache.get(asOf);
    if (known) return known;
    const w = toTimeWeigher(asOf, this.m);
    this.cache.set(asOf, w);
    return w;
  }
}

/**
 * The first date after which an event of `date` is more than `months` old: the first day d with
 * date < toMonthsBefore(d, months) (time_weights.age_rule). Month ends make it a few days either side of
 * the same day `months` later, so it is searched from just before. A build asks for a few thousand distinct
 * (date, months) pairs millions of times, so each answer is kept.
 */
export function leavesBandOn(date: string, months: number): string {
  const key = `${months}|${date}`;
  const known = leaving.get(key);
  if (known !== undefined) return known;
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  const total = y * 12 + (mo - 1) + months;
  let day = `${String(Math.floor(total / 12)).padStart(4, '0')}-${String((total % 12) + 1).padStart(2, '0')}-01`;
  day = addDays(day, d - 5);
  while (toMonthsBefore(day, months) <= date) day = addDays(day, 1);
  leaving.set(key, day);
  return day;
}
const leaving = new Map<string, string>();

/** A copy of a carrier's sums (structuredClone's generality costs more than the step-down's arithmetic). */
function cloneBasics(basics: Basics): Basics {
  const out = {} as Basics;
  for (const b of BASICS) out[b] = { ...basics[b] };
  return out;
}

export interface StepDownInput {
  census: CensusRow;
  /** Today's aggregate: what the step-down does not change (inspection counts, type) comes from it. */
  agg: CarrierAggregate;
  units: readonly Unit[];
  measures: Measures;
  asOf: string;
  methodology: Methodology;
  gaps: readonly DataGap[];
  ranks: Readonly<Record<Basic, SegRanks>>;
  /** Percentiles shown per BASIC (public, or SHOW_RESTRICTED_PERCENTILES). */
  shown: (b: Basic) => boolean;
  threshold: (b: Basic) => number;
  weighers: Weighers;
}

/** Each BASIC's steps; null for a BASIC without a measure today. */
export function toStepDown(input: StepDownInput): Record<Basic, Step[] | null> {
  const { units, asOf, methodology: m, measures, weighers } = input;
  const today = weighers.at(asOf);
  const bands = m.time_weights.bands.map((b) => b.max_age_months);
  // Every future date on which a unit's weight falls, with the units it falls for.
  const changes = new Map<string, number[]>();
  const weights = units.map((u) => today(u.date));
  const starts = bands.map((months) => toMonthsBefore(asOf, months));
  units.forEach((u, k) => {
    if (weights[k] === 0) return;
    for (const [i, months] of bands.entries()) {
      if (u.date < starts[i]!) continue;
      const on = leavesBandOn(u.date, months);
      const list = changes.get(on);
      if (list) list.push(k);
      else changes.set(on, [k]);
    }
  });
  const out = {} as Record<Basic, Step[] | null>;
  for (const b of BASICS) out[b] = measures[b].measure === null ? null : [];
  if (changes.size === 0) return out;
  const last = {} as Record<Basic, Step | undefined>;
  for (const b of BASICS) last[b] = out[b] === null ? undefined : toStep(input, b, asOf, measures);
  const basics: Basics = cloneBasics(input.agg.basics);
  for (const on of [...changes.keys()].sort()) {
    const weigh = weighers.at(on);
    const touched = new Set<Basic>();
    for (const k of changes.get(on)!) {
      const u = units[k]!;
      const w = weigh(u.date);
      if (w === weights[k]) continue;
      applyUnit(basics, u, weights[k]!, -1);
      applyUnit(basics, u, w, 1);
      weights[k] = w;
      for (const b of touchedBy(u)) touched.add(b);
    }
    if (touched.size === 0) continue;
    const then = toSomeMeasures(
      input.census,
      { ...input.agg, basics: roundBasics(cloneBasics(basics)) },
      m,
      input.gaps,
      touched,
    );
    for (const b of touched) {
      const steps = out[b];
      if (steps === null) continue;
      const step = toStep(input, b, on, then);
      const prev = last[b]!;
      last[b] = step;
      if (
        step.measure === prev.measure &&
        step.percentile === prev.percentile &&
        step.sufficient_data === prev.sufficient_data
      )
        continue;
      // A carrier with hundreds of inspections has a weight falling almost every day: a step a month, unless
      // the alert, the ranking or the measure's reaching 0 makes the day one to know.
      const listed = steps[steps.length - 1];
      const turns =
        step.alert !== prev.alert ||
        step.sufficient_data !== prev.sufficient_data ||
        (step.percentile === null) !== (prev.percentile === null) ||
        (step.measure === 0 && prev.measure !== 0);
      if (turns || !listed || listed.date.slice(0, 7) !== on.slice(0, 7)) steps.push(step);
    }
  }
  return out;
}

function touchedBy(u: Unit): Basic[] {
  if (u.kind === 'crash') return ['crash_indicator'];
  if (u.kind === 'violations') return [BASICS[u.basic]!];
  return VIOLATION_BASICS.filter((_, i) => u.mask & (1 << i));
}

function toStep(input: StepDownInput, b: Basic, date: string, then: Partial<Measures>): Step {
  const x = then[b]!;
  const now = input.measures[b];
  let percentile: number | null = null;
  if (x.sufficient && x.seg && x.measure !== null && input.shown(b)) {
    const own = now.sufficient && now.seg && now.measure !== null && now.seg.id === x.seg.id ? now.measure : undefined;
    percentile = input.ranks[b].percentile(x.seg.id, x.measure, own);
  }
  return {
    date,
    measure: x.measure,
    percentile,
    alert: percentile !== null && percentile >= input.threshold(b),
    sufficient_data: x.sufficient,
  };
}
