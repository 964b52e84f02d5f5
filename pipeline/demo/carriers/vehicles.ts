// The trucks, buses and trailers an inspection reports: type, make, plate and VIN.
import type { Rng } from '../../../contract/core/rng.ts';
import type { Carrier } from './carrier.ts';
import type { Timeline } from './dates.ts';
import { chars, digits, PLATE_LETTERS } from './draws.ts';
import { US_STATES } from './places.ts';

// Vehicles: make codes as inspection reports abbreviate them, with a plausible VIN manufacturer prefix.
type Make = readonly [code: string, wmi: string];
const TRACTOR_MAKES: readonly Make[] = [
  ['FRHT', '1FU'],
  ['KENW', '1XK'],
  ['PTRB', '1XP'],
  ['VOLV', '4V4'],
  ['INTL', '3HS'],
  ['MACK', '1M1'],
  ['WSTR', '5KJ'],
];
const STRAIGHT_MAKES: readonly Make[] = [
  ['FRHT', '1FV'],
  ['INTL', '1HT'],
  ['ISU', 'JAL'],
  ['HINO', '5PV'],
  ['FORD', '1FD'],
  ['CHEV', '1GB'],
  ['RAM', '3C7'],
];
const BUS_MAKES: readonly Make[] = [
  ['PREV', '2PC'],
  ['MCI', '1M8'],
  ['VANH', 'YE2'],
  ['BLUE', '1BA'],
  ['THOM', '4UZ'],
  ['FORD', '1FD'],
];
const TRAILER_MAKES: readonly Make[] = [
  ['GDAN', '1GR'],
  ['UTIL', '1UY'],
  ['WABS', '1JJ'],
  ['HYUN', '3H3'],
  ['STOU', '1DW'],
  ['FONT', '13N'],
];
const TANK_MAKES: readonly Make[] = [
  ['HEIL', '5HT'],
  ['POLR', '1PM'],
  ['BRKR', '1B9'],
  ['TRIN', '4TV'],
];
const VIN_CHARS = '0123456789ABCDEFGHJKLMNPRSTUVWXYZ';

function toVin(rng: Rng, wmi: string, modelYear: number): string {
  // Position 10 is the model-year code (A = 2010 … Y = 2030, skipping I, O, Q, U, Z; 2001–2009 are digits).
  const yearCode = modelYear >= 2010 ? ('ABCDEFGHJKLMNPRSTVWXY'[modelYear - 2010] ?? 'Y') : String(modelYear - 2000);
  return `${wmi}${chars(rng, VIN_CHARS, 6)}${yearCode}${chars(rng, VIN_CHARS, 7)}`;
}

export interface Vehicle {
  type: string;
  make: string;
  license: string;
  state: string;
  vin: string;
  decal: string;
  /** The six Unit_*2 fields, already joined with commas. */
  trailer: string;
}
export const NO_TRAILER = ',,,,,';

export function toVehicle(c: Carrier, rng: Rng, w: Timeline): Vehicle {
  const modelYear = Math.min(w.asOfYear, w.asOfYear - Math.floor(rng.logFloat(1, 25)) + 1);
  const plate = () =>
    rng.chance(0.5)
      ? `${chars(rng, PLATE_LETTERS, 3)}${digits(rng, 4)}`
      : `${rng.int(1, 9)}${chars(rng, PLATE_LETTERS, 2)}${digits(rng, 4)}`;
  const plateState =
    c.place.country === 'US' ? (rng.chance(0.85) ? c.place.state : rng.pick(US_STATES)) : c.place.state;
  let type: string;
  let make: Make;
  if (c.kind === 'passenger') {
    type = rng.pickWeighted([
      ['MOTORCOACH', 55],
      ['BUS', 20],
      ['PASSENGER VAN', 15],
      ['SCHOOL BUS', 10],
    ]);
    make = rng.pick(BUS_MAKES);
  } else if (rng.chance(c.operation === 'A' ? 0.75 : 0.35) || c.kind === 'hazmat') {
    type = 'TRUCK TRACTOR';
    make = rng.pick(TRACTOR_MAKES);
  } else {
    type = rng.pickWeighted([
      ['STRAIGHT TRUCK', 70],
      ['PICKUP', 20],
      ['VAN', 10],
    ]);
    make = rng.pick(STRAIGHT_MAKES);
  }
  let trailer = '';
  if (type === 'TRUCK TRACTOR' && rng.chance(0.92)) {
    const [tmake, twmi] = c.kind === 'hazmat' ? rng.pick(TANK_MAKES) : rng.pick(TRAILER_MAKES);
    const ttype =
      c.kind === 'hazmat'
        ? 'SEMI-TRAILER'
        : rng.pickWeighted([
            ['SEMI-TRAILER', 90],
            ['FULL TRAILER', 6],
            ['POLE TRAILER', 4],
          ]);
    trailer = [ttype, tmake, plate(), plateState, toVin(rng, twmi, Math.max(2001, modelYear - rng.int(0, 6))), ''].join(
      ',',
    );
  } else if (type === 'STRAIGHT TRUCK' && rng.chance(0.1)) {
    const [tmake, twmi] = rng.pick(TRAILER_MAKES);
    trailer = ['FULL TRAILER', tmake, plate(), plateState, toVin(rng, twmi, Math.max(2001, modelYear)), ''].join(',');
  } else {
    trailer = NO_TRAILER;
  }
  return {
    type,
    make: make[0],
    license: plate(),
    state: plateState,
    vin: toVin(rng, make[1], Math.max(2001, modelYear)),
    decal: rng.chance(0.05) ? `${chars(rng, PLATE_LETTERS, 1)}${digits(rng, 6)}` : '',
    trailer,
  };
}
