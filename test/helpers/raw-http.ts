// HTTP/1.1 over a raw socket (node:net) for tests that must send exactly the bytes they mean: fetch and
// node:http normalize paths (`/a/../b` → `/b`), refuse bytes such as NUL or spaces in a path, and cap or
// rewrite headers, so traversal, malformed-escape and oversized-header cases would never reach the server.
import { connect } from 'node:net';
import * as zlib from 'node:zlib';

export interface RawResponse {
  status: number;
  /** Lower-case names; a repeated header keeps its last value. */
  headers: Record<string, string>;
  /** The body after chunked transfer decoding and Content-Encoding (br, gzip) decoding. */
  body: Buffer;
  /** Every byte the server sent, as it came. */
  raw: Buffer;
}

export interface RawResult {
  response?: RawResponse;
  /** Bytes received, even when they were not a whole response. */
  raw: Buffer;
  /** A socket error (ECONNRESET, EPIPE, …) or `timeout`, if one happened. */
  error?: string;
}

export interface RawOptions {
  host?: string;
  /** Give up on a silent server after this long (the result then has `error: 'timeout'`). */
  timeoutMs?: number;
  /** A HEAD request's response has headers only, whatever its Content-Length says. */
  head?: boolean;
  /**
   * Send the head, then wait this long for an early answer (405, 413 on Content-Length) before sending the
   * body, and send no body if one came: as a client waiting for `100 Continue` would (RFC 9110 §10.1.1).
   * Without it, a server that answers early and closes resets a connection whose body is still arriving,
   * and the client may lose the answer it was sent.
   */
  holdBodyMs?: number;
}

export interface RawRequest {
  /** Request line and headers, through the blank line. */
  head: Buffer;
  body?: Buffer;
}

/** A request as bytes: request line, headers (`Host` and `Connection: close` added unless given), body. */
export function toRequest(
  method: string,
  target: string | Buffer,
  headers: [string, string][] = [],
  body?: Buffer | string,
): RawRequest {
  const names = new Set(headers.map(([n]) => n.toLowerCase()));
  const all: [string, string][] = [
    ...(names.has('host') ? [] : [['Host', '127.0.0.1'] as [string, string]]),
    ...headers,
  ];
  if (!names.has('connection')) all.push(['Connection', 'close']);
  const bodyBytes = body === undefined ? undefined : Buffer.from(body);
  if (bodyBytes && !names.has('content-length') && !names.has('transfer-encoding'))
    all.push(['Content-Length', String(bodyBytes.length)]);
  const head = Buffer.concat([
    Buffer.from(`${method} `, 'latin1'),
    Buffer.isBuffer(target) ? target : Buffer.from(target, 'latin1'),
    Buffer.from(` HTTP/1.1\r\n${all.map(([n, v]) => `${n}: ${v}\r\n`).join('')}\r\n`, 'latin1'),
  ]);
  return { head, body: bodyBytes };
}

function decodeChunked(buf: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = buf.indexOf('\r\n', at);
    if (eol < 0) throw new Error('chunked body cut short');
    const size = parseInt(buf.toString('latin1', at, eol).split(';')[0]!, 16);
    if (!Number.isFinite(size)) throw new Error('bad chunk size');
    if (size === 0) return Buffer.concat(parts);
    parts.push(buf.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

/** Parses one response from the bytes a `Connection: close` exchange produced; undefined if incomplete. */
export function parseResponse(raw: Buffer, head = false): RawResponse | undefined {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const lines = raw.toString('latin1', 0, end).split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
  if (!m) return undefined;
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = Number(m[1]);
  let body = raw.subarray(end + 4);
  if (head || status === 304 || status === 204) body = Buffer.alloc(0);
  else if (headers['transfer-encoding']?.toLowerCase().includes('chunked')) body = decodeChunked(body);
  else if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    if (body.length < length) return undefined;
    body = body.subarray(0, length);
  }
  const encoding = body.length > 0 ? headers['content-encoding'] : undefined;
  if (encoding === 'br') body = zlib.brotliDecompressSync(body);
  else if (encoding === 'gzip') body = zlib.gunzipSync(body);
  return { status, headers, body, raw };
}

/**
 * Sends `request` and reads until the server closes the connection. The body is written while the
 * response is read, so a server that answers early (413, 405) and closes is seen answering.
 */
export function rawRequest(port: number, request: RawRequest, options: RawOptions = {}): Promise<RawResult> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let error: string | undefined;
    let done = false;
    const socket = connect({ port, host: options.host ?? '127.0.0.1' });
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const raw = Buffer.concat(chunks);
      let response: RawResponse | undefined;
      try {
        response = parseResponse(raw, options.head);
      } catch (err) {
        error ??= `unparseable response: ${(err as Error).message}`;
      }
      resolve({ response, raw, error });
    };
    const timer = setTimeout(() => {
      error ??= 'timeout';
      finish();
    }, timeoutMs);
    socket.on('data', (b: Buffer) => chunks.push(b));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      error ??= err.code ?? err.message;
      finish();
    });
    socket.on('close', finish);
    socket.on('end', finish);
    const sendBody = () => {
      const body = request.body;
      if (!body || done || chunks.length > 0) return;
      // In pieces, so an early answer is read while the rest is still being written.
      const piece = 64 * 1024;
      let at = 0;
      const writeMore = () => {
        while (at < body.length && !done) {
          const next = body.subarray(at, at + piece);
          at += next.length;
          if (!socket.write(next)) return void socket.once('drain', writeMore);
        }
      };
      writeMore();
    };
    socket.on('connect', () => {
      socket.write(request.head);
      if (options.holdBodyMs) setTimeout(sendBody, options.holdBodyMs);
      else sendBody();
    });
  });
}
