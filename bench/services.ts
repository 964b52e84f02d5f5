// What `npm run bench` measures, per service. A service adds itself with one entry here and a function
// that turns its build into request paths (see bench/facilities.ts); building, serving, the bare
// comparison and the report are shared.
import type { Rng } from '../pipeline/demo/rng.ts';
import { facilitiesScenarios } from './facilities.ts';

export interface Target {
  /** App req/s at least this fraction of the bare server's, in the same round. */
  minRatio?: number;
  /** App p99 latency below this many milliseconds. */
  maxP99Ms?: number;
}

export interface Scenario {
  name: string;
  description: string;
  /** Request paths (with query); each connection cycles through its own share of them. */
  paths: string[];
  target: Target;
}

export interface ScenarioInput {
  /** The published build of the service (`<dataDir>/<service>`). */
  buildDir: string;
  rng: Rng;
}

export interface BenchService {
  name: string;
  /** Real upstream sample files, relative to the repository root, and the build options they need. */
  realData?: { dir: string; year?: number };
  scenarios(input: ScenarioInput): Scenario[];
}

export const BENCH_SERVICES: Record<string, BenchService> = {
  facilities: { name: 'facilities', realData: { dir: '../shared/data/facilities', year: 2020 }, scenarios: facilitiesScenarios },
};

export function describeTarget(t: Target): string {
  const parts: string[] = [];
  if (t.minRatio !== undefined) parts.push(`>= ${Math.round(t.minRatio * 100)} % of bare req/s`);
  if (t.maxP99Ms !== undefined) parts.push(`p99 < ${t.maxP99Ms} ms`);
  return parts.join(', ') || '-';
}

export function meetsTarget(t: Target, figures: { ratio: number; p99Ms: number }): boolean {
  return (t.minRatio === undefined || figures.ratio >= t.minRatio) && (t.maxP99Ms === undefined || figures.p99Ms < t.maxP99Ms);
}
