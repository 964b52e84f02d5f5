// The four upstream files the carriers build reads, recognized by their header whatever their file name
// (docs/contracts/common.md, "Builds"). Column names are FMCSA's own; see shared/data/carriers/README.md.
// Headers are matched after normalizeHeader (core/csv.ts), so the upper-case FMCSA txt names (`DOT_NUMBER`),
// the lower-case data.transportation.gov export names (`dot_number`) and the mixed-case SMS Input names
// (`DOT_Number`) all match one spec name. Columns not listed here are ignored.
import type { ColumnSpec } from '../core/csv.ts';
import {
  AUTHORITY_HISTORY_COLUMNS,
  INSURANCE_COLUMNS,
  INSURANCE_HISTORY_COLUMNS,
  LI_CARRIER_COLUMNS,
  OOS_ORDER_COLUMNS,
  type RegistryInputKind,
  REVOCATION_COLUMNS,
} from './registry-inputs.ts';
import type { ViolationBasic } from '../../contract/carriers/basics.ts';
import { FMCSA_ATTRIBUTION, FMCSA_PUBLISHER, US_PUBLIC_DOMAIN, type Provenance } from '../../contract/core/licences.ts';

export type CarriersInputKind = 'census' | 'inspection' | 'violation' | 'crash' | RegistryInputKind;

const req = (key: string, ...names: string[]): ColumnSpec => ({ key, names, required: true });
const opt = (key: string, ...names: string[]): ColumnSpec => ({ key, names, required: false });

/**
 * SMS Input – Motor Carrier Census, in either form: FMCSA's `FMCSA_CENSUS1_YYYYMon.txt` (upper-case quoted
 * header, `Y`/`N` flags, FAX after TELEPHONE) or the data.transportation.gov export `kjg3-diqy` (lower-case,
 * `true`/`false`, fax last). Both carry the same 42 fields (sms_docs/CENSUS_README.txt); keys are CensusRow's.
 * Required: what identifies a carrier and what every profile and peer group needs (operation, HM and
 * passenger flags, location, fleet size); the rest may be absent and is then null.
 */
export const CENSUS_COLUMNS: ColumnSpec[] = [
  req('dot', 'DOT_NUMBER'),
  req('legal_name', 'LEGAL_NAME'),
  opt('dba_name', 'DBA_NAME'),
  req('carrier_operation', 'CARRIER_OPERATION'),
  req('hm_flag', 'HM_FLAG'),
  req('pc_flag', 'PC_FLAG'),
  req('city', 'PHY_CITY'),
  req('state', 'PHY_STATE'),
  opt('zip', 'PHY_ZIP'),
  opt('country', 'PHY_COUNTRY'),
  req('power_units', 'NBR_POWER_UNIT'),
  req('drivers', 'DRIVER_TOTAL'),
  opt('mcs150_date', 'MCS150_DATE'),
  opt('mcs150_mileage', 'MCS150_MILEAGE'),
  opt('mcs150_mileage_year', 'MCS150_MILEAGE_YEAR'),
  opt('add_date', 'ADD_DATE'),
  opt('recent_mileage', 'RECENT_MILEAGE'),
  opt('recent_mileage_year', 'RECENT_MILEAGE_YEAR'),
  opt('authorized_for_hire', 'AUTHORIZED_FOR_HIRE'),
  opt('private_passenger_business', 'PRIVATE_PASSENGER_BUSINESS'),
  opt('private_passenger_nonbusiness', 'PRIVATE_PASSENGER_NONBUSINESS'),
  // The profile's registration fields (registration.ts); EMAIL_ADDRESS is never read.
  opt('street', 'PHY_STREET'),
  opt('mailing_street', 'MAILING_STREET'),
  opt('mailing_city', 'MAILING_CITY'),
  opt('mailing_state', 'MAILING_STATE'),
  opt('mailing_zip', 'MAILING_ZIP'),
  opt('mailing_country', 'MAILING_COUNTRY'),
  opt('telephone', 'TELEPHONE'),
  opt('exempt_for_hire', 'EXEMPT_FOR_HIRE'),
  opt('private_property', 'PRIVATE_PROPERTY'),
  opt('migrant', 'MIGRANT'),
  opt('us_mail', 'US_MAIL'),
  opt('federal_government', 'FEDERAL_GOVERNMENT'),
  opt('state_government', 'STATE_GOVERNMENT'),
  opt('local_government', 'LOCAL_GOVERNMENT'),
  opt('indian_tribe', 'INDIAN_TRIBE'),
  opt('op_other', 'OP_OTHER'),
];

/**
 * The inspection columns saying which BASICs an inspection is relevant to (SMS Input – Inspection readme),
 * keyed by our BASIC names; each is also the spec key.
 */
export const RELEVANCE_COLUMNS: Record<ViolationBasic, string> = {
  unsafe_driving: 'Unsafe_Insp',
  hos_compliance: 'Fatigued_Insp',
  driver_fitness: 'Dr_Fitness_Insp',
  controlled_substances: 'Subt_Alcohol_Insp',
  vehicle_maintenance: 'Vh_Maint_Insp',
  hazmat: 'HM_Insp',
};

/** SMS Input – Inspection (data.transportation.gov `rbkj-cgst`), one row per inspection in the 24 months. */
export const INSPECTION_COLUMNS: ColumnSpec[] = [
  req('unique_id', 'Unique_ID'),
  req('dot', 'DOT_Number'),
  req('date', 'Insp_Date'),
  opt('state', 'Report_State'),
  opt('level', 'Insp_level_ID'),
  req('driver_oos', 'Driver_OOS_Total'),
  req('vehicle_oos', 'Vehicle_OOS_Total'),
  req('hazmat_oos', 'Hazmat_OOS_Total'),
  req('hazmat_placard', 'Hazmat_Placard_req'),
  ...Object.values(RELEVANCE_COLUMNS).map((name) => req(name, name)),
  req('with_violations', 'BASIC_Viol'),
];

/**
 * SMS Input – Violation (`8mt8-2mdr`), one row per violation. OOS_Weight is optional: the methodology fixes
 * it (2 for an out-of-service violation, else 0), so it is derived when absent.
 */
export const VIOLATION_COLUMNS: ColumnSpec[] = [
  req('unique_id', 'Unique_ID'),
  req('date', 'Insp_Date'),
  req('dot', 'DOT_Number'),
  req('code', 'Viol_Code'),
  req('basic', 'BASIC_Desc'),
  req('oos', 'OOS_Indicator'),
  opt('oos_weight', 'OOS_Weight'),
  req('severity_weight', 'Severity_Weight'),
  opt('description', 'Section_Desc'),
  opt('group', 'Group_Desc'),
];

/**
 * SMS Input – Crash (`4wxs-vbns`), one row per commercial vehicle in a crash (Report_Number + Report_Seq_No).
 * The MCMIS crash file (`aayw-vxb3`, YYYYMMDD dates, Y/N flags) has the same names and is read alike.
 * Not_Preventable is optional: files from before the Crash Preventability Determination Program lack it.
 * Severity_Weight and Time_Weight are not read: the methodology derives both from the flags and the date.
 */
export const CRASH_COLUMNS: ColumnSpec[] = [
  req('report_number', 'Report_Number'),
  req('seq', 'Report_Seq_No'),
  req('dot', 'DOT_Number'),
  req('date', 'Report_Date'),
  opt('state', 'Report_State'),
  req('fatalities', 'Fatalities'),
  req('injuries', 'Injuries'),
  req('tow_away', 'Tow_Away'),
  req('hazmat_released', 'Hazmat_Released'),
  opt('not_preventable', 'Not_Preventable'),
];

const socrata = (id: string): string => `https://data.transportation.gov/api/views/${id}/rows.csv?accessType=DOWNLOAD`;

/**
 * `required`: the build cannot run without the census; the SMS Input files are the monthly run's other
 * three downloads (`url` is the data.transportation.gov export; https://ai.fmcsa.dot.gov/SMS/Tools/Downloads.aspx
 * has the same files as FMCSA's zips).
 */
export const CARRIER_INPUTS: Record<
  CarriersInputKind,
  { columns: ColumnSpec[]; required: boolean; url: string; label: string }
> = {
  census: {
    columns: CENSUS_COLUMNS,
    required: true,
    label: 'SMS Input – Motor Carrier Census',
    url: socrata('kjg3-diqy'),
  },
  inspection: {
    columns: INSPECTION_COLUMNS,
    required: false,
    label: 'SMS Input – Inspection',
    url: socrata('rbkj-cgst'),
  },
  violation: { columns: VIOLATION_COLUMNS, required: false, label: 'SMS Input – Violation', url: socrata('8mt8-2mdr') },
  crash: { columns: CRASH_COLUMNS, required: false, label: 'SMS Input – Crash', url: socrata('4wxs-vbns') },
  // FMCSA's Licensing and Insurance files, "All With History" exports; frozen since 2026-05-14, when FMCSA
  // moved registration to Motus (docs/data-sources.md).
  li_carrier: { columns: LI_CARRIER_COLUMNS, required: false, label: 'L&I Carrier', url: socrata('6eyk-hxee') },
  authority_history: {
    columns: AUTHORITY_HISTORY_COLUMNS,
    required: false,
    label: 'L&I Authority History',
    url: socrata('9mw4-x3tu'),
  },
  insurance: {
    columns: INSURANCE_COLUMNS,
    required: false,
    label: 'L&I Active and Pending Insurance',
    url: socrata('qh9u-swkp'),
  },
  insurance_history: {
    columns: INSURANCE_HISTORY_COLUMNS,
    required: false,
    label: 'L&I Insurance History',
    url: socrata('6sqe-dvqs'),
  },
  revocation: { columns: REVOCATION_COLUMNS, required: false, label: 'L&I Revocation', url: socrata('sa6p-acbp') },
  oos_order: {
    columns: OOS_ORDER_COLUMNS,
    required: false,
    label: 'FMCSA Out of Service Orders',
    url: socrata('p2mt-9ige'),
  },
};

/**
 * Order of recognition. The required sets are disjoint in what sets them apart (LEGAL_NAME, the *_Insp
 * flags, Viol_Code, Report_Seq_No), so no header matches two kinds; the most specific come first anyway.
 */
export const CARRIER_KINDS: readonly CarriersInputKind[] = [
  'inspection',
  'violation',
  'crash',
  'insurance_history',
  'insurance',
  'li_carrier',
  'authority_history',
  'revocation',
  'oos_order',
  'census',
];

const fmcsa = (title: string): Provenance => ({
  title,
  publisher: FMCSA_PUBLISHER,
  licence: US_PUBLIC_DOMAIN,
  attribution: FMCSA_ATTRIBUTION,
});

/** Who publishes each input and under what terms (contract/core/licences.ts; sources in docs/data-sources.md). */
export const PROVENANCE: Record<CarriersInputKind, Provenance> = {
  census: fmcsa('SMS Input – Motor Carrier Census'),
  inspection: fmcsa('SMS Input – Inspection'),
  violation: fmcsa('SMS Input – Violation'),
  crash: fmcsa('SMS Input – Crash'),
  li_carrier: fmcsa('Licensing and Insurance – Carrier (All With History)'),
  authority_history: fmcsa('Licensing and Insurance – AuthHist (All With History)'),
  insurance: fmcsa('Licensing and Insurance – ActPendInsur (All With History)'),
  insurance_history: fmcsa('Licensing and Insurance – InsHist (All With History)'),
  revocation: fmcsa('Licensing and Insurance – Revocation'),
  oos_order: fmcsa('Out of Service Orders'),
};
