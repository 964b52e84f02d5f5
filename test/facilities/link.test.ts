import { describe, expect, it } from 'vitest';
import { linkFacilities } from '../../pipeline/facilities/link.ts';
import type { FederalRow, OntarioRow } from '../../pipeline/facilities/rows.ts';
import { fed, on } from './rows.ts';

describe('linkFacilities', () => {
  it('anchors on equal normalized name and city, across years and spellings', () => {
    const r = linkFacilities(
      [on('1001', 2019, 'Smith & Sons', 'SAULT STE. MARIE')],
      [fed('G1', 2023, 'SMITH AND SONS', 'Sault Sainte Marie')],
    );
    expect(r.components).toEqual([
      {
        ontario: ['1001'],
        federal: ['G1'],
        evidence: [{ name: 'SMITH AND SONS', city: 'SAULT ST MARIE', ontario: ['1001'], federal: ['G1'] }],
      },
    ]);
    expect(r.anchoredOntario).toBe(1);
  });

  it('follows chains: one Ontario id with two federal ids, two Ontario ids sharing one federal id', () => {
    const r = linkFacilities(
      [
        on('1001', 2020, 'North Mill', 'Kenora'),
        on('1001', 2021, 'North Mill East', 'Kenora'),
        on('1002', 2020, 'Lake Works', 'Sarnia'),
        on('1003', 2020, 'Lake Works Annex', 'Sarnia'),
      ],
      [
        fed('G1', 2020, 'North Mill', 'Kenora'),
        fed('G2', 2021, 'North Mill East', 'Kenora'),
        fed('G3', 2020, 'Lake Works', 'Sarnia'),
        fed('G3', 2021, 'Lake Works Annex', 'Sarnia'),
      ],
    );
    expect(r.components.map((c) => [c.ontario, c.federal])).toEqual([
      [['1001'], ['G1', 'G2']],
      [['1002', '1003'], ['G3']],
    ]);
  });

  it('refuses a chain that would hold two same-year ids of each program, keeping the contemporaneous links', () => {
    // The shape of the real registries' "Hamilton": Ontario 1030 (a carbon-black plant) was named Hamilton
    // in 2010–2012, Ontario 1148 (the steel works) is named Hamilton now, as is federal G10275.
    const years = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
    const ontario = [
      ...years(2010, 2012).map((y) => on('1030', y, 'Hamilton', 'Hamilton')),
      ...years(2013, 2020).map((y) => on('1030', y, 'Birla Carbon Canada', 'Hamilton')),
      ...years(2010, 2016).map((y) => on('1148', y, 'US Steel Canada Hamilton Works', 'Hamilton')),
      ...years(2017, 2020).map((y) => on('1148', y, 'Hamilton', 'Hamilton')),
    ];
    const federal = [
      ...[2020, 2021].map((y) => fed('G10133', y, 'Birla Carbon Canada', 'Hamilton')),
      ...[2020, 2021].map((y) => fed('G10275', y, 'Hamilton', 'Hamilton')),
    ];
    const orders: [OntarioRow[], FederalRow[]][] = [
      [ontario, federal],
      [[...ontario].reverse(), [...federal].reverse()],
    ];
    for (const [o, f] of orders) {
      const r = linkFacilities(o, f);
      expect(r.components.map((c) => [c.ontario, c.federal])).toEqual([
        [['1030'], ['G10133']],
        [['1148'], ['G10275']],
      ]);
      expect(r.refused).toEqual([
        {
          ontario_id: '1030',
          federal_id: 'G10275',
          name: 'HAMILTON',
          city: 'HAMILTON',
          reason:
            'the link would put Ontario ids 1030, 1148 (both reporting in 2010) with federal ids G10133, G10275 (both reporting in 2020) in one facility',
        },
      ]);
      expect(r.components[1]!.evidence).toEqual([
        { name: 'HAMILTON', city: 'HAMILTON', ontario: ['1148'], federal: ['G10275'] },
      ]);
    }
  });

  it('still joins ids of both programs renumbered over time (no year with two ids on either side)', () => {
    const r = linkFacilities(
      [on('1001', 2012, 'Bay Mill', 'Thorold'), on('1002', 2016, 'Bay Mill', 'Thorold')],
      [fed('G1', 2012, 'Bay Mill', 'Thorold'), fed('G2', 2016, 'Bay Mill', 'Thorold')],
    );
    expect(r.components.map((c) => [c.ontario, c.federal])).toEqual([
      [
        ['1001', '1002'],
        ['G1', 'G2'],
      ],
    ]);
    expect(r.refused).toEqual([]);
  });

  it('does not join two Ontario ids that share a pair without any federal id', () => {
    const r = linkFacilities([on('1001', 2020, 'Depot', 'Ajax'), on('1002', 2020, 'Depot', 'Ajax')], []);
    expect(r.components).toHaveLength(2);
  });

  it('never anchors on an empty city', () => {
    const r = linkFacilities([on('1001', 2020, 'Depot', null)], [fed('G1', 2020, 'Depot', null)]);
    expect(r.components).toHaveLength(2);
    expect(r.linkableOntario).toBe(0);
  });

  it.each([
    ['same name, other city', 'Cement Works', 'Bath', 'Cement Works', 'Picton', 'same_name_other_city', 1],
    [
      'similar name, same city',
      'Northfield Cement Plant',
      'Bath',
      'Northfield Cement Plants',
      'Bath',
      'similar_name_same_city',
      0.958,
    ],
  ])('rejects a near-miss: %s', (_label, oName, oCity, fName, fCity, kind, sim) => {
    const r = linkFacilities([on('1001', 2020, oName, oCity)], [fed('G1', 2020, fName, fCity)]);
    expect(r.components).toHaveLength(2);
    expect(r.nearMisses).toHaveLength(1);
    expect(r.nearMisses[0]).toMatchObject({ kind, ontario_id: '1001', federal_id: 'G1' });
    expect(r.nearMisses[0]!.similarity).toBeCloseTo(sim, 3);
    expect(r.nearMisses[0]!.reason.length).toBeGreaterThan(10);
  });

  it('does not report names below the similarity threshold', () => {
    const r = linkFacilities([on('1001', 2020, 'Alpha Plant', 'Bath')], [fed('G1', 2020, 'Omega Works', 'Bath')]);
    expect(r.nearMisses).toEqual([]);
  });

  it('does not report a near-miss between ids that are linked anyway', () => {
    const r = linkFacilities(
      [on('1001', 2020, 'Cement Plant', 'Bath'), on('1001', 2021, 'Cement Plants', 'Bath')],
      [fed('G1', 2020, 'Cement Plant', 'Bath')],
    );
    expect(r.components).toHaveLength(1);
    expect(r.nearMisses).toEqual([]);
  });
});
