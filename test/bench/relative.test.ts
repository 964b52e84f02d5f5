// The transforms bench row: the monthly windows asked plain and transformed (valid queries, pairwise the same
// window), and the judgement of one scenario's CPU against another's, paired by round.
import { describe, expect, it } from 'vitest';
import { toMonthlyPaths } from '../../bench/economy.ts';
import { type ScenarioRuns, toRelativeResults, toScenarioResult, type RunFigures } from '../../bench/report.ts';
import { createRng } from '../../contract/core/rng.ts';
import type { RegistryEntry } from '../../contract/economy/types.ts';
import { queryOf } from '../../server/core/params.ts';
import { parseObservationsQuery } from '../../server/economy/observations.ts';

const entry = (id: string, frequency: RegistryEntry['frequency']) => ({ id, frequency }) as RegistryEntry;

describe('toMonthlyPaths', () => {
  const entries = [entry('CPI', 'monthly'), entry('FX', 'daily'), entry('GDP', 'quarterly'), entry('JOBS', 'monthly')];
  const { plain, transformed } = toMonthlyPaths(entries, createRng(7), 60, new Date('2026-11-27T00:00:00Z'));

  it('asks only monthly series, the same windows twice, each transformed path one transform more', () => {
    expect(plain.length).toBeGreaterThan(20);
    expect(new Set(plain).size).toBe(plain.length);
    expect(transformed).toHaveLength(plain.length);
    for (const [i, p] of plain.entries()) {
      expect(p).toMatch(/^\/api\/observations\?series=(CPI|JOBS)(&|$)/);
      expect(transformed[i]!.startsWith(`${p}&`)).toBe(true);
    }
    const extras = new Set(transformed.map((t, i) => t.slice(plain[i]!.length + 1)));
    expect(extras.size).toBeGreaterThan(5);
  });

  it('every query is one the route takes', () => {
    for (const p of [...plain, ...transformed]) {
      const search = p.slice(p.indexOf('?'));
      expect(() => parseObservationsQuery(queryOf({ search })), p).not.toThrow();
    }
  });

  it('refuses a registry without a monthly series', () => {
    expect(() => toMonthlyPaths([entry('FX', 'daily')], createRng(1), 5, new Date())).toThrow(/no monthly series/);
  });
});

const run = (round: number, cpuUsPerReq: number): RunFigures => ({
  round,
  cpuUsPerReq,
  rps: 1000,
  requests: 10_000,
  p50Ms: 1,
  p90Ms: 2,
  p99Ms: 3,
  maxMs: 4,
  errors: 0,
  timeouts: 0,
  non2xx: 0,
  durationSec: 10,
});

const scenario = (name: string, app: number[], target: ScenarioRuns['target'] = {}): ScenarioRuns => ({
  service: 'economy',
  scenario: name,
  description: name,
  distinctPaths: 1,
  target,
  runs: { bare: app.map((_, i) => run(i, 50)), app: app.map((c, i) => run(i, c)), 'app-log-off': [] },
});

describe('toRelativeResults', () => {
  it('pairs the rounds, takes the median ratio and judges it against the target', () => {
    const plain = scenario('plain', [100, 120, 90]);
    const ok = scenario('ok', [110, 150, 99], { maxCpuOf: { scenario: 'plain', ratio: 1.2 } });
    const slow = scenario('slow', [130, 150, 120], { maxCpuOf: { scenario: 'plain', ratio: 1.2 } });
    const [a, b] = toRelativeResults([plain, ok, slow].map(toScenarioResult));
    // Ratios 1.1, 1.25, 1.1 → median 1.1; 1.3, 1.25, 1.333 → 1.3.
    expect(a).toMatchObject({ scenario: 'ok', against: 'plain', met: true });
    expect(a!.cpuRatio).toBeCloseTo(1.1, 6);
    expect(b).toMatchObject({ scenario: 'slow', met: false });
    expect(b!.cpuRatio).toBeCloseTo(1.3, 6);
  });

  it('names a missing scenario to compare with', () => {
    const lone = scenario('lone', [1], { maxCpuOf: { scenario: 'absent', ratio: 1.2 } });
    expect(() => toRelativeResults([toScenarioResult(lone)])).toThrow(/no scenario absent/);
  });
});
