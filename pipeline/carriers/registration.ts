// What the census says about who a carrier is, beyond what ranking needs (docs/contracts/carriers.md, "May I
// hire them?"): street and mailing addresses, telephone, and its operation classification. Never the e-mail
// address, which the build does not read. Kept out of memory while the build ranks (pipeline/core/keyed-spill.ts):
// at 2 million carriers these strings would cost hundreds of megabytes for nothing until the profiles are written.
import { cleanText } from '../../contract/core/values.ts';
import type { CarrierProfile } from '../../contract/types/carriers/profile.ts';
import { toMonthsBefore } from '../../contract/carriers/methodology.ts';
import { toCensusFlag } from './normalize-census.ts';
import type { CensusRow } from './types.ts';

type Raw = Record<string, string>;
type Address = NonNullable<CarrierProfile['mailing_address']>;
export type Classification = CarrierProfile['operation_classification'][number];

/** The census's classification flags, in CENSUS_README's order, by the profile's names. */
export const CLASSIFICATION_FLAGS: readonly [Classification, string][] = [
  ['authorized_for_hire', 'authorized_for_hire'],
  ['exempt_for_hire', 'exempt_for_hire'],
  ['private_property', 'private_property'],
  ['private_passenger_business', 'private_passenger_business'],
  ['private_passenger_nonbusiness', 'private_passenger_nonbusiness'],
  ['migrant', 'migrant'],
  ['us_mail', 'us_mail'],
  ['federal_government', 'federal_government'],
  ['state_government', 'state_government'],
  ['local_government', 'local_government'],
  ['indian_tribe', 'indian_tribe'],
];

export interface Registration {
  street: string | null;
  mailing_address: Address | null;
  telephone: string | null;
  operation_classification: Classification[];
  operation_other: string | null;
}

const upper = (s: string | undefined) => cleanText(s)?.toUpperCase() ?? null;

/**
 * The registration fields of a raw census row (keys of inputs.ts CENSUS_COLUMNS). A flag that is not Y/N or
 * true/false counts as not set: the profile lists what the census says, not what it might mean. OP_OTHER is
 * `Y` in FMCSA's txt census and free text (`FARM`, `TOW TRUCK`) or `N` in the open-data export: either sets
 * `other`, and free text is kept as `operation_other`.
 */
export function toRegistration(raw: Raw): Registration {
  const mailing: Address = {
    street: cleanText(raw.mailing_street),
    city: cleanText(raw.mailing_city),
    state: upper(raw.mailing_state),
    zip: cleanText(raw.mailing_zip),
    country: upper(raw.mailing_country),
  };
  const classification = CLASSIFICATION_FLAGS.filter(([, key]) => toCensusFlag(raw[key]) === true).map(([c]) => c);
  const other = cleanText(raw.op_other);
  const otherFlag = other === null ? null : toCensusFlag(other);
  if (otherFlag === true || (other !== null && otherFlag === undefined)) classification.push('other');
  return {
    street: cleanText(raw.street),
    mailing_address: Object.values(mailing).every((v) => v === null) ? null : mailing,
    telephone: cleanText(raw.telephone),
    operation_classification: classification,
    operation_other: other !== null && otherFlag === undefined ? other : null,
  };
}

const OPERATIONS = { A: 'Interstate', B: 'Intrastate hazmat', C: 'Intrastate non-hazmat' } as const;
/** FMCSA wants the MCS-150 updated every 24 months (49 CFR 390.19(b)(2)). */
const MCS150_MONTHS = 24;

type RegistrationFields = Pick<
  CarrierProfile,
  | 'carrier_operation'
  | 'physical_address'
  | 'mailing_address'
  | 'telephone'
  | 'mcs150_date'
  | 'mcs150_mileage'
  | 'mcs150_outdated'
  | 'date_added'
  | 'operation_classification'
  | 'operation_other'
  | 'hazmat_flag'
  | 'passenger_flag'
>;

/** The profile's registration fields from the census row and its registration (undefined: none kept). */
export function toRegistrationFields(
  census: CensusRow,
  registration: Registration | undefined,
  dataAsOf: string,
): RegistrationFields {
  const op = census.carrier_operation;
  const { mcs150_mileage: miles, mcs150_mileage_year: year, mcs150_date: filed } = census;
  return {
    carrier_operation: op === null ? null : { code: op, label: OPERATIONS[op] },
    physical_address: {
      street: registration?.street ?? null,
      city: census.city,
      state: census.state,
      zip: census.zip,
      country: census.country,
    },
    mailing_address: registration?.mailing_address ?? null,
    telephone: registration?.telephone ?? null,
    mcs150_date: filed,
    mcs150_mileage: miles !== null && year !== null && year > 0 ? { miles, year } : null,
    mcs150_outdated: filed === null ? null : filed < toMonthsBefore(dataAsOf, MCS150_MONTHS),
    date_added: census.add_date,
    operation_classification: registration?.operation_classification ?? [],
    operation_other: registration?.operation_other ?? null,
    hazmat_flag: census.hm_flag,
    passenger_flag: census.pc_flag,
  };
}
