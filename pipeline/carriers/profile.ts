// `GET /api/carrier/{id}`: one carrier's profile (docs/contracts/carriers.md, schema `carriers/profile`)
// from its census row, 24-month aggregate, measures and percentiles.
import { round, formatCount } from '../../contract/core/values.ts';
import { toGapList, toMileage, type Measures } from './measures.ts';
import { carrierType, maybeOutlierFleet, thresholdFor, toCount } from './methodology.ts';
import type { Methodology } from '../../contract/carriers/methodology.ts';
import { BASICS, type Basic } from '../../contract/carriers/basics.ts';
import {
  type Category,
  DATA_GAPS,
  type DataGap,
  REGISTRY_GAPS,
  type RegistryGap,
  INSUFFICIENT_SEG,
  inputsOf,
  type Profile,
  type TopRisk,
} from '../../contract/carriers/profile.ts';
import type { CarrierAggregate, CensusRow } from './types.ts';
import type { Step } from './step-down.ts';
import { type Registration, toRegistrationFields } from './registration.ts';
import { toRegistryFields } from './registry.ts';

type RegistryFields = ReturnType<typeof toRegistryFields>;
import { FMCSA_SMS_DISCLAIMER } from '../../contract/core/licences.ts';

export interface ProfileInput {
  census: CensusRow;
  agg: CarrierAggregate;
  measures: Measures;
  /** This carrier's percentile per ranked BASIC (rankPercentiles); exactly the sufficient BASICs. */
  percentiles: Readonly<Partial<Record<Basic, number | null>>>;
  /** Carriers per SEG id (countBySeg), plus `insufficient`: carriers whose toPeerSegId is INSUFFICIENT_SEG. */
  segSizes: ReadonlyMap<string, number>;
  dataAsOf: string;
  methodology: Methodology;
  /** The out-of-service rates over every carrier's inspections in the window (toNational). */
  national: Profile['national'];
  /** SHOW_RESTRICTED_PERCENTILES: show Crash Indicator and HM percentiles, which FMCSA does not publish. */
  showRestricted: boolean;
  /**
   * The SMS inputs the build did not have (toDataGaps), in DATA_GAPS order; `measures` were made with them.
   * What rests on one is null in the profile, never 0.
   */
  gaps: readonly DataGap[];
  /** The census's registration fields kept aside (registration.ts); undefined when none were. */
  registration?: Registration;
  /** The registry fields (registry.ts toRegistryFields); default: a build without registry inputs. */
  registry?: RegistryFields;
  /** The registry inputs the build did not have; default all of them. */
  registryGaps?: readonly RegistryGap[];
  /** Each BASIC's step-down (step-down.ts); null where it has no measure. */
  stepDown: Readonly<Record<Basic, Step[] | null>>;
}

const ratio = (num: number, den: number | null): number | null =>
  den === null || den <= 0 ? null : round(num / den, 3);

/** 71.4 → "71.4th", 1 → "1st", 12 → "12th", 22 → "22nd". */
export function toOrdinal(n: number): string {
  if (!Number.isInteger(n)) return `${n}th`;
  const tens = n % 100;
  const suffix =
    tens >= 11 && tens <= 13 ? 'th' : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** The percentiles the profile shows: ranked BASICs only, restricted ones withheld unless showRestricted. */
export function toVisiblePercentiles(
  input: Pick<ProfileInput, 'census' | 'measures' | 'percentiles' | 'methodology' | 'showRestricted'>,
): Record<Basic, number | null> {
  const out = {} as Record<Basic, number | null>;
  for (const basic of BASICS) {
    const p = input.percentiles[basic] ?? null;
    const sufficient = input.measures[basic].sufficient;
    if (sufficient !== (p !== null))
      throw new Error(
        `carrier ${input.census.dot}: ${basic} is ${sufficient ? 'ranked without' : 'not ranked but has'} a percentile`,
      );
    out[basic] = input.methodology.basics[basic].public_percentile || input.showRestricted ? p : null;
  }
  return out;
}

/** The carrier's peer group: its Unsafe Driving SEG if shown ranked, else the first shown ranked one, else INSUFFICIENT_SEG. */
export function toPeerSegId(measures: Measures, visible: Record<Basic, number | null>): string {
  const basic = BASICS.find((b) => visible[b] !== null);
  return basic === undefined ? INSUFFICIENT_SEG : measures[basic].seg!.id;
}

function sizeOf(segSizes: ReadonlyMap<string, number>, id: string, dot: number): number {
  const size = segSizes.get(id);
  if (size === undefined) throw new Error(`carrier ${dot}: no size for peer group ${id}`);
  return size;
}

function toTopRisks(input: ProfileInput, categories: readonly Category[]): [TopRisk, TopRisk, TopRisk] {
  const { measures, methodology: m } = input;
  const order = (c: Category) => BASICS.indexOf(c.category);
  const ranked = categories
    .filter((c) => c.percentile !== null)
    .sort((a, b) => b.percentile! - a.percentile! || order(a) - order(b));
  // An unknown count (a missing input) sorts after every known one.
  const rest = categories
    .filter((c) => c.percentile === null)
    .sort((a, b) => (b.violations ?? -1) - (a.violations ?? -1) || order(a) - order(b));
  const months = m.time_weights.window_months;
  const risks = [...ranked, ...rest].slice(0, 3).map((c): TopRisk => {
    const measure = measures[c.category];
    const noun = m.basics[c.category].units.events;
    if (c.violations === null) {
      // Nothing counted: the reason says why, and that the category is listed for want of figures.
      return {
        category: c.category,
        label: c.label,
        percentile: null,
        reason: `${c.label}: no percentile and no ${noun.other} counted (${measure.reason!}); listed in the categories' order, since no ${noun.one} count is known`,
      };
    }
    const events = `${toCount(c.violations, noun)} in ${months} months`;
    if (c.percentile !== null) {
      const seg = measure.seg!;
      const size = sizeOf(input.segSizes, seg.id, input.census.dot);
      // SEG labels read "Carriers with …".
      const group = seg.label.replace(/^Carriers\b/, size === 1 ? 'carrier' : 'carriers');
      const threshold = `intervention threshold ${c.threshold}${c.alert ? ' (reached)' : ''}`;
      const reason = `${c.label} at the ${toOrdinal(c.percentile)} percentile of ${formatCount(size)} ${group}; ${events}; ${threshold}`;
      return { category: c.category, label: c.label, percentile: c.percentile, reason };
    }
    const why = measure.sufficient ? m.public_display.restricted_note : measure.reason!;
    const value = c.measure !== null && c.measure > 0 ? ` (measure ${c.measure})` : '';
    return {
      category: c.category,
      label: c.label,
      percentile: null,
      reason: `${c.label}: no percentile (${why}); listed by ${m.basics[c.category].units.events.one} count: ${events}${value}`,
    };
  });
  return risks as [TopRisk, TopRisk, TopRisk];
}

/**
 * SAFER's national averages: out-of-service rates summed over every carrier's inspections in the window;
 * rates and counts null when the build had no inspection input (`gaps`).
 */
export function toNational(
  aggregates: Iterable<Pick<CarrierAggregate, 'inspections'>>,
  gaps: readonly DataGap[] = [],
): Profile['national'] {
  if (gaps.includes('inspections'))
    return {
      vehicle_oos_rate: null,
      driver_oos_rate: null,
      hazmat_oos_rate: null,
      vehicle_inspections: null,
      driver_inspections: null,
      hazmat_inspections: null,
    };
  let vehicle = 0;
  let driver = 0;
  let hazmat = 0;
  let vehicleOos = 0;
  let driverOos = 0;
  let hazmatOos = 0;
  for (const { inspections: i } of aggregates) {
    vehicle += i.vehicle;
    driver += i.driver;
    hazmat += i.hazmat;
    vehicleOos += i.vehicle_oos;
    driverOos += i.driver_oos;
    hazmatOos += i.hazmat_oos;
  }
  return {
    vehicle_oos_rate: ratio(vehicleOos, vehicle),
    driver_oos_rate: ratio(driverOos, driver),
    hazmat_oos_rate: ratio(hazmatOos, hazmat),
    vehicle_inspections: vehicle,
    driver_inspections: driver,
    hazmat_inspections: hazmat,
  };
}

/** Why a carrier is in the group of carriers ranked nowhere: too little data, or the build's missing inputs. */
function toUnrankedBasis(input: ProfileInput): string {
  const m = input.methodology;
  const months = m.time_weights.window_months;
  const shown = BASICS.filter((b) => m.basics[b].public_percentile || input.showRestricted);
  const missing = DATA_GAPS.filter((g) => input.gaps.includes(g));
  const list = toGapList(missing);
  if (missing.length > 0 && shown.every((b) => inputsOf(b, m).some((g) => input.gaps.includes(g))))
    return `Not ranked in any category whose percentile is shown: the build had no SMS ${list} data, which they all rest on.`;
  const note = missing.length > 0 ? ` The build had no SMS ${list} data.` : '';
  return `Not enough inspections, violations or crashes in ${months} months to be ranked in any category whose percentile is shown (data sufficiency rules; ${m.basics.unsafe_driving.sufficiency.source}).${note}`;
}

export function toProfile(input: ProfileInput): Profile {
  const { census, agg, measures, methodology: m } = input;
  const registryGaps = input.registryGaps ?? REGISTRY_GAPS;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(input.dataAsOf)) throw new Error(`data_as_of is not an ISO date: ${input.dataAsOf}`);
  const type = carrierType(census, agg, m);
  const visible = toVisiblePercentiles(input);
  const categories = BASICS.map((basic): Category => {
    const rules = m.basics[basic];
    const mm = measures[basic];
    const percentile = visible[basic];
    const threshold = thresholdFor(basic, type, m);
    const withheld = !rules.public_percentile && !input.showRestricted;
    return {
      category: basic,
      label: rules.label,
      measure: mm.measure,
      percentile,
      threshold,
      alert: percentile !== null && percentile >= threshold,
      violations: mm.violations,
      peer_group: mm.seg?.id ?? null,
      sufficient_data: mm.sufficient,
      step_down: input.stepDown[basic],
      // The methodology file's wording; the profile schema holds it to the contract's, and the sink checks.
      ...(withheld ? { percentile_note: m.public_display.restricted_note as Category['percentile_note'] } : {}),
    };
  });

  const peerId = toPeerSegId(measures, visible);
  const peerSeg =
    peerId === INSUFFICIENT_SEG ? null : BASICS.map((b) => measures[b].seg).find((s) => s?.id === peerId)!;
  const window_months = m.time_weights.window_months;
  const violations = BASICS.reduce((n, b) => (b === 'crash_indicator' ? n : n + agg.basics[b].violations), 0);
  const i = agg.inspections;
  // An outlier fleet's power units are unknown for every normalization, this rate included (outlier_fleets.effect).
  const powerUnits = maybeOutlierFleet(census, m) === undefined ? census.power_units : null;
  // A count the build had no input for is unknown, not 0 (docs/contracts/carriers.md, missing inputs).
  const noInspections = input.gaps.includes('inspections');
  const noViolations = input.gaps.includes('violations');
  const noCrashes = input.gaps.includes('crashes');
  const inspected = (n: number) => (noInspections ? null : n);
  const crashed = (n: number) => (noCrashes ? null : n);
  return {
    carrier_id: census.dot,
    legal_name: census.legal_name,
    dba_name: census.dba_name,
    city: census.city,
    state: census.state,
    power_units: census.power_units,
    drivers: census.drivers,
    mileage: toMileage(census),
    ...toRegistrationFields(census, input.registration, input.dataAsOf),
    ...(input.registry ?? toRegistryFields(undefined, census, input.dataAsOf, registryGaps, false)),
    peer_group: {
      id: peerId,
      label: peerSeg ? peerSeg.label : 'Carriers not ranked in any category',
      basis: peerSeg ? peerSeg.basis : toUnrankedBasis(input),
      size: sizeOf(input.segSizes, peerId, census.dot),
    },
    inspections: {
      window_months,
      total: inspected(i.total),
      driver: inspected(i.driver),
      vehicle: inspected(i.vehicle),
      hazmat: inspected(i.hazmat),
      with_violations: inspected(i.with_violations),
    },
    crashes: {
      window_months,
      total: crashed(agg.crashes.total),
      fatal: crashed(agg.crashes.fatal),
      injury: crashed(agg.crashes.injury),
      tow_away: crashed(agg.crashes.tow_away),
    },
    rates: {
      vehicle_oos_rate: noInspections ? null : ratio(i.vehicle_oos, i.vehicle),
      driver_oos_rate: noInspections ? null : ratio(i.driver_oos, i.driver),
      hazmat_oos_rate: noInspections ? null : ratio(i.hazmat_oos, i.hazmat),
      violations_per_inspection: noInspections || noViolations ? null : ratio(violations, i.total),
      crashes_per_power_unit: noCrashes ? null : ratio(agg.crashes.total, powerUnits),
    },
    national: input.national,
    categories,
    percentiles: visible,
    top_risks: toTopRisks(input, categories),
    data_as_of: input.dataAsOf,
    data_gaps: [
      ...DATA_GAPS.filter((g) => input.gaps.includes(g)),
      ...REGISTRY_GAPS.filter((g) => registryGaps.includes(g)),
    ],
    methodology: { version: m.version, note: m.note as Profile['methodology']['note'] },
    disclaimer: FMCSA_SMS_DISCLAIMER,
  };
}
