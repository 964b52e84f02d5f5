// ALFRED's real-time periods folded from snapshots (server/economy/realtime.ts), on snapshots written here:
// a value revised, a date withdrawn and published again, a point published without a value.
import { describe, expect, it } from 'vitest';
import {
  asKnownOn,
  emptyHistory,
  firstReleases,
  fold,
  type FoldedSnapshot,
  type History,
  mergeAcross,
  OPEN_END,
  periodsOf,
  snapshotOn,
  vintagesIn,
} from '../../server/economy/realtime.ts';

const snap = (vintage: string, values: Record<string, number | null>): FoldedSnapshot => ({
  vintage,
  asOf: `${vintage}T06:00:00.000Z`,
  source: 'Statistics Canada',
  observations: Object.entries(values).flatMap(([date, value]) => (value === null ? [] : [{ date, value }])),
  missing: Object.entries(values).flatMap(([date, value]) => (value === null ? [{ date, status: '..' }] : [])),
});

/** Three snapshots: 03-01 first, 03-05 revises January and publishes February, 03-09 withdraws December. */
function history(): History {
  const h = emptyHistory('CPI');
  fold(h, snap('2026-03-01', { '2025-12-01': 100, '2026-01-01': 101 }));
  fold(h, snap('2026-03-05', { '2025-12-01': 100, '2026-01-01': 101.5, '2026-02-01': null }));
  fold(h, snap('2026-03-09', { '2026-01-01': 101.5, '2026-02-01': 102 }));
  return h;
}

describe('fold', () => {
  it('keeps each value with the days it was the published one', () => {
    const h = history();
    expect(h.days).toEqual(['2026-03-01', '2026-03-05', '2026-03-09']);
    expect(h.versions.get('2026-01-01')).toEqual([
      { value: 101, from: '2026-03-01', until: '2026-03-05' },
      { value: 101.5, from: '2026-03-05' },
    ]);
    // Withdrawn on 03-09: its version ends there.
    expect(h.versions.get('2025-12-01')).toEqual([{ value: 100, from: '2026-03-01', until: '2026-03-09' }]);
    // Published without a value first, then with one.
    expect(h.versions.get('2026-02-01')).toEqual([
      { value: null, status: '..', from: '2026-03-05', until: '2026-03-09' },
      { value: 102, from: '2026-03-09' },
    ]);
  });

  it('refuses a snapshot that is not after every day folded', () => {
    const h = history();
    expect(() => fold(h, snap('2026-03-09', {}))).toThrow(/not after 2026-03-09/);
  });

  it('starts no period when only the status changes (p to r)', () => {
    const h = emptyHistory('X');
    fold(h, { ...snap('2026-03-01', {}), observations: [{ date: '2026-01-01', value: 5, status: 'p' }] });
    fold(h, { ...snap('2026-03-02', {}), observations: [{ date: '2026-01-01', value: 5, status: 'r' }] });
    expect(h.versions.get('2026-01-01')).toEqual([{ value: 5, status: 'p', from: '2026-03-01' }]);
  });
});

describe('reading a history', () => {
  it('answers a day from the latest snapshot on or before it', () => {
    const h = history();
    expect(snapshotOn(h, '2026-02-28')).toBe(-1);
    expect(snapshotOn(h, '2026-03-07')).toBe(1);
    expect(asKnownOn(h, '2026-03-04')).toEqual({
      observations: [
        { date: '2025-12-01', value: 100 },
        { date: '2026-01-01', value: 101 },
      ],
      missing: [],
    });
    expect(asKnownOn(h, '2026-03-07')).toEqual({
      observations: [
        { date: '2025-12-01', value: 100 },
        { date: '2026-01-01', value: 101.5 },
      ],
      missing: [{ date: '2026-02-01', status: '..' }],
    });
  });

  it('gives output_type 1: every value that was published within the period, clipped to it', () => {
    const h = history();
    expect(periodsOf(h, '2026-03-03', '2026-03-06', false)).toEqual([
      { date: '2025-12-01', value: 100, realtime_start: '2026-03-03', realtime_end: '2026-03-06' },
      { date: '2026-01-01', value: 101, realtime_start: '2026-03-03', realtime_end: '2026-03-04' },
      { date: '2026-01-01', value: 101.5, realtime_start: '2026-03-05', realtime_end: '2026-03-06' },
    ]);
    const all = periodsOf(h, '2026-03-01', OPEN_END, true);
    expect(all.filter((p) => p.date === '2026-02-01')).toEqual([
      { date: '2026-02-01', value: null, status: '..', realtime_start: '2026-03-05', realtime_end: '2026-03-08' },
      { date: '2026-02-01', value: 102, realtime_start: '2026-03-09', realtime_end: OPEN_END },
    ]);
  });

  it('gives output_type 4: each date as first published, among those published by the end', () => {
    const h = history();
    expect(firstReleases(h, '2026-03-06', false)).toEqual([
      { date: '2025-12-01', value: 100, realtime_start: '2026-03-01', realtime_end: '2026-03-06' },
      { date: '2026-01-01', value: 101, realtime_start: '2026-03-01', realtime_end: '2026-03-04' },
    ]);
    expect(firstReleases(h, OPEN_END, true).at(-1)).toMatchObject({ date: '2026-02-01', value: null });
  });

  it('merges series computed on several days: by vintage days, or over a continuous period', () => {
    const h = history();
    const on = (day: string) => asKnownOn(h, day).observations;
    expect(mergeAcross(['2026-03-02', '2026-03-04', '2026-03-10'], on, 'days')).toEqual([
      { date: '2025-12-01', value: 100, realtime_start: '2026-03-02', realtime_end: '2026-03-04' },
      { date: '2026-01-01', value: 101, realtime_start: '2026-03-02', realtime_end: '2026-03-04' },
      { date: '2026-01-01', value: 101.5, realtime_start: '2026-03-10', realtime_end: '2026-03-10' },
      { date: '2026-02-01', value: 102, realtime_start: '2026-03-10', realtime_end: '2026-03-10' },
    ]);
    const days = vintagesIn(h, '2026-03-02', '2026-03-20');
    expect(days).toEqual(['2026-03-02', '2026-03-05', '2026-03-09']);
    // The same as the periods read straight from the versions, for the values as published.
    expect(mergeAcross(days, on, { end: '2026-03-20' })).toEqual(periodsOf(h, '2026-03-02', '2026-03-20', false));
  });
});
