// What a service's bench scenarios are: request paths over its build, and the targets they are held to. Its
// own module so that each service's scenario file and the list of services (services.ts) need not import
// each other.
import type { Rng } from '../contract/core/rng.ts';

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
  /** Sent with every request of the scenario (a bearer key): by autocannon, the checks and the bare server's capture. */
  headers?: Record<string, string>;
  target: Target;
}

export interface ScenarioInput {
  /** The published build of the service (`<dataDir>/<service>`). */
  buildDir: string;
  /** STATE_DIR of the server children (API keys, counters): scenarios that sign in create their key here. */
  stateDir: string;
  rng: Rng;
}
