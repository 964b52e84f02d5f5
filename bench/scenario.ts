// What a service's bench scenarios are: request paths over its build, and the targets they are held to. Its
// own module so that each service's scenario file and the list of services (services.ts) need not import
// each other.
import type { Rng } from '../contract/core/rng.ts';

/**
 * A target is a ratio to the bare server of the same round: the VM's speed moves absolute figures by tens of
 * percent between runs (docs/reference/serving-anchors.md), so latencies are reported, not judged.
 */
export interface Target {
  /** App req/s at least this fraction of the bare server's, in the same round. */
  minRatio?: number;
  /** App CPU per request at most this multiple of the bare server's, in the same round. */
  maxCpuRatio?: number;
  /**
   * App CPU per request at most `ratio` times the app's in another scenario of the same service, in the
   * same round (observations with transforms against plain observations): judged apart from bare.
   */
  maxCpuOf?: { scenario: string; ratio: number };
}

export interface Scenario {
  name: string;
  description: string;
  /** Request paths (with query); each connection cycles through its own share of them. */
  paths: string[];
  /** Sent with every request of the scenario (a bearer key): by autocannon, the checks and the bare server's capture. */
  headers?: Record<string, string>;
  target: Target;
  /** A lookup of one record by its id: what `--only lookups` measures. */
  lookup?: boolean;
}

export interface ScenarioInput {
  /** The published build of the service (`<dataDir>/<service>`). */
  buildDir: string;
  /** STATE_DIR of the server children (API keys, counters): scenarios that sign in create their key here. */
  stateDir: string;
  rng: Rng;
}
