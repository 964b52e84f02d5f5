// The facilities demo inputs: the upstream formats byte for byte (shared/data/facilities/README.md §1, §2, §3.2–3.4),
// determinism per seed, the planted cases visible in the files, and a real build from them finding every one.
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FACILITY_DEMO_FILES,
  writeFacilitiesDemo,
  type FacilitiesDemoFacts,
} from '../../pipeline/demo/facilities/index.ts';
import { buildFacilities } from '../../pipeline/facilities/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are untyped JSON, read field by field in assertions
type Json = Record<string, any>;

const ONTARIO = 'ontario/GHG_Data_2010_2024_demo.csv';
const BY_GAS = 'federal/PDGES-GHGRP-GHGEmissionsGES-2004-Present.csv';
const INDICATOR = 'federal/Greenhouse gas emissions from large facilities.csv';
const EWRB = 'ewrb/ewrb_raw_data.csv';

// Expected headers, written out independently of the generator (README §1, §3.4, §2).
const ONTARIO_HEADER = [
  'Year',
  'Ontario GHG ID',
  'Facility Owner',
  'Facility Name',
  'Facility City',
  'Facility Primary NAICS Code',
  'Carbon dioxide (CO2) from non-biomass in CO2e (t)',
  'Carbon dioxide (CO2) from biomass in CO2e (t)',
  'Methane (CH4) in CO2e (t)',
  'Nitrous oxide (N2O) in CO2e (t)',
  'Sulphur hexafluoride (SF6) in CO2e (t)',
  'Hydrofluorocarbons (HFCs) in CO2e (t)',
  'Perfluorocarbons (PFCs) in CO2e (t)',
  'Nitrogen Trifluoride (NF3) in CO2e (t)',
  'Total CO2e from all sources in CO2e (t)',
  'Reporting Amount in CO2e (t)',
  'Verification Amount in CO2e (t)',
  'Accredited Verification Body',
];
const INDICATOR_HEADER = [
  'Facility ID',
  'Facility name',
  'Company name',
  'City',
  'Address',
  'Postal code',
  'Province',
  'Latitude',
  'Longitude',
  'Total emissions',
  'Units',
  'Report year',
  'Industry classification',
  'Industry classification link',
  'Facility information',
  'Facility details',
];
const EWRB_HEADER = [
  'EWRB_ID',
  'City',
  'Postal_Code',
  'PrimPropTypCalc',
  'PrimPropTypSelf',
  'Largest_PropTyp',
  'All_Prop_Types',
  'Thrd_Party_Cert',
  'WN_Sit_Elc_Int1',
  'WN_Sit_Elc_Int2',
  'WN_Sit_Gas_Int1',
  'WN_Sit_Gas_Int2',
  'WN_Sit_Gas_Int3',
  'All_Water_Int1',
  'All_Water_Int2',
  'Ind_Water_Int1',
  'Ind_Water_Int2',
  'Site_EUI1',
  'Site_EUI2',
  'Source_EUI1',
  'Source_EUI2',
  'WN_Site_EUI1',
  'WN_Site_EUI2',
  'WN_Source_EUI1',
  'WN_Source_EUI2',
  'GHG_Emiss_Int1',
  'GHG_Emiss_Int2',
  'Ener_Star_Score',
  'Ener_Star_Certs',
  'Data_Qual_Check',
  'Data_Qual_Date',
];
const BY_GAS_FIRST = "GHGRP ID No. / No d'identification du PDGES";
const BY_GAS_LAST = 'Monitoring or Direct Measurement / Surveillance ou mesure directe';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const UTF8_E_ACUTE = Buffer.from([0xc3, 0xa9]);

/** RFC 4180 records (quoted commas, quotes and line breaks), CRLF or LF; a trailing line end adds no record. */
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

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const count = (b: Buffer, needle: Buffer) => {
  let n = 0;
  for (let i = b.indexOf(needle); i >= 0; i = b.indexOf(needle, i + 1)) n++;
  return n;
};
const firstLine = (b: Buffer, eol: string) => b.subarray(0, b.indexOf(eol)).toString('latin1');

const cleanups: string[] = [];
async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `shardline-demo-${prefix}-`));
  cleanups.push(dir);
  return dir;
}
afterAll(async () => {
  for (const dir of cleanups) await rm(dir, { recursive: true, force: true });
});

let dir: string;
let facts: FacilitiesDemoFacts;
let files: string[];
const bytes: Record<string, Buffer> = {};
/** Ontario rows as [Year, ID, Owner, Name, City, NAICS, CO2, biomass, CH4, N2O, SF6, HFC, PFC, NF3, Total, Reporting, …]. */
let ontarioRows: string[][];
/** By-gas rows: [id, year, name, …], total at index 75. */
let byGasRows: string[][];
let indicatorRows: string[][];

beforeAll(async () => {
  dir = await tempDir('input');
  const messages: string[] = [];
  ({ files, facts } = await writeFacilitiesDemo(dir, { onProgress: (m) => messages.push(m) }));
  expect(messages.length).toBeGreaterThan(0);
  for (const f of FACILITY_DEMO_FILES) bytes[f] = await readFile(join(dir, f));
  ontarioRows = parseCsv(bytes[ONTARIO]!.toString('latin1')).slice(1);
  byGasRows = parseCsv(bytes[BY_GAS]!.subarray(3).toString('utf8')).slice(1);
  indicatorRows = parseCsv(bytes[INDICATOR]!.toString('latin1')).slice(1);
}, 60_000);

describe('facilities demo: formats', () => {
  it('writes the four files it lists', () => {
    expect([...FACILITY_DEMO_FILES].sort()).toEqual([BY_GAS, INDICATOR, EWRB, ONTARIO].sort());
    expect(files).toEqual(FACILITY_DEMO_FILES.map((f) => join(dir, f)));
  });

  it('Ontario registry: exact header, Windows-1252, no BOM, CRLF after every record', () => {
    const b = bytes[ONTARIO]!;
    expect(b.subarray(0, 3).equals(BOM)).toBe(false);
    expect(firstLine(b, '\r\n')).toBe(ONTARIO_HEADER.join(','));
    expect(count(b, Buffer.from('\n'))).toBe(count(b, Buffer.from('\r\n')));
    expect(b.subarray(-2).toString('latin1')).toBe('\r\n');
    expect(b.includes(0xe9)).toBe(true);
    expect(b.includes(UTF8_E_ACUTE)).toBe(false);
    expect(ontarioRows.length).toBe(facts.ontarioRows);
    expect(ontarioRows.every((r) => r.length === 18)).toBe(true);
    expect(new Set(ontarioRows.map((r) => r[1])).size).toBe(facts.ontarioIds);
    expect(new Set(ontarioRows.map((r) => r[0]))).toEqual(
      new Set(Array.from({ length: 15 }, (_, i) => String(2010 + i))),
    );
    // Totals include biomass CO2, reporting amounts exclude it; both whole numbers.
    for (const r of ontarioRows) {
      expect(r[14], r.join(',')).toMatch(/^\d+$/);
      expect(Math.abs(Number(r[14]) - Number(r[7] || 0) - Number(r[15]))).toBeLessThanOrEqual(1);
    }
    expect(ontarioRows.some((r) => r[7] === '') && ontarioRows.some((r) => r[7] === '0')).toBe(true);
    expect(ontarioRows.some((r) => r[16] === '') && ontarioRows.some((r) => /^\d+$/.test(r[16]!))).toBe(true);
    expect(ontarioRows.some((r) => /^\d+\.\d+$/.test(r[6]!)) && ontarioRows.some((r) => /^\d+$/.test(r[6]!))).toBe(
      true,
    );
    const upper =
      ontarioRows.filter((r) => /\p{L}/u.test(r[4]!) && r[4] === r[4]!.toUpperCase()).length / ontarioRows.length;
    expect(upper).toBeGreaterThan(0.2);
    expect(upper).toBeLessThan(0.4);
  });

  it('federal by gas: 81 bilingual columns, UTF-8 with BOM, CRLF, sorted, exactly one undecodable byte', () => {
    const b = bytes[BY_GAS]!;
    expect(b.subarray(0, 3).equals(BOM)).toBe(true);
    const header = b.subarray(3, b.indexOf('\r\n')).toString('utf8').split(',');
    expect(header.length).toBe(81);
    expect(header[0]).toBe(BY_GAS_FIRST);
    expect(header[80]).toBe(BY_GAS_LAST);
    expect(header[75]).toBe('Total Emissions (tonnes CO2e) / Émissions totales (tonnes éq. CO2)');
    expect(count(b, Buffer.from('\n'))).toBe(count(b, Buffer.from('\r\n')));
    expect(b.subarray(-2).toString('latin1')).toBe('\r\n');
    expect(count(b, Buffer.from([0xff]))).toBe(1);
    expect(byGasRows.length).toBe(facts.byGasRows);
    expect(byGasRows.every((r) => r.length === 81 && /^G\d{5}$/.test(r[0]!))).toBe(true);
    const keys = byGasRows.map((r) => [Number(r[1]), Number(r[0]!.slice(1))] as const);
    for (let i = 1; i < keys.length; i++) {
      const [y0, id0] = keys[i - 1]!;
      const [y1, id1] = keys[i]!;
      expect(y1 < y0 || (y1 === y0 && id1 > id0), `row ${i}`).toBe(true);
    }
    expect(Math.min(...keys.map(([y]) => y))).toBe(2004);
    expect(Math.max(...keys.map(([y]) => y))).toBe(2024);
    // Total = CO2 + CH4 + N2O + HFC total + PFC total + SF6 (CO2e columns), to the printed digit.
    for (const r of byGasRows) {
      const sum = [26, 28, 30, 57, 72, 74].reduce((s, i) => s + Number(r[i]), 0);
      expect(Math.abs(sum - Number(r[75]))).toBeLessThan(1e-5);
      expect(r.slice(76).every((m) => m === 'Applicable' || m === 'Not applicable / Sans Objet')).toBe(true);
    }
    const outside = byGasRows.filter((r) => r[5] !== 'Ontario').length;
    expect(outside).toBe(facts.byGasOutsideOntarioRows);
    expect(outside / byGasRows.length).toBeGreaterThan(0.05);
    expect(outside / byGasRows.length).toBeLessThan(0.2);
  });

  it('Ontario registry: a fluorinated gas not emitted is 0 up to 2018 and empty from 2019, as published', () => {
    // SF6, HFCs, PFCs at 10, 11, 12.
    const cells = (from: number, to: number) =>
      ontarioRows.filter((r) => Number(r[0]) >= from && Number(r[0]) <= to).flatMap((r) => [r[10]!, r[11]!, r[12]!]);
    const early = cells(2010, 2018);
    const late = cells(2019, 2024);
    expect(early.filter((v) => v === '')).toEqual([]);
    expect(early.some((v) => v === '0') && late.some((v) => v === '')).toBe(true);
    expect(late.filter((v) => v === '0')).toEqual([]);
    // Emitters print their figures in both periods.
    expect(early.some((v) => Number(v) > 0) && late.some((v) => Number(v) > 0)).toBe(true);
  });

  it('federal by gas: coordinates except for linear facilities, and HFC and SF6 emitters', () => {
    const ontario = byGasRows.filter((r) => r[5] === 'Ontario');
    const empty = ontario.filter((r) => r[7] === '' && r[8] === '');
    expect(empty.length).toBeGreaterThan(0);
    expect(empty.every((r) => /Pipeline/.test(r[2]!))).toBe(true);
    for (const r of ontario.filter((row) => row[7] !== '')) {
      expect(Number(r[7]), r[0]).toBeGreaterThan(41.5);
      expect(Number(r[8]), r[0]).toBeLessThan(-74);
    }
    // HFC total and SF6 CO2e; no Ontario facility reports PFCs in either real file, and none does here.
    const emits = (column: number) => ontario.some((r) => Number(r[column]) > 0);
    expect([emits(57), emits(74)]).toEqual([true, true]);
  });

  it('indicator table: exact header, Windows-1252, LF, kt with a space between thousands, quirky URLs', () => {
    const b = bytes[INDICATOR]!;
    expect(b.subarray(0, 3).equals(BOM)).toBe(false);
    expect(b.includes('\r')).toBe(false);
    expect(firstLine(b, '\n')).toBe(INDICATOR_HEADER.join(','));
    expect(b.includes(0xe9)).toBe(true);
    expect(b.includes(UTF8_E_ACUTE)).toBe(false);
    const text = b.toString('latin1');
    expect(text).toMatch(/,\d{1,3}(?: \d{3})+\.\d{2},kilotonnes of carbon dioxide equivalents \(kt CO2 eq\),2023,/);
    expect(indicatorRows.length).toBe(facts.indicatorRows);
    for (const r of indicatorRows) {
      expect(r.length).toBe(16);
      expect(r[0]).toMatch(/^\d{5}$/);
      expect(r[9]).toMatch(/^\d{1,3}( \d{3})*\.\d{2}$/);
      expect(r[10]).toBe('kilotonnes of carbon dioxide equivalents (kt CO2 eq)');
      expect(r[11]).toBe('2023');
      expect(r[13]).toMatch(/[?&]CPV=\d{6}&/);
      expect(r[14]!.endsWith('.html ')).toBe(true);
      expect(r[15]!.endsWith('\n')).toBe(true);
    }
    // Each record spans two physical lines: the last field ends with a quoted newline.
    expect(count(b, Buffer.from('\n'))).toBe(1 + 2 * indicatorRows.length);
    expect(indicatorRows.some((r) => r[7] === '0' && r[8] === '0')).toBe(true);
    expect(new Set(indicatorRows.map((r) => r[6])).size).toBeGreaterThan(2);
  });

  it('EWRB: exact header, UTF-8 with BOM, CRLF between records and none at the end', () => {
    const b = bytes[EWRB]!;
    expect(b.subarray(0, 3).equals(BOM)).toBe(true);
    expect(b.subarray(3, b.indexOf('\r\n')).toString('utf8')).toBe(EWRB_HEADER.join(','));
    expect(b.at(-1)).not.toBe(0x0a);
    expect(b.at(-1)).not.toBe(0x0d);
    expect(count(b, Buffer.from('\n'))).toBe(count(b, Buffer.from('\r\n')));
    const text = b.subarray(3).toString('utf8');
    const rows = parseCsv(text).slice(1);
    expect(rows.length).toBe(facts.ewrbRows);
    expect(rows.every((r) => r.length === 31)).toBe(true);
    expect(text.split('\uFFFD').length - 1).toBe(1);
    expect(rows.filter((r) => r[0]!.startsWith('\uFFFD')).map((r) => r[0]!.slice(1))).toEqual([
      facts.ewrbReplacementCharId,
    ]);
    expect(text).toMatch(/,\d\.\d+E-05,/);
    expect(rows.every((r) => /^(2025-\d\d-\d\d|Not Available)$/.test(r[30]!))).toBe(true);
    expect(rows.some((r) => r[2] === r[2]!.toLowerCase()) && rows.some((r) => r[2] === r[2]!.toUpperCase())).toBe(true);
    const cities = new Set(rows.map((r) => r[1]));
    expect([...cities].some((c) => /^Toronto \(/.test(c!))).toBe(true);
    for (const r of rows) {
      const eui = Number(r[17]);
      const ghg = Number(r[25]);
      expect(eui).toBeGreaterThanOrEqual(0.3);
      expect(eui).toBeLessThanOrEqual(3.5);
      expect(ghg).toBeGreaterThanOrEqual(5);
      expect(ghg).toBeLessThanOrEqual(130);
    }
  });

  it('is byte-identical for a seed and different for another', async () => {
    const again = await tempDir('again');
    const other = await tempDir('other');
    await writeFacilitiesDemo(again);
    await writeFacilitiesDemo(other, { seed: 7 });
    for (const f of FACILITY_DEMO_FILES) {
      expect(sha256(await readFile(join(again, f))), f).toBe(sha256(bytes[f]!));
      expect(sha256(await readFile(join(other, f))), f).not.toBe(sha256(bytes[f]!));
    }
  }, 60_000);
});

describe('facilities demo: planted cases in the files', () => {
  const onRows = (id: string) => ontarioRows.filter((r) => r[1] === id);
  const fedRows = (id: string) => byGasRows.filter((r) => r[0] === id);
  const onYear = (id: string, year: number) => onRows(id).find((r) => r[0] === String(year));
  const fedYear = (id: string, year: number) => fedRows(id).find((r) => r[1] === String(year));

  it('uses the documented id forms', () => {
    expect(ontarioRows.every((r) => /^\d{4}$/.test(r[1]!) && Number(r[1]) >= 1001)).toBe(true);
    expect(Math.min(...ontarioRows.map((r) => Number(r[1])))).toBe(1001);
    expect(byGasRows.some((r) => r[0] === 'G10001')).toBe(true);
    expect(facts.federalOntarioIds).toBe(
      new Set([
        ...byGasRows.filter((r) => r[5] === 'Ontario').map((r) => r[0]),
        ...indicatorRows.filter((r) => r[6] === 'Ontario').map((r) => `G${r[0]}`),
      ]).size,
    );
    expect(facts.ontarioIds).toBeGreaterThanOrEqual(100);
    expect(facts.ontarioIds).toBeLessThanOrEqual(140);
  });

  it('renames one facility in 2018 in both programs', () => {
    const { ontario, federal, oldName, newName, year } = facts.renamed;
    expect(year).toBe(2018);
    expect(new Set(onRows(ontario).map((r) => r[3]!.toLowerCase()))).toEqual(
      new Set([oldName.toLowerCase(), newName.toLowerCase()]),
    );
    expect(
      onRows(ontario).every((r) =>
        Number(r[0]) < 2018 ? r[3]!.toLowerCase() === oldName.toLowerCase() : r[3] === newName,
      ),
    ).toBe(true);
    expect(fedYear(federal, 2017)?.[2]?.toLowerCase()).toBe(oldName.toLowerCase());
    expect(fedYear(federal, 2018)?.[2]).toBe(newName);
  });

  it('repeats one Ontario row exactly and one (Year, ID) with another total; leaves one city empty', () => {
    const lines = bytes[ONTARIO]!.toString('latin1').split('\r\n');
    const dup = lines.filter((l) => l.startsWith(`${facts.duplicate.year},${facts.duplicate.ontario},`));
    expect(dup.length).toBe(2);
    expect(dup[0]).toBe(dup[1]);
    const { ontario, year, totals } = facts.conflictingDuplicate;
    const conflicting = onRows(ontario).filter((r) => r[0] === String(year));
    expect(conflicting.map((r) => Number(r[14]))).toEqual(totals);
    expect(totals[0]).not.toBe(totals[1]);
    expect(onYear(facts.emptyCity.ontario, facts.emptyCity.year)?.[4]).toBe('');
    expect(ontarioRows.filter((r) => r[4] === '').length).toBe(1);
  });

  it('plants the emission patterns', () => {
    // Biomass CO2 far above the rest.
    for (const { ontario } of facts.biomass) {
      const r = onYear(ontario, 2024)!;
      expect(Number(r[7])).toBeGreaterThan(4 * Number(r[15]));
    }
    // A landfill with CH4 well above 10 %.
    const landfill = fedYear(facts.methane.federal, 2024)!;
    expect(Number(landfill[28]) / Number(landfill[75])).toBeGreaterThan(0.1);
    // A 2024 jump in both programs.
    const { ontario: jo, federal: jf } = facts.yoyJump;
    expect(Number(onYear(jo, 2024)![15])).toBeGreaterThan(1.5 * Number(onYear(jo, 2023)![15]));
    expect(Number(fedYear(jf, 2024)![75])).toBeGreaterThan(1.5 * Number(fedYear(jf, 2023)![75]));
    // Federal 2024 more than 10 % off the provincial figure.
    const { ontario: dOn, federal: dFed } = facts.disagreement;
    expect(Math.abs(Number(onYear(dOn, 2024)![15]) / Number(fedYear(dFed, 2024)![75]) - 1)).toBeGreaterThan(0.1);
    // Idle years in both programs.
    const { ontario: mOn, federal: mFed, years } = facts.missingYears;
    for (const y of years) {
      expect(onYear(mOn, y)).toBeUndefined();
      expect(fedYear(mFed, y)).toBeUndefined();
    }
    expect(onYear(mOn, years[0]! - 1)).toBeDefined();
    expect(fedYear(mFed, years.at(-1)! + 1)).toBeDefined();
  });

  it('spells names and cities differently across programs', () => {
    const { accent, ampersand, saintCity, borough } = facts.variants;
    expect(onYear(accent.ontario, 2024)![3]).toBe('Usine Sainte-Thérèse');
    expect(fedYear(accent.federal, 2024)![2]).toBe('USINE SAINTE THERESE');
    expect(onYear(ampersand.ontario, 2024)![3]).toContain(' & ');
    expect(fedYear(ampersand.federal, 2024)![2]).toContain(' and ');
    expect(onYear(saintCity.ontario, 2024)![4]!.toLowerCase()).toBe('st. marys');
    expect(fedYear(saintCity.federal, 2024)![4]!.toLowerCase()).toBe('saint marys');
    expect(onYear(borough.ontario, 2024)![4]).toBe('TORONTO');
    expect(fedYear(borough.federal, 2024)![4]).toBe('Toronto (Scarborough)');
  });

  it('puts the 0xFF byte in a contact mailing address and some 2023 figures only in the indicator table', () => {
    const b = bytes[BY_GAS]!;
    const at = b.indexOf(0xff);
    const lineStart = b.lastIndexOf('\r\n', at) + 2;
    expect(
      b.subarray(lineStart, at).toString('utf8').startsWith(`${facts.undecodable.federal},${facts.undecodable.year},`),
    ).toBe(true);
    const row = fedYear(facts.undecodable.federal, facts.undecodable.year)!;
    expect(row[22]).toContain('\uFFFD');
    expect(facts.indicatorOnly.length).toBeGreaterThan(0);
    for (const { federal } of facts.indicatorOnly) {
      expect(fedYear(federal, 2023)).toBeUndefined();
      expect(fedYear(federal, 2024)).toBeDefined();
      expect(indicatorRows.some((r) => `G${r[0]}` === federal && r[6] === 'Ontario')).toBe(true);
    }
  });
});

describe('facilities demo: a build finds every planted case', () => {
  let out: string;
  let report: Json;
  let sources: Record<string, string>;
  const record = async (side: 'ontario' | 'federal', id: string): Promise<Json> => {
    const spine = sources[`${side}:${id}`];
    expect(spine, `${side}:${id}`).toBeDefined();
    return JSON.parse(
      await readFile(join(out, 'facilities', 'api', 'v1', 'facility', `${spine}.json`), 'utf8'),
    ) as Json;
  };
  const spineOf = (side: 'ontario' | 'federal', id: string) => sources[`${side}:${id}`];

  beforeAll(async () => {
    out = await tempDir('build');
    await buildFacilities({ input: dir, outDir: out, now: () => new Date('2026-01-01T00:00:00Z') });
    report = JSON.parse(await readFile(join(out, 'facilities', 'report.json'), 'utf8')) as Json;
    sources = (JSON.parse(await readFile(join(out, 'facilities', 'ids.json'), 'utf8')) as Json).sources as Record<
      string,
      string
    >;
  }, 120_000);

  it('accounts for every row of every input and counts the one undecodable byte', () => {
    expect(report.year).toBe(2024);
    expect(report.inputs.map((i: Json) => i.file).sort()).toEqual([...FACILITY_DEMO_FILES].sort());
    for (const input of report.inputs) {
      const dropped = Object.values(input.dropped as Record<string, number>).reduce((a, n) => a + n, 0);
      expect(input.used + dropped, input.file).toBe(input.rows);
    }
    const byFile = Object.fromEntries(report.inputs.map((i: Json) => [i.file, i])) as Record<string, Json>;
    expect(byFile[ONTARIO]).toMatchObject({
      kind: 'ontario_ghg',
      encoding: 'windows-1252',
      bom: false,
      rows: facts.ontarioRows,
      dropped: { duplicate: 1, conflicting_duplicate: 1 },
      undecodable_bytes: 0,
    });
    expect(byFile[BY_GAS]).toMatchObject({
      kind: 'ghgrp_by_gas',
      encoding: 'utf-8',
      bom: true,
      rows: facts.byGasRows,
      dropped: { outside_ontario: facts.byGasOutsideOntarioRows },
      undecodable_bytes: 1,
    });
    expect(byFile[INDICATOR]).toMatchObject({
      kind: 'ghgrp_indicator',
      encoding: 'windows-1252',
      bom: false,
      rows: facts.indicatorRows,
      dropped: { outside_ontario: facts.indicatorOutsideOntarioRows },
    });
    expect(byFile[EWRB]).toMatchObject({
      kind: 'ewrb',
      encoding: 'utf-8',
      bom: true,
      rows: facts.ewrbRows,
      used: facts.ewrbRows,
      undecodable_bytes: 0,
    });
    expect(report.ignored).toEqual([]);
  });

  it('reports the duplicates and the empty city', () => {
    const issue = (kind: string) => report.issues.filter((i: Json) => i.kind === kind && i.file === ONTARIO);
    expect(issue('duplicate').map((i: Json) => i.message)).toEqual([
      expect.stringContaining(`Ontario GHG ID ${facts.duplicate.ontario} ${facts.duplicate.year}`),
    ]);
    expect(issue('conflicting_duplicate').map((i: Json) => i.message)).toEqual([
      expect.stringContaining(
        `Ontario GHG ID ${facts.conflictingDuplicate.ontario} ${facts.conflictingDuplicate.year}`,
      ),
    ]);
    expect(issue('missing_city').map((i: Json) => i.message)).toEqual([
      expect.stringContaining(`Ontario GHG ID ${facts.emptyCity.ontario} (${facts.emptyCity.year})`),
    ]);
  });

  it('keeps the renamed facility as one record with both names', async () => {
    const { ontario, federal, oldName, newName } = facts.renamed;
    expect(spineOf('federal', federal)).toBe(spineOf('ontario', ontario));
    const r = await record('ontario', ontario);
    expect(r.source_ids).toEqual({ ontario: [ontario], federal: [federal] });
    expect(r.names.ontario[0]).toBe(newName);
    expect(r.names.ontario.map((n: string) => n.toLowerCase())).toContain(oldName.toLowerCase());
    expect(r.names.federal).toEqual(expect.arrayContaining([newName, oldName]));
    expect(r.name).toBe(newName);
  });

  it('groups one Ontario id with two federal ids, and two Ontario ids with one federal id', () => {
    const groups = report.groups as Json[];
    const split = groups.find((g) => g.ontario.includes(facts.splitFederal.ontario));
    expect(split).toMatchObject({
      ontario: [facts.splitFederal.ontario],
      federal: [...facts.splitFederal.federal].sort(),
    });
    const shared = groups.find((g) => g.federal.includes(facts.sharedFederal.federal));
    expect(shared).toMatchObject({
      ontario: [...facts.sharedFederal.ontario].sort((a, b) => Number(a) - Number(b)),
      federal: [facts.sharedFederal.federal],
    });
    expect(groups.length).toBe(2);
  });

  it('lists both near-miss kinds for the planted ids and links neither', async () => {
    const misses = report.near_misses as Json[];
    const other = facts.nearMissOtherCity;
    const similar = facts.nearMissSimilarName;
    expect(misses).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'same_name_other_city', ontario_id: other.ontario, federal_id: other.federal }),
        expect.objectContaining({
          kind: 'similar_name_same_city',
          ontario_id: similar.ontario,
          federal_id: similar.federal,
        }),
      ]),
    );
    expect(misses.find((m) => m.kind === 'similar_name_same_city')?.similarity).toBeGreaterThanOrEqual(0.85);
    // The generator plants no other near-miss.
    expect(misses.length).toBe(2);
    for (const m of [other, similar]) {
      expect(spineOf('ontario', m.ontario)).not.toBe(spineOf('federal', m.federal));
      expect((await record('ontario', m.ontario)).program).toBe('ontario_only');
      expect((await record('federal', m.federal)).program).toBe('federal_only');
    }
  });

  it('links spelling variants across programs', async () => {
    for (const [kind, link] of Object.entries(facts.variants)) {
      expect(spineOf('federal', link.federal), kind).toBe(spineOf('ontario', link.ontario));
      expect((await record('ontario', link.ontario)).program, kind).toBe('both');
    }
    const toronto = await record('ontario', facts.variants.borough.ontario);
    expect(toronto.buildings).toMatchObject({ year: 2024 });
    expect(toronto.buildings.count).toBeGreaterThan(10);
  });

  it('flags methane, the year-over-year jump and the disagreement', async () => {
    expect((await record('ontario', facts.methane.ontario)).flags.methane).toBe(true);
    const jump = await record('ontario', facts.yoyJump.ontario);
    expect(jump.flags.anomaly).toBe(true);
    expect(jump.flags.reasons).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^anomaly: ontario 2023→2024/),
        expect.stringMatching(/^anomaly: federal 2023→2024/),
      ]),
    );
    const disagreement = await record('ontario', facts.disagreement.ontario);
    expect(disagreement.flags.anomaly).toBe(true);
    expect(disagreement.flags.reasons).toEqual([expect.stringMatching(/provincial and federal totals differ/)]);
    expect(Math.abs(disagreement.delta.pct)).toBeGreaterThan(10);
  });

  it('compares totals without biomass CO2', async () => {
    for (const { ontario, kind } of facts.biomass) {
      const r = await record('ontario', ontario);
      const raw = Number(ontarioRows.find((row) => row[1] === ontario && row[0] === '2024')![14]);
      expect(r.totals.ontario, kind).toBeLessThan(raw / 3);
      expect(Math.abs(r.delta.pct), kind).toBeLessThan(5);
      expect(r.flags.anomaly, kind).toBe(false);
    }
  });

  it('locates facilities at the federal coordinates, pipelines nowhere, and writes the downloads', async () => {
    const spine = JSON.parse(await readFile(join(out, 'facilities', 'api', 'v1', 'spine.json'), 'utf8')) as Json;
    const ontario = byGasRows.filter((r) => r[5] === 'Ontario');
    let located = 0;
    for (const r of ontario.filter((row) => row[7] !== '')) {
      const f = await record('federal', r[0]!);
      // A facility of two federal ids takes the newest located row of either.
      if (f.source_ids.federal.length > 1) continue;
      expect(f.coordinates, r[0]).toEqual({ latitude: Number(r[7]), longitude: Number(r[8]), source: 'federal' });
      located++;
    }
    expect(located).toBeGreaterThan(100);
    const pipelines = ontario.filter((r) => r[7] === '').map((r) => r[0]!);
    expect(pipelines.length).toBeGreaterThan(0);
    for (const id of pipelines) expect((await record('federal', id)).coordinates, id).toBeNull();
    expect(report.issues.filter((i: Json) => i.kind === 'invalid_coordinates')).toEqual([]);
    const geojson = JSON.parse(await readFile(join(out, 'facilities', 'api', 'v1', 'spine.geojson'), 'utf8')) as Json;
    expect(geojson.features).toHaveLength(spine.facilities.filter((f: Json) => f.coordinates).length);
    const csv = await readFile(join(out, 'facilities', 'api', 'v1', 'spine.csv'), 'utf8');
    expect(csv.split('\r\n')).toHaveLength(spine.count + 2);
  });

  it('gives emissions by gas as each file prints them, and an unreported gas as null', async () => {
    const spine = JSON.parse(await readFile(join(out, 'facilities', 'api', 'v1', 'spine.json'), 'utf8')) as Json;
    const single = spine.facilities.filter(
      (f: Json) => f.source_ids.federal.length === 1 && f.source_ids.ontario.length === 1,
    );
    expect(single.length).toBeGreaterThan(20);
    let checked = 0;
    for (const f of single.slice(0, 20)) {
      const [federal] = f.source_ids.federal;
      const [ontarioId] = f.source_ids.ontario;
      const row = byGasRows.find((r) => r[0] === federal && r[1] === '2024');
      if (row) {
        expect(
          f.by_gas.federal.find((g: Json) => g.year === 2024),
          federal,
        ).toEqual({
          year: 2024,
          co2: Number(row[26]),
          ch4: Number(row[28]),
          n2o: Number(row[30]),
          hfc: Number(row[57]),
          pfc: Number(row[72]),
          sf6: Number(row[74]),
        });
        checked++;
      }
      const on = ontarioRows.find((r) => r[1] === ontarioId && r[0] === '2024');
      if (on) {
        const value = (v: string) => (v === '' ? null : Number(v));
        expect(
          f.by_gas.ontario.find((g: Json) => g.year === 2024),
          ontarioId,
        ).toEqual({
          year: 2024,
          co2: value(on[6]!),
          ch4: value(on[8]!),
          n2o: value(on[9]!),
          hfc: value(on[11]!),
          pfc: value(on[12]!),
          sf6: value(on[10]!),
        });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
    // From 2019 a fluorinated gas the registry leaves empty is null; before, its 0 is 0.
    const gases = spine.facilities.flatMap((f: Json) => f.by_gas.ontario);
    expect(gases.some((g: Json) => g.year >= 2019 && g.sf6 === null)).toBe(true);
    expect(gases.some((g: Json) => g.year < 2019 && g.sf6 === 0)).toBe(true);
  });

  it('keeps single-program facilities apart, leaves idle years out and takes 2023 from the indicator table', async () => {
    for (const id of facts.ontarioOnly) expect((await record('ontario', id)).program, id).toBe('ontario_only');
    for (const id of facts.federalOnly) expect((await record('federal', id)).program, id).toBe('federal_only');
    const idle = await record('ontario', facts.missingYears.ontario);
    expect(idle.series.map((p: Json) => p.year)).not.toEqual(expect.arrayContaining([2013]));
    expect(idle.series.filter((p: Json) => facts.missingYears.years.includes(p.year))).toEqual([]);
    for (const { ontario, federal } of facts.indicatorOnly) {
      const r = await record('ontario', ontario);
      expect(r.source_ids.federal).toEqual([federal]);
      const kt = indicatorRows.find((row) => `G${row[0]}` === federal)![9]!;
      const point = r.series.find((p: Json) => p.year === 2023);
      expect(point.federal).toBeCloseTo(Number(kt.replace(/ /g, '')) * 1000, 3);
    }
  });
});
