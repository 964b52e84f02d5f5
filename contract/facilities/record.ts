// The facility record's vocabulary (schemas/facilities/record.schema.json), which the search documents share.
import type { FacilityRecord as GeneratedRecord } from '../types/facilities/record.ts';

export type Tier = GeneratedRecord['tier'];
export type Program = GeneratedRecord['program'];
export type { Totals } from '../types/facilities/record.ts';
export type FacilityRecord = GeneratedRecord;
export type SeriesPoint = FacilityRecord['series'][number];
export type Delta = NonNullable<FacilityRecord['delta']>;
export type Buildings = NonNullable<FacilityRecord['buildings']>;
export type Flags = FacilityRecord['flags'];
/** A record without what the comparison year adds (delta, flags, buildings): what the spine lists. */
export type BaseRecord = Omit<FacilityRecord, 'delta' | 'flags' | 'buildings'>;
