// The carrier ranking: methodology data and its rules, measures, percentiles and the profile they build.
import { describe, expect, it } from 'vitest';
import { schemas } from '../../contract/core/schemas.ts';
import { toMeasures, toMileage } from '../../pipeline/carriers/measures.ts';
import {
  carrierType,
  isOutlierFleet,
  isSufficient,
  maybeInsufficient,
  segmentOf,
  segOf,
  thresholdFor,
  timeWeight,
  utilizationFactor,
} from '../../pipeline/carriers/methodology.ts';
import { methodology, toMonthsBefore, type CarrierType, type Segment } from '../../contract/carriers/methodology.ts';
import { countBySeg, rankPercentiles, type RankItem } from '../../pipeline/carriers/percentiles.ts';
import {
  toNational,
  toOrdinal,
  toPeerSegId,
  toProfile,
  toVisiblePercentiles,
  type ProfileInput,
} from '../../pipeline/carriers/profile.ts';
import { INSUFFICIENT_SEG } from '../../contract/carriers/profile.ts';
import type { CarrierAggregate, CensusRow } from '../../pipeline/carriers/types.ts';
import { BASICS, type Basic } from '../../contract/carriers/basics.ts';

const m = methodology();

function census(over: Partial<CensusRow> = {}): CensusRow {
  return {
    dot: 123456,
    legal_name: 'EXAMPLE TRUCKING LLC',
    dba_name: null,
    carrier_operation: 'A',
    hm_flag: false,
    pc_flag: false,
    city: 'AUSTIN',
    state: 'TX',
    zip: '78701',
    country: 'US',
    power_units: 12,
    drivers: 14,
    mcs150_mileage: 0,
    mcs150_mileage_year: 0,
    recent_mileage: 0,
    recent_mileage_year: 0,
    mcs150_date: '2025-01-15',
    add_date: '2010-06-01',
    authorized_for_hire: true,
    private_passenger_business: false,
    private_passenger_nonbusiness: false,
    ...over,
  };
}

type BasicCounts = CarrierAggregate['basics'][Basic];
function agg(
  basics: Partial<Record<Basic, Partial<BasicCounts>>> = {},
  over: Partial<Omit<CarrierAggregate, 'basics'>> = {},
): CarrierAggregate {
  const zero = (): BasicCounts => ({
    relevant: 0,
    relevant_tw: 0,
    with_violations: 0,
    violations: 0,
    weighted: 0,
    last_violation: null,
  });
  return {
    dot: 123456,
    inspections: {
      total: 0,
      driver: 0,
      vehicle: 0,
      hazmat: 0,
      with_violations: 0,
      driver_oos: 0,
      vehicle_oos: 0,
      hazmat_oos: 0,
    },
    hazmat_placard_12m: 0,
    crashes: { total: 0, fatal: 0, injury: 0, tow_away: 0 },
    monthly: {},
    ...over,
    basics: Object.fromEntries(BASICS.map((b) => [b, { ...zero(), ...basics[b] }])) as CarrierAggregate['basics'],
  };
}

/** mulberry32: a tiny seeded PRNG, so property tests replay exactly. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(xs: readonly T[], rand: () => number): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('methodology file', () => {
  it('validates against carriers/methodology and carries the contract note and version', () => {
    expect(() => schemas().assert('carriers/methodology', m, 'sms-methodology.json')).not.toThrow();
    expect(m.version).toBe('sms-2.0');
    expect(m.note).toBe("Percentiles are recomputed from FMCSA public data; they are not FMCSA's published values.");
    expect(BASICS.map((b) => m.basics[b].label)).toEqual([
      'Unsafe Driving',
      'Hours-of-Service Compliance',
      'Driver Fitness',
      'Controlled Substances/Alcohol',
      'Vehicle Maintenance',
      'Hazardous Materials Compliance',
      'Crash Indicator',
    ]);
  });

  it('rejects {} and an unverified item not marked [verify]', () => {
    expect(schemas().get('carriers/methodology')({})).toBe(false);
    const bad = structuredClone(m);
    bad.basics.hos_compliance.seg.review = 'check this';
    expect(schemas().get('carriers/methodology')(bad)).toBe(false);
  });

  it('marks the reference notes [verify] items for review', () => {
    const reviews: string[] = [];
    const walk = (v: unknown) => {
      if (v && typeof v === 'object')
        for (const [k, x] of Object.entries(v)) k === 'review' && typeof x === 'string' ? reviews.push(x) : walk(x);
    };
    walk(m);
    expect(reviews.length).toBeGreaterThanOrEqual(8);
    expect(reviews.every((r) => r.startsWith('[verify] '))).toBe(true);
    for (const b of [
      'unsafe_driving',
      'hos_compliance',
      'vehicle_maintenance',
      'controlled_substances',
      'hazmat',
    ] as const)
      expect(m.basics[b].seg.review).toMatch(/^\[verify\]/);
  });
});

describe('time weights', () => {
  it.each([
    // [event, as of, weight]: ≤ 6 months 3, ≤ 12 months 2, ≤ 24 months 1, older or later 0.
    ['2026-10-31', '2026-10-31', 3],
    ['2026-04-30', '2026-10-31', 3],
    ['2026-04-29', '2026-10-31', 2],
    ['2025-10-31', '2026-10-31', 2],
    ['2025-10-30', '2026-10-31', 1],
    ['2024-10-31', '2026-10-31', 1],
    ['2024-10-30', '2026-10-31', 0],
    ['2026-11-01', '2026-10-31', 0],
    // The day is clamped to the month's end: 6 months before Aug 31 is Feb 28 (Feb 29 in a leap year).
    ['2026-02-28', '2026-08-31', 3],
    ['2026-02-27', '2026-08-31', 2],
    ['2024-02-29', '2024-08-31', 3],
    ['2024-02-28', '2024-08-31', 2],
  ])('%s as of %s weighs %d', (event, asOf, weight) => {
    expect(timeWeight(event, asOf)).toBe(weight);
  });

  it.each([
    ['2026-10-31', 6, '2026-04-30'],
    ['2026-03-31', 1, '2026-02-28'],
    ['2026-01-15', 12, '2025-01-15'],
    ['2026-01-15', 24, '2024-01-15'],
  ])('%s minus %d months is %s', (date, months, expected) => {
    expect(toMonthsBefore(date, months)).toBe(expected);
  });

  it('refuses a date that is not ISO', () => {
    expect(() => timeWeight('31-OCT-26', '2026-10-31')).toThrow(/ISO/);
  });
});

describe('utilization factor', () => {
  it.each([
    ['combination', null, 1],
    ['combination', 50_000, 1],
    ['combination', 80_000, 1],
    ['combination', 120_000, 1.3],
    ['combination', 160_000, 1.6],
    ['combination', 180_000, 1.6],
    ['combination', 200_000, 1.6],
    ['combination', 200_001, 1],
    ['straight', null, 1],
    ['straight', 10_000, 1],
    ['straight', 20_000, 1],
    ['straight', 40_000, 2],
    ['straight', 60_000, 3],
    ['straight', 150_000, 3],
    ['straight', 200_000, 3],
    ['straight', 250_000, 1],
  ] as [Segment, number | null, number][])('%s at %s VMT per power unit → %d', (segment, vmt, uf) => {
    expect(utilizationFactor(segment, vmt)).toBeCloseTo(uf, 4);
  });
});

describe('segments and safety event groups', () => {
  it.each([
    [null, 'combination'],
    [0.7, 'combination'],
    [0.69, 'straight'],
  ] as [number | null, Segment][])('combination share %s → %s', (share, segment) => {
    expect(segmentOf(census(), share)).toBe(segment);
  });

  it.each([
    ['unsafe_driving', 2, 'combination', null],
    ['unsafe_driving', 3, 'combination', 'unsafe_driving:combination:1'],
    ['unsafe_driving', 8, 'combination', 'unsafe_driving:combination:1'],
    ['unsafe_driving', 9, 'combination', 'unsafe_driving:combination:2'],
    ['unsafe_driving', 21, 'combination', 'unsafe_driving:combination:2'],
    ['unsafe_driving', 22, 'combination', 'unsafe_driving:combination:3'],
    ['unsafe_driving', 149, 'combination', 'unsafe_driving:combination:4'],
    ['unsafe_driving', 150, 'combination', 'unsafe_driving:combination:5'],
    ['unsafe_driving', 4, 'straight', 'unsafe_driving:straight:1'],
    ['unsafe_driving', 5, 'straight', 'unsafe_driving:straight:2'],
    ['crash_indicator', 1, 'combination', null],
    ['crash_indicator', 2, 'straight', 'crash_indicator:straight:1'],
    ['crash_indicator', 46, 'combination', 'crash_indicator:combination:5'],
    ['hos_compliance', 2, 'combination', null],
    ['hos_compliance', 3, 'combination', 'hos_compliance:1'],
    ['hos_compliance', 10, 'combination', 'hos_compliance:1'],
    ['hos_compliance', 11, 'straight', 'hos_compliance:2'],
    ['hos_compliance', 501, 'combination', 'hos_compliance:5'],
    ['driver_fitness', 4, 'combination', null],
    ['driver_fitness', 5, 'combination', 'driver_fitness:1'],
    ['controlled_substances', 1, 'combination', 'controlled_substances:1'],
    ['controlled_substances', 4, 'combination', 'controlled_substances:4'],
    ['controlled_substances', 400, 'combination', 'controlled_substances:4'],
    ['vehicle_maintenance', 100, 'combination', 'vehicle_maintenance:3'],
    ['hazmat', 15, 'combination', 'hazmat:2'],
    ['hazmat', 16, 'combination', 'hazmat:3'],
  ] as [Basic, number, Segment, string | null][])('%s with %d (%s) → %s', (basic, count, segment, id) => {
    expect(segOf(basic, count, segment)?.id ?? null).toBe(id);
  });

  it('labels a group in words', () => {
    expect(segOf('unsafe_driving', 9)!.label).toBe(
      'Carriers with 9–21 inspections with unsafe-driving violations (combination segment)',
    );
    expect(segOf('controlled_substances', 1)!.label).toBe(
      'Carriers with 1 inspection with controlled-substances/alcohol violations',
    );
    expect(segOf('hos_compliance', 600)!.label).toBe('Carriers with 501 or more driver inspections');
    expect(segOf('hos_compliance', 50)!.basis).toBe(
      'Hours-of-Service Compliance safety event group 3 of 5: carriers with 21–100 driver inspections in 24 months. Source: SMS Methodology safety event groups (reference §B.5).',
    );
  });
});

describe('data sufficiency', () => {
  it.each([
    [
      'hos_compliance',
      { relevant: 2, violations: 1, with_violations: 1 },
      '2 driver inspections in 24 months, fewer than the 3 required',
    ],
    ['hos_compliance', { relevant: 3 }, 'no violations in 24 months'],
    ['hos_compliance', { relevant: 3, violations: 1, with_violations: 1 }, undefined],
    [
      'driver_fitness',
      { relevant: 4, violations: 1, with_violations: 1 },
      '4 driver inspections in 24 months, fewer than the 5 required',
    ],
    ['driver_fitness', { relevant: 5 }, 'no inspection with driver-fitness violations in 24 months'],
    ['driver_fitness', { relevant: 5, violations: 2, with_violations: 1 }, undefined],
    [
      'unsafe_driving',
      { relevant: 40, violations: 2, with_violations: 2 },
      '2 inspections with unsafe-driving violations in 24 months, fewer than the 3 required',
    ],
    ['unsafe_driving', { relevant: 40, violations: 3, with_violations: 3 }, undefined],
    ['controlled_substances', { relevant: 1, violations: 1, with_violations: 1 }, undefined],
    [
      'vehicle_maintenance',
      { relevant: 4, violations: 4, with_violations: 2 },
      '4 vehicle inspections in 24 months, fewer than the 5 required',
    ],
    ['hazmat', { relevant: 5, violations: 1, with_violations: 1 }, undefined],
    ['crash_indicator', { relevant: 1 }, '1 crash in 24 months, fewer than the 2 required'],
    ['crash_indicator', { relevant: 2 }, undefined],
  ] as [Basic, Partial<BasicCounts>, string | undefined][])('%s with %j → %s', (basic, counts, reason) => {
    const a = agg({ [basic]: counts });
    expect(maybeInsufficient(basic, a)).toBe(reason);
    expect(isSufficient(basic, a)).toBe(reason === undefined);
  });
});

describe('thresholds and carrier types', () => {
  it.each([
    ['general', [65, 65, 80, 80, 80, 80, 65]],
    ['passenger', [50, 50, 65, 65, 65, 80, 50]],
    ['hazmat', [60, 60, 75, 75, 75, 80, 60]],
  ] as [CarrierType, number[]][])('%s', (type, expected) => {
    expect(BASICS.map((b) => thresholdFor(b, type))).toEqual(expected);
  });

  const insp = (total: number, hazmat: number, recent: number) =>
    agg({}, { inspections: { ...agg().inspections, total, hazmat }, hazmat_placard_12m: recent });
  it.each([
    ['no flags, no inspections', census(), agg(), 'general'],
    ['PC_FLAG', census({ pc_flag: true }), agg(), 'passenger'],
    ['HM_FLAG', census({ hm_flag: true }), agg(), 'hazmat'],
    ['both flags: passenger thresholds are stricter', census({ pc_flag: true, hm_flag: true }), agg(), 'passenger'],
    ['2 placardable of 40, 1 recent', census(), insp(40, 2, 1), 'hazmat'],
    ['2 placardable of 41 (under 5 %)', census(), insp(41, 2, 1), 'general'],
    ['none in the last 12 months', census(), insp(10, 3, 0), 'general'],
    ['a single placardable inspection', census(), insp(5, 1, 1), 'general'],
  ])('%s → %s', (_, c, a, type) => {
    expect(carrierType(c, a)).toBe(type);
  });
});

describe('outlier fleets', () => {
  it.each([
    [45_001, 2, true],
    [6_000, 59, true],
    [6_000, 60, false],
    [5_001, null, true],
    [5_000, 0, false],
    [25_000, 2_499, true],
    [25_000, 2_500, false],
    [120_000, 110_000, false],
    [100, null, false],
    [null, null, false],
  ] as [number | null, number | null, boolean][])(
    '%s power units with %s drivers → %s',
    (power_units, drivers, flagged) => {
      expect(isOutlierFleet(census({ power_units, drivers }))).toBe(flagged);
    },
  );

  it('leaves the per-power-unit measures unranked and says why', () => {
    const measures = toMeasures(
      census({ power_units: 45_001, drivers: 2 }),
      agg({
        unsafe_driving: { relevant: 20, with_violations: 5, violations: 6, weighted: 30 },
        hos_compliance: { relevant: 10, relevant_tw: 20, violations: 2, with_violations: 2, weighted: 10 },
      }),
      m,
    );
    expect(measures.unsafe_driving).toMatchObject({
      measure: null,
      sufficient: false,
      seg: { id: 'unsafe_driving:combination:1' },
    });
    expect(measures.unsafe_driving.reason).toBe(
      'fleet size not used: 45,001 power units with 2 drivers: more than 5,000 power units with drivers under 1 % of them (or no driver count): a self-reported typo, not a fleet',
    );
    expect(measures.hos_compliance).toMatchObject({ measure: 0.5, sufficient: true });
  });
});

describe('measures', () => {
  it('divides by power units × utilization factor, or by the time-weighted relevant inspections', () => {
    // 1,200,000 miles / 10 power units = 120,000 per unit → factor 1 + 40,000 / 133,333.
    const c = census({ power_units: 10, recent_mileage: 1_200_000, recent_mileage_year: 2025 });
    const measures = toMeasures(
      c,
      agg({
        unsafe_driving: { relevant: 30, with_violations: 9, violations: 9, weighted: 26 },
        vehicle_maintenance: { relevant: 25, relevant_tw: 50, with_violations: 8, violations: 12, weighted: 55 },
      }),
      m,
    );
    expect(measures.unsafe_driving.measure).toBeCloseTo(26 / (10 * (1 + 40_000 / 133_333)), 5);
    expect(measures.unsafe_driving).toMatchObject({
      sufficient: true,
      violations: 9,
      relevant: 30,
      seg: { id: 'unsafe_driving:combination:2' },
    });
    expect(measures.vehicle_maintenance).toMatchObject({
      measure: 1.1,
      sufficient: true,
      seg: { id: 'vehicle_maintenance:3' },
    });
    expect(measures.unsafe_driving.reason).toBeUndefined();
  });

  it('gives 0 and no rank without violations, null without power units', () => {
    const measures = toMeasures(
      census({ power_units: null }),
      agg({ hos_compliance: { relevant: 40, relevant_tw: 80 }, crash_indicator: { relevant: 3, weighted: 5 } }),
      m,
    );
    expect(measures.hos_compliance).toMatchObject({
      measure: 0,
      sufficient: false,
      reason: 'no violations in 24 months',
      seg: { id: 'hos_compliance:3' },
    });
    expect(measures.crash_indicator).toMatchObject({
      measure: null,
      sufficient: false,
      reason: 'power units unknown',
      violations: 3,
    });
    expect(measures.driver_fitness).toMatchObject({ measure: 0, sufficient: false, seg: null });
  });
});

describe('percentiles', () => {
  const item = (dot: number, measure: number, seg = 'hos_compliance:1'): RankItem => ({ dot, seg, measure });

  it('is 100 × (strictly lower) / (n − 1), ties shared, one decimal', () => {
    const p = rankPercentiles([item(1, 3), item(2, 1), item(3, 2), item(4, 2), item(5, 0.5, 'hos_compliance:2')]);
    expect([...p.entries()].sort((a, b) => a[0] - b[0])).toEqual([
      [1, 100],
      [2, 0],
      [3, 33.3],
      [4, 33.3],
      [5, 0],
    ]);
  });

  it('gives 0 to a measure of 0, and refuses duplicates and non-finite measures', () => {
    expect(rankPercentiles([item(1, 0), item(2, 0), item(3, 0.2)]).get(1)).toBe(0);
    expect(rankPercentiles([item(1, -0), item(2, 0)]).get(1)).toBe(0);
    expect(() => rankPercentiles([item(1, 1), item(1, 2)])).toThrow(/carrier 1 appears twice/);
    expect(() => rankPercentiles([item(1, Number.NaN)])).toThrow(/carrier 1/);
    expect(() => rankPercentiles([item(1, -1)])).toThrow(/carrier 1/);
  });

  for (const seed of [1, 7, 42, 2024, 99_991]) {
    it(`properties hold (seed ${seed})`, () => {
      const rand = prng(seed);
      const segs = ['unsafe_driving:combination:1', 'unsafe_driving:combination:2', 'hos_compliance:3', 'solo:1'];
      // Few distinct measures so ties are common; measures 0 included; some very large ones.
      const items = Array.from({ length: 1 + Math.floor(rand() * 3000) }, (_, i): RankItem => {
        const r = rand();
        const measure = r < 0.1 ? 0 : r < 0.2 ? rand() * 1e6 : Math.round(rand() * 50) / 10;
        return { dot: i + 1, seg: i === 0 ? 'solo:1' : segs[Math.floor(rand() * 3)]!, measure };
      });
      const p = rankPercentiles(items);
      expect(p.size).toBe(items.length);
      expect(p.get(1)).toBe(0);
      for (const v of p.values()) {
        expect(v).toBeGreaterThanOrEqual(0);
        expect(v).toBeLessThanOrEqual(100);
      }
      // Monotonic in measure within a SEG, equal for ties, 0 for the lowest measure.
      for (const seg of segs) {
        const inSeg = items.filter((x) => x.seg === seg).sort((a, b) => a.measure - b.measure);
        inSeg.forEach((x, k) => {
          const prev = inSeg[k - 1];
          if (!prev) {
            expect(p.get(x.dot)).toBe(0);
            return;
          }
          if (prev.measure === x.measure) expect(p.get(x.dot)).toBe(p.get(prev.dot));
          else expect(p.get(x.dot)!).toBeGreaterThanOrEqual(p.get(prev.dot)!);
          if (x.measure === 0) expect(p.get(x.dot)).toBe(0);
        });
      }
      // Independent of input order.
      const again = rankPercentiles(shuffle(items, rand));
      for (const [dot, v] of p) expect(again.get(dot)).toBe(v);
      const sizes = countBySeg(items);
      expect([...sizes.values()].reduce((a, b) => a + b, 0)).toBe(items.length);
    });
  }

  it('ranks 2 million carriers', () => {
    const rand = prng(5);
    const items = Array.from(
      { length: 2_000_000 },
      (_, i): RankItem => ({
        dot: i + 1,
        seg: `hos_compliance:${1 + (i % 5)}`,
        measure: Math.round(rand() * 1e5) / 1e3,
      }),
    );
    const p = rankPercentiles(items);
    expect(p.size).toBe(2_000_000);
    const top = items.filter((x) => x.seg === 'hos_compliance:1').reduce((a, b) => (b.measure > a.measure ? b : a));
    expect(p.get(top.dot)).toBe(100);
  });
});

describe('profile', () => {
  const busy = agg(
    {
      unsafe_driving: { relevant: 30, with_violations: 9, violations: 9, weighted: 24 },
      hos_compliance: { relevant: 30, relevant_tw: 60, with_violations: 4, violations: 5, weighted: 18 },
      driver_fitness: { relevant: 30, relevant_tw: 60, with_violations: 1, violations: 1, weighted: 4 },
      controlled_substances: { relevant: 30, relevant_tw: 60 },
      vehicle_maintenance: { relevant: 25, relevant_tw: 50, with_violations: 6, violations: 4, weighted: 30 },
      hazmat: { relevant: 6, relevant_tw: 12, with_violations: 2, violations: 3, weighted: 9 },
      crash_indicator: { relevant: 2, weighted: 4 },
    },
    {
      inspections: {
        total: 31,
        driver: 30,
        vehicle: 25,
        hazmat: 6,
        with_violations: 12,
        driver_oos: 1,
        vehicle_oos: 6,
        hazmat_oos: 0,
      },
      hazmat_placard_12m: 0,
      crashes: { total: 2, fatal: 0, injury: 1, tow_away: 1 },
    },
  );

  function input(
    over: {
      census?: CensusRow;
      agg?: CarrierAggregate;
      ranked?: Basic[];
      showRestricted?: boolean;
      percentiles?: Partial<Record<Basic, number>>;
    } = {},
  ): ProfileInput {
    const c = over.census ?? census();
    const a = over.agg ?? busy;
    const measures = toMeasures(c, a, m);
    const ranked = over.ranked ?? BASICS.filter((b) => measures[b].sufficient);
    const percentiles: Partial<Record<Basic, number | null>> = {};
    const segSizes = new Map<string, number>([[INSUFFICIENT_SEG, 1_600_000]]);
    for (const b of BASICS) {
      if (!ranked.includes(b)) {
        measures[b] = { ...measures[b], sufficient: false, reason: measures[b].reason ?? 'not ranked in this test' };
        continue;
      }
      percentiles[b] = over.percentiles?.[b] ?? 10 * (BASICS.indexOf(b) + 1);
      segSizes.set(measures[b].seg!.id, 5123);
    }
    return {
      census: c,
      agg: a,
      measures,
      percentiles,
      segSizes,
      dataAsOf: '2026-10-31',
      methodology: m,
      national: toNational([a]),
      showRestricted: over.showRestricted ?? false,
      gaps: [],
      stepDown: Object.fromEntries(BASICS.map((b) => [b, measures[b].measure === null ? null : []])) as Record<
        Basic,
        [] | null
      >,
    };
  }

  it('validates against carriers/profile', () => {
    const profile = toProfile(input({ percentiles: { unsafe_driving: 71.4 } }));
    expect(() => schemas().assert('carriers/profile', profile, 'profile')).not.toThrow();
    expect(profile.categories.map((c) => c.category)).toEqual([...BASICS]);
    expect(profile.methodology).toEqual({ version: 'sms-2.0', note: m.note });
    expect(profile.peer_group).toEqual({
      id: 'unsafe_driving:combination:2',
      label: 'Carriers with 9–21 inspections with unsafe-driving violations (combination segment)',
      basis: expect.stringMatching(/^Unsafe Driving safety event group 2 of 5/),
      size: 5123,
    });
    expect(profile.rates).toEqual({
      vehicle_oos_rate: 0.24,
      driver_oos_rate: 0.033,
      hazmat_oos_rate: 0,
      violations_per_inspection: 0.71,
      crashes_per_power_unit: 0.167,
    });
    expect(profile.categories[0]).toEqual({
      category: 'unsafe_driving',
      label: 'Unsafe Driving',
      measure: 2,
      percentile: 71.4,
      threshold: 65,
      alert: true,
      violations: 9,
      peer_group: 'unsafe_driving:combination:2',
      sufficient_data: true,
      step_down: [],
    });
    expect(profile.top_risks[0]!.reason).toBe(
      'Unsafe Driving at the 71.4th percentile of 5,123 carriers with 9–21 inspections with unsafe-driving violations (combination segment); 9 violations in 24 months; intervention threshold 65 (reached)',
    );
  });

  it('rejects a profile with 6 categories or 2 top risks', () => {
    const profile = toProfile(input());
    const validate = schemas().get('carriers/profile');
    expect(validate({ ...profile, categories: profile.categories.slice(0, 6) })).toBe(false);
    expect(validate({ ...profile, top_risks: profile.top_risks.slice(0, 2) })).toBe(false);
    expect(validate({ ...profile, categories: [...profile.categories].reverse() })).toBe(false);
    expect(validate({})).toBe(false);
  });

  it('withholds the Crash Indicator and HM percentiles unless showRestricted', () => {
    const hidden = toProfile(input({ percentiles: { hazmat: 90, crash_indicator: 95 } }));
    for (const b of ['hazmat', 'crash_indicator'] as const) {
      const c = hidden.categories.find((x) => x.category === b)!;
      expect(c).toMatchObject({
        percentile: null,
        alert: false,
        sufficient_data: true,
        percentile_note: 'not published by FMCSA',
      });
      expect(c.measure).toBeGreaterThan(0);
      expect(hidden.percentiles[b]).toBeNull();
    }
    expect(hidden.categories[0]).not.toHaveProperty('percentile_note');
    expect(hidden.top_risks.map((r) => r.category)).not.toContain('crash_indicator');

    const shown = toProfile(input({ percentiles: { hazmat: 90, crash_indicator: 95 }, showRestricted: true }));
    expect(shown.categories.find((x) => x.category === 'crash_indicator')).toMatchObject({
      percentile: 95,
      alert: true,
    });
    expect(shown.categories.find((x) => x.category === 'hazmat')).not.toHaveProperty('percentile_note');
    expect(shown.top_risks.map((r) => r.category)).toEqual(['crash_indicator', 'hazmat', 'vehicle_maintenance']);
    expect(() => schemas().assert('carriers/profile', shown, 'profile')).not.toThrow();
  });

  it.each([
    [[], 0],
    [['hos_compliance'], 1],
    [['unsafe_driving', 'vehicle_maintenance'], 2],
    [['unsafe_driving', 'hos_compliance', 'driver_fitness', 'vehicle_maintenance', 'hazmat'], 5],
  ] as [Basic[], number][])('has exactly 3 top risks with %j ranked', (ranked, n) => {
    const profile = toProfile(input({ ranked, showRestricted: true }));
    expect(profile.top_risks).toHaveLength(3);
    const withPercentile = profile.top_risks.filter((r) => r.percentile !== null);
    expect(withPercentile).toHaveLength(Math.min(n, 3));
    // Highest percentiles first (test percentiles rise with the BASIC order), then most violations.
    const expected = [...ranked].sort((a, b) => BASICS.indexOf(b) - BASICS.indexOf(a)).slice(0, 3);
    expect(withPercentile.map((r) => r.category)).toEqual(expected);
    for (const r of withPercentile)
      expect(r.reason).toMatch(
        / at the \d+(\.\d)?(st|nd|rd|th) percentile of 5,123 carriers with .+; \d+ (violations?|crash(es)?) in 24 months; intervention threshold \d+/,
      );
    for (const r of profile.top_risks.slice(withPercentile.length)) {
      expect(r.percentile).toBeNull();
      expect(r.reason).toMatch(
        /: no percentile \(.+\); listed by (violation|crash) count: \d+ (violations?|crash(es)?) in 24 months/,
      );
    }
    if (n === 0) {
      expect(profile.top_risks.map((r) => r.category)).toEqual([
        'unsafe_driving',
        'hos_compliance',
        'vehicle_maintenance',
      ]);
      expect(profile.top_risks[1]!.reason).toBe(
        'Hours-of-Service Compliance: no percentile (not ranked in this test); listed by violation count: 5 violations in 24 months (measure 0.3)',
      );
      expect(profile.peer_group).toMatchObject({ id: INSUFFICIENT_SEG, size: 1_600_000 });
    }
    expect(() => schemas().assert('carriers/profile', profile, 'profile')).not.toThrow();
  });

  it('breaks ties by the fixed BASIC order and names restricted percentiles', () => {
    const profile = toProfile(input({ agg: agg(), ranked: [] }));
    expect(profile.top_risks.map((r) => r.category)).toEqual(['unsafe_driving', 'hos_compliance', 'driver_fitness']);
    expect(profile.top_risks[0]!.reason).toBe(
      'Unsafe Driving: no percentile (0 inspections with unsafe-driving violations in 24 months, fewer than the 3 required); listed by violation count: 0 violations in 24 months',
    );
    // Ranked only where the percentile is withheld: no shown rank, so the peer group is `insufficient`.
    const crash = toProfile(input({ ranked: ['crash_indicator'] }));
    expect(crash.categories[6]).toMatchObject({
      category: 'crash_indicator',
      percentile: null,
      sufficient_data: true,
      percentile_note: 'not published by FMCSA',
    });
    expect(crash.peer_group.id).toBe(INSUFFICIENT_SEG);
    const hm = toProfile(
      input({
        ranked: ['hazmat'],
        agg: agg({ hazmat: { relevant: 6, relevant_tw: 12, with_violations: 2, violations: 30, weighted: 9 } }),
      }),
    );
    expect(hm.top_risks[0]!.reason).toBe(
      'Hazardous Materials Compliance: no percentile (not published by FMCSA); listed by violation count: 30 violations in 24 months (measure 0.75)',
    );
    expect(hm.peer_group.id).toBe(INSUFFICIENT_SEG);
  });

  it('takes the first ranked category as peer group when Unsafe Driving is not ranked', () => {
    const inp = input({ ranked: ['driver_fitness', 'vehicle_maintenance'] });
    expect(toPeerSegId(inp.measures, toVisiblePercentiles(inp))).toBe('driver_fitness:3');
    expect(toProfile(inp).peer_group).toMatchObject({
      id: 'driver_fitness:3',
      label: 'Carriers with 21–100 driver inspections',
      size: 5123,
    });
  });

  it('refuses percentiles that disagree with the sufficiency of the measures', () => {
    const inp = input();
    expect(() => toProfile({ ...inp, percentiles: { ...inp.percentiles, controlled_substances: 12 } })).toThrow(
      /123456: controlled_substances is not ranked but has a percentile/,
    );
    expect(() => toProfile({ ...inp, percentiles: {} })).toThrow(/ranked without a percentile/);
  });

  it.each([
    ['0,0 everywhere', {}, null],
    [
      'recent year set',
      { recent_mileage: 1_200_000, recent_mileage_year: 2025, mcs150_mileage: 900_000, mcs150_mileage_year: 2023 },
      { miles: 1_200_000, year: 2025 },
    ],
    ['recent 0,0, MCS-150 set', { mcs150_mileage: 900_000, mcs150_mileage_year: 2023 }, { miles: 900_000, year: 2023 }],
    [
      'empty fields',
      { recent_mileage: null, recent_mileage_year: null, mcs150_mileage: null, mcs150_mileage_year: null },
      null,
    ],
  ] as [string, Partial<CensusRow>, unknown][])('mileage: %s', (_, over, expected) => {
    expect(toMileage(census(over))).toEqual(expected);
    expect(toProfile(input({ census: census(over) })).mileage).toEqual(expected);
  });

  it('gives null rates for zero denominators and outlier fleets', () => {
    const profile = toProfile(input({ census: census({ power_units: 45_001, drivers: 2 }), agg: agg(), ranked: [] }));
    expect(profile.rates).toEqual({
      vehicle_oos_rate: null,
      driver_oos_rate: null,
      hazmat_oos_rate: null,
      violations_per_inspection: null,
      crashes_per_power_unit: null,
    });
    expect(profile.power_units).toBe(45_001);
  });

  it.each([
    [71.4, '71.4th'],
    [1, '1st'],
    [2, '2nd'],
    [3, '3rd'],
    [11, '11th'],
    [12, '12th'],
    [22, '22nd'],
    [100, '100th'],
    [0, '0th'],
  ])('ordinal %d → %s', (n, s) => {
    expect(toOrdinal(n)).toBe(s);
  });
});

describe('national out-of-service rates', () => {
  it('sums every carrier’s inspections before dividing, and is null where nothing was inspected', () => {
    const of = (vehicle: number, vehicle_oos: number, driver: number, driver_oos: number) => ({
      inspections: { total: 0, with_violations: 0, hazmat: 0, hazmat_oos: 0, vehicle, vehicle_oos, driver, driver_oos },
    });
    // 3 of 10 and 1 of 30 vehicle inspections: 4 / 40, not the mean of 0.3 and 0.033.
    expect(toNational([of(10, 3, 5, 1), of(30, 1, 0, 0)])).toEqual({
      vehicle_oos_rate: 0.1,
      driver_oos_rate: 0.2,
      hazmat_oos_rate: null,
      vehicle_inspections: 40,
      driver_inspections: 5,
      hazmat_inspections: 0,
    });
  });
});
