// Coordinates and emissions by gas, the pure parts: reading them from raw rows, checking them, and choosing
// or summing them per facility. One row per edge case.
import { describe, expect, it } from 'vitest';
import { INVALID_COORDINATES, normalizeCoordinates, toCoordinates } from '../../pipeline/facilities/coordinates.ts';
import { toByGas, toGasesByYear } from '../../pipeline/facilities/gases.ts';
import {
  normalizeByGasRow,
  normalizeIndicatorRow,
  normalizeOntarioRow,
} from '../../pipeline/facilities/normalize-rows.ts';
import type { RowIssue } from '../../pipeline/facilities/rows.ts';
import { fed, on } from './rows.ts';

describe('normalizeCoordinates', () => {
  it.each<[string, string, { latitude: number; longitude: number } | null, string | null]>([
    ['44.2095', '-76.7246', { latitude: 44.2095, longitude: -76.7246 }, null],
    [' 48.8361 ', '-91.5656', { latitude: 48.8361, longitude: -91.5656 }, null],
    // Linear facilities (pipelines) leave both empty; the indicator table writes 0, 0 for unknown.
    ['', '', null, null],
    ['0', '0', null, null],
    ['44.2', '', null, 'has only one of the two'],
    ['', '-76.7', null, 'has only one of the two'],
    ['abc', '-76.7', null, 'is not a pair of numbers'],
    ['44.2', '76.7.1', null, 'is not a pair of numbers'],
    ['95', '-76.7', null, 'is out of range'],
    ['44.2', '-200', null, 'is out of range'],
    // A longitude without its minus sign is in range but in China.
    ['44.2', '76.7', null, 'is outside Ontario'],
    ['0', '-76.7', null, 'is outside Ontario'],
    ['45.5017', '-73.5673', null, 'is outside Ontario'],
  ])('latitude %j, longitude %j', (lat, lon, expected, problem) => {
    const issues: RowIssue[] = [];
    expect(normalizeCoordinates(lat, lon, 'f.csv', 7, issues)).toEqual(expected);
    if (problem === null) expect(issues).toEqual([]);
    else {
      expect(issues).toHaveLength(1);
      expect(issues[0]).toMatchObject({ file: 'f.csv', record: 7, kind: INVALID_COORDINATES, dropped: false });
      expect(issues[0]!.message).toContain(problem);
    }
  });

  it('reads no coordinates, and no issue, from a file without the columns', () => {
    const issues: RowIssue[] = [];
    expect(normalizeCoordinates(undefined, undefined, 'f.csv', 1, issues)).toBeNull();
    expect(issues).toEqual([]);
  });
});

describe('toCoordinates', () => {
  const at = (latitude: number, longitude: number) => ({ coordinates: { latitude, longitude } });

  it('takes the newest located row, the emissions-by-gas file before the indicator table in a year', () => {
    const rows = [
      fed('G1', 2020, 'A', 'X', at(44, -79)),
      fed('G1', 2021, 'A', 'X', { source: 'indicator', ...at(44.1, -79.1) }),
      fed('G1', 2021, 'A', 'X', at(44.12, -79.12)),
      fed('G1', 2022, 'A', 'X'),
    ];
    expect(toCoordinates(rows)).toEqual({ latitude: 44.12, longitude: -79.12, source: 'federal' });
    expect(toCoordinates(rows.slice(0, 2))).toEqual({ latitude: 44.1, longitude: -79.1, source: 'federal' });
  });

  it('is null when no federal row locates the facility', () => {
    expect(toCoordinates([])).toBeNull();
    expect(toCoordinates([fed('G1', 2020, 'A', 'X')])).toBeNull();
  });
});

describe('toGasesByYear', () => {
  const none = { co2: null, ch4: null, n2o: null, hfc: null, pfc: null, sf6: null };

  it('keeps single figures as printed, sums several ids per year, and keeps an unreported gas null', () => {
    const rows = [
      { year: 2021, ...none, co2: 3858475.994123456, ch4: 25 },
      { year: 2020, ...none, co2: 0.1, ch4: 0, sf6: 0 },
      { year: 2020, ...none, co2: 0.2, n2o: 5 },
    ];
    expect(toGasesByYear(rows)).toEqual([
      { year: 2020, co2: 0.3, ch4: 0, n2o: 5, hfc: null, pfc: null, sf6: 0 },
      { year: 2021, co2: 3858475.994123456, ch4: 25, n2o: null, hfc: null, pfc: null, sf6: null },
    ]);
  });

  it('leaves out a year in which no gas is reported (the indicator table has none)', () => {
    expect(toGasesByYear([{ year: 2021, ...none }])).toEqual([]);
  });

  it('gives each program its own list', () => {
    const byGas = toByGas(
      [on('1', 2020, 'A', 'X', { co2: 10, ch4: 1 })],
      [fed('G1', 2020, 'A', 'X', { co2: 10, ch4: 1.12, total: 11.12 }), fed('G1', 2021, 'A', 'X', { total: 5 })],
    );
    expect(byGas.ontario).toEqual([{ year: 2020, co2: 10, ch4: 1, n2o: null, hfc: null, pfc: null, sf6: null }]);
    expect(byGas.federal).toEqual([{ year: 2020, co2: 10, ch4: 1.12, n2o: null, hfc: null, pfc: null, sf6: null }]);
  });
});

describe('reading gases and coordinates from raw rows', () => {
  it('reads every Ontario gas column; an empty field is null, 0 is 0', () => {
    const out = normalizeOntarioRow(
      {
        year: '2020',
        id: '1042',
        name: 'Steel',
        city: 'Sault Ste. Marie',
        co2: '3858475.994',
        biomass: '',
        ch4: '18602.11975',
        n2o: '3027.818272',
        sf6: '',
        hfc: '0',
        pfc: 'x',
        total: '3880106',
      },
      'on.csv',
      2,
    );
    expect(out.row).toMatchObject({
      co2: 3858475.994,
      ch4: 18602.11975,
      n2o: 3027.818272,
      hfc: 0,
      pfc: null,
      sf6: null,
    });
    expect(out.issues.map((i) => i.kind)).toEqual(['invalid_value']);
  });

  it('reads the federal CO2e columns and coordinates, and keeps a row whose coordinates are unusable', () => {
    const raw = {
      id: 'G10011',
      year: '2020',
      name: 'Algoma Steel Inc',
      city: 'SAULT STE. MARIE',
      province: 'Ontario',
      latitude: '46.5217',
      longitude: '-84.3637',
      co2: '3858475.994',
      ch4: '20834.37412',
      n2o: '2692.52296',
      hfc: '0',
      pfc: '0',
      sf6: '0',
      total: '3882002.891',
    };
    expect(normalizeByGasRow(raw, 'fed.csv', 3)).toEqual({
      row: expect.objectContaining({
        coordinates: { latitude: 46.5217, longitude: -84.3637 },
        co2: 3858475.994,
        ch4: 20834.37412,
        n2o: 2692.52296,
        hfc: 0,
        pfc: 0,
        sf6: 0,
        total: 3882002.891,
      }),
      issues: [],
    });
    const moved = normalizeByGasRow({ ...raw, longitude: '84.3637' }, 'fed.csv', 3);
    expect(moved.row).toMatchObject({ coordinates: null, total: 3882002.891 });
    expect(moved.issues.map((i) => i.kind)).toEqual([INVALID_COORDINATES]);
  });

  it('reads the indicator table coordinates, 0, 0 as unknown, and no gases', () => {
    const raw = {
      id: '10016',
      name: 'Atikokan Generating Station',
      city: 'Atikokan',
      province: 'Ontario',
      latitude: '48.8361',
      longitude: '-91.5656',
      total: '28.92',
      units: 'kilotonnes of carbon dioxide equivalents (kt CO2 eq)',
      year: '2021',
    };
    expect(normalizeIndicatorRow(raw, 'ind.csv', 4).row).toMatchObject({
      coordinates: { latitude: 48.8361, longitude: -91.5656 },
      co2: null,
      ch4: null,
      sf6: null,
      total: 28920,
    });
    const unknown = normalizeIndicatorRow({ ...raw, latitude: '0', longitude: '0' }, 'ind.csv', 4);
    expect(unknown).toMatchObject({ row: { coordinates: null }, issues: [] });
  });
});
