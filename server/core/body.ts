// Request bodies, read with a hard size bound: the one reader for every POST route. Nothing past the limit
// is kept in memory; the 413 asks the client to close (Connection: close) so an oversized upload is not
// drained for long.
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { HttpError } from '../../contract/core/problem.ts';

/** A JSON request of a few short arguments is far below this. */
export const MAX_JSON_BODY_BYTES = 64 * 1024;

/** The media type a JSON body must carry (RFC 8259 §11), also sent as `Accept-Post` with a 415. */
export const JSON_TYPE = 'application/json';

function tooLarge(limit: number): HttpError {
  return new HttpError(413, 'payload_too_large', `the request body must not exceed ${limit} bytes`, undefined, {
    Connection: 'close',
  });
}

/**
 * Reads the body up to `limit` bytes. One announced as larger (Content-Length) is refused before a byte is
 * read; a streamed one is refused as soon as it passes the limit, and its remaining bytes are discarded
 * unread rather than buffered.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length']) > limit) return reject(tooLarge(limit));
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      cleanup();
      chunks.length = 0;
      // Keep the stream flowing into nothing: the response can still be written, and node closes the
      // connection after it (Connection: close).
      req.resume();
      reject(tooLarge(limit));
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const onAborted = () =>
      onError(new HttpError(400, 'invalid_parameter', 'the request body ended before it was complete'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}

/**
 * True for `application/json` and `application/<x>+json` (RFC 6839 §3.1), parameters allowed, except a
 * charset other than UTF-8 (RFC 8259 §8.1: JSON exchanged between systems is UTF-8).
 */
export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  const [type = '', ...params] = header.split(';').map((s) => s.trim().toLowerCase());
  if (type !== JSON_TYPE && !/^application\/[a-z0-9!#$&^_.+-]+\+json$/.test(type)) return false;
  const charset = params
    .find((p) => p.startsWith('charset='))
    ?.slice(8)
    .replace(/^"|"$/g, '');
  return charset === undefined || charset === 'utf-8' || charset === 'utf8';
}

/**
 * 415 `unsupported_media_type` (with `Accept-Post`) unless the request says its body is JSON: checked before
 * the body is read.
 */
export function requireJsonType(req: IncomingMessage): void {
  const type = req.headers['content-type'];
  if (!isJsonContentType(type)) {
    const given = type ? `Content-Type ${type.split(';')[0]!.trim()}` : 'no Content-Type';
    throw new HttpError(
      415,
      'unsupported_media_type',
      `the request body must be JSON sent as Content-Type: ${JSON_TYPE}; the request has ${given}`,
      undefined,
      {
        'Accept-Post': JSON_TYPE,
      },
    );
  }
}

/** The JSON in a body already read; 400 `invalid_parameter` for bytes that are not UTF-8 or text that is not JSON. */
export function parseJsonBody(body: Buffer): unknown {
  // Bytes that are not UTF-8 would be decoded as U+FFFD and the request answered as something else
  // (`caf\xe9` searched as `caf?`): refused instead.
  if (!isUtf8(body))
    throw new HttpError(400, 'invalid_parameter', 'the request body is not valid UTF-8 (RFC 8259 §8.1)', [
      { parameter: 'body', message: 'is not valid UTF-8' },
    ]);
  try {
    // A leading byte order mark may be ignored (RFC 8259 §8.1); JSON.parse would refuse it.
    return JSON.parse(body.toString('utf8').replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new HttpError(400, 'invalid_parameter', `the request body is not valid JSON: ${(err as Error).message}`, [
      { parameter: 'body', message: 'is not valid JSON' },
    ]);
  }
}

/**
 * The parsed JSON body of a POST. 415 `unsupported_media_type` (with `Accept-Post`) unless the request says
 * it is JSON, checked before the body is read; 413 past `limit`; 400 `invalid_parameter` for text that is
 * not JSON.
 */
export async function readJsonBody(req: IncomingMessage, limit = MAX_JSON_BODY_BYTES): Promise<unknown> {
  requireJsonType(req);
  return parseJsonBody(await readBody(req, limit));
}
