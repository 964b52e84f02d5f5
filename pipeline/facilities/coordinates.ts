// Facility coordinates (docs/contracts/facilities.md, "Paging, filters, downloads, places and gases"): read
// from the federal rows that carry them, checked, and one pair chosen per facility. Pure.
import { parseNumber } from '../../contract/core/values.ts';
import type { Coordinates } from '../../contract/facilities/record.ts';
import { rowIssue } from '../core/issues.ts';
import type { FederalRow, LatLon, RowIssue } from './rows.ts';

/** The issue kind of a row whose coordinates were left out; the build counts them among its warnings. */
export const INVALID_COORDINATES = 'invalid_coordinates';

/**
 * Ontario's extent with a margin of about 0.2°: 41.7° N (Middle Island, Lake Erie) to 56.9° N (Hudson Bay),
 * 95.2° W (the Manitoba border) to 74.3° W (the Quebec border near Cornwall). Every input row is an
 * Ontario facility, so a point outside is a damaged field, such as a longitude that lost its minus sign.
 */
export const ONTARIO_BOUNDS = { south: 41.5, north: 57.1, west: -95.4, east: -74.1 } as const;

/**
 * A row's latitude and longitude fields as usable coordinates, or null. Both empty, or both 0 (the indicator
 * table's "unknown", shared/data/facilities/README.md §3.4), is no position and no issue; anything else that
 * is not a pair of numbers in range and inside Ontario is left out with an issue (the row itself is kept).
 */
export function normalizeCoordinates(
  rawLatitude: string | undefined,
  rawLongitude: string | undefined,
  file: string,
  record: number,
  issues: RowIssue[],
): LatLon | null {
  const latitude = parseNumber(rawLatitude);
  const longitude = parseNumber(rawLongitude);
  if (latitude === null && longitude === null) return null;
  if (latitude === 0 && longitude === 0) return null;
  const text = `latitude "${rawLatitude ?? ''}", longitude "${rawLongitude ?? ''}"`;
  const problem =
    latitude === null || longitude === null
      ? 'has only one of the two'
      : Number.isNaN(latitude) || Number.isNaN(longitude)
        ? 'is not a pair of numbers'
        : Math.abs(latitude) > 90 || Math.abs(longitude) > 180
          ? 'is out of range (latitude −90 to 90, longitude −180 to 180)'
          : latitude < ONTARIO_BOUNDS.south ||
              latitude > ONTARIO_BOUNDS.north ||
              longitude < ONTARIO_BOUNDS.west ||
              longitude > ONTARIO_BOUNDS.east
            ? 'is outside Ontario'
            : undefined;
  if (problem === undefined) return { latitude: latitude!, longitude: longitude! };
  issues.push(rowIssue(file, record, INVALID_COORDINATES, `${text} ${problem}; coordinates left out`, false));
  return null;
}

/**
 * A facility's coordinates: those of its newest federal row that has any, the emissions-by-gas file before
 * the indicator table in the same year (it prints more digits), else the first row's in input order.
 */
export function toCoordinates(federal: readonly FederalRow[]): Coordinates {
  let best: FederalRow | undefined;
  for (const r of federal) {
    if (!r.coordinates) continue;
    if (!best || r.year > best.year || (r.year === best.year && r.source === 'by_gas' && best.source !== 'by_gas'))
      best = r;
  }
  return best?.coordinates ? { ...best.coordinates, source: 'federal' } : null;
}
