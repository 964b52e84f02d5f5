// The port every economy upstream implements (StatCan WDS, Bank of Canada Valet, the demo of either): the
// server's observation cache pulls through it, the nightly check and the generator talk to the same adapters.
import { wholeNumberSetting } from '../../core/settings.ts';
import type { PulledSeries, RegistryEntry } from '../types.ts';
import { defaultNumber } from '../../core/settings-registry.ts';
import { readBodyCapped } from '../../core/bounded-body.ts';

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
  /** The whole series: its values ascending by date in base units (scalar factor applied), its missing points. */
  pull(entry: RegistryEntry, signal: AbortSignal): Promise<PulledSeries>;
}

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface UpstreamRequest {
  fetch?: FetchLike;
  /** Per-request time limit (AbortSignal.timeout), on top of any `signal` from the caller. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Names the upstream in error messages. */
  label: string;
  /** The largest answer taken (UPSTREAM_MAX_BYTES); default UPSTREAM_MAX_BYTES_DEFAULT. */
  maxBytes?: number;
  /** Called with the headers of an answer that is taken (2xx). */
  onHeaders?: (headers: Headers) => void;
}

/** A base URL without its trailing slashes, by a scan: `/\/+$/` retries from every slash of a long run. */
export function withoutTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url.charCodeAt(end - 1) === 47) end--;
  return url.slice(0, end);
}

/** 64 MiB: the largest whole series answers (daily, decades) are a few MB. */
export const UPSTREAM_MAX_BYTES_DEFAULT = defaultNumber('UPSTREAM_MAX_BYTES');

/** UPSTREAM_MAX_BYTES: a whole number of bytes, at least 1 KiB; unset or empty is the default. */
export function upstreamMaxBytesSetting(raw: string | undefined): number {
  return wholeNumberSetting(
    'UPSTREAM_MAX_BYTES',
    raw,
    UPSTREAM_MAX_BYTES_DEFAULT,
    1024,
    'a number of bytes, at least 1024',
  );
}

/** The body as text, refused past `max` bytes (readBodyCapped) with an UpstreamError naming the limit. */
async function readBounded(res: Response, max: number, where: string): Promise<string> {
  const read = await readBodyCapped(res, max);
  if ('text' in read) return read.text;
  throw new UpstreamError(
    `${where} answered more than UPSTREAM_MAX_BYTES (${max} bytes; ${read.refused}): the pull is refused`,
    res.status,
  );
}

/** A failed fetch's reason with its cause (`fetch failed (ENOTFOUND)`), which undici keeps apart. */
function describeFetchError(err: unknown): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  const detail = e.cause?.code ?? e.cause?.message;
  return detail && detail !== e.message ? `${e.message} (${detail})` : e.message;
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
    text = await readBounded(res, req.maxBytes ?? UPSTREAM_MAX_BYTES_DEFAULT, where);
  } catch (err) {
    if (err instanceof UpstreamError) throw err;
    const reason = signal.aborted
      ? timeout.aborted
        ? `timed out after ${req.timeoutMs} ms`
        : String((signal.reason as Error)?.message ?? signal.reason)
      : describeFetchError(err);
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
  req.onHeaders?.(res.headers);
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new UpstreamError(`${where} answered a body that is not JSON`, res.status, { cause: err });
  }
}
