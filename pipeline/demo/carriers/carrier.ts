// One carrier's profile: kind, home, operation and fleet, with the planted ones forced to what they show.
import type { Rng } from '../../../contract/core/rng.ts';
import { fleetSize } from './draws.ts';
import { INTERSTATE_SHARE, type Kind, KINDS, OUTLIER_DRIVERS, OUTLIER_POWER_UNITS, type Plant } from './model.ts';
import { LEADING_ZERO_PLACE, type Place, PLACE_WEIGHTS, TEXAS_PLACE } from './places.ts';

export interface Carrier {
  dot: number;
  kind: Kind;
  place: Place;
  operation: 'A' | 'B' | 'C';
  hazmat: boolean;
  passenger: boolean;
  /** Power units as reported; null when the census field is empty. */
  powerUnits: number | null;
  drivers: number;
  /** The fleet that really drives inspections (the outlier reports 45,001 units but runs 2 drivers). */
  activeFleet: number;
}

export function toCarrier(dot: number, plant: Plant | undefined, rng: Rng): Carrier {
  let kind = rng.pickWeighted(KINDS);
  if (plant === 'passenger') kind = 'passenger';
  if (plant === 'hazmat') kind = 'hazmat';
  if (plant === 'bigFleet') kind = 'forhire';
  if (plant === 'outlier') kind = 'private';
  // The other plants stay ordinary property carriers, so each planted case shows one thing.
  if (plant !== undefined && plant !== 'passenger' && plant !== 'hazmat' && (kind === 'passenger' || kind === 'hazmat'))
    kind = 'forhire';

  const place =
    plant === 'leadingZero' ? LEADING_ZERO_PLACE : plant === 'outlier' ? TEXAS_PLACE : rng.pickWeighted(PLACE_WEIGHTS);
  const interstate = place.country !== 'US' || plant === 'bigFleet' || rng.chance(INTERSTATE_SHARE[kind]);
  // B is intrastate hazmat, so hazmat carriers that are not interstate are B (CENSUS_README CARRIER_OPERATION).
  const operation = interstate ? 'A' : kind === 'hazmat' ? 'B' : 'C';

  let fleet = plant === 'bigFleet' ? rng.int(2500, 6500) : fleetSize(rng);
  if (kind === 'government' && fleet < 3) fleet += rng.int(2, 10);
  let drivers = Math.max(1, Math.round(fleet * rng.float(1, 1.5)));
  let powerUnits: number | null = fleet;
  // README §1: about 4 % of census rows leave NBR_POWER_UNIT empty.
  if (plant === 'emptyPowerUnits' || (plant === undefined && rng.chance(0.04))) powerUnits = null;
  if (plant === 'outlier') {
    powerUnits = OUTLIER_POWER_UNITS;
    drivers = OUTLIER_DRIVERS;
    fleet = OUTLIER_DRIVERS;
  }
  return {
    dot,
    kind,
    place,
    operation,
    hazmat: kind === 'hazmat',
    passenger: kind === 'passenger',
    powerUnits,
    drivers,
    activeFleet: fleet,
  };
}
