// Messages between `npm run bench` and its child processes. Children talk over the IPC channel rather than
// stdout, so a stray log line from a build or a server can never be mistaken for a result.

export type BuildJob =
  | { mode: 'demo'; service: string; dir: string; scale: number; seed?: number; edition?: number }
  | { mode: 'build'; service: string; input: string; outDir: string; year?: number; demo?: boolean };

export interface BuildDone {
  type: 'done';
  /** Time spent in the job itself, without Node and tsx start-up. */
  ms: number;
  /** process.resourceUsage().maxRSS: peak resident set of the whole child, in KiB. */
  maxRssKb: number;
  counts?: Record<string, number>;
  dataVersion?: string;
  files?: number;
}

export interface ServerJob {
  kind: 'app' | 'bare';
  service: string;
  /** The folder that holds `<service>/manifest.json`. */
  dataDir: string;
  /** STATE_DIR for services with accounts (default: a `state` folder beside dataDir). */
  stateDir?: string;
  /** The app writes its JSON request log to stdout, as npm start does; false is LOG=off. */
  log: boolean;
  /** Environment variables for the service over the child's own (upstream base URLs). */
  env?: Record<string, string>;
  /**
   * Bare only: every request path of the load tests; the app's responses to them (head and body) are
   * captured at start-up, each asked with the headers its scenario sends.
   */
  capture: CaptureGroup[];
}

export interface CaptureGroup {
  paths: string[];
  headers?: Record<string, string>;
}

export interface ServerReady {
  type: 'ready';
  port: number;
  /** createApp: load, verify and index the build. */
  loadMs: number;
  /** Bare only: time spent capturing the app's responses (not part of any real server's start-up). */
  captureMs: number;
  captured: number;
  /** performance.now() when listening: time since the child process started. */
  uptimeMs: number;
}

export interface ServerUsage {
  type: 'usage';
  /** process.cpuUsage(): user + system, microseconds since the child started. */
  cpuUs: number;
  rssBytes: number;
  maxRssKb: number;
}

export interface ChildError {
  type: 'error';
  message: string;
}

export type ChildMessage = BuildDone | ServerReady | ServerUsage | ChildError;

export type ParentMessage =
  | { type: 'build'; job: BuildJob }
  | { type: 'serve'; job: ServerJob }
  | { type: 'usage' }
  | { type: 'stop' };
