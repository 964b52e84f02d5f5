// When an alert clears: the step-down of each BASIC, worked by hand on the fixture's carriers, and the
// inspection list the route pages through.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSPECTIONS, PROFILES } from '../../contract/carriers/layout.ts';
import { sliceInspectionsRecord } from '../../contract/carriers/inspections.ts';
import type { Profile } from '../../contract/carriers/profile.ts';
import { methodology } from '../../contract/carriers/methodology.ts';
import { schemas } from '../../contract/core/schemas.ts';
import { buildCarriers } from '../../pipeline/carriers/index.ts';
import { leavesBandOn, SegRanks } from '../../pipeline/carriers/step-down.ts';
import { countedViolations, type ViolationEvent } from '../../pipeline/carriers/carrier-events.ts';
import { parsePartition } from '../../pipeline/carriers/event-spill.ts';
import { loadBuild } from '../../server/core/build.ts';
import { RecordStore } from '../../server/core/record-store.ts';
import { AS_OF, writeCarriersFixture } from '../fixtures/carriers.ts';
import { PINNED_CLOCK } from '../helpers/facilities.ts';
import { tempDir } from '../helpers/server.ts';

describe('the day an event leaves a time-weight band', () => {
  it('is the day after it turns the band’s age, month ends clamped (methodology age_rule)', () => {
    expect(leavesBandOn('2026-06-01', 6)).toBe('2026-12-02');
    expect(leavesBandOn('2025-12-01', 12)).toBe('2026-12-02');
    expect(leavesBandOn('2026-09-01', 24)).toBe('2028-09-02');
    // 31 August + 6 months: 28 February is clamped to the month's end, so the event is 6 months old
    // through the last day of February and leaves the band on 1 March.
    expect(leavesBandOn('2026-08-31', 6)).toBe('2027-03-01');
    expect(leavesBandOn('2024-02-29', 12)).toBe('2025-03-01');
  });
});

describe('a future measure’s percentile', () => {
  const ranks = new SegRanks(
    [1, 2, 2, 3, 5].map((measure) => ({ seg: 'g', measure })),
    1,
    0,
  );
  it('counts today’s other members below it, the carrier itself left out', () => {
    // The carrier is the member at 5; at 2 it has one member below (1) of four others: 25.
    expect(ranks.percentile('g', 2, 5)).toBe(25);
    // At 3: three below (1, 2, 2; a tie is not below) of four others; at 4, all four.
    expect(ranks.percentile('g', 3, 5)).toBe(75);
    expect(ranks.percentile('g', 4, 5)).toBe(100);
    // A carrier not in the group today ranks against all five.
    expect(ranks.percentile('g', 2.5, undefined)).toBe(60);
    // Alone in a group: the methodology's single-carrier value.
    expect(ranks.percentile('empty', 3, undefined)).toBe(0);
  });
});

describe('cites of one inspection', () => {
  const v = (code: string, severity: number, oos = false): ViolationEvent => ({
    date: '2026-09-01',
    code,
    description: null,
    basic: 'vehicle_maintenance',
    severity_weight: severity,
    oos,
    oos_weight: oos ? 2 : 0,
  });
  it('list a code once at its highest severity, and a cite without a code every time', () => {
    const counted = countedViolations([v('393.9', 4), v('393.9', 4, true), v('', 3), v('', 3)]);
    expect(counted.map((c) => [c.code, c.severity])).toEqual([
      ['393.9', 6],
      ['', 3],
      ['', 3],
    ]);
  });

  it('join their inspection in a partition whatever order the files gave them in', () => {
    const lines = [
      'V\t0\tU1\t2026-09-01\t392.2\t0\t5\t0\t0\tSpeeding',
      'I\t0\tU1\t2026-09-01\tTX\t1\t0\t1\t0\t0\t63',
      'V\t1\tU9\t2026-08-01\t395.8\t1\t7\t1\t2\t',
    ];
    const events = parsePartition(`${lines.join('\n')}\n`);
    expect(events.get(0)!.inspections).toMatchObject([
      { id: 'U1', listed: true, state: 'TX', violations: [{ code: '392.2', description: 'Speeding' }] },
    ]);
    // A violation whose inspection row the build does not have is listed on its own.
    expect(events.get(1)!.inspections).toMatchObject([
      { id: 'U9', listed: false, level: null, violations: [{ basic: 'hos_compliance', oos: true }] },
    ]);
  });
});

describe('the fixture build', () => {
  let root: Awaited<ReturnType<typeof tempDir>>;
  let profiles: RecordStore;
  let inspections: RecordStore;
  beforeAll(async () => {
    root = await tempDir('carriers-step-down');
    const input = join(root.path, 'input');
    await writeCarriersFixture(input);
    await buildCarriers({ input, outDir: join(root.path, 'out'), now: PINNED_CLOCK, asOf: AS_OF });
    const build = loadBuild(join(root.path, 'out', 'carriers'), 'carriers');
    profiles = RecordStore.open(build, PROFILES);
    inspections = RecordStore.open(build, INSPECTIONS);
  });
  afterAll(async () => {
    profiles.close();
    inspections.close();
    await root.remove();
  });
  const profile = (dot: number) => JSON.parse(profiles.get(dot)!.toString('utf8')) as Profile;

  it('steps Alpha’s unsafe driving down as each speeding cite ages, to insufficient, then to 0', () => {
    const p = profile(1000001);
    schemas().assert('carriers/profile', p, 'profile');
    const ud = p.categories[0]!;
    // Cites of severity 5 on 2026-09-01 and 2026-06-01 (weight 3) and 2025-12-01 (weight 2): Σ = 40.
    // The measure is Σ / (power units × utilization factor), so each step is today's × Σ then / 40.
    const perPoint = ud.measure! / 40;
    const steps = ud.step_down!;
    expect(steps.map((s) => s.date)).toEqual([
      '2026-12-02', // 06-01 turns 6 months (3 → 2) and 2025-12-01 turns 12 (2 → 1): 10 + 15 + 5 = 30
      '2027-03-02', // 09-01 turns 6 months: 10 + 10 + 5 = 25
      '2027-06-02', // 06-01 turns 12 months: 5 + 10 + 5 = 20
      '2027-09-02', // 09-01 turns 12 months: 15
      '2027-12-02', // 2025-12-01 leaves the window: 10, and two inspections with violations are too few
      '2028-06-02', // 06-01 leaves: 5
      '2028-09-02', // the last leaves: no violation, measure 0
    ]);
    const sums = [30, 25, 20, 15, 10, 5, 0];
    for (const [k, s] of steps.entries()) expect(s.measure).toBeCloseTo(perPoint * sums[k]!, 2);
    // Alpha is below Beta, the only other member of its group, until it is no longer ranked at all.
    expect(steps.map((s) => [s.percentile, s.sufficient_data, s.alert])).toEqual([
      [0, true, false],
      [0, true, false],
      [0, true, false],
      [0, true, false],
      [null, false, false],
      [null, false, false],
      [null, false, false],
    ]);
  });

  it('clears Beta’s alert on the day its measure falls below Alpha’s, against today’s group', () => {
    const p = profile(1000002);
    const ud = p.categories[0]!;
    expect(ud).toMatchObject({ percentile: 100, alert: true });
    const alpha = profile(1000001).categories[0]!.measure!;
    const cleared = ud.step_down!.find((s) => !s.alert)!;
    // Beta's last alerting step still ranks above Alpha's measure of today; the clearing one does not.
    const before = ud.step_down!.filter((s) => s.date < cleared.date);
    for (const s of before) expect(s.measure!).toBeGreaterThan(alpha);
    expect(cleared.percentile === null || cleared.measure! <= alpha).toBe(true);
    // Categories without a measure have no step-down; one measured at 0 has nothing to step down.
    expect(p.categories.find((c) => c.category === 'hazmat')!.step_down).toEqual(
      p.categories.find((c) => c.category === 'hazmat')!.measure === null ? null : [],
    );
  });

  it('lists Alpha’s inspections of the window newest first, with their cites, and its crash', () => {
    const { head, lines } = sliceInspectionsRecord(inspections.get(1000001)!.toString('utf8'), 0, 10);
    const listed = lines.map((l) => JSON.parse(l));
    // 2024-01-01 is outside the window.
    expect(head.total).toBe(3);
    expect(listed.map((i) => [i.inspection_id, i.date, i.time_weight])).toEqual([
      ['9001', '2026-09-01', 3],
      ['9002', '2026-06-01', 3],
      ['9003', '2025-12-01', 2],
    ]);
    expect(listed[0]).toMatchObject({ state: 'TX', level: 1, out_of_service: true, vehicle_oos: 1 });
    expect(listed[0].violations).toEqual([
      {
        code: '3922SLLS0',
        description: 'Speeding',
        basic: 'unsafe_driving',
        severity_weight: 5,
        time_weight: 3,
        oos: false,
      },
      { code: '395.80', description: 'Log', basic: 'hos_compliance', severity_weight: 7, time_weight: 3, oos: true },
    ]);
    // An injury crash (severity 2) of 2026-03-03, between 6 and 12 months old.
    expect(head.crashes).toEqual([
      {
        report_number: 'C1',
        date: '2026-03-03',
        state: 'TX',
        fatalities: 0,
        injuries: 1,
        tow_away: true,
        hazmat_released: false,
        not_preventable: false,
        severity_weight: 2,
        time_weight: 2,
      },
    ]);
    // Paging slices the lines.
    expect(sliceInspectionsRecord(inspections.get(1000001)!.toString('utf8'), 2, 5).lines).toHaveLength(1);
    expect(methodology().time_weights.window_months).toBe(24);
  });
});
