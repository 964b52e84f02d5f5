// The facility record's vocabulary (schemas/facilities/record.schema.json), which the search documents share.
import type { FacilityRecord } from '../types/facilities/record.ts';

export type Tier = FacilityRecord['tier'];
export type Program = FacilityRecord['program'];
export type { Totals } from '../types/facilities/record.ts';
