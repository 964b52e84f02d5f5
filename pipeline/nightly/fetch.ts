// One upstream download whose file is always whole: streamed into a hidden temporary file and renamed over the
// target only when complete. Retries, time-outs and conditional requests (RFC 9110 §13.1.2, §13.1.3) as
// docs/nightly.md describes them.
import { createHash } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface Validators {
  etag?: string;
  lastModified?: string;
  sha256?: string;
}

export interface DownloadOptions {
  /** No byte for this long (before the answer or within the body) abandons the attempt. */
  timeoutMs: number;
  /** Attempts after the first. */
  retries: number;
  /** Delay before the first retry, doubled for each next one. */
  retryDelayMs: number;
  /** From the last download of the same address, when the file it wrote is still there. */
  previous?: Validators;
  fetch?: FetchLike;
  sleep?: (ms: number) => Promise<void>;
  onRetry?: (attempt: number, error: Error, delayMs: number) => void;
}

export interface DownloadResult {
  status: 'downloaded' | 'unchanged';
  bytes: number;
  attempts: number;
  validators: Validators;
}

export class DownloadError extends Error {
  constructor(
    message: string,
    /** Worth another attempt (network, time-out, 408, 429, 5xx). */
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'DownloadError';
  }
}

/** A longer Retry-After is not waited for: the doubling delay applies. */
const MAX_RETRY_AFTER_MS = 60_000;
const USER_AGENT = 'shardline-nightly';

function toRetryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
  return Number.isFinite(ms) && ms >= 0 && ms <= MAX_RETRY_AFTER_MS ? ms : undefined;
}

/** One attempt: answer, stream to `tmp`, check, hash. Never touches `dest`. */
async function attempt(
  url: string,
  tmp: string,
  options: DownloadOptions,
): Promise<{ status: 304 } | { status: 200; bytes: number; sha256: string; validators: Validators }> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(
      () => controller.abort(new DownloadError(`no data for ${options.timeoutMs} ms`, true)),
      options.timeoutMs,
    );
  };
  // No content coding: fetch inflates a gzip body without telling a stream cut at a flush point from a
  // whole one, and the Content-Length check then has nothing to go by. An answer coded all the same is
  // refused: a download must be known to be whole before it replaces anything.
  const headers: Record<string, string> = { 'User-Agent': USER_AGENT, 'Accept-Encoding': 'identity' };
  if (options.previous?.etag) headers['If-None-Match'] = options.previous.etag;
  if (options.previous?.lastModified) headers['If-Modified-Since'] = options.previous.lastModified;
  arm();
  try {
    let res: Response;
    try {
      res = await (options.fetch ?? fetch)(url, { headers, signal: controller.signal, redirect: 'follow' });
    } catch (err) {
      throw toDownloadError(err, controller.signal);
    }
    if (res.status === 304 && options.previous) {
      await res.body?.cancel();
      return { status: 304 };
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      const retryable = res.status === 408 || res.status === 429 || res.status >= 500;
      throw new DownloadError(`HTTP ${res.status}`, retryable, toRetryAfterMs(res.headers.get('retry-after')));
    }
    if (!res.body) throw new DownloadError('the answer has no body', true);
    const coding = res.headers.get('content-encoding');
    if (coding && coding.trim().toLowerCase() !== 'identity') {
      await res.body.cancel().catch(() => undefined);
      throw new DownloadError(
        `the answer is ${coding}-coded though none was asked for (Accept-Encoding: identity), so whether it is whole cannot be checked`,
        false,
      );
    }
    const expected = Number(res.headers.get('content-length') ?? NaN);
    const hash = createHash('sha256');
    let bytes = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        arm();
        bytes += chunk.length;
        hash.update(chunk);
        done(null, chunk);
      },
    });
    // The file is opened before the body flows and closed before this returns or throws, so the caller's
    // clean-up never races an open still in flight (which would leave a partial file behind).
    const file = await open(tmp, 'w');
    try {
      await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), meter, file.createWriteStream());
    } catch (err) {
      const e = toDownloadError(err, controller.signal);
      // A connection dropped mid-body: say how far it got.
      if (!controller.signal.aborted && Number.isFinite(expected))
        throw new DownloadError(`the body ended after ${bytes} of ${expected} bytes (${e.message})`, true);
      throw e;
    } finally {
      await file.close();
    }
    if (Number.isFinite(expected) && bytes !== expected)
      throw new DownloadError(`the body ended after ${bytes} of ${expected} bytes`, true);
    if (bytes === 0) throw new DownloadError('the body is empty', true);
    const validators: Validators = { sha256: hash.digest('hex') };
    const etag = res.headers.get('etag');
    const lastModified = res.headers.get('last-modified');
    if (etag) validators.etag = etag;
    if (lastModified) validators.lastModified = lastModified;
    return { status: 200, bytes, sha256: validators.sha256!, validators };
  } finally {
    clearTimeout(timer);
  }
}

function toDownloadError(err: unknown, signal: AbortSignal): DownloadError {
  if (signal.aborted && signal.reason instanceof DownloadError) return signal.reason;
  if (err instanceof DownloadError) return err;
  const e = err as Error & { cause?: { message?: string; code?: string } };
  const detail = e.cause?.code ?? e.cause?.message ?? e.message;
  return new DownloadError(`${e.message}${detail && detail !== e.message ? ` (${detail})` : ''}`, true);
}

/**
 * Downloads `url` to `dest` (replaced only by a complete file). Throws a DownloadError naming the last
 * failure once the attempts are spent; the temporary file is always removed.
 */
export async function downloadFile(url: string, dest: string, options: DownloadOptions): Promise<DownloadResult> {
  const tmp = join(dirname(dest), `.${basename(dest)}.part-${process.pid}`);
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((res) => setTimeout(res, ms)));
  let last: DownloadError | undefined;
  for (let n = 0; n <= options.retries; n++) {
    if (last) {
      const delay = last.retryAfterMs ?? options.retryDelayMs * 2 ** (n - 1);
      options.onRetry?.(n, last, delay);
      await sleep(delay);
    }
    try {
      const r = await attempt(url, tmp, options);
      if (r.status === 304)
        return { status: 'unchanged', bytes: 0, attempts: n + 1, validators: options.previous ?? {} };
      if (options.previous?.sha256 === r.sha256) {
        await rm(tmp, { force: true });
        return { status: 'unchanged', bytes: r.bytes, attempts: n + 1, validators: r.validators };
      }
      await rename(tmp, dest);
      return { status: 'downloaded', bytes: r.bytes, attempts: n + 1, validators: r.validators };
    } catch (err) {
      await rm(tmp, { force: true });
      last = err instanceof DownloadError ? err : new DownloadError((err as Error).message, false);
      if (!last.retryable) break;
    }
  }
  throw new DownloadError(`${url}: ${last?.message ?? 'failed'}`, false);
}
