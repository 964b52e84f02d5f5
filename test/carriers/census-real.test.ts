// Reads the real census samples in ../shared/data/carriers (never copied into this repository) and checks the
// facts their README states. Skips visibly when ../shared is absent.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { matchColumns, readCsv, readHeader, type CsvReport } from '../../pipeline/core/csv.ts';
import type { RowIssue } from '../../pipeline/core/issues.ts';
import { CENSUS_COLUMNS } from '../../pipeline/carriers/inputs.ts';
import { normalizeCensusRow } from '../../pipeline/carriers/normalize-census.ts';
import type { CensusRow } from '../../pipeline/carriers/types.ts';
import { type Registration, toRegistration, toRegistrationFields } from '../../pipeline/carriers/registration.ts';

const DATA = join(import.meta.dirname, '..', '..', '..', 'shared', 'data', 'carriers');
const CENSUS = join(DATA, 'census');
const present = existsSync(CENSUS);
if (!present) console.warn('skipped: ../shared/data not found (carriers census)');

/** The samples' snapshot: the data.transportation.gov update of 2025-09-15 (README §1). */
const REFERENCE = '2025-09-15';
const FILES = { big: 'sms_input_census_sample_1000.csv', small: 'sms_input_census_sample_100.csv' } as const;

describe.skipIf(!present)('census samples (SMS Input – Motor Carrier Census, kjg3-diqy)', () => {
  const rows: Record<keyof typeof FILES, CensusRow[]> = { big: [], small: [] };
  const reports: Partial<Record<keyof typeof FILES, CsvReport>> = {};
  const issues: RowIssue[] = [];
  const byDot = new Map<number, CensusRow>();
  const registrations = new Map<number, Registration>();

  beforeAll(async () => {
    for (const [which, name] of Object.entries(FILES) as [keyof typeof FILES, string][]) {
      reports[which] = await readCsv(join(CENSUS, name), CENSUS_COLUMNS, (raw, record) => {
        const result = normalizeCensusRow(raw, name, record, REFERENCE);
        issues.push(...result.issues);
        if (result.row) {
          rows[which].push(result.row);
          registrations.set(result.row.dot, toRegistration(raw));
        }
      });
    }
    for (const row of [...rows.big, ...rows.small]) byDot.set(row.dot, row);
  });

  it('reads 1,000 + 100 rows, 1,100 distinct carriers, none dropped', () => {
    expect(reports.big).toMatchObject({ rows: 1000, malformed: 0, undecodableBytes: 0 });
    expect(reports.small).toMatchObject({ rows: 100, malformed: 0 });
    expect(rows.big).toHaveLength(1000);
    expect(rows.small).toHaveLength(100);
    expect(byDot.size).toBe(1100);
    expect(issues.filter((i) => i.dropped)).toEqual([]);
    expect(issues).toEqual([]);
  });

  it('has the top fleets as the README lists them', () => {
    expect(byDot.get(843932)).toMatchObject({
      legal_name: 'IES COMMERCIAL INC',
      city: 'HOLDREGE',
      state: 'NE',
      power_units: 125,
      drivers: 77,
      carrier_operation: 'A',
    });
    expect(byDot.get(443630)).toMatchObject({
      legal_name: 'SEMA CONSTRUCTION INC',
      city: 'CENTENNIAL',
      power_units: 115,
      drivers: 284,
    });
    expect(byDot.get(2090769)).toMatchObject({
      city: 'SURREY',
      state: 'BC',
      country: 'CA',
      power_units: 70,
      drivers: 115,
    });
  });

  it('keeps the self-reported outlier as written (45,001 power units, 2 drivers)', () => {
    expect(byDot.get(3847165)).toMatchObject({
      legal_name: 'EMT TOWING AND RECOVERY',
      power_units: 45001,
      drivers: 2,
      recent_mileage: 0,
      recent_mileage_year: 0,
      mcs150_mileage: null,
    });
  });

  it('keeps zip codes as text with their leading zeros', () => {
    const zero = rows.big.filter((r) => r.zip?.startsWith('0'));
    expect(zero.length).toBeGreaterThan(0);
    expect(rows.big.find((r) => r.zip === '08861')).toBeDefined();
    expect(rows.big.find((r) => r.zip === '34604-1486')).toBeDefined();
    for (const r of [...rows.big, ...rows.small]) expect(typeof r.zip === 'string' || r.zip === null).toBe(true);
  });

  it('reads the 43 empty nbr_power_unit as null, never 0', () => {
    expect(rows.big.filter((r) => r.power_units === null)).toHaveLength(43);
    expect(rows.big.filter((r) => r.mcs150_date === null)).toHaveLength(76);
  });

  it('pivots DD-MON-YY dates on the snapshot: 01-JUN-74 is 1974, the rest span the README ranges', () => {
    expect(rows.big.filter((r) => r.add_date === '1974-06-01').length).toBeGreaterThan(0);
    const sorted = (key: 'add_date' | 'mcs150_date') =>
      rows.big
        .map((r) => r[key])
        .filter((d): d is string => d !== null)
        .sort();
    expect([sorted('add_date')[0], sorted('add_date').at(-1)]).toEqual(['1974-06-01', '2025-08-26']);
    expect([sorted('mcs150_date')[0], sorted('mcs150_date').at(-1)]).toEqual(['2001-01-19', '2025-08-28']);
    expect(byDot.get(2769350)).toMatchObject({ mcs150_date: '2019-10-01', add_date: '2015-07-01' });
  });

  it('reads the operation mix and the flags (true/false form)', () => {
    const count = (op: string) => rows.big.filter((r) => r.carrier_operation === op).length;
    expect([count('A'), count('B'), count('C')]).toEqual([345, 17, 638]);
    expect(rows.big.every((r) => typeof r.hm_flag === 'boolean' && typeof r.pc_flag === 'boolean')).toBe(true);
  });

  it('gives the profile its registration fields, and never the e-mail address', () => {
    const fields = toRegistrationFields(byDot.get(2769350)!, registrations.get(2769350), REFERENCE);
    expect(fields).toEqual({
      carrier_operation: { code: 'C', label: 'Intrastate non-hazmat' },
      physical_address: {
        street: '11740 S NEW HAMPSHIRE AVE',
        city: 'LOS ANGELES',
        state: 'CA',
        zip: '90044',
        country: 'US',
      },
      mailing_address: {
        street: '11740 S NEW HAMPSHIRE AVE',
        city: 'LOS ANGELES',
        state: 'CA',
        zip: '90044',
        country: 'US',
      },
      telephone: '(310) 617-5164',
      mcs150_date: '2019-10-01',
      mcs150_mileage: { miles: 10000, year: 2018 },
      // Filed in October 2019, six years before the snapshot: long past FMCSA's 24 months.
      mcs150_outdated: true,
      date_added: '2015-07-01',
      // private_only and private_property are true; private_only is what the others say, not a class.
      operation_classification: ['private_property'],
      operation_other: null,
      hazmat_flag: false,
      passenger_flag: false,
    });
    expect(JSON.stringify(fields)).not.toMatch(/@/);
    // OP_OTHER as free text (the open-data export) sets `other` and is kept.
    expect(registrations.get(3284665)).toMatchObject({
      operation_classification: ['authorized_for_hire', 'other'],
      operation_other: 'TOW TRUCK',
    });
    // Filed in February 2025: current.
    expect(toRegistrationFields(byDot.get(3284665)!, registrations.get(3284665), REFERENCE).mcs150_outdated).toBe(
      false,
    );
    // No e-mail address anywhere in what the build keeps of any row.
    for (const r of registrations.values()) expect(JSON.stringify(r)).not.toMatch(/@/);
  });

  it('matches every census spec in the FMCSA_CENSUS1 txt header', async () => {
    const { fields } = await readHeader(join(CENSUS, 'FMCSA_CENSUS1_header_row.txt'));
    expect(fields).toHaveLength(42);
    const { columns, missing } = matchColumns(fields, CENSUS_COLUMNS);
    expect(missing).toEqual([]);
    expect(Object.keys(columns).sort()).toEqual(CENSUS_COLUMNS.map((s) => s.key).sort());
    expect(fields[columns.dot!]).toBe('DOT_NUMBER');
  });
});
