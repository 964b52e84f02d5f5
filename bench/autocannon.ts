// One autocannon run against 127.0.0.1, with latencies kept at full precision: autocannon's own histogram
// records whole milliseconds (lowestDiscernibleValue 1), too coarse for a 1 ms p50.
import { createRequire } from 'node:module';
import type { EventEmitter } from 'node:events';

// autocannon ships no types and @types/autocannon is not a dependency; this is the part the bench uses
// (autocannon 9 README, "API").
interface AutocannonRequest {
  method: 'GET';
  path: string;
  headers?: Record<string, string>;
}
interface AutocannonClient {
  setRequests(requests: AutocannonRequest[]): void;
}
interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  pipelining: number;
  timeout: number;
  requests: AutocannonRequest[];
  setupClient: (client: AutocannonClient) => void;
}
interface AutocannonResult {
  errors: number;
  timeouts: number;
  non2xx: number;
  duration: number;
}
interface Instance extends EventEmitter {
  stop(): void;
}
type Autocannon = (options: AutocannonOptions, done: (err: Error | null, result: AutocannonResult) => void) => Instance;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

export interface LoadOptions {
  port: number;
  paths: readonly string[];
  /** Sent with every request (autocannon merges them into each prebuilt request). */
  headers?: Record<string, string>;
  connections: number;
  durationSec: number;
}

export interface LoadResult {
  /** 2xx responses per second, first response to last (autocannon's own clock also counts client set-up). */
  rps: number;
  requests: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  durationSec: number;
}

/**
 * Splits the paths into one share per connection. Every connection would otherwise walk the same list in
 * step with the others, asking for the same path at the same moment, and a cache would answer all but the
 * first. With disjoint shares a path comes round again only after about paths.length requests in all.
 */
export function toSlices<T>(items: readonly T[], connections: number): T[][] {
  const n = items.length;
  return Array.from({ length: connections }, (_, c) => {
    const from = Math.floor((c * n) / connections);
    const to = Math.max(Math.floor(((c + 1) * n) / connections), from + 1);
    return Array.from({ length: to - from }, (_, i) => items[(from + i) % n]!);
  });
}

/** Nearest-rank percentile of an ascending list. */
export function percentileOf(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(rank, 1)) - 1]!;
}

export function runLoad(options: LoadOptions): Promise<LoadResult> {
  if (options.paths.length === 0) throw new Error('runLoad: no paths');
  const headers = options.headers;
  const requests = options.paths.map(
    (path): AutocannonRequest => (headers ? { method: 'GET', path, headers } : { method: 'GET', path }),
  );
  const slices = toSlices(requests, options.connections);
  let client = 0;
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  let first = 0;
  let last = 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${options.port}`,
        connections: options.connections,
        duration: options.durationSec,
        pipelining: 1,
        timeout: 10,
        // autocannon deep-clones `requests` for every connection and prebuilds each one: with thousands of
        // paths that blocks its event loop for seconds after the first requests are sent, and shows up as
        // latency. So each connection gets its own share of the paths, set up once.
        requests: slices[0]!,
        setupClient: (c) => c.setRequests(slices[client++ % slices.length]!),
      },
      (err, result) => {
        clearTimeout(guard);
        if (err) return reject(err);
        const sorted = latencies.subarray(0, count).sort();
        const seconds = (last - first) / 1000;
        resolve({
          rps: count > 1 && seconds > 0 ? (count - 1) / seconds : 0,
          requests: count,
          p50Ms: percentileOf(sorted, 50),
          p90Ms: percentileOf(sorted, 90),
          p99Ms: percentileOf(sorted, 99),
          maxMs: count ? sorted[count - 1]! : NaN,
          errors: result.errors,
          timeouts: result.timeouts,
          non2xx: result.non2xx,
          durationSec: result.duration,
        });
      },
    );
    instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
      if (status < 200 || status > 299) return;
      const now = performance.now();
      if (count === 0) first = now;
      last = now;
      if (count === latencies.length) {
        const grown = new Float64Array(latencies.length * 2);
        grown.set(latencies);
        latencies = grown;
      }
      latencies[count++] = ms;
    });
    // autocannon stops itself after `duration`; this only bounds a run whose server stopped answering.
    const guard = setTimeout(() => instance.stop(), (options.durationSec + 30) * 1000);
  });
}
