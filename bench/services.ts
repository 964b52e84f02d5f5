// What `npm run bench` measures, per service. A service adds itself with one entry here and a function
// that turns its build into request paths (see bench/facilities.ts); building, serving, the bare
// comparison and the report are shared.
import { carriersScenarios, carriersStoreLookup } from './carriers.ts';
import type { ColdBurstResult } from './cold-burst.ts';
import { economyColdBursts, economyScenarios, type ColdBurstInput } from './economy.ts';
import { facilitiesScenarios } from './facilities.ts';
import type { Scenario, ScenarioInput, Target } from './scenario.ts';

export interface DemoScale {
  /** The command-line option that sets this service's demo scale (`--scale`, `--carriers-scale`); none when the demo has one size. */
  option?: string;
  /** Demo scale when the option is not given. */
  default: number;
  /** Demo scale under --quick when the option is not given, for a service whose default takes minutes to build. */
  quick?: number;
  /** Disk the demo inputs and their build take per unit of scale, in MB: checked against the temp folder's free space. */
  diskMbPerUnit?: number;
  /** The demo build is the build's demo flag alone, with no generated inputs (economy: its registry is in the repository). */
  withoutInputs?: boolean;
}

/** Size targets of a service: its build, its server's start-up and memory at the scale they are set for. */
export interface SizeTargets {
  /** The demo scale the targets are set for; at a smaller scale they are reported, but prove nothing. */
  atScale: number;
  /** What that scale is, for the report (`2.1 M carriers`). */
  atSize: string;
  /** Wall time of the build job (not the demo input generation): spawn to done. */
  maxBuildMs?: number;
  /** Peak RSS of the build job, from the child's resource usage. */
  maxBuildRssMb?: number;
  /** App server: spawn to listening (node, tsx and createApp), median over the rounds. */
  maxStartupMs?: number;
  /** App server RSS after loading the build and after the load test, worst round. */
  maxRssMb?: number;
}

export interface BenchService {
  name: string;
  /** Real upstream sample files, relative to the repository root, and the build options they need. */
  realData?: { dir: string; year?: number };
  demo: DemoScale;
  targets?: SizeTargets;
  /** May prepare the servers' STATE_DIR first (economy warms its observation cache). */
  scenarios(input: ScenarioInput): Scenario[] | Promise<Scenario[]>;
  /** Measured once after the load tests: upstream requests caused by concurrent cold requests (economy). */
  coldBursts?(input: ColdBurstInput): Promise<ColdBurstResult[]>;
  /**
   * The lookup the account store comparison measures (bench/stores.ts), taken from the service's
   * scenarios; a service without one keeps no account store.
   */
  storeLookup?(scenarios: readonly Scenario[]): { paths: readonly string[]; description: string } | undefined;
}

export const BENCH_SERVICES: Record<string, BenchService> = {
  facilities: {
    name: 'facilities',
    realData: { dir: '../shared/data/facilities', year: 2020 },
    demo: { option: 'scale', default: 10 },
    scenarios: facilitiesScenarios,
  },
  carriers: {
    name: 'carriers',
    // 3,000 carriers per unit of scale (pipeline/demo/carriers/index.ts): x700 is the 2.1 M carriers of a real census.
    // ~4.8 MB of inputs and ~9.9 MB of build per unit (measured at x10): ~10 GB at x700.
    demo: { option: 'carriers-scale', default: 700, quick: 10, diskMbPerUnit: 15 },
    targets: {
      atScale: 700,
      atSize: '2.1 M carriers',
      maxBuildMs: 10 * 60_000,
      maxBuildRssMb: 4096,
      maxStartupMs: 1000,
      maxRssMb: 1024,
    },
    scenarios: carriersScenarios,
    storeLookup: carriersStoreLookup,
  },
  economy: {
    name: 'economy',
    // The registry is reviewed data in the repository; the demo build only switches to the built-in demo upstream.
    demo: { default: 1, withoutInputs: true },
    scenarios: economyScenarios,
    coldBursts: economyColdBursts,
  },
};

export function describeTarget(t: Target): string {
  const parts: string[] = [];
  if (t.minRatio !== undefined) parts.push(`>= ${Math.round(t.minRatio * 100)} % of bare req/s`);
  if (t.maxCpuRatio !== undefined) parts.push(`CPU/req <= ${t.maxCpuRatio.toFixed(1)}x bare`);
  if (t.maxCpuOf !== undefined) parts.push(`CPU/req <= ${t.maxCpuOf.ratio.toFixed(1)}x ${t.maxCpuOf.scenario}`);
  return parts.join(', ');
}

export function hasTarget(t: Target): boolean {
  return t.minRatio !== undefined || t.maxCpuRatio !== undefined;
}

export function meetsTarget(t: Target, figures: { ratio: number; cpuRatio: number }): boolean {
  return (
    (t.minRatio === undefined || figures.ratio >= t.minRatio) &&
    (t.maxCpuRatio === undefined || figures.cpuRatio <= t.maxCpuRatio)
  );
}
