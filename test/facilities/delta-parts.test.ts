// delta_parts: the provincial − federal difference split into biomass CO2, gases one program reports, the
// programs' global-warming potentials and the rest. On small rows written here, then on real facilities of
// ../shared/data/facilities with every figure worked out by hand from the raw CSV rows (in the comments).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { round } from '../../contract/core/values.ts';
import { toDelta } from '../../contract/facilities/record.ts';
import { toDeltaParts } from '../../pipeline/facilities/delta-parts.ts';
import { buildFacilities } from '../../pipeline/facilities/index.ts';
import { SHARED_DATA, tempDir } from '../helpers/server.ts';
import { schemas } from '../../contract/core/schemas.ts';
import { fed, on } from './rows.ts';

// biome-ignore lint/suspicious/noExplicitAny: records read from JSON, field by field in assertions
type Json = Record<string, any>;

const Y = 2022;
const delta = (ontario: number, federal: number) => toDelta({ year: Y, ontario, federal });
const sumOf = (p: Json) => round(p.biomass_co2 + p.one_program_gases + p.global_warming_potentials + p.unexplained, 2);

describe('toDeltaParts', () => {
  it('is null without a delta', () => {
    expect(toDeltaParts({ ontario: [], federal: [], delta: null })).toBeNull();
  });

  it('prices the gases both report at each program’s factor: CH4 at 25 against 28, N2O at 298 against 265', () => {
    // Ontario: CO2 1,000 + CH4 250 (10 t at 25) + N2O 298 (1 t at 298) = 1,548.
    // Federal: CO2 1,000 + CH4 280 (10 t at 28) + N2O 265 (1 t at 265) = 1,545. Delta +3.
    const parts = toDeltaParts({
      ontario: [on('1', Y, 'A', 'X', { co2: 1000, ch4: 250, n2o: 298, total: 1548, reporting: 1548 })],
      federal: [fed('G1', Y, 'A', 'X', { co2: 1000, ch4: 280, ch4_tonnes: 10, n2o: 265, n2o_tonnes: 1, total: 1545 })],
      delta: delta(1548, 1545),
    })!;
    // CH4: 250 − 10 × 28 = −30; N2O: 298 − 1 × 265 = +33: +3, all of it.
    expect(parts).toMatchObject({ year: Y, tonnes: 3, biomass_co2: 0, one_program_gases: 0 });
    expect(parts.global_warming_potentials).toBe(3);
    expect(parts.unexplained).toBe(0);
    expect(parts.reasons).toHaveLength(2);
    expect(parts.reasons[0]).toMatch(
      /^global_warming_potentials: Ontario's CH4 250 t CO2e is 10 t at GWP 25; at the federal GWP 28 it is 280 t: −30 t$/,
    );
  });

  it('counts a gas one program reports (+ for Ontario, − for federal), a 0 being none', () => {
    // Ontario reports HFC 40, the federal file 0; the federal file reports PFC 15, Ontario nothing.
    const parts = toDeltaParts({
      ontario: [on('1', Y, 'A', 'X', { co2: 500, hfc: 40, total: 540, reporting: 540 })],
      federal: [fed('G1', Y, 'A', 'X', { co2: 500, hfc: 0, pfc: 15, total: 515 })],
      delta: delta(540, 515),
    })!;
    expect(parts.one_program_gases).toBe(25);
    expect(parts.unexplained).toBe(0);
    expect(parts.reasons).toEqual([
      'one_program_gases: only Ontario reports HFC, 40 t CO2e',
      'one_program_gases: only the federal program reports PFC, 15 t CO2e',
    ]);
  });

  it('finds biomass CO2 the provincial figure still counts, and calls a gap under 1 t rounding', () => {
    // The biomass column is empty, but the reporting amount (the total without biomass CO2) is 300 t lower.
    const kept = toDeltaParts({
      ontario: [on('1', Y, 'A', 'X', { co2: 1000, total: 1300, reporting: 1000 })],
      federal: [fed('G1', Y, 'A', 'X', { co2: 1000, total: 1000 })],
      delta: delta(1300, 1000),
    })!;
    expect(kept.biomass_co2).toBe(300);
    expect(kept.unexplained).toBe(0);
    // 1,300.4 − 300.4 of biomass is 1,000.0 against a reporting amount of 1,000 rounded: nothing.
    const rounded = toDeltaParts({
      ontario: [on('1', Y, 'A', 'X', { co2: 1000, biomass: 299.6, total: 1300, reporting: 1000 })],
      federal: [fed('G1', Y, 'A', 'X', { co2: 1000, total: 1000 })],
      delta: delta(1000.4, 1000),
    })!;
    expect(rounded.biomass_co2).toBe(0);
    expect(rounded.unexplained).toBe(0.4);
  });

  it('compares no gases where a federal figure has no gas split (the indicator table)', () => {
    const parts = toDeltaParts({
      ontario: [on('1', Y, 'A', 'X', { co2: 1000, ch4: 250, total: 1250, reporting: 1250 })],
      federal: [{ ...fed('G1', Y, 'A', 'X', { total: 1200 }), source: 'indicator' }],
      delta: delta(1250, 1200),
    })!;
    expect(parts).toMatchObject({ one_program_gases: 0, global_warming_potentials: 0, unexplained: 50 });
  });

  it('compares the gases of the figure behind the total where an indicator row of the same year was merged into it', () => {
    // The build keeps the indicator row for linking with its total set to null: the emissions-by-gas row is the figure.
    const parts = toDeltaParts({
      ontario: [on('1', Y, 'A', 'X', { co2: 1000, ch4: 250, hfc: 40, total: 1290, reporting: 1290 })],
      federal: [
        fed('G1', Y, 'A', 'X', { co2: 1000, ch4: 280, ch4_tonnes: 10, hfc: 0, total: 1280 }),
        { ...fed('G1', Y, 'A', 'X'), source: 'indicator' },
      ],
      delta: delta(1290, 1280),
    })!;
    // CH4 250 − 10 × 28 = −30; HFC 40 only in Ontario: +40; nothing left.
    expect(parts).toMatchObject({ one_program_gases: 40, global_warming_potentials: -30, unexplained: 0 });
  });

  it('leaves out the gases of a row without a total, as the totals do', () => {
    const parts = toDeltaParts({
      ontario: [
        on('1', Y, 'A', 'X', { co2: 1000, total: 1000, reporting: 1000 }),
        on('2', Y, 'A', 'X', { hfc: 70, total: null, reporting: null }),
      ],
      federal: [fed('G1', Y, 'A', 'X', { co2: 1000, hfc: 0, total: 990 })],
      delta: delta(1000, 990),
    })!;
    expect(parts).toMatchObject({ biomass_co2: 0, one_program_gases: 0, unexplained: 10 });
    expect(parts.reasons).toEqual([]);
  });

  it('always adds up to the delta, to the cent', () => {
    for (let i = 1; i < 200; i++) {
      const ch4 = (i * 37.123) % 900;
      const n2o = (i * 13.77) % 400;
      const o = round(1000 + ch4 + n2o + (i % 7) * 0.31, 4);
      const f = round(1000 + (ch4 / 25) * 28 + (n2o / 298) * 265, 4);
      const parts = toDeltaParts({
        ontario: [on('1', Y, 'A', 'X', { co2: 1000, ch4, n2o, hfc: i % 3 ? 3.3 : null, total: o, reporting: o })],
        federal: [
          fed('G1', Y, 'A', 'X', {
            co2: 1000,
            ch4: (ch4 / 25) * 28,
            ch4_tonnes: ch4 / 25,
            n2o: (n2o / 298) * 265,
            n2o_tonnes: n2o / 298,
            total: f,
          }),
        ],
        delta: delta(o, f),
      })!;
      expect(sumOf(parts), String(i)).toBe(parts.tonnes);
    }
  });
});

const INPUT = join(SHARED_DATA, 'facilities');
const present = existsSync(INPUT);
if (!present) console.warn('skipped: ../shared/data not found (facilities delta_parts test)');

describe.skipIf(!present)('delta_parts on the real registry files (2020)', () => {
  let root: Awaited<ReturnType<typeof tempDir>>;
  const recordOf = (side: 'ontario' | 'federal', id: string): Json => {
    const dir = join(root.path, 'facilities');
    const ids = JSON.parse(readFileSync(join(dir, 'ids.json'), 'utf8')).sources as Record<string, string>;
    return JSON.parse(readFileSync(join(dir, 'api', 'v1', 'facility', `${ids[`${side}:${id}`]}.json`), 'utf8'));
  };

  beforeAll(async () => {
    root = await tempDir('delta-parts');
    await buildFacilities({ input: INPUT, outDir: root.path });
  }, 120_000);
  afterAll(() => root?.remove());

  it('explains Algoma Steel’s −1,896.89 t by the CH4 and N2O factors, to 0.07 t', () => {
    // Ontario 2020, ID 1042: total 3,880,106, biomass empty, reporting amount 3,880,106 (no biomass part);
    //   CO2 3,858,475.994, CH4 18,602.11975 CO2e, N2O 3,027.818272 CO2e, SF6/HFC/PFC empty.
    // Federal 2020, G10011: total 3,882,002.891; CO2 3,858,475.994; CH4 744.08479 t = 20,834.37412 CO2e (×28);
    //   N2O 10.160464 t = 2,692.52296 CO2e (×265); HFC, PFC, SF6 0.
    // Delta 3,880,106 − 3,882,002.891 = −1,896.891 → −1,896.89.
    // CH4: 18,602.11975 / 25 = 744.08479 t, × 28 = 20,834.37412: 18,602.11975 − 20,834.37412 = −2,232.25437.
    // N2O: 3,027.818272 / 298 = 10.160464 t, × 265 = 2,692.52296: 3,027.818272 − 2,692.52296 = +335.295312.
    // Factors: −1,896.959058 → −1,896.96; unexplained −1,896.89 + 1,896.96 = 0.07.
    const r = recordOf('ontario', '1042');
    expect(r.source_ids.federal).toContain('G10011');
    expect(r.delta_parts).toMatchObject({
      year: 2020,
      tonnes: -1896.89,
      biomass_co2: 0,
      one_program_gases: 0,
      global_warming_potentials: -1896.96,
      unexplained: 0.07,
    });
    expect(r.delta_parts.reasons).toEqual([
      "global_warming_potentials: Ontario's CH4 18,602.12 t CO2e is 744.0848 t at GWP 25; at the federal GWP 28 it is 20,834.37 t: −2,232.25 t",
      "global_warming_potentials: Ontario's N2O 3,027.82 t CO2e is 10.1605 t at GWP 298; at the federal GWP 265 it is 2,692.52 t: +335.3 t",
    ]);
    schemas().assert('facilities/record', r, 'record');
  });

  it('explains Brock West Landfill’s −3,335.83 t by methane’s factor: 28 against 25', () => {
    // Ontario 2020, ID 1440: total 32,784, biomass 4,966.306 (landfill gas CO2), reporting amount 27,818;
    //   CO2 7.752, CH4 27,806.55025 CO2e, N2O 2.742196 CO2e.
    // Federal 2020, G10032: total 31,153.52681; CH4 1,112.26201 t = 31,143.33628 CO2e; N2O 0.009202 t = 2.43853.
    // Provincial 32,784 − 4,966.306 = 27,817.694; delta 27,817.694 − 31,153.52681 = −3,335.83281 → −3,335.83.
    // Biomass: 27,817.694 against the reporting amount 27,818 is −0.306 t, under 1 t: rounding, 0.
    // CH4: 27,806.55025 / 25 = 1,112.26201 t, × 28 = 31,143.33628: −3,336.78603.
    // N2O: 2.742196 / 298 = 0.009202 t, × 265 = 2.43853: +0.303666. Factors −3,336.482364 → −3,336.48.
    // Unexplained: −3,335.83 + 3,336.48 = 0.65.
    const r = recordOf('ontario', '1440');
    expect(r.source_ids.federal).toContain('G10032');
    expect(r.delta_parts).toMatchObject({
      tonnes: -3335.83,
      biomass_co2: 0,
      one_program_gases: 0,
      global_warming_potentials: -3336.48,
      unexplained: 0.65,
    });
  });

  it('finds no biomass CO2 left at Resolute’s Thunder Bay mill: its 1.16 Mt of biomass CO2 are already subtracted', () => {
    // Ontario 2020, ID 1120: total 1,358,411, biomass 1,157,186.48, reporting amount 201,224;
    //   CO2 170,519.2, CH4 14,593.34 CO2e, N2O 16,111.1912 CO2e, SF6/HFC/PFC empty.
    // Federal 2020, G10025: total 201,190.8068; CO2 170,519.2; CH4 583.7336 t = 16,344.5408 CO2e (×28);
    //   N2O 54.0644 t = 14,327.066 CO2e (×265); HFC, PFC, SF6 0.
    // Provincial 1,358,411 − 1,157,186.48 = 201,224.52; delta 201,224.52 − 201,190.8068 = 33.7132 → 33.71.
    // Biomass: 201,224.52 against the reporting amount 201,224 is +0.52 t, under 1 t: rounding, 0.
    // CH4: 14,593.34 / 25 = 583.7336 t, × 28 = 16,344.5408: −1,751.2008.
    // N2O: 16,111.1912 / 298 = 54.0644 t, × 265 = 14,327.066: +1,784.1252. Factors +32.9244 → 32.92.
    // Unexplained: 33.71 − 32.92 = 0.79 (Ontario's gases add up to 1,358,410.2112, its total is 1,358,411).
    const r = recordOf('ontario', '1120');
    expect(r.source_ids.federal).toContain('G10025');
    expect(r.totals).toMatchObject({ year: 2020, ontario: 201224.52, federal: 201190.8068 });
    expect(r.delta_parts).toMatchObject({
      tonnes: 33.71,
      biomass_co2: 0,
      one_program_gases: 0,
      global_warming_potentials: 32.92,
      unexplained: 0.79,
    });
  });

  it('leaves under 1 t unexplained for every anchored facility of 2020, and adds up everywhere', () => {
    const spine = JSON.parse(readFileSync(join(root.path, 'facilities', 'api', 'v1', 'spine.json'), 'utf8'));
    let compared = 0;
    for (const f of spine.facilities as Json[]) {
      const r = JSON.parse(
        readFileSync(join(root.path, 'facilities', 'api', 'v1', 'facility', `${f.spine_id}.json`), 'utf8'),
      );
      if (!r.delta) {
        expect(r.delta_parts).toBeNull();
        continue;
      }
      compared++;
      expect(sumOf(r.delta_parts), r.spine_id).toBe(r.delta.tonnes);
      expect(Math.abs(r.delta_parts.unexplained), r.spine_id).toBeLessThan(1);
    }
    expect(compared).toBeGreaterThanOrEqual(10);
  });
});
