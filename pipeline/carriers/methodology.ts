import type { CarrierAggregate, CensusRow } from './types.ts';
import type { Basic } from '../../contract/carriers/basics.ts';
import { formatCount } from '../../contract/core/values.ts';
import {
  type CarrierType,
  ISO_DATE,
  type Methodology,
  methodology,
  type Noun,
  type Seg,
  type SegGroup,
  type Segment,
  toMonthsBefore,
} from '../../contract/carriers/methodology.ts';

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

/**
 * The fleet size search ranks a carrier by: its power units, but for an outlier fleet its drivers, since each
 * power unit needs one (docs/contracts/carriers.md: an outlier is never first by its outlying count).
 */
export function toRankingSize(census: CensusRow, m: Methodology = methodology()): number | null {
  return isOutlierFleet(census, m) ? (census.drivers ?? 0) : census.power_units;
}
