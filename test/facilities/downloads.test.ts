// The downloads' rows, the pure part: the columns the contract names, in its order, a record's row, the CSV
// (RFC 4180 quoting, formula guard) and the GeoJSON (longitude first, located facilities only).
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { schemas } from '../../contract/core/schemas.ts';
import { SPINE_COLUMNS, SPINE_CSV_HEADER, toSpineRow } from '../../contract/facilities/downloads.ts';
import type { BaseRecord } from '../../contract/facilities/record.ts';
import { toSpineCsv, toSpineGeoJson } from '../../pipeline/facilities/downloads.ts';

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
      'spine_id,name,city,tier,program,naics,year,ontario_total,federal_total,delta_tonnes,delta_pct,emissions\r\n',
    );
    expect((schemas().schema('facilities/spine-row') as { required: string[] }).required).toEqual([...SPINE_COLUMNS]);
  });
});

describe('toSpineRow', () => {
  it('gives the comparison-year figures, the delta as the record has it, and the ranking figure', () => {
    const row = toSpineRow({ ...record('ONF-000001'), emissions: 943500 });
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
    });
    schemas().assert('facilities/spine-row', row, 'row');
  });

  it('has no delta unless both totals exist', () => {
    const row = toSpineRow({
      ...record('ONF-000002', { totals: { year: 2024, ontario: 10, federal: null }, naics: null, city: null }),
      emissions: 10,
    });
    expect(row).toMatchObject({ city: null, naics: null, federal_total: null, delta_tonnes: null, delta_pct: null });
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
      'ONF-000001,"Canada Bread Company, Ltd.",Hamilton,anchored,both,331110,2024,943000,943500,-500,-0.05,943500',
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
    expect(doc.features[0]!.properties).toEqual(toSpineRow({ ...record('ONF-000001'), emissions: 943500 }));
    // Properties are data as JSON has them: no spreadsheet guard.
    expect(doc.features[1]!.properties.name).toBe('=x');
  });

  it('is an empty collection when no facility is located', () => {
    expect(toSpineGeoJson([record('ONF-000001')])).toEqual({ type: 'FeatureCollection', features: [] });
  });
});
