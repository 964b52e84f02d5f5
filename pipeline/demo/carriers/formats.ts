// The census and SMS Input files as FMCSA publishes them (shared/data/carriers/README.md): column names in
// publisher order, and the census line in each of its two forms.
import { toCsvField } from '../csv-text.ts';

/** README §3: the 42 census fields in FMCSA_CENSUS1 order (FAX after TELEPHONE); the txt header is upper case. */
const CENSUS_FIELDS = [
  'dot_number',
  'legal_name',
  'dba_name',
  'carrier_operation',
  'hm_flag',
  'pc_flag',
  'phy_street',
  'phy_city',
  'phy_state',
  'phy_zip',
  'phy_country',
  'mailing_street',
  'mailing_city',
  'mailing_state',
  'mailing_zip',
  'mailing_country',
  'telephone',
  'fax',
  'email_address',
  'mcs150_date',
  'mcs150_mileage',
  'mcs150_mileage_year',
  'add_date',
  'oic_state',
  'nbr_power_unit',
  'driver_total',
  'recent_mileage',
  'recent_mileage_year',
  'vmt_source_id',
  'private_only',
  'authorized_for_hire',
  'exempt_for_hire',
  'private_property',
  'private_passenger_business',
  'private_passenger_nonbusiness',
  'migrant',
  'us_mail',
  'federal_government',
  'state_government',
  'local_government',
  'indian_tribe',
  'op_other',
] as const;
type CensusField = (typeof CENSUS_FIELDS)[number];
/** README §1: the open-data export names the same fields in lower case and moves `fax` to the end. */
const CENSUS_CSV_FIELDS: readonly CensusField[] = [...CENSUS_FIELDS.filter((f) => f !== 'fax'), 'fax'];
export const CENSUS_TXT_HEADER = `${CENSUS_FIELDS.map((f) => `"${f.toUpperCase()}"`).join(',')}\r\n`;
export const CENSUS_CSV_HEADER = `${CENSUS_CSV_FIELDS.join(',')}\n`;

/** README "SMS Input file layouts": SMS Input – Inspection, 39 columns. */
export const INSPECTION_COLUMNS = [
  'Unique_ID',
  'Report_Number',
  'Report_State',
  'DOT_Number',
  'Insp_Date',
  'Insp_level_ID',
  'County_code_State',
  'Time_Weight',
  'Driver_OOS_Total',
  'Vehicle_OOS_Total',
  'Total_Hazmat_Sent',
  'OOS_Total',
  'Hazmat_OOS_Total',
  'Hazmat_Placard_req',
  'Unit_Type_Desc',
  'Unit_Make',
  'Unit_License',
  'Unit_License_State',
  'VIN',
  'Unit_Decal_Number',
  'Unit_Type_Desc2',
  'Unit_Make2',
  'Unit_License2',
  'Unit_License_State2',
  'VIN2',
  'Unit_Decal_Number2',
  'Unsafe_Insp',
  'Fatigued_Insp',
  'Dr_Fitness_Insp',
  'Subt_Alcohol_Insp',
  'Vh_Maint_Insp',
  'HM_Insp',
  'BASIC_Viol',
  'Unsafe_Viol',
  'Fatigued_Viol',
  'Dr_Fitness_Viol',
  'Subt_Alcohol_Viol',
  'Vh_Maint_Viol',
  'HM_Viol',
] as const;
/** README "SMS Input file layouts": SMS Input – Violation, 13 columns. */
export const VIOLATION_COLUMNS = [
  'Unique_ID',
  'Insp_Date',
  'DOT_Number',
  'Viol_Code',
  'BASIC_Desc',
  'OOS_Indicator',
  'OOS_Weight',
  'Severity_Weight',
  'Time_Weight',
  'Total_Severity_Wght',
  'Section_Desc',
  'Group_Desc',
  'Viol_Unit',
] as const;
/** The SMS Input – Crash columns the carriers build reads (a subset of dataset 4wxs-vbns, README). */
export const CRASH_COLUMNS = [
  'Report_Number',
  'Report_Seq_No',
  'DOT_Number',
  'Report_Date',
  'Report_State',
  'Fatalities',
  'Injuries',
  'Tow_Away',
  'Hazmat_Released',
  'Severity_Weight',
  'Time_Weight',
  'Not_Preventable',
] as const;

/** Flags are booleans, written `Y`/`N` in the txt form and `true`/`false` in the CSV form; everything else is
 * text (OP_OTHER too: `N` or free text such as `TOW TRUCK`, README §1). */
export type CensusRecord = Record<CensusField, string | boolean>;

export function toCensusTxtLine(r: CensusRecord): string {
  let line = '';
  for (let i = 0; i < CENSUS_FIELDS.length; i++) {
    const v = r[CENSUS_FIELDS[i]!];
    const text = typeof v === 'boolean' ? (v ? 'Y' : 'N') : v.replaceAll('"', '""');
    line += i === 0 ? `"${text}"` : `,"${text}"`;
  }
  return `${line}\r\n`;
}

export function toCensusCsvLine(r: CensusRecord): string {
  let line = '';
  for (let i = 0; i < CENSUS_CSV_FIELDS.length; i++) {
    const v = r[CENSUS_CSV_FIELDS[i]!];
    const text = typeof v === 'boolean' ? (v ? 'true' : 'false') : toCsvField(v);
    line += i === 0 ? text : `,${text}`;
  }
  return `${line}\n`;
}

export const bool = (b: boolean) => (b ? 'true' : 'false');
