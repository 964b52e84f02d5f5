// The downloads: the rows, pure (the columns the contract names in its order, a record's row, the CSV with
// RFC 4180 quoting and the formula guard, the GeoJSON with longitude first and located facilities only), then
// over a real server on 127.0.0.1: search?format=csv, spine.csv and spine.geojson, every answer checked
// against the OpenAPI document the build wrote.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toDocumentFile } from '../../contract/core/layout.ts';
import { schemas } from '../../contract/core/schemas.ts';
import {
  SPINE_COLUMNS,
  SPINE_CSV_HEADER,
  SPINE_CSV_PATH,
  SPINE_GEOJSON_PATH,
  toSpineRow,
  type SpineRowSource,
} from '../../contract/facilities/downloads.ts';
import { OPENAPI_PATH } from '../../contract/facilities/layout.ts';
import type { BaseRecord } from '../../contract/facilities/record.ts';
import type { OpenApiDocument } from '../../pipeline/core/openapi.ts';
import { toSpineCsv, toSpineGeoJson } from '../../pipeline/facilities/downloads.ts';
import { facilities } from '../../server/facilities/routes.ts';
import { conformingFetch, OpenApiChecker } from '../http-contract/openapi-check.ts';
import { buildFixture } from '../helpers/facilities.ts';
import { startService, type Running } from '../helpers/server.ts';

type Located = Parameters<typeof toSpineCsv>[0][number];

const record = (spine_id: string, values: Partial<BaseRecord> = {}): Located => ({
  spine_id,
  name: 'Works',
  city: 'Hamilton',
  tier: 'anchored',
  program: 'both',
  naics: '331110',
  totals: { year: 2024, ontario: 943000, federal: 943500 },
  coordinates: null,
  ...values,
});

describe('the download columns', () => {
  it("are the contract's header row, in the order of the row schema", () => {
    expect(SPINE_CSV_HEADER).toBe(
      'spine_id,name,city,tier,program,naics,year,ontario_total,federal_total,delta_tonnes,delta_pct,emissions,latitude,longitude\r\n',
    );
    expect((schemas().schema('facilities/spine-row') as { required: string[] }).required).toEqual([...SPINE_COLUMNS]);
  });
});

describe('toSpineRow', () => {
  it('gives the comparison-year figures, the delta as the record has it, and the ranking figure', () => {
    const row = toSpineRow({
      ...record('ONF-000001', { coordinates: { latitude: 43.2557, longitude: -79.8711, source: 'federal' } }),
      emissions: 943500,
    });
    expect(row).toEqual({
      spine_id: 'ONF-000001',
      name: 'Works',
      city: 'Hamilton',
      tier: 'anchored',
      program: 'both',
      naics: '331110',
      year: 2024,
      ontario_total: 943000,
      federal_total: 943500,
      delta_tonnes: -500,
      delta_pct: -0.05,
      emissions: 943500,
      latitude: 43.2557,
      longitude: -79.8711,
    });
    schemas().assert('facilities/spine-row', row, 'row');
  });

  it('has no delta unless both totals exist', () => {
    const row = toSpineRow({
      ...record('ONF-000002', { totals: { year: 2024, ontario: 10, federal: null }, naics: null, city: null }),
      emissions: 10,
    });
    expect(row).toMatchObject({
      city: null,
      naics: null,
      federal_total: null,
      delta_tonnes: null,
      delta_pct: null,
      latitude: null,
      longitude: null,
    });
  });
});

describe('toSpineCsv', () => {
  it('quotes as RFC 4180 asks, empties nulls, guards formula-like text, and reads back', () => {
    const text = toSpineCsv([
      record('ONF-000001', { name: 'Canada Bread Company, Ltd.' }),
      record('ONF-000002', {
        name: 'The "Mill"\nEast',
        city: null,
        totals: { year: 2024, ontario: null, federal: null },
      }),
      record('ONF-000003', { name: '=HYPERLINK("http://x")', city: '-Nowhere', tier: 'unmatched' }),
    ]);
    const lines = text.split('\r\n');
    expect(lines[1]).toBe(
      'ONF-000001,"Canada Bread Company, Ltd.",Hamilton,anchored,both,331110,2024,943000,943500,-500,-0.05,943500,,',
    );
    expect(text.endsWith('\r\n')).toBe(true);
    const parsed = Papa.parse<string[]>(text, { newline: '\r\n', skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data).toHaveLength(4);
    expect(parsed.data[2]).toEqual([
      'ONF-000002',
      'The "Mill"\nEast',
      '',
      'anchored',
      'both',
      '331110',
      '2024',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
    ]);
    expect(parsed.data[3]!.slice(0, 3)).toEqual(['ONF-000003', `'=HYPERLINK("http://x")`, "'-Nowhere"]);
  });

  it('is the header alone for no facility', () => {
    expect(toSpineCsv([])).toBe(SPINE_CSV_HEADER);
  });
});

describe('toSpineGeoJson', () => {
  it('has a Point, longitude first, for each located facility only, with its row as properties', () => {
    const doc = toSpineGeoJson([
      record('ONF-000001', { coordinates: { latitude: 43.2557, longitude: -79.8711, source: 'federal' } }),
      record('ONF-000002'),
      record('ONF-000003', { name: '=x', coordinates: { latitude: 48.8, longitude: -91.5, source: 'federal' } }),
    ]);
    schemas().assert('facilities/spine-geojson', doc, 'spine.geojson');
    expect(doc.features.map((f) => [f.id, f.geometry.coordinates])).toEqual([
      ['ONF-000001', [-79.8711, 43.2557]],
      ['ONF-000003', [-91.5, 48.8]],
    ]);
    expect(doc.features[0]!.properties).toEqual({
      ...toSpineRow({ ...record('ONF-000001'), emissions: 943500 }),
      latitude: 43.2557,
      longitude: -79.8711,
    });
    // Properties are data as JSON has them: no spreadsheet guard.
    expect(doc.features[1]!.properties.name).toBe('=x');
  });

  it('is an empty collection when no facility is located', () => {
    expect(toSpineGeoJson([record('ONF-000001')])).toEqual({ type: 'FeatureCollection', features: [] });
  });
});

// biome-ignore lint/suspicious/noExplicitAny: response bodies are untyped JSON, read field by field in assertions
type Json = Record<string, any>;

describe('downloads over HTTP', () => {
  let fx: Awaited<ReturnType<typeof buildFixture>>;
  let server: Running<unknown>;
  let checker: OpenApiChecker | undefined;
  const fetch = conformingFetch(() => checker, OPENAPI_PATH);
  const get = (path: string, headers: Record<string, string> = {}) => fetch(server.base + path, { headers });
  const json = async (path: string): Promise<Json> => {
    const res = await get(path);
    expect(res.status, path).toBe(200);
    return (await res.json()) as Json;
  };
  const csv = async (path: string): Promise<string[][]> => {
    const res = await get(path);
    expect(res.status, path).toBe(200);
    const parsed = Papa.parse<string[]>(await res.text(), { newline: '\r\n', skipEmptyLines: true });
    expect(parsed.errors, path).toEqual([]);
    return parsed.data;
  };
  /** A JSON search result or spine facility as its CSV row reads back: numbers as text, null empty, guarded. */
  const asCsv = (r: Json) =>
    SPINE_COLUMNS.map((c) => {
      const v = toSpineRow({ ...r, emissions: r.emissions ?? r.totals.federal ?? r.totals.ontario } as SpineRowSource)[
        c
      ];
      if (v === null) return '';
      return (c === 'name' || c === 'city') && /^[=+\-@\t\r]/.test(String(v)) ? `'${v}` : String(v);
    });

  beforeAll(async () => {
    // Two more facilities, whose names need quoting and the formula guard.
    fx = await buildFixture({
      addOntario: [
        [2024, 2009, 'Smith', 'Smith, Sons & "Partners"', 'Guelph', '332999', 5000, 0, 1, 1, 5002],
        [2024, 2010, 'Cells', '=SUM(A1)', 'Guelph', '332999', 4000, 0, 0, 0, 4000],
      ],
    });
    server = (await startService(facilities, fx.outDir)) as Running<unknown>;
    checker = new OpenApiChecker(
      JSON.parse(readFileSync(join(fx.buildDir, toDocumentFile(OPENAPI_PATH)), 'utf8')) as OpenApiDocument,
    );
  });
  afterAll(async () => {
    await server?.close();
    await fx?.root.remove();
  });

  describe('search?format=csv', () => {
    it('answers the same page as the JSON, as CSV after the header row', async () => {
      const queries = ['', 'q=cement', 'q=cement&limit=2&offset=1', 'program=both&limit=1&offset=2', 'offset=50'];
      let rows = 0;
      for (const query of queries) {
        const page = await json(`/api/v1/search?${query}`);
        const got = await csv(`/api/v1/search?${query}&format=csv`);
        expect(got[0], query).toEqual([...SPINE_COLUMNS]);
        expect(got.slice(1), query).toEqual(page.results.map(asCsv));
        rows += got.length - 1;
      }
      // 12 + 4 + 2 + 1 + 0: the comparison ran over rows, the guarded name among them.
      expect(rows).toBe(19);
      expect((await csv('/api/v1/search?q=cement&limit=2&offset=1&format=csv')).map((r) => r[1])).toEqual([
        'name',
        'Cement Works',
        'Northfield Cement Plants',
      ]);
    });

    it('gives the CSV type and a download name, a strong ETag of its own, 304 and HEAD', async () => {
      const res = await get('/api/v1/search?format=csv&q=maple');
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="facilities-search.csv"');
      expect(res.headers.get('cache-control')).toBe('public, max-age=300');
      const text = await res.text();
      expect(text).toBe(
        `${SPINE_CSV_HEADER}ONF-000001,Maple Leaf Steel Inc.,Hamilton,anchored,both,331110,2024,943000,943500,-500,-0.05,943500,43.2557,-79.8711\r\n`,
      );
      const etag = res.headers.get('etag')!;
      expect(etag).toMatch(/^"[^"]+"$/);
      expect((await get('/api/v1/search?q=maple')).headers.get('etag')).not.toBe(etag);
      const again = await get('/api/v1/search?q=maple&format=csv', { 'If-None-Match': etag });
      expect(again.status).toBe(304);
      const head = await fetch(`${server.base}/api/v1/search?format=csv&q=maple`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
      expect(await head.text()).toBe('');
    });

    it('quotes names as RFC 4180 asks, keeps accents, and guards formula-like text', async () => {
      const text = await (await get('/api/v1/search?city=guelph&format=csv')).text();
      expect(text).toContain(
        ',"Smith, Sons & ""Partners""",Guelph,unmatched,ontario_only,332999,2024,5002,,,,5002,,\r\n',
      );
      expect(text).toContain(",'=SUM(A1),Guelph,");
      expect(text.split('\r\n')).toEqual([SPINE_CSV_HEADER.trimEnd(), expect.any(String), expect.any(String), '']);
      const boreal = await csv('/api/v1/search?q=boreal&format=csv');
      expect(boreal[1]!.slice(0, 3)).toEqual(['ONF-000002', 'Papier Boréal', 'Kapuskasing']);
      // The JSON keeps the name as filed.
      expect((await json('/api/v1/search?city=guelph')).results.map((r: Json) => r.name)).toContain('=SUM(A1)');
    });

    it('is the header alone for no match', async () => {
      expect(await (await get('/api/v1/search?q=nothingmatches&format=csv')).text()).toBe(SPINE_CSV_HEADER);
    });

    it.each([
      ['format=xml', ['format']],
      ['format=CSV', ['format']],
      ['format=', ['format']],
      ['format=csv&format=json', ['format']],
      ['format=tsv&limit=0', ['format', 'limit']],
    ])('refuses %s with a 400 problem naming the parameter', async (query, parameters) => {
      const res = await get(`/api/v1/search?${query}`);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      const body = (await res.json()) as { code: string; detail: string; errors: { parameter: string }[] };
      expect(body.code).toBe('invalid_parameter');
      expect(body.errors.map((e) => e.parameter).sort()).toEqual(parameters);
      expect(body.detail).toContain(parameters[0]);
    });

    it('takes format=json as the default it is', async () => {
      const plain = await get('/api/v1/search');
      const explicit = await get('/api/v1/search?format=json');
      expect(explicit.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await explicit.text()).toBe(await plain.text());
    });
  });

  describe('spine.csv and spine.geojson', () => {
    const tagOf = (file: string) => {
      const sums = JSON.parse(readFileSync(join(fx.buildDir, 'checksums.json'), 'utf8')).files as Record<
        string,
        string
      >;
      return `"${sums[file]!.slice(0, 32)}"`;
    };

    it.each([
      [SPINE_CSV_PATH, 'text/csv; charset=utf-8'],
      [SPINE_GEOJSON_PATH, 'application/geo+json'],
    ])('serves %s as %s, with the ETag of its checksum, 304, HEAD and its compressed siblings', async (path, type) => {
      const file = readFileSync(join(fx.buildDir, path.slice(1)));
      const res = await get(path, { 'Accept-Encoding': 'identity' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('cache-control')).toBe('public, max-age=300');
      expect(res.headers.get('x-data-version')).toMatch(/^[0-9a-f]{16}$/);
      const etag = res.headers.get('etag')!;
      expect(etag).toBe(tagOf(path.slice(1)));
      expect(Buffer.from(await res.arrayBuffer()).equals(file)).toBe(true);
      const again = await get(path, { 'If-None-Match': etag, 'Accept-Encoding': 'identity' });
      expect(again.status).toBe(304);
      expect(again.headers.get('etag')).toBe(etag);
      expect(await again.text()).toBe('');
      const head = await fetch(server.base + path, { method: 'HEAD', headers: { 'Accept-Encoding': 'identity' } });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-type')).toBe(type);
      expect(head.headers.get('content-length')).toBe(String(file.length));
      for (const coding of ['br', 'gzip']) {
        const coded = await get(path, { 'Accept-Encoding': coding });
        expect(coded.headers.get('content-encoding')).toBe(coding);
        expect(coded.headers.get('vary')).toBe('Accept-Encoding');
        expect(coded.headers.get('etag')).toBe(`${etag.slice(0, -1)}-${coding === 'gzip' ? 'gz' : 'br'}"`);
        expect(Buffer.from(await coded.arrayBuffer()).equals(file)).toBe(true);
      }
    });

    it('lists every facility of the spine in spine.csv, ascending, with the rows search gives', async () => {
      const spine = await json('/api/v1/spine');
      const rows = await csv(SPINE_CSV_PATH);
      expect(rows[0]).toEqual([...SPINE_COLUMNS]);
      expect(rows.slice(1)).toEqual(spine.facilities.map(asCsv));
      expect(rows).toHaveLength(13);
      const search = await csv('/api/v1/search?format=csv&limit=200');
      for (const row of rows.slice(1)) expect(search).toContainEqual(row);
    });

    it('gives spine.geojson a Point for each located facility, [longitude, latitude], its row as properties', async () => {
      const doc = await json(SPINE_GEOJSON_PATH);
      const spine = await json('/api/v1/spine');
      const located = spine.facilities.filter((f: Json) => f.coordinates);
      expect(located.map((f: Json) => f.name)).toEqual([
        'Maple Leaf Steel Inc.',
        'Papier Boréal',
        'Landfill East',
        'Northfield Cement Plants',
      ]);
      expect(doc.type).toBe('FeatureCollection');
      expect(doc.features.map((f: Json) => [f.id, f.geometry])).toEqual(
        located.map((f: Json) => [
          f.spine_id,
          { type: 'Point', coordinates: [f.coordinates.longitude, f.coordinates.latitude] },
        ]),
      );
      expect(doc.features[0].geometry.coordinates).toEqual([-79.8711, 43.2557]);
      expect(doc.features[0].properties).toEqual({
        spine_id: 'ONF-000001',
        name: 'Maple Leaf Steel Inc.',
        city: 'Hamilton',
        tier: 'anchored',
        program: 'both',
        naics: '331110',
        year: 2024,
        ontario_total: 943000,
        federal_total: 943500,
        delta_tonnes: -500,
        delta_pct: -0.05,
        emissions: 943500,
        latitude: 43.2557,
        longitude: -79.8711,
      });
    });
  });
});
