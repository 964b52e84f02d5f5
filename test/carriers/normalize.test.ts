// Carriers inputs and normalizers, one table row per edge case. Every fixture row is invented here.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CsvError, readCsv } from '../../pipeline/core/csv.ts';
import {
  addMonths,
  isValidIsoDate,
  monthsBetween,
  parseAnyDate,
  parseCompactDate,
  parseIsoDate,
  parseOracleDate,
  parseUsDate,
} from '../../contract/core/dates.ts';
import { scanInputs } from '../../pipeline/core/inputs.ts';
import { CARRIER_INPUTS, CARRIER_KINDS, CENSUS_COLUMNS, CRASH_COLUMNS } from '../../pipeline/carriers/inputs.ts';
import { normalizeCensusRow, toDotNumber } from '../../pipeline/carriers/normalize-census.ts';
import {
  normalizeCrashRow,
  normalizeInspectionRow,
  normalizeViolationRow,
  toBasic,
  toSmsFlag,
} from '../../pipeline/carriers/normalize-sms.ts';
import type { CensusRow } from '../../pipeline/carriers/types.ts';

const REF = '2025-09-15';

let dir = '';
let n = 0;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'carriers-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
async function fixture(name: string, content: string): Promise<string> {
  const path = join(dir, `${++n}-${name}`);
  await writeFile(path, content);
  return path;
}

describe('dates', () => {
  it.each([
    ['01-OCT-19', '2019-10-01'],
    ['01-JUN-74', '1974-06-01'],
    ['01-jun-74', '1974-06-01'],
    ['1-Oct-19', '2019-10-01'],
    ['13-DEC-99', '1999-12-13'],
    ['01-JAN-00', '2000-01-01'],
    ['28-AUG-25', '2025-08-28'],
    // Up to one year past the reference stays in 20YY; one day more goes back a century.
    ['15-SEP-26', '2026-09-15'],
    ['16-SEP-26', '1926-09-16'],
    ['01-OCT-2019', '2019-10-01'],
    ['29-FEB-24', '2024-02-29'],
    ['31-FEB-24', undefined],
    ['29-FEB-23', undefined],
    ['00-JAN-24', undefined],
    ['01-XYZ-19', undefined],
    ['01-OCT-199', undefined],
    ['2019-10-01', undefined],
    ['', null],
    ['   ', null],
    [undefined, null],
  ])('parseOracleDate(%j) → %j', (s, expected) => {
    expect(parseOracleDate(s, REF)).toBe(expected);
  });

  it('pivots on the reference given, not on a clock', () => {
    expect(parseOracleDate('01-JUN-74', '2073-06-01')).toBe('2074-06-01');
    expect(parseOracleDate('01-JUN-74', '2073-05-31')).toBe('1974-06-01');
    expect(() => parseOracleDate('01-JUN-74', '2025-02-30')).toThrow(/reference date/);
  });

  it.each([
    ['parseCompactDate', '20240130', '2024-01-30', parseCompactDate],
    ['parseCompactDate', '20240230', undefined, parseCompactDate],
    ['parseCompactDate', '00000000', undefined, parseCompactDate],
    ['parseCompactDate', '2024013', undefined, parseCompactDate],
    ['parseCompactDate', '', null, parseCompactDate],
    ['parseUsDate', '06/26/2024', '2024-06-26', parseUsDate],
    ['parseUsDate', '9/6/2024', '2024-09-06', parseUsDate],
    ['parseUsDate', '02/30/2024', undefined, parseUsDate],
    ['parseUsDate', '13/01/2024', undefined, parseUsDate],
    ['parseUsDate', ' ', null, parseUsDate],
    ['parseIsoDate', '2024-01-30', '2024-01-30', parseIsoDate],
    ['parseIsoDate', '2024-01-30T00:00:00.000', '2024-01-30', parseIsoDate],
    ['parseIsoDate', '2021-02-28T06:33:31.490+0000', '2021-02-28', parseIsoDate],
    ['parseIsoDate', '2024-13-01', undefined, parseIsoDate],
    ['parseIsoDate', '2024-1-30', undefined, parseIsoDate],
    ['parseIsoDate', '', null, parseIsoDate],
  ])('%s(%j) → %j', (_, s, expected, parse) => {
    expect(parse(s)).toBe(expected);
  });

  it.each([
    ['30-JAN-24', '2024-01-30'],
    ['20240130', '2024-01-30'],
    ['2024-01-30', '2024-01-30'],
    ['01/30/2024', '2024-01-30'],
    ['01-JUN-74', '1974-06-01'],
    ['31-FEB-24', undefined],
    ['20240231', undefined],
    ['30/01/2024', undefined],
    ['yesterday', undefined],
    ['', null],
  ])('parseAnyDate(%j) → %j', (s, expected) => {
    expect(parseAnyDate(s, REF)).toBe(expected);
  });

  it.each([
    ['2024-02-29', true],
    ['2023-02-29', false],
    ['2024-04-31', false],
    ['0000-01-01', false],
    ['2024-01-30T00:00', false],
    ['', false],
  ])('isValidIsoDate(%j) → %j', (s, expected) => {
    expect(isValidIsoDate(s)).toBe(expected);
  });

  it.each([
    ['2024-01-31', 1, '2024-02-29'],
    ['2024-02-29', 12, '2025-02-28'],
    ['2024-03-15', -3, '2023-12-15'],
    ['2025-09-15', -24, '2023-09-15'],
  ])('addMonths(%j, %j) → %j', (date, months, expected) => {
    expect(addMonths(date, months)).toBe(expected);
  });

  it.each([
    ['2024-01-15', '2024-07-14', 5],
    ['2024-01-15', '2024-07-15', 6],
    ['2024-01-31', '2024-02-29', 1],
    ['2024-07-15', '2024-01-15', -6],
    ['2024-01-15', '2024-01-15', 0],
  ])('monthsBetween(%j, %j) → %j', (from, to, expected) => {
    expect(monthsBetween(from, to)).toBe(expected);
  });
});

// The same invented carrier in both census forms: FMCSA txt (upper-case quoted header, CRLF, Y/N, FAX after
// TELEPHONE) and the open-data export (lower-case, true/false, fax last).
const TXT_HEADER =
  '"DOT_NUMBER","LEGAL_NAME","DBA_NAME","CARRIER_OPERATION","HM_FLAG","PC_FLAG","PHY_STREET","PHY_CITY","PHY_STATE","PHY_ZIP","PHY_COUNTRY","MAILING_STREET","MAILING_CITY","MAILING_STATE","MAILING_ZIP","MAILING_COUNTRY","TELEPHONE","FAX","EMAIL_ADDRESS","MCS150_DATE","MCS150_MILEAGE","MCS150_MILEAGE_YEAR","ADD_DATE","OIC_STATE","NBR_POWER_UNIT","DRIVER_TOTAL","RECENT_MILEAGE","RECENT_MILEAGE_YEAR","VMT_SOURCE_ID","PRIVATE_ONLY","AUTHORIZED_FOR_HIRE","EXEMPT_FOR_HIRE","PRIVATE_PROPERTY","PRIVATE_PASSENGER_BUSINESS","PRIVATE_PASSENGER_NONBUSINESS","MIGRANT","US_MAIL","FEDERAL_GOVERNMENT","STATE_GOVERNMENT","LOCAL_GOVERNMENT","INDIAN_TRIBE","OP_OTHER"';
const TXT_ROW =
  '"0000123","ACME HAULING, LLC","ACME","A","N","Y","1 MAIN ST","NEWARK","NJ","07102","US","PO BOX 1","NEWARK","NJ","07102","US","(973) 555-0100","(973) 555-0101","OPS@ACME.TEST","02-JAN-24","250000","2023","01-JUN-74","NJ","12","","0","0","","N","Y","N","N","Y","N","N","N","N","N","N","N","FARM"';
const CSV_HEADER =
  'dot_number,legal_name,dba_name,carrier_operation,hm_flag,pc_flag,phy_street,phy_city,phy_state,phy_zip,phy_country,mailing_street,mailing_city,mailing_state,mailing_zip,mailing_country,telephone,email_address,mcs150_date,mcs150_mileage,mcs150_mileage_year,add_date,oic_state,nbr_power_unit,driver_total,recent_mileage,recent_mileage_year,vmt_source_id,private_only,authorized_for_hire,exempt_for_hire,private_property,private_passenger_business,private_passenger_nonbusiness,migrant,us_mail,federal_government,state_government,local_government,indian_tribe,op_other,fax';
const CSV_ROW =
  '123,"ACME HAULING, LLC",ACME,A,false,true,1 MAIN ST,NEWARK,NJ,07102,US,PO BOX 1,NEWARK,NJ,07102,US,(973) 555-0100,OPS@ACME.TEST,02-JAN-24,250000,2023,01-JUN-74,NJ,12,,0,0,,false,true,false,false,true,false,false,false,false,false,false,false,FARM,(973) 555-0101';

const ACME: CensusRow = {
  dot: 123,
  legal_name: 'ACME HAULING, LLC',
  dba_name: 'ACME',
  carrier_operation: 'A',
  hm_flag: false,
  pc_flag: true,
  city: 'NEWARK',
  state: 'NJ',
  zip: '07102',
  country: 'US',
  power_units: 12,
  drivers: null,
  mcs150_mileage: 250000,
  mcs150_mileage_year: 2023,
  recent_mileage: 0,
  recent_mileage_year: 0,
  mcs150_date: '2024-01-02',
  add_date: '1974-06-01',
  authorized_for_hire: true,
  private_passenger_business: true,
  private_passenger_nonbusiness: false,
};

async function readCensus(content: string): Promise<ReturnType<typeof normalizeCensusRow>[]> {
  const path = await fixture('census.txt', content);
  const out: ReturnType<typeof normalizeCensusRow>[] = [];
  await readCsv(path, CENSUS_COLUMNS, (raw, record) => out.push(normalizeCensusRow(raw, path, record, REF)));
  return out;
}

describe('census, both forms', () => {
  it.each([
    ['FMCSA_CENSUS1 txt', `${TXT_HEADER}\r\n${TXT_ROW}\r\n`],
    ['open-data CSV', `${CSV_HEADER}\n${CSV_ROW}\n`],
  ])('%s reads to the same row', async (_, content) => {
    const [result] = await readCensus(content);
    expect(result).toEqual({ row: ACME, issues: [] });
  });

  it('recognizes both forms as census, and each SMS Input file by its header', async () => {
    const input = await mkdtemp(join(dir, 'inputs-'));
    const files: Record<string, string> = {
      'a.txt': `${TXT_HEADER}\r\n`,
      'b.csv': `${CSV_HEADER}\n`,
      'c.csv':
        'Unique_ID,Report_Number,Report_State,DOT_Number,Insp_Date,Insp_level_ID,Driver_OOS_Total,Vehicle_OOS_Total,Hazmat_OOS_Total,Hazmat_Placard_req,Unsafe_Insp,Fatigued_Insp,Dr_Fitness_Insp,Subt_Alcohol_Insp,Vh_Maint_Insp,HM_Insp,BASIC_Viol\n',
      'd.csv':
        'unique_id,insp_date,dot_number,viol_code,basic_desc,oos_indicator,oos_weight,severity_weight,time_weight,total_severity_wght,section_desc,group_desc,viol_unit\n',
      'e.csv':
        'Report_Number,Report_Seq_No,DOT_Number,Report_Date,Report_State,Fatalities,Injuries,Tow_Away,Hazmat_Released,Severity_Weight,Time_Weight,Not_Preventable\n',
      'f.csv': 'DOCKET_NUMBER,DOT_NUMBER,SERVE_DATE\n',
    };
    for (const [name, content] of Object.entries(files)) await writeFile(join(input, name), content);
    const scan = await scanInputs(
      input,
      CARRIER_KINDS.map((kind) => ({ kind, columns: CARRIER_INPUTS[kind].columns })),
    );
    expect(Object.fromEntries(scan.recognized.map((r) => [r.file, r.kind]))).toEqual({
      'a.txt': 'census',
      'b.csv': 'census',
      'c.csv': 'inspection',
      'd.csv': 'violation',
      'e.csv': 'crash',
    });
    expect(scan.ignored.map((i) => i.file)).toEqual(['f.csv']);
  });

  it('fails naming the file and the column when a required crash column is missing', async () => {
    const path = await fixture(
      'crash.csv',
      'Report_Number,Report_Seq_No,DOT_Number,Report_Date,Fatalities,Injuries,Tow_Away\nNJ1,1,123,20240130,0,0,Y\n',
    );
    const read = readCsv(path, CRASH_COLUMNS, () => {});
    await expect(read).rejects.toThrow(CsvError);
    await expect(read).rejects.toThrow(
      new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: missing required column "Hazmat_Released"`),
    );
  });
});

const CENSUS_RAW: Record<string, string> = {
  dot: '123',
  legal_name: 'ACME HAULING LLC',
  dba_name: '',
  carrier_operation: 'C',
  hm_flag: 'false',
  pc_flag: 'false',
  city: 'TRENTON',
  state: 'NJ',
  zip: '08861',
  country: 'US',
  power_units: '3',
  drivers: '4',
  mcs150_date: '01-OCT-19',
  mcs150_mileage: '10000',
  mcs150_mileage_year: '2018',
  add_date: '01-JUL-15',
  recent_mileage: '0',
  recent_mileage_year: '0',
  authorized_for_hire: 'true',
  private_passenger_business: 'false',
  private_passenger_nonbusiness: 'false',
};
const census = (over: Record<string, string>) => normalizeCensusRow({ ...CENSUS_RAW, ...over }, 'census.csv', 7, REF);

describe('normalizeCensusRow', () => {
  it.each<[string, Record<string, string>, Partial<CensusRow>]>([
    ['zero-padded DOT', { dot: '00000123' }, { dot: 123 }],
    ['8-digit DOT', { dot: '12345678' }, { dot: 12345678 }],
    ['zip with leading zero', { zip: '08861' }, { zip: '08861' }],
    ['zip+4', { zip: '34604-1486' }, { zip: '34604-1486' }],
    ['empty power units are null', { power_units: '' }, { power_units: null }],
    ['0 power units stay 0', { power_units: '0' }, { power_units: 0 }],
    [
      'recent mileage 0,0 kept as 0',
      { recent_mileage: '0', recent_mileage_year: '0' },
      { recent_mileage: 0, recent_mileage_year: 0 },
    ],
    [
      'empty mileage is null',
      { mcs150_mileage: '', mcs150_mileage_year: '' },
      { mcs150_mileage: null, mcs150_mileage_year: null },
    ],
    ['Y/N flags', { hm_flag: 'Y', pc_flag: 'n' }, { hm_flag: true, pc_flag: false }],
    ['true/false flags any case', { hm_flag: 'TRUE', pc_flag: 'False' }, { hm_flag: true, pc_flag: false }],
    ['empty flag is null', { authorized_for_hire: '' }, { authorized_for_hire: null }],
    ['lower-case operation', { carrier_operation: 'b' }, { carrier_operation: 'B' }],
    ['empty DBA is null', { dba_name: '  ' }, { dba_name: null }],
    ['1974 add date', { add_date: '01-JUN-74' }, { add_date: '1974-06-01' }],
    ['2019 MCS-150 date', { mcs150_date: '01-OCT-19' }, { mcs150_date: '2019-10-01' }],
    ['empty date is null', { mcs150_date: '' }, { mcs150_date: null }],
    ['ISO date (other exports)', { mcs150_date: '2019-10-01T00:00:00.000' }, { mcs150_date: '2019-10-01' }],
  ])('%s', (_, over, expected) => {
    const { row, issues } = census(over);
    expect(issues).toEqual([]);
    expect(row).toMatchObject(expected);
  });

  it.each<[string, Record<string, string>, Partial<CensusRow>, string]>([
    ['impossible date', { mcs150_date: '31-FEB-24' }, { mcs150_date: null }, 'mcs150_date "31-FEB-24"'],
    ['unknown operation', { carrier_operation: 'D' }, { carrier_operation: null }, 'carrier_operation "D"'],
    ['empty operation', { carrier_operation: '' }, { carrier_operation: null }, 'carrier_operation ""'],
    ['unknown flag', { hm_flag: 'X' }, { hm_flag: null }, 'hm_flag "X"'],
    ['negative count', { drivers: '-1' }, { drivers: null }, 'drivers "-1"'],
    ['fractional count', { power_units: '1.5' }, { power_units: null }, 'power_units "1.5"'],
  ])('%s: kept, field null, one issue', (_, over, expected, message) => {
    const { row, issues } = census(over);
    expect(row).toMatchObject(expected);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ file: 'census.csv', record: 7, kind: 'invalid_value', dropped: false });
    expect(issues[0]!.message).toContain(message);
  });

  it.each([
    ['empty DOT', { dot: '' }],
    ['DOT 0', { dot: '0000' }],
    ['9-digit DOT', { dot: '123456789' }],
    ['DOT with letters', { dot: 'US123' }],
    ['empty legal name', { legal_name: ' ' }],
  ])('%s: dropped with an issue', (_, over) => {
    const { row, issues } = census(over);
    expect(row).toBeUndefined();
    expect(issues).toEqual([expect.objectContaining({ kind: 'invalid_row', dropped: true, record: 7 })]);
  });

  it('rejects an invalid reference date', () => {
    expect(() => normalizeCensusRow(CENSUS_RAW, 'census.csv', 1, '2025-9-15')).toThrow(/reference date/);
  });
});

describe('SMS values', () => {
  it.each([
    ['00830331', 830331],
    ['1', 1],
    ['99999999', 99999999],
    ['000000000123', 123],
    ['0', undefined],
    ['', undefined],
    ['123456789', undefined],
    ['12 3', undefined],
  ])('toDotNumber(%j) → %j', (raw, expected) => {
    expect(toDotNumber(raw)).toBe(expected);
  });

  it.each([
    ['true', true],
    ['FALSE', false],
    ['Y', true],
    ['n', false],
    ['1', true],
    ['0', false],
    ['3', true],
    ['', null],
    ['maybe', undefined],
    ['-1', undefined],
  ])('toSmsFlag(%j) → %j', (raw, expected) => {
    expect(toSmsFlag(raw)).toBe(expected);
  });

  it.each([
    ['Unsafe Driving', 'unsafe_driving'],
    ['Hours-of-Service Compliance', 'hos_compliance'],
    ['HOS Compliance', 'hos_compliance'],
    ['Fatigued Driving', 'hos_compliance'],
    ['Fatigued Driving (HOS)', 'hos_compliance'],
    ['Driver Fitness', 'driver_fitness'],
    ['Controlled Substances/Alcohol', 'controlled_substances'],
    ['Drugs/Alcohol', 'controlled_substances'],
    ['Vehicle Maintenance', 'vehicle_maintenance'],
    ['Vehicle Maint.', 'vehicle_maintenance'],
    ['Cargo-Related', 'vehicle_maintenance'],
    ['Hazardous Materials Compliance', 'hazmat'],
    ['HM Compliance', 'hazmat'],
    ['Hazmat', 'hazmat'],
    ['  unsafe   DRIVING ', 'unsafe_driving'],
    ['Crash Indicator', undefined],
    ['', undefined],
  ])('toBasic(%j) → %j', (desc, expected) => {
    expect(toBasic(desc)).toBe(expected);
  });
});

const INSPECTION_RAW: Record<string, string> = {
  unique_id: '900001',
  dot: '123',
  date: '30-JAN-24',
  state: 'tx',
  level: '1',
  driver_oos: '0',
  vehicle_oos: '1',
  hazmat_oos: '0',
  hazmat_placard: 'false',
  Unsafe_Insp: 'true',
  Fatigued_Insp: 'true',
  Dr_Fitness_Insp: 'true',
  Subt_Alcohol_Insp: 'true',
  Vh_Maint_Insp: 'true',
  HM_Insp: 'false',
  with_violations: '2',
};
const inspection = (over: Record<string, string>) =>
  normalizeInspectionRow({ ...INSPECTION_RAW, ...over }, 'insp.csv', 3, REF);

describe('normalizeInspectionRow', () => {
  it('reads a full row', () => {
    expect(inspection({})).toEqual({
      row: {
        unique_id: '900001',
        dot: 123,
        date: '2024-01-30',
        state: 'TX',
        level: 1,
        driver_oos: 0,
        vehicle_oos: 1,
        hazmat_oos: 0,
        hazmat_placard: false,
        relevant: {
          unsafe_driving: true,
          hos_compliance: true,
          driver_fitness: true,
          controlled_substances: true,
          vehicle_maintenance: true,
          hazmat: false,
        },
        with_violations: true,
      },
      issues: [],
    });
  });

  it.each<[string, Record<string, string>, Record<string, unknown>]>([
    ['compact date', { date: '20240130' }, { date: '2024-01-30' }],
    ['ISO date', { date: '2024-01-30' }, { date: '2024-01-30' }],
    [
      'Y/N flags',
      { hazmat_placard: 'Y', HM_Insp: 'Y', Unsafe_Insp: 'N' },
      { hazmat_placard: true, relevant: expect.objectContaining({ hazmat: true, unsafe_driving: false }) },
    ],
    [
      '1/0 flags',
      { Vh_Maint_Insp: '0', HM_Insp: '1' },
      { relevant: expect.objectContaining({ vehicle_maintenance: false, hazmat: true }) },
    ],
    ['BASIC_Viol 0', { with_violations: '0' }, { with_violations: false }],
    ['BASIC_Viol true', { with_violations: 'TRUE' }, { with_violations: true }],
    ['empty level', { level: '' }, { level: null }],
    ['zero-padded DOT', { dot: '00000123' }, { dot: 123 }],
  ])('%s', (_, over, expected) => {
    const { row, issues } = inspection(over);
    expect(issues).toEqual([]);
    expect(row).toMatchObject(expected);
  });

  it.each<[string, Record<string, string>, Record<string, unknown>, string]>([
    ['level 9', { level: '9' }, { level: null }, 'invalid_value'],
    ['empty OOS count', { driver_oos: '' }, { driver_oos: 0 }, 'missing_value'],
    ['unreadable OOS count', { vehicle_oos: 'x' }, { vehicle_oos: 0 }, 'invalid_value'],
    ['unreadable flag', { hazmat_placard: 'maybe' }, { hazmat_placard: false }, 'invalid_value'],
  ])('%s: kept with one issue', (_, over, expected, kind) => {
    const { row, issues } = inspection(over);
    expect(row).toMatchObject(expected);
    expect(issues).toEqual([expect.objectContaining({ kind, dropped: false, file: 'insp.csv', record: 3 })]);
  });

  it.each([
    ['impossible date', { date: '31-FEB-24' }],
    ['empty date', { date: '' }],
    ['invalid DOT', { dot: 'abc' }],
    ['empty Unique_ID', { unique_id: '' }],
  ])('%s: dropped', (_, over) => {
    const { row, issues } = inspection(over);
    expect(row).toBeUndefined();
    expect(issues).toEqual([expect.objectContaining({ kind: 'invalid_row', dropped: true })]);
  });
});

const VIOLATION_RAW: Record<string, string> = {
  unique_id: '900001',
  date: '30-JAN-24',
  dot: '123',
  code: '3922SLLS2',
  basic: 'Unsafe Driving',
  oos: 'false',
  oos_weight: '0',
  severity_weight: '5',
  description: 'Speeding  6-10 miles per hour over the speed limit',
  group: 'Speeding 2',
};
const violation = (over: Record<string, string>) =>
  normalizeViolationRow({ ...VIOLATION_RAW, ...over }, 'viol.csv', 4, REF);

describe('normalizeViolationRow', () => {
  it('reads a full row', () => {
    expect(violation({})).toEqual({
      row: {
        unique_id: '900001',
        dot: 123,
        date: '2024-01-30',
        code: '3922SLLS2',
        basic: 'unsafe_driving',
        oos: false,
        severity_weight: 5,
        oos_weight: 0,
        description: 'Speeding 6-10 miles per hour over the speed limit',
        group: 'Speeding 2',
      },
      issues: [],
    });
  });

  it.each<[string, Record<string, string>, Record<string, unknown>]>([
    ['OOS true', { oos: 'TRUE', oos_weight: '2' }, { oos: true, oos_weight: 2 }],
    ['OOS Y', { oos: 'Y', oos_weight: '2' }, { oos: true }],
    ['HOS', { basic: 'Hours-of-Service Compliance' }, { basic: 'hos_compliance' }],
    ['Cargo-Related', { basic: 'Cargo-Related' }, { basic: 'vehicle_maintenance' }],
    ['empty group', { group: '' }, { group: null }],
  ])('%s', (_, over, expected) => {
    const { row, issues } = violation(over);
    expect(issues).toEqual([]);
    expect(row).toMatchObject(expected);
  });

  it('keeps a row whose BASIC_Desc names no BASIC, with basic null and an issue', () => {
    const { row, issues } = violation({ basic: 'Crash Indicator' });
    expect(row).toMatchObject({ basic: null, severity_weight: 5 });
    expect(issues).toEqual([expect.objectContaining({ kind: 'unknown_basic', dropped: false })]);
  });

  it('derives an empty OOS weight from the OOS indicator', () => {
    const { row, issues } = violation({ oos: 'true', oos_weight: '' });
    expect(row).toMatchObject({ oos: true, oos_weight: 2 });
    expect(issues).toEqual([expect.objectContaining({ kind: 'missing_value', dropped: false })]);
    const { oos_weight: _, ...withoutColumn } = VIOLATION_RAW;
    expect(normalizeViolationRow({ ...withoutColumn, oos: 'Y' }, 'viol.csv', 4, REF)).toMatchObject({
      row: { oos_weight: 2 },
      issues: [],
    });
  });

  it.each([
    ['empty severity', { severity_weight: '' }],
    ['unreadable severity', { severity_weight: 'high' }],
    ['impossible date', { date: '30-FEB-24' }],
  ])('%s: dropped', (_, over) => {
    expect(violation(over)).toEqual({ issues: [expect.objectContaining({ kind: 'invalid_row', dropped: true })] });
  });
});

const crash = (raw: Record<string, string>) => normalizeCrashRow(raw, 'crash.csv', 5, REF);

describe('normalizeCrashRow', () => {
  const expected = {
    report_number: 'NJ0000000001',
    seq: '1',
    dot: 123,
    date: '2024-03-15',
    state: 'NJ',
    fatalities: 0,
    injuries: 2,
    tow_away: true,
    hazmat_released: false,
    not_preventable: false,
  };
  it.each([
    [
      'SMS Input form (DD-MON-YY, true/false)',
      {
        report_number: 'NJ0000000001',
        seq: '1',
        dot: '123',
        date: '15-MAR-24',
        state: 'NJ',
        fatalities: '0',
        injuries: '2',
        tow_away: 'true',
        hazmat_released: 'false',
        not_preventable: 'false',
      },
    ],
    [
      'MCMIS form (YYYYMMDD, Y/N, no Not_Preventable)',
      {
        report_number: 'NJ0000000001',
        seq: '1',
        dot: '00000123',
        date: '20240315',
        state: 'nj',
        fatalities: '0',
        injuries: '2',
        tow_away: 'Y',
        hazmat_released: 'N',
      },
    ],
    [
      'empty Not_Preventable',
      {
        report_number: 'NJ0000000001',
        seq: '1',
        dot: '123',
        date: '2024-03-15',
        state: 'NJ',
        fatalities: '0',
        injuries: '2',
        tow_away: 'Y',
        hazmat_released: 'N',
        not_preventable: '',
      },
    ],
  ])('%s', (_, raw) => {
    expect(crash(raw)).toEqual({ row: expected, issues: [] });
  });

  it('reads Not_Preventable, flags both ways', () => {
    const base = {
      report_number: 'TX1',
      seq: '2',
      dot: '7',
      date: '01-JAN-25',
      fatalities: '1',
      injuries: '0',
      tow_away: 'N',
      hazmat_released: 'Y',
    };
    expect(crash({ ...base, not_preventable: 'Y' }).row).toMatchObject({
      not_preventable: true,
      hazmat_released: true,
      fatalities: 1,
      state: null,
    });
    expect(crash({ ...base, not_preventable: 'true' }).row).toMatchObject({ not_preventable: true });
  });

  it.each([
    ['empty fatalities', { fatalities: '' }, 'missing_value'],
    ['unreadable tow-away', { tow_away: 'towed' }, 'invalid_value'],
    ['empty sequence number', { seq: '' }, 'missing_value'],
  ])('%s: kept with one issue', (_, over, kind) => {
    const raw = {
      report_number: 'TX1',
      seq: '2',
      dot: '7',
      date: '01-JAN-25',
      fatalities: '0',
      injuries: '0',
      tow_away: 'N',
      hazmat_released: 'N',
      ...over,
    };
    const { row, issues } = crash(raw);
    expect(row).toBeDefined();
    expect(issues).toEqual([expect.objectContaining({ kind, dropped: false, file: 'crash.csv', record: 5 })]);
  });

  it.each([
    ['empty report number', { report_number: '' }],
    ['impossible date', { date: '20250229' }],
    ['invalid DOT', { dot: '' }],
  ])('%s: dropped', (_, over) => {
    const raw = {
      report_number: 'TX1',
      seq: '2',
      dot: '7',
      date: '01-JAN-25',
      fatalities: '0',
      injuries: '0',
      tow_away: 'N',
      hazmat_released: 'N',
      ...over,
    };
    expect(crash(raw)).toEqual({ issues: [expect.objectContaining({ kind: 'invalid_row', dropped: true })] });
  });
});
