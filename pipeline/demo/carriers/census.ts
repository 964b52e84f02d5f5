// One carrier's census record (shared/data/carriers/README.md §1, §3): name, addresses, contacts, MCS-150
// filing, mileage and operation flags.
import type { Rng } from '../../../contract/core/rng.ts';
import type { Carrier } from './carrier.ts';
import { type Timeline, toDdMonYy, yearOf } from './dates.ts';
import { DAY_MS } from '../../../contract/core/dates.ts';
import { chars, digits, PLATE_LETTERS } from './draws.ts';
import type { CensusRecord } from './formats.ts';
import type { Kind, Plant } from './model.ts';
import {
  DIRECTIONS,
  EMAIL_DOMAINS,
  FREIGHT_WORDS,
  firstName,
  HAZMAT_WORDS,
  lastName,
  OP_OTHER_TEXT,
  PASSENGER_WORDS,
  PLACE_WORDS,
  PRIVATE_WORDS,
  placeWord,
  STREET_TYPES,
  STREETS,
  SUFFIXES,
} from './names.ts';
import { BORDER_OIC, type Place, PLACE_WEIGHTS, PLACES } from './places.ts';

/** DOT rank → year added: FMCSA assigned numbers in order, so low numbers date from the 1970s (README §1 sees
 * add dates from 01-JUN-74) and half of today's carriers registered after 2010. The last point is asOf. */
const ADD_DATE_CURVE: readonly (readonly [number, number])[] = [
  [0, 1974.4],
  [0.04, 1990],
  [0.25, 2001],
  [0.5, 2010],
  [0.75, 2018],
];

function toAddDay(w: Timeline, rank: number, rng: Rng): number {
  const last = w.asOfDay - 1;
  const toDayOf = (year: number) =>
    Math.min(last, Date.UTC(Math.floor(year), 0, 1) / DAY_MS + Math.floor((year % 1) * 365));
  const points = [...ADD_DATE_CURVE.map(([r, y]) => [r, toDayOf(y)] as const), [1, last] as const];
  let day = last;
  for (let i = 1; i < points.length; i++) {
    const [r1, d1] = points[i]!;
    const [r0, d0] = points[i - 1]!;
    if (rank <= r1) {
      day = Math.round(d0 + ((rank - r0) / (r1 - r0)) * (d1 - d0));
      break;
    }
  }
  day += rng.int(-120, 120);
  // Reflect at the ends rather than clamp, so no single date piles up.
  if (day < w.addFirst) day = 2 * w.addFirst - day;
  if (day > last) day = 2 * last - day;
  return Math.max(w.addFirst, Math.min(last, day));
}

function toZip(rng: Rng, place: Place): string {
  const prefix = rng.pick(place.zip);
  if (place.country === 'CA') return `${prefix} ${rng.int(0, 9)}${chars(rng, PLATE_LETTERS, 1)}${rng.int(0, 9)}`;
  if (place.country === 'MX') return prefix + digits(rng, 3);
  const zip = prefix + digits(rng, 2);
  return rng.chance(0.12) ? `${zip}-${digits(rng, 4)}` : zip;
}

const toPhone = (rng: Rng, place: Place) => `(${rng.pick(place.area)}) ${rng.int(200, 999)}-${digits(rng, 4)}`;

function toStreet(rng: Rng): string {
  const street = `${rng.int(1, 29999)} ${rng.pick(DIRECTIONS)}${rng.pick(STREETS)} ${rng.pick(STREET_TYPES)}`;
  const r = rng.next();
  // A suite now and then, sometimes after a comma, so minimal quoting has something to quote.
  return r < 0.03 ? `${street}, STE ${rng.int(1, 400)}` : r < 0.08 ? `${street} SUITE ${rng.int(100, 900)}` : street;
}

const person = (rng: Rng) =>
  `${firstName(rng)}${rng.chance(0.3) ? ` ${chars(rng, PLATE_LETTERS, 1)}` : ''} ${lastName(rng)}`;

function toLegalName(rng: Rng, kind: Kind, units: number): string {
  const suffix = () => {
    const s = rng.pickWeighted(SUFFIXES);
    // Some filers put a comma before the suffix: `SMITH TRUCKING, INC`.
    return s === '' ? '' : rng.chance(0.08) ? `, ${s}` : ` ${s}`;
  };
  switch (kind) {
    case 'passenger':
      return rng.chance(0.2)
        ? `${rng.pick(['FIRST BAPTIST CHURCH OF', 'GRACE COMMUNITY CHURCH OF', 'ST PAUL LUTHERAN CHURCH OF'])} ${rng.pick(PLACES).city}`
        : `${placeWord(rng)} ${rng.pick(PASSENGER_WORDS)}${suffix()}`;
    case 'hazmat':
      return `${rng.chance(0.5) ? lastName(rng) : placeWord(rng)} ${rng.pick(HAZMAT_WORDS)}${suffix()}`;
    case 'government':
      return rng.chance(0.7) ? `CITY OF ${rng.pick(PLACES).city}` : `${rng.pick(PLACES).city} COUNTY ROAD DEPARTMENT`;
    case 'private':
      return rng.chance(0.15)
        ? person(rng)
        : `${rng.chance(0.6) ? lastName(rng) : placeWord(rng)} ${rng.pick(PRIVATE_WORDS)}${suffix()}`;
    default: {
      // Owner-operators often file under their own name (README §1 example: a person's name, 1 unit).
      if (units <= 2 && rng.chance(0.35)) return person(rng);
      const r = rng.next();
      if (r < 0.45) return `${placeWord(rng)} ${rng.pick(FREIGHT_WORDS)}${suffix()}`;
      if (r < 0.65) return `${firstName(rng)} ${lastName(rng)} ${rng.pick(FREIGHT_WORDS)}${suffix()}`;
      if (r < 0.8)
        return `${lastName(rng)} ${rng.pick(['& SONS', 'BROTHERS', 'FAMILY'])} ${rng.pick(FREIGHT_WORDS)}${suffix()}`;
      return `${chars(rng, PLATE_LETTERS, 1)} & ${chars(rng, PLATE_LETTERS, 1)} ${rng.pick(FREIGHT_WORDS)}${suffix()}`;
    }
  }
}

function toEmail(rng: Rng, name: string): string {
  const local = name.replace(/[^A-Z0-9]/g, '').slice(0, 24) || 'DISPATCH';
  return `${local}${rng.chance(0.4) ? rng.int(1, 99) : ''}@${rng.pick(EMAIL_DOMAINS)}`;
}

export function toCensusRecord(
  w: Timeline,
  c: Carrier,
  rank: number,
  plant: Plant | undefined,
  rng: Rng,
): CensusRecord {
  const legal =
    plant === 'outlier' ? `${rng.pick(PLACE_WORDS)} TOWING AND RECOVERY LLC` : toLegalName(rng, c.kind, c.activeFleet);
  const dba = rng.chance(0.1)
    ? `${placeWord(rng)} ${rng.pick(c.kind === 'passenger' ? PASSENGER_WORDS : FREIGHT_WORDS)}`
    : '';
  const street = toStreet(rng);
  const zip = toZip(rng, c.place);
  const mailingElsewhere = rng.chance(0.15);
  const mailPlace = mailingElsewhere && rng.chance(0.3) ? rng.pickWeighted(PLACE_WEIGHTS) : c.place;
  const addDay = rank === 0 ? w.addFirst : toAddDay(w, rank, rng);

  // MCS-150 updates are due every two years, so most filings are recent; 7 % of carriers have none on file.
  let mcs150Day: number | null = null;
  if (!rng.chance(0.07)) {
    const r = rng.next();
    const span = w.asOfDay - addDay;
    const back = r < 0.72 ? rng.int(0, 730) : r < 0.92 ? rng.int(730, 2200) : rng.int(0, span);
    mcs150Day = Math.max(addDay, w.asOfDay - back);
  }
  const perUnit = rng.logFloat(8000, 130_000);
  // Mileage follows the fleet actually run, so the outlier's 45,001 reported units do not inflate it.
  const units = c.activeFleet;
  const miles = (x: number) => (rng.chance(0.5) ? Math.round(x / 1000) * 1000 : Math.round(x));
  let mcs150Mileage = '';
  let mcs150Year = '';
  if (mcs150Day !== null && !rng.chance(0.1)) {
    const filed = yearOf(mcs150Day);
    mcs150Year = String(Math.max(yearOf(addDay), rng.chance(0.7) ? filed - 1 : filed));
    mcs150Mileage = rng.chance(0.05) ? '0' : String(miles(units * perUnit));
  }
  // README §1: recent mileage is `0,0` (not empty) when unknown, and then vmt_source_id is empty.
  const recentKnown = plant !== 'zeroMileage' && plant !== 'outlier' && rng.chance(0.55);
  const recentYear = w.asOfYear - rng.int(1, 2);

  const church = c.kind === 'passenger' && legal.includes('CHURCH');
  const forHire =
    c.kind === 'forhire' ||
    c.kind === 'mail' ||
    (c.kind === 'passenger' && !church && rng.chance(0.6)) ||
    (c.kind === 'hazmat' && rng.chance(0.6));
  const exempt = c.kind === 'exempt' || (forHire && rng.chance(0.05));
  const privateProperty =
    c.kind === 'private' || (c.kind === 'hazmat' && !forHire) || (c.kind === 'forhire' && rng.chance(0.06));
  const passengerBusiness = c.kind === 'passenger' && !forHire && !church;
  const passengerNonBusiness = church;
  const government = c.kind === 'government';
  const oic = c.place.country === 'US' ? c.place.state : rng.pick(BORDER_OIC[c.place.country] ?? ['TX']);

  return {
    dot_number: String(c.dot),
    legal_name: legal,
    dba_name: dba,
    carrier_operation: c.operation,
    hm_flag: c.hazmat,
    pc_flag: c.passenger,
    phy_street: street,
    phy_city: c.place.city,
    phy_state: c.place.state,
    phy_zip: zip,
    phy_country: c.place.country,
    mailing_street: mailingElsewhere ? `PO BOX ${rng.int(1, 9999)}` : street,
    mailing_city: mailPlace.city,
    mailing_state: mailPlace.state,
    mailing_zip: mailPlace === c.place && !mailingElsewhere ? zip : toZip(rng, mailPlace),
    mailing_country: mailPlace.country,
    telephone: toPhone(rng, c.place),
    fax: rng.chance(0.08) ? toPhone(rng, c.place) : '',
    email_address: rng.chance(0.85) ? toEmail(rng, legal) : '',
    mcs150_date: mcs150Day === null ? '' : toDdMonYy(mcs150Day),
    mcs150_mileage: mcs150Mileage,
    mcs150_mileage_year: mcs150Year,
    add_date: toDdMonYy(addDay),
    oic_state: oic,
    nbr_power_unit: c.powerUnits === null ? '' : String(c.powerUnits),
    driver_total: String(c.drivers),
    recent_mileage: recentKnown ? String(miles(units * perUnit * rng.float(0.8, 1.2))) : '0',
    recent_mileage_year: recentKnown ? String(recentYear) : '0',
    vmt_source_id: recentKnown
      ? rng.pickWeighted([
          ['1', 85],
          ['3', 13],
          ['2', 2],
        ])
      : '',
    private_only: !forHire && !exempt && (privateProperty || passengerBusiness || passengerNonBusiness),
    authorized_for_hire: forHire,
    exempt_for_hire: exempt,
    private_property: privateProperty,
    private_passenger_business: passengerBusiness,
    private_passenger_nonbusiness: passengerNonBusiness,
    migrant: c.kind === 'exempt' && rng.chance(0.03),
    us_mail: c.kind === 'mail',
    federal_government: government && rng.chance(0.05),
    state_government: government && rng.chance(0.2),
    local_government: government && rng.chance(0.85),
    indian_tribe: government && rng.chance(0.03),
    op_other: plant === 'outlier' ? 'TOW TRUCK' : rng.chance(0.01) ? rng.pick(OP_OTHER_TEXT) : 'N',
  };
}
