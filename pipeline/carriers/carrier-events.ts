// One carrier's events of the window (event-spill.ts) as the methodology counts them: the same sums the
// streaming aggregation makes for every carrier (aggregate.ts), here for one carrier at any date, so the
// step-down can ask what the sums will be when time weights fall; and the inspection list the
// `/api/carrier/{id}/inspections` route pages through.
import { BASICS, type Basic, type ViolationBasic } from '../../contract/carriers/basics.ts';
import type { CarrierAggregate, CrashRow, InspectionRow, ViolationRow } from './types.ts';

export const VIOLATION_BASICS: readonly ViolationBasic[] = BASICS.filter(
  (b): b is ViolationBasic => b !== 'crash_indicator',
);
const CRASH = BASICS.indexOf('crash_indicator');

export interface ViolationEvent {
  date: string;
  code: string;
  description: string | null;
  basic: ViolationBasic;
  severity_weight: number;
  oos: boolean;
  oos_weight: number;
}

export interface InspectionEvent {
  /** Unique_ID. */
  id: string;
  date: string;
  state: string | null;
  level: number | null;
  /** Null for an inspection known only from its violations (`listed` false). */
  driver_oos: number | null;
  vehicle_oos: number | null;
  hazmat_oos: number | null;
  hazmat_placard: boolean | null;
  /** The BASICs it is relevant to, a bit per VIOLATION_BASICS index. */
  relevant: number;
  /** False: no inspection row, only violations citing its Unique_ID. */
  listed: boolean;
  violations: ViolationEvent[];
}

/** A crash of the carrier's: the row without the carrier number. */
export type CrashEvent = Omit<CrashRow, 'dot'>;

/** Where the aggregation hands each event of the window it counts, by carrier position (event-spill.ts). */
export interface EventSink {
  inspection(c: number, row: InspectionRow): void;
  violation(c: number, row: ViolationRow): void;
  crash(c: number, row: CrashRow): void;
}

export interface CarrierEvents {
  inspections: InspectionEvent[];
  crashes: CrashEvent[];
}

/**
 * What one event adds to the sums at a time weight: an inspection's relevance (relevant inspections and their
 * time weights per BASIC), an inspection's violations in one BASIC (cites and their capped severity), or a
 * crash counted in the Crash Indicator.
 */
export type Unit =
  | { kind: 'relevance'; date: string; mask: number }
  | { kind: 'violations'; date: string; basic: number; count: number; severity: number }
  | { kind: 'crash'; date: string; severity: number };

export type Basics = CarrierAggregate['basics'];

export interface UnitRules {
  severityCap: number;
  crashSeverity(c: CrashEvent): number;
}

/** The cites an inspection counts in one BASIC: a code cited twice counts once, at the higher severity. */
export function countedViolations(violations: readonly ViolationEvent[]): (ViolationEvent & { severity: number })[] {
  const out: (ViolationEvent & { severity: number })[] = [];
  for (const v of violations) {
    const severity = v.severity_weight + (v.oos ? v.oos_weight : 0);
    const same = v.code === '' ? -1 : out.findIndex((o) => o.basic === v.basic && o.code === v.code);
    if (same < 0) out.push({ ...v, severity });
    else if (severity > out[same]!.severity) out[same] = { ...v, date: out[same]!.date, severity };
  }
  return out;
}

/** The carrier's events as units, in the aggregation's terms (aggregate.ts: addInspection, finish, addCrash). */
export function toUnits(events: CarrierEvents, rules: UnitRules): Unit[] {
  const units: Unit[] = [];
  for (const i of events.inspections) {
    if (i.listed && i.relevant !== 0) units.push({ kind: 'relevance', date: i.date, mask: i.relevant });
    const byBasic = new Map<ViolationBasic, { date: string; count: number; severity: number }>();
    for (const v of countedViolations(i.violations)) {
      const g = byBasic.get(v.basic);
      // A group is dated by its first cite, as the aggregation dates it.
      if (g) {
        g.count++;
        g.severity += v.severity;
      } else byBasic.set(v.basic, { date: v.date, count: 1, severity: v.severity });
    }
    for (const [basic, g] of byBasic)
      units.push({
        kind: 'violations',
        date: g.date,
        basic: BASICS.indexOf(basic),
        count: g.count,
        severity: Math.min(g.severity, rules.severityCap),
      });
  }
  for (const c of events.crashes)
    if (!c.not_preventable) units.push({ kind: 'crash', date: c.date, severity: rules.crashSeverity(c) });
  return units;
}

export function emptyBasics(): Basics {
  const out = {} as Basics;
  for (const b of BASICS)
    out[b] = { relevant: 0, relevant_tw: 0, with_violations: 0, violations: 0, weighted: 0, last_violation: null };
  return out;
}

/** Adds (sign 1) or removes (sign −1) a unit's share at time weight `tw` (0 adds nothing). */
export function applyUnit(basics: Basics, u: Unit, tw: number, sign: 1 | -1): void {
  if (tw === 0) return;
  if (u.kind === 'relevance') {
    VIOLATION_BASICS.forEach((b, i) => {
      if (u.mask & (1 << i)) {
        basics[b].relevant += sign;
        basics[b].relevant_tw += sign * tw;
      }
    });
  } else if (u.kind === 'violations') {
    const a = basics[BASICS[u.basic] as Basic];
    a.violations += sign * u.count;
    a.with_violations += sign;
    a.weighted += sign * tw * u.severity;
  } else {
    const a = basics[BASICS[CRASH] as Basic];
    a.relevant += sign;
    a.violations += sign;
    a.with_violations += sign;
    a.relevant_tw += sign * tw;
    a.weighted += sign * tw * u.severity;
  }
}

/** The sums at one date's time weights, rounded as the aggregation rounds them. */
export function basicsAt(units: readonly Unit[], weigh: (date: string) => number): Basics {
  const basics = emptyBasics();
  for (const u of units) applyUnit(basics, u, weigh(u.date), 1);
  return roundBasics(basics);
}

export function roundBasics(basics: Basics): Basics {
  for (const b of BASICS) {
    basics[b].weighted = Math.round(basics[b].weighted * 1e6) / 1e6;
    basics[b].relevant_tw = Math.round(basics[b].relevant_tw * 1e6) / 1e6;
  }
  return basics;
}

/** The first BASIC whose sums differ (the aggregation's and toUnits' must agree: the build checks), or undefined. */
export function differingBasic(a: Basics, b: Basics): Basic | undefined {
  return BASICS.find(
    (k) =>
      a[k].relevant !== b[k].relevant ||
      Math.abs(a[k].relevant_tw - b[k].relevant_tw) > 1e-6 ||
      a[k].with_violations !== b[k].with_violations ||
      a[k].violations !== b[k].violations ||
      Math.abs(a[k].weighted - b[k].weighted) > 1e-6,
  );
}
