// The facility record's vocabulary (schemas/facilities/record.schema.json), which the search documents and
// the downloads share, and its delta: the record's, and each download row's from the same totals.
import { round } from '../core/values.ts';
import type { FacilityRecord as GeneratedRecord, Totals } from '../types/facilities/record.ts';

export type Tier = GeneratedRecord['tier'];
export type Program = GeneratedRecord['program'];
export type { Coordinates, Gases, Totals } from '../types/facilities/record.ts';
export type FacilityRecord = GeneratedRecord;
export type SeriesPoint = FacilityRecord['series'][number];
export type Delta = NonNullable<FacilityRecord['delta']>;
export type DeltaParts = NonNullable<FacilityRecord['delta_parts']>;
export type Buildings = NonNullable<FacilityRecord['buildings']>;
export type Flags = FacilityRecord['flags'];
/** A record without what the comparison year adds (delta and its parts, flags, buildings): what the spine lists. */
export type BaseRecord = Omit<FacilityRecord, 'delta' | 'delta_parts' | 'flags' | 'buildings'>;

/** Provincial minus federal for the comparison year, and as a percentage of federal; null unless both exist. */
export function toDelta(totals: Totals): Delta | null {
  if (totals.ontario === null || totals.federal === null || totals.federal === 0) return null;
  const tonnes = totals.ontario - totals.federal;
  return { year: totals.year, tonnes: round(tonnes, 2), pct: round((tonnes / totals.federal) * 100, 2) };
}
