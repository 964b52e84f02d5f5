// api/v1/emissions.csv, every facility, year, program and gas: the rows of records made from typed rows (a gas
// the program leaves empty has no row, 0 is a row, a year without a gas split is one `total` row), the CSV
// as RFC 4180 with the formula guard; then a demo build's file held against every record it was made from,
// the file over HTTP on 127.0.0.1 (type, ETag, 304, HEAD, .gz), and the real registry's figures checked by
// hand against ../shared/data/facilities/README.md.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toDocumentFile } from '../../contract/core/layout.ts';
import { OPENAPI_PATH } from '../../contract/facilities/layout.ts';
import type { OpenApiDocument } from '../../pipeline/core/openapi.ts';
import { writeFacilitiesDemo, type FacilitiesDemoFacts } from '../../pipeline/demo/facilities/index.ts';
import {
  EMISSIONS_COLUMNS,
  EMISSIONS_CSV_HEADER,
  EMISSIONS_CSV_PATH,
  toEmissionsCsv,
  toEmissionsRows,
} from '../../pipeline/facilities/emissions.ts';
import { buildFacilities } from '../../pipeline/facilities/index.ts';
import { toBaseRecord } from '../../pipeline/facilities/records.ts';
import { facilities } from '../../server/facilities/routes.ts';
import { conformingFetch, OpenApiChecker } from '../http-contract/openapi-check.ts';
import { buildFixture } from '../helpers/facilities.ts';
import { SHARED_DATA, startService, tempDir, type Running } from '../helpers/server.ts';
import { fed, on } from './rows.ts';

// biome-ignore lint/suspicious/noExplicitAny: documents read from the tree are untyped JSON, read field by field
type Json = Record<string, any>;

const component = (ontario: string[], federal: string[]) => ({ ontario, federal, evidence: [] });
const GAS_ORDER = ['co2', 'ch4', 'n2o', 'hfc', 'pfc', 'sf6', 'total'];
const PROGRAM_ORDER = ['federal', 'ontario'];

const parse = (text: string): string[][] => {
  const parsed = Papa.parse<string[]>(text, { newline: '\r\n', skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  return parsed.data;
};
const read = (dir: string, rel: string) => JSON.parse(readFileSync(join(dir, rel), 'utf8')) as Json;

/**
 * A record's rows worked out here from its JSON, independently of the writer: each gas figure of `by_gas`,
 * then each series total of a program-year that `by_gas` has no entry for, as CSV fields.
 */
function expectedRows(r: Json): string[][] {
  const place = [
    r.spine_id,
    r.name,
    r.city ?? '',
    r.naics ?? '',
    String(r.coordinates?.latitude ?? ''),
    String(r.coordinates?.longitude ?? ''),
  ];
  const out: string[][] = [];
  const split = new Set<string>();
  for (const program of PROGRAM_ORDER)
    for (const g of r.by_gas[program] as Json[]) {
      split.add(`${program}|${g.year}`);
      for (const gas of GAS_ORDER.slice(0, 6))
        if (g[gas] !== null) out.push([...place, String(g.year), program, gas, String(g[gas])]);
    }
  for (const p of r.series as Json[])
    for (const program of PROGRAM_ORDER)
      if (p[program] !== null && !split.has(`${program}|${p.year}`))
        out.push([...place, String(p.year), program, 'total', String(p[program])]);
  const key = (row: string[]) => [Number(row[6]), PROGRAM_ORDER.indexOf(row[7]!), GAS_ORDER.indexOf(row[8]!)];
  return out.sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    return ka[0]! - kb[0]! || ka[1]! - kb[1]! || ka[2]! - kb[2]!;
  });
}

describe('toEmissionsRows', () => {
  const steel = toBaseRecord({
    spineId: 'ONF-000001',
    component: component(['2001'], ['G20001']),
    ontario: [
      on('2001', 2023, 'Maple Leaf Steel Inc.', 'Hamilton', {
        naics: '331110',
        co2: 950000,
        ch4: 2000,
        n2o: 1000,
        hfc: 0,
        total: 953000,
      }),
      on('2001', 2024, 'Maple Leaf Steel Inc.', 'Hamilton', { co2: 940000, ch4: 2000, n2o: 1000, total: 943000 }),
    ],
    federal: [
      fed('G20001', 2024, 'Maple Leaf Steel', 'Hamilton', {
        coordinates: { latitude: 43.2557, longitude: -79.8711 },
        co2: 940100,
        ch4: 2100,
        n2o: 1300,
        sf6: 0,
        total: 943500,
      }),
      // The indicator table: a total and no gases.
      fed('G20001', 2025, 'Maple Leaf Steel', 'Hamilton', { source: 'indicator', total: 951000 }),
    ],
    year: 2024,
  });

  it('gives each reported gas (0 included, empty left out), federal before ontario, and `total` for a year with no split', () => {
    const place = {
      spine_id: 'ONF-000001',
      name: 'Maple Leaf Steel Inc.',
      city: 'Hamilton',
      naics: '331110',
      latitude: 43.2557,
      longitude: -79.8711,
    };
    expect(toEmissionsRows(steel)).toEqual(
      (
        [
          [2023, 'ontario', 'co2', 950000],
          [2023, 'ontario', 'ch4', 2000],
          [2023, 'ontario', 'n2o', 1000],
          [2023, 'ontario', 'hfc', 0],
          [2024, 'federal', 'co2', 940100],
          [2024, 'federal', 'ch4', 2100],
          [2024, 'federal', 'n2o', 1300],
          [2024, 'federal', 'sf6', 0],
          [2024, 'ontario', 'co2', 940000],
          [2024, 'ontario', 'ch4', 2000],
          [2024, 'ontario', 'n2o', 1000],
          [2025, 'federal', 'total', 951000],
        ] as const
      ).map(([year, program, gas, tonnes_co2e]) => ({ ...place, year, program, gas, tonnes_co2e })),
    );
  });

  it("takes a provincial `total` on the federal basis (CO2 from biomass out), and none for a year a program's figure is empty", () => {
    const mill = toBaseRecord({
      spineId: 'ONF-000002',
      component: component(['2002'], ['G20002']),
      ontario: [on('2002', 2022, 'Mill', 'Kapuskasing', { total: 451500, biomass: 400000 })],
      federal: [
        // Merged away by the build: the by-gas row keeps the figure, the indicator row's total is null.
        fed('G20002', 2022, 'Mill', 'Kapuskasing', { co2: 50000, ch4: 1000, total: 51000 }),
        fed('G20002', 2022, 'Mill', 'Kapuskasing', { source: 'indicator', total: null }),
        fed('G20002', 2023, 'Mill', 'Kapuskasing', { source: 'indicator', total: null }),
      ],
      year: 2022,
    });
    expect(toEmissionsRows(mill).map((r) => [r.year, r.program, r.gas, r.tonnes_co2e, r.latitude])).toEqual([
      [2022, 'federal', 'co2', 50000, null],
      [2022, 'federal', 'ch4', 1000, null],
      [2022, 'ontario', 'total', 51500, null],
    ]);
  });

  it('gives no row to a facility without a figure', () => {
    const empty = toBaseRecord({
      spineId: 'ONF-000003',
      component: component(['2003'], []),
      ontario: [on('2003', 2024, 'Quiet', null)],
      federal: [],
      year: 2024,
    });
    expect(toEmissionsRows(empty)).toEqual([]);
    expect(toEmissionsCsv([empty])).toEqual({ text: EMISSIONS_CSV_HEADER, rows: 0 });
  });
});

describe('toEmissionsCsv', () => {
  it("is the contract's header, then RFC 4180 rows with nulls empty and formula-like text guarded, read back whole", () => {
    expect(EMISSIONS_CSV_HEADER).toBe('spine_id,name,city,naics,latitude,longitude,year,program,gas,tonnes_co2e\r\n');
    const quoted = toBaseRecord({
      spineId: 'ONF-000004',
      component: component(['2004'], []),
      ontario: [on('2004', 2024, 'Smith, Sons & "Partners"', '=Guelph', { co2: 12.5, ch4: 0.25 })],
      federal: [],
      year: 2024,
    });
    const { text, rows } = toEmissionsCsv([quoted]);
    expect(rows).toBe(2);
    expect(text).toBe(
      `${EMISSIONS_CSV_HEADER}ONF-000004,"Smith, Sons & ""Partners""",'=Guelph,,,,2024,ontario,co2,12.5\r\n` +
        `ONF-000004,"Smith, Sons & ""Partners""",'=Guelph,,,,2024,ontario,ch4,0.25\r\n`,
    );
    expect(parse(text)[1]).toEqual([
      'ONF-000004',
      'Smith, Sons & "Partners"',
      "'=Guelph",
      '',
      '',
      '',
      '2024',
      'ontario',
      'co2',
      '12.5',
    ]);
  });
});

describe('emissions.csv of a demo build', () => {
  let input: Awaited<ReturnType<typeof tempDir>>;
  let out: Awaited<ReturnType<typeof tempDir>>;
  let facts: FacilitiesDemoFacts;
  let dir: string;
  let text: string;
  let rows: string[][];
  let ids: Record<string, string>;

  beforeAll(async () => {
    input = await tempDir('emissions-demo-input');
    out = await tempDir('emissions-demo');
    ({ facts } = await writeFacilitiesDemo(input.path));
    await buildFacilities({ input: input.path, outDir: out.path, now: () => new Date('2026-01-01T00:00:00Z') });
    dir = join(out.path, 'facilities');
    text = readFileSync(join(dir, 'api/v1/emissions.csv'), 'utf8');
    rows = parse(text);
    ids = read(dir, 'ids.json').sources as Record<string, string>;
  }, 120_000);
  afterAll(async () => {
    await input?.remove();
    await out?.remove();
  });

  it('has the header, and the row count and size the build report gives', () => {
    expect(rows[0]).toEqual([...EMISSIONS_COLUMNS]);
    const report = read(dir, 'report.json');
    expect(report.downloads.emissions_csv).toEqual({ rows: rows.length - 1, bytes: Buffer.byteLength(text) });
    expect(rows.length).toBeGreaterThan(1000);
  });

  it('holds each facility, year, program and gas once, ascending by spine_id, year, program, gas', () => {
    const keys = rows
      .slice(1)
      .map((r) => `${r[0]}|${r[6]}|${PROGRAM_ORDER.indexOf(r[7]!)}|${GAS_ORDER.indexOf(r[8]!)}`);
    expect(keys.every((k) => !k.includes('|-1'))).toBe(true);
    for (let i = 1; i < keys.length; i++) expect(keys[i]! > keys[i - 1]!, keys[i]).toBe(true);
  });

  it("gives every record's by_gas figures and its totals of the years without a split, with its coordinates", () => {
    const spine = read(dir, 'api/v1/spine.json').facilities as Json[];
    const bySpine = new Map<string, string[][]>();
    for (const r of rows.slice(1)) bySpine.set(r[0]!, [...(bySpine.get(r[0]!) ?? []), r]);
    let gasRows = 0;
    let totalRows = 0;
    for (const { spine_id } of spine) {
      const record = read(dir, `api/v1/facility/${spine_id}.json`);
      const expected = expectedRows(record).map((r) =>
        r.map((v, i) => (i < 2 && /^[=+\-@\t\r]/.test(v) ? `'${v}` : v)),
      );
      expect(bySpine.get(spine_id) ?? [], spine_id).toEqual(expected);
      for (const r of expected) r[8] === 'total' ? totalRows++ : gasRows++;
    }
    expect(gasRows + totalRows).toBe(rows.length - 1);
    expect(gasRows).toBeGreaterThan(0);
    expect(totalRows).toBeGreaterThan(0);
  });

  it('gives the linked facilities whose 2023 federal figure is only in the indicator table one federal `total` row that year', async () => {
    expect(facts.indicatorOnly.length).toBeGreaterThan(0);
    for (const link of facts.indicatorOnly) {
      const spineId = ids[`federal:${link.federal}`]!;
      const record = read(dir, `api/v1/facility/${spineId}.json`);
      const federal2023 = rows.filter((r) => r[0] === spineId && r[6] === '2023' && r[7] === 'federal');
      const total = (record.series as Json[]).find((p) => p.year === 2023)!.federal as number;
      expect(
        federal2023.map((r) => [r[8], Number(r[9])]),
        spineId,
      ).toEqual([['total', total]]);
    }
  });

  it('has .gz and .br beside it, the same bytes compressed', () => {
    const bytes = readFileSync(join(dir, 'api/v1/emissions.csv'));
    expect(gunzipSync(readFileSync(join(dir, 'api/v1/emissions.csv.gz'))).equals(bytes)).toBe(true);
    expect(brotliDecompressSync(readFileSync(join(dir, 'api/v1/emissions.csv.br'))).equals(bytes)).toBe(true);
  });
});

describe('emissions.csv over HTTP', () => {
  let fx: Awaited<ReturnType<typeof buildFixture>>;
  let server: Running<unknown>;
  let checker: OpenApiChecker | undefined;
  const fetch = conformingFetch(() => checker, OPENAPI_PATH);
  const get = (headers: Record<string, string> = {}, method = 'GET') =>
    fetch(server.base + EMISSIONS_CSV_PATH, { headers, method });

  beforeAll(async () => {
    fx = await buildFixture();
    server = (await startService(facilities, fx.outDir)) as Running<unknown>;
    checker = new OpenApiChecker(
      JSON.parse(readFileSync(join(fx.buildDir, toDocumentFile(OPENAPI_PATH)), 'utf8')) as OpenApiDocument,
    );
  });
  afterAll(async () => {
    await server?.close();
    await fx?.root.remove();
  });

  it('serves the file as CSV with the ETag of its checksum, 304, HEAD, and gzip or brotli from its siblings', async () => {
    const file = readFileSync(join(fx.buildDir, 'api/v1/emissions.csv'));
    const sums = read(fx.buildDir, 'checksums.json').files as Record<string, string>;
    const res = await get({ 'Accept-Encoding': 'identity' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const etag = res.headers.get('etag')!;
    expect(etag).toBe(`"${sums['api/v1/emissions.csv']!.slice(0, 32)}"`);
    expect(Buffer.from(await res.arrayBuffer()).equals(file)).toBe(true);
    expect(parse(file.toString('utf8')).length).toBeGreaterThan(10);
    const again = await get({ 'If-None-Match': etag, 'Accept-Encoding': 'identity' });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const head = await get({ 'Accept-Encoding': 'identity' }, 'HEAD');
    expect(head.headers.get('content-length')).toBe(String(file.length));
    for (const coding of ['gzip', 'br']) {
      const coded = await get({ 'Accept-Encoding': coding });
      expect(coded.headers.get('content-encoding')).toBe(coding);
      expect(coded.headers.get('vary')).toBe('Accept-Encoding');
      expect(coded.headers.get('etag')).toBe(`${etag.slice(0, -1)}-${coding === 'gzip' ? 'gz' : 'br'}"`);
      expect(Buffer.from(await coded.arrayBuffer()).equals(file)).toBe(true);
    }
  });
});

const INPUT = join(SHARED_DATA, 'facilities');
const present = existsSync(INPUT);
if (!present) console.warn('skipped: ../shared/data not found (facilities emissions.csv real-data test)');

describe.skipIf(!present)('emissions.csv of the real registry files', () => {
  let root: Awaited<ReturnType<typeof tempDir>>;
  let dir: string;
  let rows: string[][];
  let ids: Record<string, string>;
  const of = (spineId: string, year: number, program: string) =>
    rows.filter((r) => r[0] === spineId && r[6] === String(year) && r[7] === program);
  const figure = (selected: string[][], gas: string) => Number(selected.find((r) => r[8] === gas)?.[9]);
  const sum = (selected: string[][]) => selected.reduce((n, r) => n + Number(r[9]), 0);

  beforeAll(async () => {
    root = await tempDir('emissions-real');
    await buildFacilities({ input: INPUT, outDir: root.path });
    dir = join(root.path, 'facilities');
    rows = parse(readFileSync(join(dir, 'api/v1/emissions.csv'), 'utf8'));
    ids = read(dir, 'ids.json').sources as Record<string, string>;
  }, 120_000);
  afterAll(async () => {
    await root?.remove();
  });

  it("gives Algoma Steel (Ontario 1042, GHGRP G10011) the README's figures: both programs' gases, 2021's total from the indicator table", () => {
    const algoma = ids['federal:G10011']!;
    expect(ids['ontario:1042']).toBe(algoma);
    // README §4: CO2 from non-biomass equals federal CO2 (tonnes) in 2020, 3858475.994 t.
    expect(figure(of(algoma, 2020, 'federal'), 'co2')).toBe(3858475.994);
    expect(figure(of(algoma, 2020, 'ontario'), 'co2')).toBe(3858475.994);
    // README §3.1: the excerpt's gases sum to its total; §4: 3882002.891 t in 2020, 4292166.216 t in 2023.
    expect(sum(of(algoma, 2020, 'federal'))).toBeCloseTo(3882002.891, 3);
    expect(sum(of(algoma, 2023, 'federal'))).toBeCloseTo(4292166.216, 3);
    // README §3.4: the 2021 indicator table prints 4 111.48 kt and no gases.
    expect(of(algoma, 2021, 'federal').map((r) => [r[8], Number(r[9])])).toEqual([['total', 4111480]]);
    const record = read(dir, `api/v1/facility/${algoma}.json`);
    for (const r of rows.filter((x) => x[0] === algoma))
      expect([Number(r[4]), Number(r[5])]).toEqual([record.coordinates.latitude, record.coordinates.longitude]);
  });

  it("gives a real facility's gas rows exactly as its record's by_gas", () => {
    const algoma = ids['federal:G10011']!;
    const record = read(dir, `api/v1/facility/${algoma}.json`);
    let compared = 0;
    for (const program of PROGRAM_ORDER)
      for (const g of record.by_gas[program] as Json[]) {
        const got = of(algoma, g.year, program);
        const want = GAS_ORDER.slice(0, 6)
          .filter((gas) => g[gas] !== null)
          .map((gas) => [gas, g[gas]]);
        expect(
          got.map((r) => [r[8], Number(r[9])]),
          `${program} ${g.year}`,
        ).toEqual(want);
        compared += want.length;
      }
    // Ontario 2010–2020 and federal 2020 and 2023, with a handful of gases each.
    expect(compared).toBeGreaterThan(40);
  });

  it('gives every federal 2021 figure as a `total` (the indicator table is the only 2021 source) and no other year one', () => {
    const totals = rows.slice(1).filter((r) => r[8] === 'total');
    expect(totals.length).toBeGreaterThan(300);
    expect(new Set(totals.map((r) => `${r[6]} ${r[7]}`))).toEqual(new Set(['2021 federal']));
    expect(rows.slice(1).filter((r) => r[6] === '2021' && r[7] === 'federal' && r[8] !== 'total')).toEqual([]);
  });
});
