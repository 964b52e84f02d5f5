import { describe, expect, it } from 'vitest';
import { toFlags } from '../../pipeline/facilities/flags.ts';
import { toDelta } from '../../contract/facilities/record.ts';
import { toAdjustedOntario, toBaseRecord } from '../../pipeline/facilities/records.ts';
import { fed, on } from './rows.ts';

const component = (ontario: string[], federal: string[]) => ({ ontario, federal, evidence: [] });

describe('biomass-adjusted comparison', () => {
  it.each([
    // Registry total includes CO2 from biomass; the federal total does not.
    [{ total: 179458, biomass: 162353.83 }, 17104.17],
    [{ total: 70077, biomass: 0 }, 70077],
    [{ total: 70077, biomass: null }, 70077],
    [{ total: null, biomass: 5 }, null],
  ])('%j → %d', (row, expected) => {
    expect(toAdjustedOntario(row)).toBe(expected);
  });

  it('compares the adjusted provincial total with the federal total', () => {
    const r = toBaseRecord({
      spineId: 'ONF-000001',
      component: component(['1104'], ['G1']),
      ontario: [on('1104', 2020, 'Mill', 'Atikokan', { total: 179458, biomass: 162353.83 })],
      federal: [fed('G1', 2020, 'Mill', 'Atikokan', { total: 16939.6 })],
      year: 2020,
    });
    expect(r.totals).toEqual({ year: 2020, ontario: 17104.17, federal: 16939.6 });
    expect(toDelta(r.totals)).toEqual({ year: 2020, tonnes: 164.57, pct: 0.97 });
  });
});

describe('toBaseRecord', () => {
  const record = toBaseRecord({
    spineId: 'ONF-000007',
    component: component(['1001'], ['G1', 'G2']),
    ontario: [
      on('1001', 2018, 'Old Name', 'THUNDER BAY', { total: 100, naics: '322112' }),
      on('1001', 2020, 'New Name', 'THUNDER BAY', { total: 300 }),
    ],
    federal: [
      fed('G1', 2020, 'Federal Name', 'Thunder Bay', { total: 120 }),
      fed('G2', 2020, 'Federal Annex', 'Thunder Bay', { total: 150 }),
      fed('G1', 2021, 'Federal Name', 'Thunder Bay', { total: 200 }),
    ],
    year: 2020,
  });

  it('keeps every name newest first and prefers the Ontario name', () => {
    expect(record.name).toBe('New Name');
    expect(record.names).toEqual({ ontario: ['New Name', 'Old Name'], federal: ['Federal Name', 'Federal Annex'] });
  });

  it('prefers a mixed-case city spelling', () => {
    expect(record.city).toBe('Thunder Bay');
  });

  it('sums several federal ids per year and keeps missing years null', () => {
    expect(record.series).toEqual([
      { year: 2018, ontario: 100, federal: null },
      { year: 2020, ontario: 300, federal: 270 },
      { year: 2021, ontario: null, federal: 200 },
    ]);
    expect(record.naics).toBe('322112');
    expect(record.tier).toBe('anchored');
    expect(record.program).toBe('both');
  });

  it('has no delta without both totals', () => {
    expect(toDelta({ year: 2021, ontario: null, federal: 200 })).toBeNull();
  });
});

describe('toFlags', () => {
  it.each([
    ['methane share ≥ 10 %', [on('1', 2020, 'Landfill', 'Ajax', { ch4: 20000, total: 30000 })], [], true, false],
    ['methane ≥ 25,000 t', [on('1', 2020, 'Big', 'Ajax', { ch4: 26000, total: 900000 })], [], true, false],
    ['methane below both rules', [on('1', 2020, 'Small', 'Ajax', { ch4: 100, total: 900000 })], [], false, false],
    [
      'federal methane in the latest year',
      [],
      [
        fed('G1', 2019, 'F', 'Ajax', { ch4: 5000, total: 10000 }),
        fed('G1', 2020, 'F', 'Ajax', { ch4: 10, total: 10000 }),
      ],
      false,
      false,
    ],
  ])('%s', (_label, ontario, federal, methane, anomaly) => {
    const r = toBaseRecord({
      spineId: 'ONF-000001',
      component: component(['1'], ['G1']),
      ontario,
      federal,
      year: 2020,
    });
    const flags = toFlags({ ontario, federal, series: r.series, delta: toDelta(r.totals) });
    expect(flags.methane).toBe(methane);
    expect(flags.anomaly).toBe(anomaly);
    expect(flags.reasons.length > 0).toBe(methane || anomaly);
  });

  it('flags a year-over-year change over 50 % with figures, only between consecutive years', () => {
    const ontario = [
      on('1', 2018, 'A', 'Ajax', { total: 100 }),
      on('1', 2019, 'A', 'Ajax', { total: 151 }),
      on('1', 2022, 'A', 'Ajax', { total: 1000 }),
    ];
    const r = toBaseRecord({
      spineId: 'ONF-000001',
      component: component(['1'], []),
      ontario,
      federal: [],
      year: 2022,
    });
    const flags = toFlags({ ontario, federal: [], series: r.series, delta: null });
    expect(flags.anomaly).toBe(true);
    expect(flags.reasons).toEqual(['anomaly: ontario 2018→2019 changed +51% (100 t → 151 t; rule: more than 50%)']);
  });

  it('flags a comparison-year disagreement over 10 %', () => {
    const flags = toFlags({
      ontario: [],
      federal: [],
      series: [],
      delta: { year: 2020, tonnes: -3335.83, pct: -10.71 },
    });
    expect(flags.anomaly).toBe(true);
    expect(flags.reasons[0]).toContain('-10.71%');
  });
});
