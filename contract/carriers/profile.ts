// A carrier's profile (schemas/carriers/profile.schema.json): built by pipeline/carriers/profile.ts, read by
// the signed-in routes, explain and export.
import type { CarrierProfile } from '../types/carriers/profile.ts';

/** Peer group of a carrier ranked in no category whose percentile is shown. */
export const INSUFFICIENT_SEG = 'insufficient';

export type Profile = CarrierProfile;
export type Category = Profile['categories'][number];
export type TopRisk = Profile['top_risks'][number];
