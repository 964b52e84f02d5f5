// FRED's units and frequency conventions, checked against figures worked out by hand from a real recorded
// series: Statistics Canada CPI, all-items, Canada (table 18-10-0004-01, vector v41690973), 2016-05 to 2026-04,
// as ../shared/data/economy/statcan_wds/latestN120_v41690973_cpi_all_items_18100004.json holds it.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Observation } from '../../contract/economy/types.ts';
import { aggregate, canAggregate, toPeriodStart, transform } from '../../server/economy/transforms.ts';

const CPI_FILE = fileURLToPath(
  new URL('../../../shared/data/economy/statcan_wds/latestN120_v41690973_cpi_all_items_18100004.json', import.meta.url),
);
const HAVE_CPI = existsSync(CPI_FILE);
if (!HAVE_CPI) process.stderr.write('skipped: ../shared/data not found (CPI transforms against the recorded series)\n');

function loadCpi(): Observation[] {
  const body = JSON.parse(readFileSync(CPI_FILE, 'utf8')) as {
    object: { vectorDataPoint: { refPer: string; value: number }[] };
  }[];
  return body[0]!.object.vectorDataPoint.map((p) => ({ date: p.refPer, value: p.value }));
}
const at = (obs: readonly Observation[], date: string) => obs.find((o) => o.date === date)?.value;

describe.skipIf(!HAVE_CPI)('units on CPI all-items (v41690973), monthly', () => {
  const cpi = HAVE_CPI ? loadCpi() : [];

  it('reads the recorded figures the checks below start from', () => {
    expect(cpi).toHaveLength(120);
    expect([at(cpi, '2025-04-01'), at(cpi, '2026-03-01'), at(cpi, '2026-04-01')]).toEqual([163.4, 167.4, 168.0]);
  });

  // 2026-04: x(t) = 168.0, x(t−1) = 167.4 (2026-03), a year ago 163.4 (2025-04).
  it.each([
    ['lin', 168.0],
    ['chg', 168.0 - 167.4],
    ['ch1', 168.0 - 163.4],
    ['pch', (168.0 / 167.4 - 1) * 100], // 0.358423
    ['pc1', (168.0 / 163.4 - 1) * 100], // 2.815177
    ['pca', ((168.0 / 167.4) ** 12 - 1) * 100], // 4.385
    ['cch', (Math.log(168.0) - Math.log(167.4)) * 100],
    ['cca', (Math.log(168.0) - Math.log(167.4)) * 100 * 12],
    ['log', Math.log(168.0)],
  ] as const)('%s for 2026-04 is FRED’s formula', (units, expected) => {
    expect(at(transform(cpi, units, 'm'), '2026-04-01')).toBeCloseTo(expected, 5);
  });

  it('leaves out the first points, which have no earlier observation', () => {
    expect(transform(cpi, 'pch', 'm')[0]!.date).toBe('2016-06-01');
    expect(transform(cpi, 'chg', 'm')).toHaveLength(119);
    // The first year has no year-ago point: pc1 starts a year after the series.
    expect(transform(cpi, 'pc1', 'm')[0]!.date).toBe('2017-05-01');
    expect(transform(cpi, 'pc1', 'm')).toHaveLength(108);
  });

  it('does not bridge a gap: with 2025-06 missing, 2025-07’s change is left out', () => {
    const gap = cpi.filter((o) => o.date !== '2025-06-01');
    const pch = transform(gap, 'pch', 'm');
    expect(at(pch, '2025-07-01')).toBeUndefined();
    expect(at(pch, '2025-08-01')).toBeCloseTo((164.8 / 164.9 - 1) * 100, 6);
  });

  it('leaves out a year-over-year change whose year-ago point is missing (2024-06 removed)', () => {
    const gap = cpi.filter((o) => o.date !== '2024-06-01');
    expect(at(transform(gap, 'pc1', 'm'), '2025-06-01')).toBeUndefined();
    expect(at(transform(gap, 'pch', 'm'), '2025-06-01')).toBeCloseTo((164.4 / 164.3 - 1) * 100, 6);
    expect(at(transform(gap, 'pc1', 'm'), '2025-07-01')).toBeCloseTo((164.9 / at(cpi, '2024-07-01')! - 1) * 100, 6);
  });
});

describe.skipIf(!HAVE_CPI)('frequency aggregation of CPI all-items (v41690973)', () => {
  const cpi = HAVE_CPI ? loadCpi() : [];

  it('quarterly: each quarter’s average, sum or last month, dated by its first day', () => {
    // 2026Q1 = 165.0 (Jan), 165.9 (Feb), 167.4 (Mar); 2025Q4 = 165.3, 165.4, 165.0.
    const avg = aggregate(cpi, 'monthly', 'q', 'avg');
    expect(at(avg, '2026-01-01')).toBeCloseTo((165.0 + 165.9 + 167.4) / 3, 6); // 166.1
    expect(at(avg, '2025-10-01')).toBeCloseTo((165.3 + 165.4 + 165.0) / 3, 6);
    expect(at(aggregate(cpi, 'monthly', 'q', 'sum'), '2026-01-01')).toBeCloseTo(498.3, 6);
    expect(at(aggregate(cpi, 'monthly', 'q', 'eop'), '2026-01-01')).toBe(167.4);
  });

  it('leaves out the period not yet over at the last observation (2026Q2 has April only)', () => {
    const q = aggregate(cpi, 'monthly', 'q', 'avg');
    expect(q.at(-1)!.date).toBe('2026-01-01');
    expect(aggregate(cpi, 'monthly', 'a', 'avg').at(-1)!.date).toBe('2025-01-01');
  });

  it('annual 2025 is the average of its twelve months', () => {
    const months = [161.3, 163.0, 163.5, 163.4, 164.3, 164.4, 164.9, 164.8, 164.9, 165.3, 165.4, 165.0];
    expect(at(aggregate(cpi, 'monthly', 'a', 'avg'), '2025-01-01')).toBeCloseTo(1970.2 / 12, 6); // 164.183
    expect(months.reduce((a, b) => a + b)).toBeCloseTo(1970.2, 6);
  });

  it('keeps the first period with the months it has (2016 starts in May)', () => {
    // May to December 2016: eight months, the average of those present.
    const first = aggregate(cpi, 'monthly', 'a', 'avg')[0]!;
    const may2016 = cpi.filter((o) => o.date.startsWith('2016'));
    expect(may2016).toHaveLength(8);
    // Eight of its twelve months: the year says it is incomplete.
    expect(first).toEqual({
      date: '2016-01-01',
      value: expect.closeTo(may2016.reduce((a, o) => a + o.value, 0) / 8, 6),
      incomplete: true,
    });
    expect(aggregate(cpi, 'monthly', 'a', 'avg')[1]!.incomplete).toBeUndefined();
  });

  it('aggregates first, then transforms: quarterly year-over-year change for 2026Q1', () => {
    const q = aggregate(cpi, 'monthly', 'q', 'avg');
    const pc1 = transform(q, 'pc1', 'q');
    const q1_2025 = (161.3 + 163.0 + 163.5) / 3;
    expect(at(pc1, '2026-01-01')).toBeCloseTo(((165.0 + 165.9 + 167.4) / 3 / q1_2025 - 1) * 100, 5);
  });
});

describe('edges on small series', () => {
  it('leaves out the log and the continuously compounded rates of a value not above zero', () => {
    const obs = [
      { date: '2020-01-01', value: 0 },
      { date: '2020-02-01', value: 2 },
      { date: '2020-03-01', value: 4 },
    ];
    expect(transform(obs, 'log', 'm').map((o) => o.date)).toEqual(['2020-02-01', '2020-03-01']);
    expect(transform(obs, 'cch', 'm').map((o) => o.date)).toEqual(['2020-03-01']);
    // A division by zero: no percent change from 0 to 2.
    expect(transform(obs, 'pch', 'm')).toEqual([{ date: '2020-03-01', value: 100 }]);
  });

  it('takes a daily series’ previous observation across a weekend, and weeks from Monday', () => {
    const days = [
      { date: '2024-03-28', value: 10 }, // Thursday
      { date: '2024-04-01', value: 11 }, // Monday after Good Friday
      { date: '2024-04-02', value: 12 },
    ];
    expect(transform(days, 'chg', 'daily')).toEqual([
      { date: '2024-04-01', value: 1 },
      { date: '2024-04-02', value: 1 },
    ]);
    expect(toPeriodStart('2024-04-03', 'w')).toBe('2024-04-01');
    expect(toPeriodStart('2024-03-31', 'w')).toBe('2024-03-25');
    // The week of 2024-04-01 is not over on Tuesday the 2nd: only the week of 2024-03-25 is answered.
    expect(aggregate(days, 'daily', 'w', 'avg')).toEqual([{ date: '2024-03-25', value: 10 }]);
  });

  it('counts a daily series that ends on a Friday as covering its weekend', () => {
    const week = ['2024-03-25', '2024-03-26', '2024-03-27', '2024-03-28', '2024-03-29'].map((date, i) => ({
      date,
      value: i + 1,
    }));
    expect(aggregate(week, 'daily', 'w', 'sum')).toEqual([{ date: '2024-03-25', value: 15 }]);
    // March 2024 ends on Sunday the 31st: a series whose last value is Friday the 29th has the whole month.
    expect(aggregate(week, 'daily', 'm', 'sum')).toEqual([{ date: '2024-03-01', value: 15 }]);
    expect(aggregate(week.slice(0, 4), 'daily', 'm', 'sum')).toEqual([]);
  });

  it('never aggregates to a frequency higher than the series’ own', () => {
    expect(canAggregate('monthly', 'q')).toBe(true);
    expect(canAggregate('monthly', 'm')).toBe(true);
    expect(canAggregate('monthly', 'w')).toBe(false);
    expect(canAggregate('quarterly', 'sa')).toBe(true);
    expect(canAggregate('annual', 'sa')).toBe(false);
  });
});
