// The carriers demo inputs: the FMCSA formats byte for byte (shared/data/carriers/README.md §1 open-data census,
// §3 FMCSA_CENSUS1 txt, "SMS Input file layouts"), determinism per seed, the planted facts visible in the files,
// and the links between inspections, violations and crashes.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCarriersDemo, type CarriersDemoFacts } from '../../pipeline/demo/carriers/index.ts';
import {
  AUTHORITY_HISTORY_FILE,
  INSURANCE_FILE,
  INSURANCE_HISTORY_FILE,
  LI_CARRIER_FILE,
  OOS_ORDER_FILE,
  REGISTRY_HEADERS,
  REVOCATION_FILE,
} from '../../pipeline/demo/carriers/registry.ts';

const CENSUS_TXT = 'census/FMCSA_CENSUS1_2026Oct.txt';
const CENSUS_CSV = 'census/sms_input_census.csv';
const INSPECTIONS = 'sms/SMS_Input_Inspection.csv';
const VIOLATIONS = 'sms/SMS_Input_Violation.csv';
const CRASHES = 'sms/SMS_Input_Crash.csv';
const SMS_FILES = [INSPECTIONS, VIOLATIONS, CRASHES];

// Expected headers, written out independently of the generator.
/** README §3, the FMCSA_CENSUS1 header line exactly (FAX after TELEPHONE). */
const CENSUS_TXT_HEADER =
  '"DOT_NUMBER","LEGAL_NAME","DBA_NAME","CARRIER_OPERATION","HM_FLAG","PC_FLAG","PHY_STREET","PHY_CITY","PHY_STATE","PHY_ZIP","PHY_COUNTRY","MAILING_STREET","MAILING_CITY","MAILING_STATE","MAILING_ZIP","MAILING_COUNTRY","TELEPHONE","FAX","EMAIL_ADDRESS","MCS150_DATE","MCS150_MILEAGE","MCS150_MILEAGE_YEAR","ADD_DATE","OIC_STATE","NBR_POWER_UNIT","DRIVER_TOTAL","RECENT_MILEAGE","RECENT_MILEAGE_YEAR","VMT_SOURCE_ID","PRIVATE_ONLY","AUTHORIZED_FOR_HIRE","EXEMPT_FOR_HIRE","PRIVATE_PROPERTY","PRIVATE_PASSENGER_BUSINESS","PRIVATE_PASSENGER_NONBUSINESS","MIGRANT","US_MAIL","FEDERAL_GOVERNMENT","STATE_GOVERNMENT","LOCAL_GOVERNMENT","INDIAN_TRIBE","OP_OTHER"';
/** README §1, the open-data export header exactly (lower case, fax last). */
const CENSUS_CSV_HEADER =
  'dot_number,legal_name,dba_name,carrier_operation,hm_flag,pc_flag,phy_street,phy_city,phy_state,phy_zip,phy_country,mailing_street,mailing_city,mailing_state,mailing_zip,mailing_country,telephone,email_address,mcs150_date,mcs150_mileage,mcs150_mileage_year,add_date,oic_state,nbr_power_unit,driver_total,recent_mileage,recent_mileage_year,vmt_source_id,private_only,authorized_for_hire,exempt_for_hire,private_property,private_passenger_business,private_passenger_nonbusiness,migrant,us_mail,federal_government,state_government,local_government,indian_tribe,op_other,fax';
const INSPECTION_HEADER =
  'Unique_ID,Report_Number,Report_State,DOT_Number,Insp_Date,Insp_level_ID,County_code_State,Time_Weight,Driver_OOS_Total,Vehicle_OOS_Total,Total_Hazmat_Sent,OOS_Total,Hazmat_OOS_Total,Hazmat_Placard_req,Unit_Type_Desc,Unit_Make,Unit_License,Unit_License_State,VIN,Unit_Decal_Number,Unit_Type_Desc2,Unit_Make2,Unit_License2,Unit_License_State2,VIN2,Unit_Decal_Number2,Unsafe_Insp,Fatigued_Insp,Dr_Fitness_Insp,Subt_Alcohol_Insp,Vh_Maint_Insp,HM_Insp,BASIC_Viol,Unsafe_Viol,Fatigued_Viol,Dr_Fitness_Viol,Subt_Alcohol_Viol,Vh_Maint_Viol,HM_Viol';
const VIOLATION_HEADER =
  'Unique_ID,Insp_Date,DOT_Number,Viol_Code,BASIC_Desc,OOS_Indicator,OOS_Weight,Severity_Weight,Time_Weight,Total_Severity_Wght,Section_Desc,Group_Desc,Viol_Unit';
const CRASH_HEADER =
  'Report_Number,Report_Seq_No,DOT_Number,Report_Date,Report_State,Fatalities,Injuries,Tow_Away,Hazmat_Released,Severity_Weight,Time_Weight,Not_Preventable';

const CENSUS_FLAGS = [
  'HM_FLAG',
  'PC_FLAG',
  'PRIVATE_ONLY',
  'AUTHORIZED_FOR_HIRE',
  'EXEMPT_FOR_HIRE',
  'PRIVATE_PROPERTY',
  'PRIVATE_PASSENGER_BUSINESS',
  'PRIVATE_PASSENGER_NONBUSINESS',
  'MIGRANT',
  'US_MAIL',
  'FEDERAL_GOVERNMENT',
  'STATE_GOVERNMENT',
  'LOCAL_GOVERNMENT',
  'INDIAN_TRIBE',
];
const INSPECTION_BOOLEANS = [
  'Hazmat_Placard_req',
  'Unsafe_Insp',
  'Fatigued_Insp',
  'Dr_Fitness_Insp',
  'Subt_Alcohol_Insp',
  'Vh_Maint_Insp',
  'HM_Insp',
];
/** BASIC_Desc → the inspection's relevance flag and violation count columns. */
const BASIC_COLUMNS: Record<string, [string, string]> = {
  'Unsafe Driving': ['Unsafe_Insp', 'Unsafe_Viol'],
  'Hours-of-Service Compliance': ['Fatigued_Insp', 'Fatigued_Viol'],
  'Driver Fitness': ['Dr_Fitness_Insp', 'Dr_Fitness_Viol'],
  'Controlled Substances/Alcohol': ['Subt_Alcohol_Insp', 'Subt_Alcohol_Viol'],
  'Vehicle Maintenance': ['Vh_Maint_Insp', 'Vh_Maint_Viol'],
  'Hazardous Materials Compliance': ['HM_Insp', 'HM_Viol'],
};

type Row = Record<string, string>;

/** RFC 4180 records (quoted commas and quotes), CRLF or LF; a trailing line end adds no record. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      fields.push(field);
      records.push(fields);
      fields = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || fields.length > 0) records.push([...fields, field]);
  return records;
}

function toRows(text: string): Row[] {
  const [header, ...records] = parseCsv(text);
  expect(
    failing(
      records,
      (r) => r.length === header!.length,
      (r) => r.join(','),
    ),
  ).toEqual([]);
  return records.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]!])));
}

/** Rows failing a check, named, so one assertion reports all of them (per-row expect() is slow at 40k rows). */
function failing<T>(items: readonly T[], ok: (item: T) => boolean, name: (item: T) => string): string[] {
  const bad: string[] = [];
  for (const item of items) if (!ok(item)) bad.push(name(item));
  return bad.slice(0, 20);
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DD_MON_YY = /^(\d{2})-(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)-(\d{2})$/;

/** DD-MON-YY to ISO with a century pivot: two-digit years after the snapshot's year are 19xx. */
function toIso(s: string, pivotYear = 2026): string {
  const m = DD_MON_YY.exec(s);
  if (!m) throw new Error(`not DD-MON-YY: ${s}`);
  const yy = Number(m[3]);
  const year = yy <= pivotYear % 100 ? 2000 + yy : 1900 + yy;
  const iso = `${year}-${String(MONTHS.indexOf(m[2]!) + 1).padStart(2, '0')}-${m[1]}`;
  if (new Date(`${iso}T00:00:00Z`).toISOString().slice(0, 10) !== iso) throw new Error(`no such day: ${s}`);
  return iso;
}

const dirs: string[] = [];
async function tempDir(label: string): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), `carriers-demo-${label}-`));
  dirs.push(d);
  return d;
}
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

let dir: string;
let files: string[];
let facts: CarriersDemoFacts;
let progress: string[];
const bytes: Record<string, Buffer> = {};
let census: Row[];
let inspections: Row[];
let violations: Row[];
let crashes: Row[];

beforeAll(async () => {
  dir = await tempDir('main');
  progress = [];
  ({ files, facts } = await writeCarriersDemo(dir, { scale: 1, onProgress: (m) => progress.push(m) }));
  for (const f of [CENSUS_TXT, ...SMS_FILES]) bytes[f] = await readFile(join(dir, f));
  census = toRows(bytes[CENSUS_TXT]!.toString('utf8'));
  inspections = toRows(bytes[INSPECTIONS]!.toString('utf8'));
  violations = toRows(bytes[VIOLATIONS]!.toString('utf8'));
  crashes = toRows(bytes[CRASHES]!.toString('utf8'));
}, 60_000);

describe('carriers demo: formats', () => {
  it('writes the census, SMS and registry files and counts their rows', () => {
    expect(files).toEqual([CENSUS_TXT, ...SMS_FILES, ...Object.keys(REGISTRY_HEADERS)].map((f) => join(dir, f)));
    expect(facts.carriers).toBe(3000);
    expect(census.length).toBe(facts.carriers);
    expect(inspections.length).toBe(facts.inspections);
    expect(violations.length).toBe(facts.violations);
    expect(crashes.length).toBe(facts.crashes);
    expect(facts.asOf).toBe('2026-10-31');
  });

  it('writes the txt census with the FMCSA header, every field quoted, Y/N flags and CRLF', () => {
    const text = bytes[CENSUS_TXT]!.toString('latin1');
    expect(text.startsWith(`${CENSUS_TXT_HEADER}\r\n`)).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
    expect(/^[\x20-\x7e\r\n]*$/.test(text)).toBe(true);
    const lines = text.slice(0, -2).split('\r\n');
    expect(lines.length).toBe(facts.carriers + 1);
    const quotedField = '"(?:[^"]|"")*"';
    const allQuoted = new RegExp(`^${quotedField}(?:,${quotedField}){41}$`);
    expect(
      failing(
        lines,
        (l) => allQuoted.test(l),
        (l) => l,
      ),
    ).toEqual([]);
    const ok = (r: Row) =>
      CENSUS_FLAGS.every((f) => r[f] === 'Y' || r[f] === 'N') &&
      /^[ABC]$/.test(r.CARRIER_OPERATION!) &&
      /^[1-9]\d{0,7}$/.test(r.DOT_NUMBER!) &&
      /^\(\d{3}\) \d{3}-\d{4}$/.test(r.TELEPHONE!) &&
      /^(\d+)?$/.test(r.NBR_POWER_UNIT!) &&
      /^\d+$/.test(r.DRIVER_TOTAL!) &&
      /^[123]?$/.test(r.VMT_SOURCE_ID!) &&
      // OP_OTHER is text, not a flag (README §1).
      r.OP_OTHER !== '';
    expect(failing(census, ok, (r) => JSON.stringify(r))).toEqual([]);
    const dots = census.map((r) => Number(r.DOT_NUMBER));
    expect(dots).toEqual([...dots].sort((a, b) => a - b));
    expect(new Set(dots).size).toBe(dots.length);
    // Names with a comma exist, so a reader has to honour the quotes.
    expect(census.some((r) => r.LEGAL_NAME!.includes(',') || r.PHY_STREET!.includes(','))).toBe(true);
  });

  it('writes the open-data CSV form when asked: lower-case header, fax last, true/false, LF, minimal quoting', async () => {
    const csvDir = await tempDir('csv');
    const { files: csvFiles, facts: csvFacts } = await writeCarriersDemo(csvDir, { scale: 1, censusForm: 'csv' });
    expect(csvFiles[0]).toBe(join(csvDir, CENSUS_CSV));
    expect(csvFacts).toEqual(facts);
    const text = await readFile(join(csvDir, CENSUS_CSV), 'utf8');
    expect(text.startsWith(`${CENSUS_CSV_HEADER}\n`)).toBe(true);
    expect(text).not.toContain('\r');
    expect(text.endsWith('\n')).toBe(true);
    // Minimal quoting: a quoted field always holds a comma or a quote.
    const quoted = [...text.matchAll(/(?:^|,)"((?:[^"]|"")*)"(?=,|$)/gm)];
    expect(quoted.length).toBeGreaterThan(0);
    expect(
      failing(
        quoted,
        (m) => /[,"]/.test(m[1]!),
        (m) => m[0],
      ),
    ).toEqual([]);
    expect(text).toMatch(/,"[^"\n]*,[^"\n]*",/);
    const rows = toRows(text);
    // Same carriers and values as the txt form, field by field; flags as true/false.
    expect(rows.length).toBe(census.length);
    const asTxt = (r: Row) =>
      Object.fromEntries(
        Object.entries(r).map(([k, v]) => [
          k.toUpperCase(),
          CENSUS_FLAGS.includes(k.toUpperCase())
            ? (({ true: 'Y', false: 'N' } as Record<string, string>)[v] ?? `bad flag ${v}`)
            : v,
        ]),
      );
    const mismatched = rows.flatMap((r, i) =>
      JSON.stringify(Object.entries(asTxt(r)).sort()) === JSON.stringify(Object.entries(census[i]!).sort())
        ? []
        : [r.dot_number],
    );
    expect(mismatched).toEqual([]);
    // The SMS files do not depend on the census form.
    for (const f of SMS_FILES) expect(sha256(await readFile(join(csvDir, f))), f).toBe(sha256(bytes[f]!));
  }, 60_000);

  it('writes the SMS files with the documented headers, LF, true/false and numbers', () => {
    const headers: Record<string, string> = {
      [INSPECTIONS]: INSPECTION_HEADER,
      [VIOLATIONS]: VIOLATION_HEADER,
      [CRASHES]: CRASH_HEADER,
    };
    for (const f of SMS_FILES) {
      const text = bytes[f]!.toString('utf8');
      expect(text.startsWith(`${headers[f]!}\n`), f).toBe(true);
      expect(text, f).not.toContain('\r');
      expect(text.endsWith('\n'), f).toBe(true);
    }
    const isBool = (v: string | undefined) => v === 'true' || v === 'false';
    const counts = [
      'Unique_ID',
      'DOT_Number',
      'Driver_OOS_Total',
      'Vehicle_OOS_Total',
      'Total_Hazmat_Sent',
      'OOS_Total',
      'Hazmat_OOS_Total',
      'BASIC_Viol',
      ...Object.values(BASIC_COLUMNS).map(([, c]) => c),
    ];
    const inspectionOk = (r: Row) =>
      INSPECTION_BOOLEANS.every((c) => isBool(r[c])) &&
      counts.every((c) => /^\d+$/.test(r[c]!)) &&
      /^[1-6]$/.test(r.Insp_level_ID!) &&
      r.Report_Number!.startsWith(r.Report_State!) &&
      r.County_code_State === r.Report_State &&
      /^[0-9A-HJ-NPR-Z]{17}$/.test(r.VIN!) &&
      /^([0-9A-HJ-NPR-Z]{17})?$/.test(r.VIN2!);
    expect(failing(inspections, inspectionOk, (r) => JSON.stringify(r))).toEqual([]);
    expect(new Set(inspections.map((r) => r.Unique_ID)).size).toBe(inspections.length);
    expect(
      failing(
        violations,
        (r) => isBool(r.OOS_Indicator),
        (r) => JSON.stringify(r),
      ),
    ).toEqual([]);
    expect(
      failing(
        crashes,
        (r) => ['Tow_Away', 'Hazmat_Released', 'Not_Preventable'].every((c) => isBool(r[c])),
        (r) => JSON.stringify(r),
      ),
    ).toEqual([]);
    expect(new Set(crashes.map((r) => `${r.Report_Number}/${r.Report_Seq_No}`)).size).toBe(crashes.length);
    // A description with a comma is quoted, and only then.
    expect(bytes[VIOLATIONS]!.toString('utf8')).toContain(',"Brakes, All Others",');
  });

  it('writes every date as DD-MON-YY, census dates from 1974 on either side of the century pivot', () => {
    expect(
      failing(
        inspections,
        (r) => DD_MON_YY.test(r.Insp_Date!),
        (r) => r.Insp_Date!,
      ),
    ).toEqual([]);
    expect(
      failing(
        violations,
        (r) => DD_MON_YY.test(r.Insp_Date!),
        (r) => r.Insp_Date!,
      ),
    ).toEqual([]);
    expect(
      failing(
        crashes,
        (r) => DD_MON_YY.test(r.Report_Date!),
        (r) => r.Report_Date!,
      ),
    ).toEqual([]);
    const added = census.map((r) => toIso(r.ADD_DATE!));
    expect([...added].sort()[0]).toMatch(/^1974-/);
    expect([...added].sort().at(-1)! <= '2026-10-31').toBe(true);
    // Both centuries are present: "74"–"99" must read as 19xx and "00"–"26" as 20xx.
    expect(added.filter((d) => d < '2000-01-01').length).toBeGreaterThan(50);
    expect(added.filter((d) => d >= '2020-01-01').length).toBeGreaterThan(300);
    const mcs150Ok = (r: Row) => {
      if (r.MCS150_DATE === '') return r.MCS150_MILEAGE === '' && r.MCS150_MILEAGE_YEAR === '';
      const iso = toIso(r.MCS150_DATE!);
      return (
        iso >= toIso(r.ADD_DATE!) &&
        iso <= '2026-10-31' &&
        (r.MCS150_MILEAGE_YEAR === '' || Number(r.MCS150_MILEAGE_YEAR) <= Number(iso.slice(0, 4)))
      );
    };
    expect(
      failing(census, mcs150Ok, (r) => `${r.DOT_NUMBER} ${r.ADD_DATE} ${r.MCS150_DATE} ${r.MCS150_MILEAGE_YEAR}`),
    ).toEqual([]);
    const filed = census.filter((r) => r.MCS150_DATE !== '').length;
    expect(filed).toBeGreaterThan(census.length * 0.85);
    expect(filed).toBeLessThan(census.length);
  });

  it('keeps inspections and crashes inside the 24 months ending asOf, time-weighted 3/2/1', () => {
    // Window (2024-10-31, 2026-10-31]; ≤ 6 months old from 2026-05-01, ≤ 12 months from 2025-11-01.
    const weight = (iso: string) => (iso >= '2026-05-01' ? '3' : iso >= '2025-11-01' ? '2' : '1');
    expect(
      failing(
        inspections,
        (r) => r.Time_Weight === weight(toIso(r.Insp_Date!)),
        (r) => `${r.Unique_ID} ${r.Insp_Date} ${r.Time_Weight}`,
      ),
    ).toEqual([]);
    expect(
      failing(
        crashes,
        (r) => r.Time_Weight === weight(toIso(r.Report_Date!)),
        (r) => `${r.Report_Number} ${r.Report_Date} ${r.Time_Weight}`,
      ),
    ).toEqual([]);
    const dates = [...inspections.map((r) => toIso(r.Insp_Date!)), ...crashes.map((r) => toIso(r.Report_Date!))].sort();
    expect(dates[0]! > '2024-10-31').toBe(true);
    expect(dates[0]! < '2024-11-15').toBe(true);
    expect(dates.at(-1)! <= '2026-10-31').toBe(true);
    expect(dates.at(-1)! > '2026-10-15').toBe(true);
  });

  it('honours asOf and months', async () => {
    const d = await tempDir('window');
    const { facts: f } = await writeCarriersDemo(d, { scale: 0.2, asOf: '2025-03-15', months: 12 });
    expect(f.asOf).toBe('2025-03-15');
    const rows = toRows(await readFile(join(d, INSPECTIONS), 'utf8'));
    expect(rows.length).toBe(f.inspections);
    const inWindow = (r: Row) => {
      const iso = toIso(r.Insp_Date!, 2025);
      return iso > '2024-03-15' && iso <= '2025-03-15' && r.Time_Weight === (iso >= '2024-09-16' ? '3' : '2');
    };
    expect(failing(rows, inWindow, (r) => `${r.Insp_Date} ${r.Time_Weight}`)).toEqual([]);
    const added = toRows(await readFile(join(d, CENSUS_TXT), 'latin1')).map((r) => toIso(r.ADD_DATE!, 2025));
    expect(added.every((a) => a >= '1974-01-01' && a <= '2025-03-15')).toBe(true);
  });

  it('reports progress and rejects options it cannot honour', async () => {
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toContain('3,000 carriers');
    const d = await tempDir('bad');
    await expect(writeCarriersDemo(d, { scale: 0.001 })).rejects.toThrow(/carriers/);
    await expect(writeCarriersDemo(d, { asOf: '2026-02-30' })).rejects.toThrow(/asOf/);
    await expect(writeCarriersDemo(d, { months: 30 })).rejects.toThrow(/months/);
    await expect(writeCarriersDemo(d, { seed: 1.5 })).rejects.toThrow(/seed/);
  });
});

describe('carriers demo: determinism', () => {
  it('is byte-identical for a seed and different for another', async () => {
    const again = await tempDir('again');
    const other = await tempDir('other');
    const same = await writeCarriersDemo(again, { scale: 1 });
    const diff = await writeCarriersDemo(other, { scale: 1, seed: 7 });
    expect(same.facts).toEqual(facts);
    for (const f of [CENSUS_TXT, ...SMS_FILES]) {
      expect(sha256(await readFile(join(again, f))), f).toBe(sha256(bytes[f]!));
      expect(sha256(await readFile(join(other, f))), f).not.toBe(sha256(bytes[f]!));
    }
    expect(diff.facts.outlier.dot).toBeGreaterThan(0);
  }, 60_000);
});

describe('carriers demo: planted facts in the files', () => {
  const byDot = () => new Map(census.map((r) => [Number(r.DOT_NUMBER), r]));

  it('reports the self-reported outlier: 45,001 power units, 2 drivers', () => {
    expect(facts.outlier).toMatchObject({ power_units: 45001, drivers: 2 });
    const r = byDot().get(facts.outlier.dot)!;
    expect(r.NBR_POWER_UNIT).toBe('45001');
    expect(r.DRIVER_TOTAL).toBe('2');
    expect(census.filter((x) => x.NBR_POWER_UNIT === '45001').length).toBe(1);
  });

  it('writes recent mileage 0,0 for unknown, an empty power-unit count, and a fleet of thousands', () => {
    const rows = byDot();
    const zero = rows.get(facts.zeroMileage)!;
    expect([zero.RECENT_MILEAGE, zero.RECENT_MILEAGE_YEAR, zero.VMT_SOURCE_ID]).toEqual(['0', '0', '']);
    expect(rows.get(facts.emptyPowerUnits)!.NBR_POWER_UNIT).toBe('');
    expect(Number(rows.get(facts.bigFleet)!.NBR_POWER_UNIT)).toBeGreaterThanOrEqual(2000);
    // Unknown recent mileage is never empty, and a known one always has its year and source.
    const mileageOk = (r: Row) =>
      r.RECENT_MILEAGE === '0' && r.RECENT_MILEAGE_YEAR === '0'
        ? r.VMT_SOURCE_ID === ''
        : /^\d+$/.test(r.RECENT_MILEAGE!) &&
          /^20\d\d$/.test(r.RECENT_MILEAGE_YEAR!) &&
          /^[123]$/.test(r.VMT_SOURCE_ID!);
    expect(
      failing(
        census,
        mileageOk,
        (r) => `${r.DOT_NUMBER} ${r.RECENT_MILEAGE},${r.RECENT_MILEAGE_YEAR},${r.VMT_SOURCE_ID}`,
      ),
    ).toEqual([]);
    expect(census.filter((r) => r.RECENT_MILEAGE === '0').length).toBeGreaterThan(census.length * 0.2);
    expect(census.filter((r) => r.NBR_POWER_UNIT === '').length).toBeGreaterThan(census.length * 0.01);
  });

  it('keeps zip codes as text, leading zeros included', () => {
    const zeros = census.filter((r) => r.PHY_COUNTRY === 'US' && r.PHY_ZIP!.startsWith('0'));
    expect(zeros.length).toBeGreaterThan(30);
    expect(
      failing(
        census.filter((x) => x.PHY_COUNTRY === 'US'),
        (r) => /^\d{5}(-\d{4})?$/.test(r.PHY_ZIP!),
        (r) => `${r.DOT_NUMBER} ${r.PHY_ZIP}`,
      ),
    ).toEqual([]);
    expect(bytes[CENSUS_TXT]!.toString('latin1')).toMatch(/"0\d{4}(-\d{4})?","US"/);
    expect(new Set(census.map((r) => r.PHY_COUNTRY))).toEqual(new Set(['US', 'CA', 'MX']));
  });

  it('lists passenger and hazmat carriers exactly as flagged', () => {
    const flagged = (f: string) => census.filter((r) => r[f] === 'Y').map((r) => Number(r.DOT_NUMBER));
    expect(facts.passenger).toEqual(flagged('PC_FLAG'));
    expect(facts.hazmat).toEqual(flagged('HM_FLAG'));
    expect(facts.passenger.length).toBeGreaterThan(10);
    expect(facts.hazmat.length).toBeGreaterThan(30);
    const rows = byDot();
    const passengerOk = (dot: number) => {
      const r = rows.get(dot)!;
      return (
        r.AUTHORIZED_FOR_HIRE === 'Y' || r.PRIVATE_PASSENGER_BUSINESS === 'Y' || r.PRIVATE_PASSENGER_NONBUSINESS === 'Y'
      );
    };
    expect(failing(facts.passenger, passengerOk, String)).toEqual([]);
    // Intrastate hazmat (B) carriers carry the HM flag (CENSUS_README CARRIER_OPERATION).
    expect(
      failing(
        census.filter((x) => x.CARRIER_OPERATION === 'B'),
        (r) => r.HM_FLAG === 'Y',
        (r) => r.DOT_NUMBER!,
      ),
    ).toEqual([]);
    // Placarded inspections belong to hazmat carriers, and they have some.
    const hazmat = new Set(facts.hazmat.map(String));
    const placarded = inspections.filter((r) => r.Hazmat_Placard_req === 'true');
    expect(placarded.length).toBeGreaterThan(0);
    expect(
      failing(
        placarded,
        (r) => hazmat.has(r.DOT_Number!),
        (r) => r.Unique_ID!,
      ),
    ).toEqual([]);
  });

  it('lists the carriers without inspections exactly', () => {
    const inspected = new Set(inspections.map((r) => Number(r.DOT_Number)));
    expect(facts.clean).toEqual(census.map((r) => Number(r.DOT_NUMBER)).filter((d) => !inspected.has(d)));
    expect(facts.clean.length).toBeGreaterThan(census.length * 0.3);
    expect(facts.clean.length).toBeLessThan(census.length * 0.9);
  });

  it('looks like the census: small fleets mostly, drivers ≈ units × 1–1.5, all three operation codes', () => {
    const units = census.filter((r) => r.NBR_POWER_UNIT !== '' && r.NBR_POWER_UNIT !== '45001');
    expect(units.filter((r) => Number(r.NBR_POWER_UNIT) <= 5).length).toBeGreaterThan(units.length * 0.7);
    expect(Math.min(...units.map((r) => Number(r.NBR_POWER_UNIT)))).toBe(1);
    const driversOk = (r: Row) => {
      const pu = Number(r.NBR_POWER_UNIT);
      const dr = Number(r.DRIVER_TOTAL);
      return dr >= pu && dr <= Math.round(pu * 1.5) + 1;
    };
    expect(
      failing(units, driversOk, (r) => `${r.DOT_NUMBER}: ${r.NBR_POWER_UNIT} units, ${r.DRIVER_TOTAL} drivers`),
    ).toEqual([]);
    const ops = new Set(census.map((r) => r.CARRIER_OPERATION));
    expect(ops).toEqual(new Set(['A', 'B', 'C']));
    expect(census.filter((r) => r.CARRIER_OPERATION === 'C').length).toBeGreaterThan(census.length * 0.4);
    // Inspections grow with fleet size.
    const count = new Map<string, number>();
    for (const r of inspections) count.set(r.DOT_Number!, (count.get(r.DOT_Number!) ?? 0) + 1);
    const mean = (rows: Row[]) => rows.reduce((s, r) => s + (count.get(r.DOT_NUMBER!) ?? 0), 0) / rows.length;
    expect(mean(units.filter((r) => Number(r.NBR_POWER_UNIT) >= 20))).toBeGreaterThan(
      3 * mean(units.filter((r) => Number(r.NBR_POWER_UNIT) === 1)),
    );
    expect(facts.inspections / facts.carriers).toBeGreaterThan(2);
    expect(facts.inspections / facts.carriers).toBeLessThan(6);
  });
});

describe('carriers demo: L&I and out-of-service orders', () => {
  const US_DATE = /^(0[1-9]|1[0-2])\/(0[1-9]|[12]\d|3[01])\/(19|20)\d{2}$/;
  const registry = (file: string) => toRows(readFileSync(join(dir, file), 'utf8'));

  it('writes the documented headers, quoted, with 8-digit zero-padded carrier numbers, some of carriers gone from the census', () => {
    const dots = new Set(census.map((r) => r.DOT_NUMBER));
    // A docket whose carrier is gone from the census: inactive, in every file but the active insurance.
    const gone = new Set(
      registry(LI_CARRIER_FILE)
        .filter((r) => !dots.has(String(Number(r.DOT_NUMBER))))
        .map((r) => r.DOCKET_NUMBER!),
    );
    expect(gone.size).toBeGreaterThan(100);
    expect(
      registry(LI_CARRIER_FILE)
        .filter((r) => gone.has(r.DOCKET_NUMBER!))
        .every((r) => r.COMMON_STAT === 'I'),
    ).toBe(true);
    expect(registry(INSURANCE_FILE).some((r) => gone.has(r.DOCKET_NUMBER!))).toBe(false);
    for (const file of [
      LI_CARRIER_FILE,
      AUTHORITY_HISTORY_FILE,
      INSURANCE_FILE,
      INSURANCE_HISTORY_FILE,
      REVOCATION_FILE,
    ]) {
      const text = readFileSync(join(dir, file), 'utf8');
      expect(
        text.split('\n')[0]!.startsWith('"DOCKET_NUMBER","DOT_NUMBER"') || text.startsWith('"docket_number"'),
      ).toBe(true);
      const rows = registry(file);
      expect(rows.length, file).toBeGreaterThan(50);
      const dot = (r: Row) => r.DOT_NUMBER ?? r.dot_number ?? '';
      const docket = (r: Row) => r.DOCKET_NUMBER ?? r.docket_number ?? '';
      const known = (r: Row) => dots.has(String(Number(dot(r)))) || gone.has(docket(r));
      expect(failing(rows, (r) => /^\d{8}$/.test(dot(r)) && known(r), dot)).toEqual([]);
      expect(failing(rows, (r) => /^MC\d+$/.test(docket(r)), docket)).toEqual([]);
    }
    const orders = registry(OOS_ORDER_FILE);
    expect(orders.length).toBeGreaterThan(0);
    expect(
      failing(
        orders,
        (r) => dots.has(r.DOT_NUMBER!) && /^\d{4}-\d{2}-\d{2}$/.test(r.OOS_DATE!),
        (r) => r.DOT_NUMBER!,
      ),
    ).toEqual([]);
  });

  it('writes dates as MM/DD/YYYY and amounts in thousands of dollars, the carrier file’s five digits wide', () => {
    const history = registry(AUTHORITY_HISTORY_FILE);
    expect(
      failing(
        history,
        (r) => US_DATE.test(r.ORIG_SERVED_DATE!),
        (r) => r.ORIG_SERVED_DATE!,
      ),
    ).toEqual([]);
    const revocations = registry(REVOCATION_FILE);
    expect(
      failing(
        revocations,
        (r) => US_DATE.test(r.EFFECTIVE_DATE!),
        (r) => r.EFFECTIVE_DATE!,
      ),
    ).toEqual([]);
    // Voluntary revocations have no serve date, as in FMCSA's daily file.
    expect(
      revocations.filter((r) => r.SERVE_DATE === '').every((r) => r.REVOCATION_TYPE === 'VOLUNTARY REVOCATION'),
    ).toBe(true);
    const carriers = registry(LI_CARRIER_FILE);
    expect(new Set(carriers.map((r) => r.MIN_COV_AMOUNT))).toEqual(new Set(['00750', '01000', '05000']));
    // Passenger carriers need $5 million; their authority says passenger.
    const passenger = new Set(facts.passenger.map((d) => String(d).padStart(8, '0')));
    const theirs = carriers.filter((r) => passenger.has(r.DOT_NUMBER!));
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs.every((r) => r.MIN_COV_AMOUNT === '05000' && r.PASSENGER_CHK === 'Y')).toBe(true);
    const insurance = registry(INSURANCE_FILE);
    expect(
      failing(
        insurance,
        (r) => US_DATE.test(r.effective_date!) && r.cancl_effective_date === '',
        (r) => r.policy_no!,
      ),
    ).toEqual([]);
    // Most active carriers have their minimum on file; some do not, so the profile's "not allowed" has cases.
    const active = carriers.filter((r) => r.COMMON_STAT === 'A');
    const short = active.filter((r) => r.BIPD_FILE === '00000');
    expect(short.length).toBeGreaterThan(0);
    expect(short.length).toBeLessThan(active.length * 0.1);
  });
});

describe('carriers demo: inspections, violations and crashes agree', () => {
  it('links every violation to an inspection of the same carrier and date', () => {
    const byId = new Map(inspections.map((r) => [r.Unique_ID!, r]));
    const linked = (v: Row) => {
      const i = byId.get(v.Unique_ID!);
      return (
        i !== undefined &&
        v.DOT_Number === i.DOT_Number &&
        v.Insp_Date === i.Insp_Date &&
        v.Time_Weight === i.Time_Weight
      );
    };
    expect(violations.length).toBeGreaterThan(0);
    expect(failing(violations, linked, (v) => JSON.stringify(v))).toEqual([]);
    const dots = new Set(census.map((r) => r.DOT_NUMBER));
    expect(
      failing(
        inspections,
        (r) => dots.has(r.DOT_Number!),
        (r) => r.Unique_ID!,
      ),
    ).toEqual([]);
    expect(
      failing(
        crashes,
        (r) => dots.has(r.DOT_Number!),
        (r) => r.Report_Number!,
      ),
    ).toEqual([]);
  });

  it('weights each violation: severity 1–10, OOS weight 2 when OOS, total = (severity + OOS) × time weight', () => {
    expect(new Set(violations.map((v) => v.BASIC_Desc))).toEqual(new Set(Object.keys(BASIC_COLUMNS)));
    const weighted = (v: Row) => {
      const sev = Number(v.Severity_Weight);
      return (
        Number.isInteger(sev) &&
        sev >= 1 &&
        sev <= 10 &&
        v.OOS_Weight === (v.OOS_Indicator === 'true' ? '2' : '0') &&
        Number(v.Total_Severity_Wght) === (sev + Number(v.OOS_Weight)) * Number(v.Time_Weight) &&
        /^(D|1|2)$/.test(v.Viol_Unit!) &&
        v.Viol_Code !== '' &&
        v.Section_Desc !== '' &&
        v.Group_Desc !== ''
      );
    };
    expect(failing(violations, weighted, (v) => JSON.stringify(v))).toEqual([]);
    expect(violations.some((v) => v.OOS_Indicator === 'true')).toBe(true);
    expect(violations.some((v) => v.OOS_Indicator === 'false')).toBe(true);
  });

  it('counts each inspection’s violations and OOS by BASIC, only in BASICs the inspection is relevant to', () => {
    const perInspection = new Map<string, Row[]>();
    for (const v of violations) {
      const list = perInspection.get(v.Unique_ID!) ?? [];
      list.push(v);
      perInspection.set(v.Unique_ID!, list);
    }
    const consistent = (i: Row) => {
      const vs = perInspection.get(i.Unique_ID!) ?? [];
      const oos = vs.filter((v) => v.OOS_Indicator === 'true');
      const hm = oos.filter((v) => v.BASIC_Desc === 'Hazardous Materials Compliance').length;
      const driver = oos.filter((v) => v.Viol_Unit === 'D').length;
      return (
        Number(i.BASIC_Viol) === vs.length &&
        Object.entries(BASIC_COLUMNS).every(([desc, [relevant, count]]) => {
          const n = vs.filter((v) => v.BASIC_Desc === desc).length;
          return Number(i[count]) === n && (n === 0 || i[relevant] === 'true');
        }) &&
        Number(i.Hazmat_OOS_Total) === hm &&
        Number(i.Driver_OOS_Total) === driver &&
        Number(i.Vehicle_OOS_Total) === oos.length - hm - driver &&
        Number(i.OOS_Total) === oos.length
      );
    };
    expect(failing(inspections, consistent, (i) => JSON.stringify(i))).toEqual([]);
    const withViolations = inspections.filter((i) => i.BASIC_Viol !== '0').length;
    // Many inspections are clean, most carriers' inspections are not all clean.
    expect(withViolations / inspections.length).toBeGreaterThan(0.35);
    expect(withViolations / inspections.length).toBeLessThan(0.75);
    expect(facts.violations / facts.inspections).toBeGreaterThan(1);
    expect(facts.violations / facts.inspections).toBeLessThan(2.5);
  });

  it('sets the relevant-BASIC flags from the inspection level and the placard', () => {
    const levels = new Set(inspections.map((i) => i.Insp_level_ID));
    const flagsOk = (i: Row) => {
      const level = Number(i.Insp_level_ID);
      const driver = String([1, 2, 3, 6].includes(level));
      const vehicle = [1, 2, 5, 6].includes(level);
      return (
        [i.Unsafe_Insp, i.Fatigued_Insp, i.Dr_Fitness_Insp, i.Subt_Alcohol_Insp].every((f) => f === driver) &&
        i.Vh_Maint_Insp === String(vehicle) &&
        i.HM_Insp === String(vehicle && i.Hazmat_Placard_req === 'true')
      );
    };
    expect(failing(inspections, flagsOk, (i) => JSON.stringify(i))).toEqual([]);
    for (const l of ['1', '2', '3', '5']) expect(levels.has(l), `level ${l}`).toBe(true);
  });

  it('writes crashes about 2 % of inspections, each reportable and weighted by the methodology', () => {
    expect(facts.crashes).toBeGreaterThan(facts.inspections * 0.01);
    expect(facts.crashes).toBeLessThan(facts.inspections * 0.04);
    const hazmat = new Set(facts.hazmat.map(String));
    const crashOk = (c: Row) => {
      const fatal = Number(c.Fatalities) > 0;
      const injury = Number(c.Injuries) > 0;
      const released = c.Hazmat_Released === 'true';
      return (
        (fatal || injury || c.Tow_Away === 'true') &&
        (!released || hazmat.has(c.DOT_Number!)) &&
        Number(c.Severity_Weight) === (fatal || injury ? 2 : 1) + (released ? 1 : 0) &&
        c.Report_Seq_No === '1'
      );
    };
    expect(failing(crashes, crashOk, (c) => JSON.stringify(c))).toEqual([]);
    expect(crashes.some((c) => c.Injuries !== '0')).toBe(true);
    expect(crashes.some((c) => c.Fatalities === '0' && c.Injuries === '0')).toBe(true);
  });
});
