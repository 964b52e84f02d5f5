// A carrier's profile (schemas/carriers/profile.schema.json): built by pipeline/carriers/profile.ts, read by
// the signed-in routes, explain and export.
import type { CarrierProfile } from '../types/carriers/profile.ts';
import type { Basic } from './basics.ts';
import type { Methodology } from './methodology.ts';

/** Peer group of a carrier ranked in no category whose percentile is shown. */
export const INSUFFICIENT_SEG = 'insufficient';

export type Profile = CarrierProfile;
export type Category = Profile['categories'][number];
export type TopRisk = Profile['top_risks'][number];
export type DataGap = Profile['data_gaps'][number];
/** The SMS inputs a build may lack: what the counts and measures rest on. */
export type SmsGap = Extract<DataGap, 'inspections' | 'violations' | 'crashes'>;
/** The registry inputs a build may lack: what the operating status rests on (L&I, out-of-service orders). */
export type RegistryGap = Exclude<DataGap, SmsGap>;

/** The SMS inputs a build may lack, in the order `data_gaps` lists them. */
export const DATA_GAPS: readonly SmsGap[] = ['inspections', 'violations', 'crashes'];
/** The registry inputs, listed after the SMS ones. */
export const REGISTRY_GAPS: readonly RegistryGap[] = ['authority', 'insurance', 'out_of_service_orders'];

/** The SMS inputs among a profile's `data_gaps`. */
export function smsGapsOf(gaps: readonly DataGap[]): SmsGap[] {
  return DATA_GAPS.filter((g) => gaps.includes(g));
}

/** How the summaries and reasons name a missing input. */
export const DATA_GAP_LABELS: Record<SmsGap, string> = {
  inspections: 'inspection',
  violations: 'violation',
  crashes: 'crash',
};

/**
 * The SMS inputs a BASIC's measure rests on (methodology §B.2): the Crash Indicator on the crashes; a BASIC
 * measured per power unit (Unsafe Driving) on the violations alone (its numerator, and its inspections with
 * violations for sufficiency and group); the others on the violations over the relevant inspections.
 */
export function inputsOf(basic: Basic, m: Pick<Methodology, 'basics'>): SmsGap[] {
  if (basic === 'crash_indicator') return ['crashes'];
  return m.basics[basic].measure === 'per_power_unit' ? ['violations'] : ['inspections', 'violations'];
}
