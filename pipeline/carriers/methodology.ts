// The SMS methodology as data: `data/carriers/sms-methodology.json`, validated against `carriers/methodology`
// once per process, plus the small rules that read it. Every number the ranking uses lives in that reviewed
// file, which cites the methodology section or reference note behind it (shared/reference/sms-methodology.md).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { schemas } from '../core/schemas.ts';
import { BASICS, type Basic, type CarrierAggregate, type CensusRow } from './types.ts';
import { formatCount } from '../core/values.ts';

export const METHODOLOGY_PATH = fileURLToPath(new URL('../../data/carriers/sms-methodology.json', import.meta.url));

export type Segment = 'combination' | 'straight';
export type CarrierType = 'general' | 'passenger' | 'hazmat';
export type MeasureKind = 'per_power_unit' | 'per_relevant_inspection';
/** Which count of `CarrierAggregate.basics[b]` a rule reads. */
export type CountField = 'relevant' | 'with_violations';

interface Cited {
  source: string;
  /** An open item, `[verify] …`: not confirmed from the primary methodology document. */
  review?: string;
}
export interface Noun {
  one: string;
  other: string;
}
/** A safety event group: inclusive bounds, `max` null for the open-ended last group. */
export interface SegGroup {
  min: number;
  max: number | null;
}
export interface UfRow {
  max_vmt_per_pu: number | null;
  base: number;
  offset: number;
  divisor: number | null;
}
export interface BasicRules extends Cited {
  label: string;
  regulations: string;
  public_percentile: boolean;
  measure: MeasureKind;
  units: { relevant: Noun; with_violations?: Noun; events: Noun };
  seg: Cited & { basis: CountField; groups: { combination: SegGroup[]; straight: SegGroup[] } | { all: SegGroup[] } };
  sufficiency: Cited & { min_relevant: number | null; min_with_violations: number | null };
  relevant_inspections?: string;
}
export type ThresholdRow = Record<Basic, number>;

/** The shape of `data/carriers/sms-methodology.json` (schema `carriers/methodology`). */
export interface Methodology {
  version: string;
  title: string;
  note: string;
  document: Cited & { title: string; edition: string; url: string };
  time_weights: Cited & {
    window_months: number;
    bands: { max_age_months: number; weight: number }[];
    age_rule: string;
  };
  severity: Cited & { inspection_cap: number; oos_add_on: number; rule: string };
  crash_severity: Cited & {
    tow_away: number;
    injury_or_fatality: number;
    hazmat_release_add_on: number;
    exclude_not_preventable: boolean;
  };
  power_units: Cited & { rule: string };
  segments: Cited & { applies_to: Basic[]; combination_share_min: number; default: Segment; default_reason: string };
  utilization_factor: Cited & { vmt: string; formula: string; no_vmt_factor: number; rows: Record<Segment, UfRow[]> };
  basics: Record<Basic, BasicRules>;
  measures: Record<MeasureKind, Cited & { formula: string }>;
  sufficiency: {
    no_violations: Cited & { rule: string };
    critical_mass: Cited & { months: number; applied: boolean; rule: string };
  };
  percentiles: Cited & { formula: string; decimals: number; single_carrier: number };
  thresholds: Cited & Record<CarrierType, ThresholdRow>;
  carrier_types: Cited & {
    order: CarrierType[];
    order_reason: string;
    passenger: Cited & { census_flag: 'pc_flag'; rule: string };
    hazmat: Cited & {
      census_flag: 'hm_flag';
      min_placard_inspections_24m: number;
      min_placard_inspections_12m: number;
      min_share_of_inspections: number;
      rule: string;
    };
  };
  outlier_fleets: Cited & {
    rules: { id: string; power_units_over: number; drivers_below_share: number | null; reason: string }[];
    effect: string;
  };
  public_display: Cited & { restricted_note: string; rule: string };
}

/** A carrier's safety event group for one BASIC: `unsafe_driving:combination:2`, `hos_compliance:3`. */
export interface Seg {
  id: string;
  /** "Carriers with 9–21 inspections with unsafe-driving violations (combination segment)". */
  label: string;
  /** What the group is based on and where the boundaries come from. */
  basis: string;
}

/** Invariants the schema cannot express; each names the offending entry. */
export function assertMethodology(m: Methodology, where: string): void {
  const fail = (msg: string): never => {
    throw new Error(`${where}: ${msg}`);
  };
  const bands = m.time_weights.bands;
  bands.forEach((b, i) => {
    if (i > 0 && b.max_age_months <= bands[i - 1]!.max_age_months) fail(`/time_weights/bands/${i} is not ascending`);
  });
  if (bands.at(-1)?.max_age_months !== m.time_weights.window_months)
    fail('/time_weights: the last band must end at window_months');
  for (const seg of ['combination', 'straight'] as const) {
    const rows = m.utilization_factor.rows[seg];
    rows.forEach((r, i) => {
      const last = i === rows.length - 1;
      if (last !== (r.max_vmt_per_pu === null))
        fail(`/utilization_factor/rows/${seg}/${i}: only the last row has no upper bound`);
      const prev = rows[i - 1]?.max_vmt_per_pu;
      if (i > 0 && r.max_vmt_per_pu !== null && prev !== null && prev !== undefined && r.max_vmt_per_pu <= prev)
        fail(`/utilization_factor/rows/${seg}/${i} is not ascending`);
    });
  }
  for (const basic of BASICS) {
    const rules = m.basics[basic];
    const at = `/basics/${basic}`;
    const segmented = m.segments.applies_to.includes(basic);
    if (segmented !== 'combination' in rules.seg.groups)
      fail(
        `${at}/seg/groups: segmented BASICs (segments.applies_to) have combination and straight groups, the others one 'all' list`,
      );
    for (const field of ['relevant', 'with_violations'] as const) {
      const used = rules.seg.basis === field || rules.sufficiency[`min_${field}`] !== null;
      if (used && !rules.units[field]) fail(`${at}/units/${field} is needed by the seg basis or a sufficiency minimum`);
    }
    for (const [name, groups] of Object.entries(rules.seg.groups) as [string, SegGroup[]][]) {
      groups.forEach((g, i) => {
        const last = i === groups.length - 1;
        if (last !== (g.max === null)) fail(`${at}/seg/groups/${name}/${i}: only the last group is open-ended`);
        if (g.max !== null && g.max < g.min) fail(`${at}/seg/groups/${name}/${i}: max below min`);
        const prev = groups[i - 1];
        if (prev && prev.max !== null && g.min !== prev.max + 1)
          fail(`${at}/seg/groups/${name}/${i}: groups must be contiguous`);
      });
      // A carrier that meets the minimum on the SEG basis must fall into a group.
      const min = rules.sufficiency[`min_${rules.seg.basis}`];
      if (min === null || groups[0]!.min > min)
        fail(
          `${at}/seg/groups/${name}: the first group must start at or below the sufficiency minimum on ${rules.seg.basis}`,
        );
    }
  }
}

/** Reads, schema-checks and checks the invariants of a methodology file. */
export function loadMethodology(path = METHODOLOGY_PATH): Methodology {
  const doc: unknown = JSON.parse(readFileSync(path, 'utf8'));
  schemas().assert('carriers/methodology', doc, path);
  const m = doc as Methodology;
  assertMethodology(m, path);
  return m;
}

let loaded: Methodology | undefined;
/** The project's methodology file, loaded and validated once per process. */
export function methodology(): Methodology {
  loaded ??= loadMethodology();
  return loaded;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `date` moved back `months` calendar months, the day clamped to the target month's end (08-31 − 6 → 02-28). */
export function toMonthsBefore(date: string, months: number): string {
  const match = ISO_DATE.exec(date);
  if (!match) throw new Error(`not an ISO date: ${date}`);
  const total = Number(match[1]) * 12 + Number(match[2]) - 1 - months;
  const y = Math.floor(total / 12);
  const mo = total - y * 12 + 1;
  const lastDay = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return `${pad(y, 4)}-${pad(mo)}-${pad(Math.min(Number(match[3]), lastDay))}`;
}

/**
 * A time-weight function for one snapshot date, the band limits computed once (the aggregation calls it for
 * every inspection). An event is at most N months old when it falls on or after the date N calendar months
 * before `asOf`; events older than the window or dated after `asOf` weigh 0 (time_weights.age_rule).
 */
export function toTimeWeigher(asOf: string, m: Methodology = methodology()): (eventDate: string) => number {
  const limits = m.time_weights.bands.map((b) => ({ from: toMonthsBefore(asOf, b.max_age_months), weight: b.weight }));
  return (eventDate) => {
    if (!ISO_DATE.test(eventDate)) throw new Error(`not an ISO date: ${eventDate}`);
    if (eventDate > asOf) return 0;
    for (const l of limits) if (eventDate >= l.from) return l.weight;
    return 0;
  };
}

/** Time weight 3/2/1 of an event ≤ 6, ≤ 12, ≤ 24 months before `asOf`, else 0 (SMS time weighting, §B.3). */
export function timeWeight(eventDate: string, asOf: string, m: Methodology = methodology()): number {
  return toTimeWeigher(asOf, m)(eventDate);
}

/**
 * Combination when combination units are at least 70 % of power units, else straight (§B.4). The census
 * has no combination/straight split, so without a known share every carrier gets `segments.default`.
 */
export function segmentOf(
  _census: CensusRow,
  combinationShare: number | null = null,
  m: Methodology = methodology(),
): Segment {
  if (combinationShare === null || !Number.isFinite(combinationShare)) return m.segments.default;
  return combinationShare >= m.segments.combination_share_min ? 'combination' : 'straight';
}

/** Utilization factor for a segment and VMT per average power unit; null VMT is "no recent VMT" (Tables 3-7/3-8). */
export function utilizationFactor(
  segment: Segment,
  vmtPerPowerUnit: number | null,
  m: Methodology = methodology(),
): number {
  const uf = m.utilization_factor;
  if (vmtPerPowerUnit === null || !Number.isFinite(vmtPerPowerUnit) || vmtPerPowerUnit < 0) return uf.no_vmt_factor;
  const row = uf.rows[segment].find((r) => r.max_vmt_per_pu === null || vmtPerPowerUnit <= r.max_vmt_per_pu)!;
  return row.divisor === null ? row.base : row.base + (vmtPerPowerUnit - row.offset) / row.divisor;
}

/**
 * Crashes (Crash Indicator) or violations (other BASICs) in the window. The aggregation stores the crash
 * count of the Crash Indicator in `basics.crash_indicator.relevant` (types.ts).
 */
export function eventCount(basic: Basic, agg: CarrierAggregate): number {
  const a = agg.basics[basic];
  return basic === 'crash_indicator' ? a.relevant : a.violations;
}

/** The count that places a carrier in a safety event group for `basic`. */
export function basisCount(basic: Basic, agg: CarrierAggregate, m: Methodology = methodology()): number {
  return agg.basics[basic][m.basics[basic].seg.basis];
}

export const toCount = (n: number, noun: Noun) => `${formatCount(n)} ${n === 1 ? noun.one : noun.other}`;

function toRange(g: SegGroup, noun: Noun): string {
  const text =
    g.max === null
      ? `${formatCount(g.min)} or more`
      : g.max === g.min
        ? formatCount(g.min)
        : `${formatCount(g.min)}–${formatCount(g.max)}`;
  return `${text} ${g.min === 1 && g.max === 1 ? noun.one : noun.other}`;
}

/** The safety event group of a carrier with `count` on the BASIC's SEG basis, or null below the first group. */
export function segOf(
  basic: Basic,
  count: number,
  segment: Segment = 'combination',
  m: Methodology = methodology(),
): Seg | null {
  const rules = m.basics[basic];
  const segmented = 'combination' in rules.seg.groups;
  const groups = 'combination' in rules.seg.groups ? rules.seg.groups[segment] : rules.seg.groups.all;
  const i = groups.findIndex((g) => count >= g.min && (g.max === null || count <= g.max));
  if (i < 0) return null;
  // Labels depend only on the group: made once per methodology (a 2-million-carrier build asks millions of times).
  let cache = segCache.get(m);
  if (!cache) {
    cache = new Map();
    segCache.set(m, cache);
  }
  const key = `${basic}|${segment}|${i}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const range = toRange(groups[i]!, rules.units[rules.seg.basis]!);
  const where = segmented ? ` (${segment} segment)` : '';
  const seg: Seg = {
    id: segmented ? `${basic}:${segment}:${i + 1}` : `${basic}:${i + 1}`,
    label: `Carriers with ${range}${where}`,
    basis: `${rules.label} safety event group ${i + 1} of ${groups.length}${where}: carriers with ${range} in ${m.time_weights.window_months} months. Source: ${rules.seg.source}.`,
  };
  cache.set(key, seg);
  return seg;
}

const segCache = new WeakMap<Methodology, Map<string, Seg>>();

/**
 * Why a carrier is not ranked in `basic` by the data sufficiency rules (§B.5): a minimum of relevant
 * inspections (crashes) or of inspections with violations, then no violation (crash) in the window at all.
 * Undefined when sufficient. Power-unit problems of the normalized BASICs are measures.ts's concern.
 */
export function maybeInsufficient(
  basic: Basic,
  agg: CarrierAggregate,
  m: Methodology = methodology(),
): string | undefined {
  const rules = m.basics[basic];
  const months = m.time_weights.window_months;
  for (const field of ['relevant', 'with_violations'] as const) {
    const min = rules.sufficiency[`min_${field}`];
    const have = agg.basics[basic][field];
    if (min === null || have >= min) continue;
    const unit = rules.units[field]!;
    return min === 1
      ? `no ${unit.one} in ${months} months`
      : `${toCount(have, unit)} in ${months} months, fewer than the ${min} required`;
  }
  if (eventCount(basic, agg) === 0) return `no ${rules.units.events.other} in ${months} months`;
  return undefined;
}

export function isSufficient(basic: Basic, agg: CarrierAggregate, m: Methodology = methodology()): boolean {
  return maybeInsufficient(basic, agg, m) === undefined;
}

export function thresholdFor(basic: Basic, type: CarrierType, m: Methodology = methodology()): number {
  return m.thresholds[type][basic];
}

/**
 * Passenger when the census PC_FLAG is set (FMCSA's own passenger-threshold flag; the census has no vehicle
 * capacities), else hazmat when HM_FLAG is set or the inspections meet the HM carrier rule, else general
 * (§B.7; carrier_types.order). `inspections.hazmat` is read as the HM-placardable inspections in 24 months.
 */
export function carrierType(census: CensusRow, agg: CarrierAggregate, m: Methodology = methodology()): CarrierType {
  if (census.pc_flag === true) return 'passenger';
  const h = m.carrier_types.hazmat;
  const placard = agg.inspections.hazmat;
  const total = agg.inspections.total;
  const byInspections =
    placard >= h.min_placard_inspections_24m &&
    agg.hazmat_placard_12m >= h.min_placard_inspections_12m &&
    total > 0 &&
    placard / total >= h.min_share_of_inspections;
  return census.hm_flag === true || byInspections ? 'hazmat' : 'general';
}

/** Why a census fleet size cannot be used to normalize (outlier_fleets), or undefined when it can. */
export function maybeOutlierFleet(census: CensusRow, m: Methodology = methodology()): string | undefined {
  const pu = census.power_units;
  if (pu === null) return undefined;
  const drivers = census.drivers ?? 0;
  const rule = m.outlier_fleets.rules.find(
    (r) => pu > r.power_units_over && (r.drivers_below_share === null || drivers < r.drivers_below_share * pu),
  );
  if (!rule) return undefined;
  return `${formatCount(pu)} power units with ${census.drivers === null ? 'no driver count' : toCount(census.drivers, { one: 'driver', other: 'drivers' })}: ${rule.reason}`;
}

export function isOutlierFleet(census: CensusRow, m: Methodology = methodology()): boolean {
  return maybeOutlierFleet(census, m) !== undefined;
}
