import { describe, expect, it } from 'vitest';
import { Aggregator, CarrierIndex, type AggregationRules } from '../../pipeline/carriers/aggregate.ts';
import type { ViolationRow } from '../../pipeline/carriers/types.ts';

// Every event weighs 3 (the most recent band); the cap is the methodology's 30.
const RULES: AggregationRules = {
  timeWeight: () => 3,
  severityCap: 30,
  crashSeverity: () => 1,
  isDriverInspection: () => true,
  isVehicleInspection: () => true,
  isRecent: () => true,
  windowFrom: '2024-11-01',
};

const violation = (
  unique_id: string,
  code: string,
  severity_weight: number,
  oos = false,
  basic: ViolationRow['basic'] = 'vehicle_maintenance',
): ViolationRow => ({
  unique_id,
  dot: 10,
  date: '2026-10-01',
  code,
  basic,
  oos,
  severity_weight,
  oos_weight: oos ? 2 : 0,
  description: null,
  group: null,
});

async function aggregate(rows: ViolationRow[]) {
  const agg = new Aggregator(new CarrierIndex(Uint32Array.of(10)), RULES);
  try {
    for (const row of rows) expect(agg.addViolation(row)).toBe('used');
    const totals = await agg.finish();
    return { totals, basics: agg.toAggregate(0).basics };
  } finally {
    agg.dispose();
  }
}

describe('violations grouped by inspection', () => {
  it('count a code cited twice in one inspection once, with the higher severity of the two', async () => {
    const { totals, basics } = await aggregate([
      violation('I1', '393.9TS', 5),
      violation('I1', '393.9TS', 5, true), // the same code again, out of service: 5 + 2
      violation('I1', '393.47E', 4),
      violation('I2', '393.9TS', 5), // another inspection: counted there
    ]);
    expect(totals).toEqual({ violations: 3, groups: 2, repeats: 1 });
    const vm = basics.vehicle_maintenance;
    expect(vm.violations).toBe(3);
    expect(vm.with_violations).toBe(2);
    // I1: 3 × (7 + 4); I2: 3 × 5.
    expect(vm.weighted).toBe(3 * 11 + 3 * 5);
  });

  it('keep the first of two rows of one code when the repeat weighs less, and count a row without a code always', async () => {
    const { totals, basics } = await aggregate([
      violation('I1', '392.2', 5, true),
      violation('I1', '392.2', 5),
      violation('I1', '', 3),
      violation('I1', '', 3),
    ]);
    expect(totals).toEqual({ violations: 3, groups: 1, repeats: 1 });
    expect(basics.vehicle_maintenance.violations).toBe(3);
    expect(basics.vehicle_maintenance.weighted).toBe(3 * (7 + 3 + 3));
  });

  it("cap an inspection's severity in one BASIC at 30 after the repeats are taken out, each BASIC on its own", async () => {
    const distinct = Array.from({ length: 7 }, (_, i) => violation('I1', `396.3A1-${i}`, 5));
    const { totals, basics } = await aggregate([
      ...distinct,
      ...distinct,
      violation('I1', '395.8', 7, false, 'hos_compliance'),
    ]);
    expect(totals).toEqual({ violations: 8, groups: 2, repeats: 7 });
    expect(basics.vehicle_maintenance.weighted).toBe(3 * 30);
    expect(basics.hos_compliance.weighted).toBe(3 * 7);
  });
});
