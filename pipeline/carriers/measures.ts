// BASIC measures of one carrier from its census row and 24-month aggregate (reference §B.2):
//   Unsafe Driving, Crash Indicator: Σ(time weight × severity) / (average power units × utilization factor)
//   the other BASICs:                 Σ(time weight × capped severity) / Σ(time weight of relevant inspections)
// The numerators come from the aggregation (`agg.basics[b].weighted`, already capped per inspection), the
// rules and tables from the methodology file.
import { formatList, round } from '../../contract/core/values.ts';
import {
  basisCount,
  eventCount,
  maybeInsufficient,
  maybeOutlierFleet,
  segmentOf,
  segOf,
  utilizationFactor,
} from './methodology.ts';
import { methodology, type Methodology, type Seg } from '../../contract/carriers/methodology.ts';
import type { CarrierAggregate, CensusRow } from './types.ts';
import { BASICS, type Basic } from '../../contract/carriers/basics.ts';
import { DATA_GAP_LABELS, type DataGap, type SmsGap, inputsOf } from '../../contract/carriers/profile.ts';

export interface Measure {
  /**
   * 0 with no violation (crash) in the window; null when it cannot be computed (unknown power units, or an
   * input it rests on missing from the build).
   */
  measure: number | null;
  /** Violations in the window; crashes for the Crash Indicator; null when the build had no such input. */
  violations: number | null;
  /** Relevant inspections in the window; crashes for the Crash Indicator. */
  relevant: number;
  /** Ranked: the sufficiency rules hold and the measure is known. */
  sufficient: boolean;
  seg: Seg | null;
  /** Why the BASIC is not ranked; absent when sufficient. */
  reason?: string;
}
export type Measures = Record<Basic, Measure>;

export interface Mileage {
  miles: number;
  year: number;
}

/**
 * Latest known vehicle miles travelled: the recent pair when its year is set, else the MCS-150 pair, else
 * null. The census writes `0,0` (or empty) for unknown, so a year of 0 or null means unknown.
 */
export function toMileage(census: CensusRow): Mileage | null {
  const pairs: [number | null, number | null][] = [
    [census.recent_mileage, census.recent_mileage_year],
    [census.mcs150_mileage, census.mcs150_mileage_year],
  ];
  for (const [miles, year] of pairs)
    if (year !== null && year > 0 && miles !== null && miles >= 0) return { miles, year };
  return null;
}

/**
 * Power units to normalize by, or why there are none. The census only has the current count, so the
 * methodology's average of current, 6- and 18-month-old counts is the current count (power_units.rule);
 * an outlier fleet counts as unknown so that it cannot distort a peer group (outlier_fleets).
 */
export function toNormalizingPowerUnits(
  census: CensusRow,
  m: Methodology = methodology(),
): { powerUnits: number } | { powerUnits: null; reason: string } {
  const outlier = maybeOutlierFleet(census, m);
  if (outlier) return { powerUnits: null, reason: `fleet size not used: ${outlier}` };
  if (census.power_units === null || census.power_units <= 0)
    return { powerUnits: null, reason: 'power units unknown' };
  return { powerUnits: census.power_units };
}

/** "inspection or violation": the missing inputs as the reasons name them. */
export function toGapList(missing: readonly SmsGap[]): string {
  return formatList(
    missing.map((g) => DATA_GAP_LABELS[g]),
    'or',
  );
}

/** "no SMS inspection or violation data in this build": why a BASIC resting on `missing` is not ranked. */
export function toGapReason(missing: readonly SmsGap[]): string {
  return `no SMS ${toGapList(missing)} data in this build`;
}

/**
 * The carrier's measures. `gaps`: the SMS inputs the build did not have; a BASIC resting on one has no
 * measure (null, not 0: nothing was counted), no group and no rank, and its violations (crashes) are null
 * when the missing input is the one they are counted from.
 */
export function toMeasures(
  census: CensusRow,
  agg: CarrierAggregate,
  m: Methodology = methodology(),
  gaps: readonly DataGap[] = [],
): Measures {
  return toSomeMeasures(census, agg, m, gaps, BASICS) as Measures;
}

/** The measures of `basics` alone (the step-down's: the BASICs a falling weight touched). */
export function toSomeMeasures(
  census: CensusRow,
  agg: CarrierAggregate,
  m: Methodology,
  gaps: readonly DataGap[],
  basics: Iterable<Basic>,
): Partial<Measures> {
  const segment = segmentOf(census, null, m);
  const pu = toNormalizingPowerUnits(census, m);
  const mileage = toMileage(census);
  const out: Partial<Measures> = {};
  for (const basic of basics) {
    const a = agg.basics[basic];
    const rules = m.basics[basic];
    const missing = gaps.length === 0 ? [] : inputsOf(basic, m).filter((g) => gaps.includes(g));
    if (missing.length > 0) {
      const counted = basic === 'crash_indicator' ? 'crashes' : 'violations';
      out[basic] = {
        measure: null,
        violations: missing.includes(counted) ? null : eventCount(basic, agg),
        relevant: a.relevant,
        sufficient: false,
        seg: null,
        reason: toGapReason(missing),
      };
      continue;
    }
    const seg = segOf(basic, basisCount(basic, agg, m), segment, m);
    const violations = eventCount(basic, agg);
    let reason = maybeInsufficient(basic, agg, m);
    let measure: number | null;
    if (violations === 0) measure = 0;
    else if (rules.measure === 'per_power_unit') {
      if (pu.powerUnits === null) {
        measure = null;
        reason ??= pu.reason;
      } else {
        const uf = utilizationFactor(segment, mileage ? mileage.miles / pu.powerUnits : null, m);
        measure = round(a.weighted / (pu.powerUnits * uf));
      }
    } else if (a.relevant_tw > 0) measure = round(a.weighted / a.relevant_tw);
    else {
      measure = null;
      reason ??= `${rules.units.events.other} without time-weighted ${rules.units.relevant.other}`;
    }
    const sufficient = reason === undefined && seg !== null;
    if (!sufficient) reason ??= 'outside every safety event group';
    out[basic] = {
      measure,
      violations,
      relevant: a.relevant,
      sufficient,
      seg,
      ...(reason === undefined ? {} : { reason }),
    };
  }
  return out;
}
