// The port every economy upstream implements (StatCan WDS, Bank of Canada Valet, the demo of either): the
// server's observation cache pulls through it, the nightly check and the generator talk to the same adapters.
import type { Observation, RegistryEntry } from '../types.ts';

/** A pull that failed: HTTP status, timeout, network error, malformed body or a WDS item status. */
export class UpstreamError extends Error {
  constructor(
    message: string,
    /** The upstream's HTTP status, when it answered. */
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'UpstreamError';
  }
}

/** One upstream, as the observation cache pulls from it. */
export interface SeriesUpstream {
  /** The response's `source`: `Statistics Canada`, `Bank of Canada`, `… (demo)`. */
  readonly label: string;
  /** The whole series, ascending by date, values in base units (scalar factor applied). */
  pull(entry: RegistryEntry, signal: AbortSignal): Promise<Observation[]>;
}

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface UpstreamRequest {
  fetch?: FetchLike;
  /** Per-request time limit (AbortSignal.timeout), on top of any `signal` from the caller. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Names the upstream in error messages. */
  label: string;
}

/**
 * One JSON request to an upstream, as both adapters make it: any failure (network, timeout, HTTP status,
 * body that is not JSON) is an UpstreamError naming the upstream and the URL's path.
 */
export async function fetchUpstreamJson(url: string, init: RequestInit, req: UpstreamRequest): Promise<unknown> {
  const timeout = AbortSignal.timeout(req.timeoutMs);
  const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
  const where = `${req.label} ${new URL(url).pathname}`;
  let res: Response;
  let text: string;
  try {
    res = await (req.fetch ?? fetch)(url, {
      ...init,
      signal,
      headers: { Accept: 'application/json', ...(init.headers as Record<string, string> | undefined) },
    });
    text = await res.text();
  } catch (err) {
    const reason = signal.aborted
      ? timeout.aborted
        ? `timed out after ${req.timeoutMs} ms`
        : String((signal.reason as Error)?.message ?? signal.reason)
      : (err as Error).message;
    throw new UpstreamError(`${where}: ${reason}`, undefined, { cause: err });
  }
  if (!res.ok) {
    // Valet explains a bad series name in a JSON `message`; WDS answers errors with HTML or text.
    let detail = '';
    try {
      const body = JSON.parse(text) as { message?: unknown };
      if (typeof body.message === 'string') detail = `: ${body.message}`;
    } catch {
      // not JSON: the status says enough
    }
    throw new UpstreamError(`${where} answered HTTP ${res.status}${detail}`, res.status);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new UpstreamError(`${where} answered a body that is not JSON`, res.status, { cause: err });
  }
}
