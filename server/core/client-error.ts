// Requests that Node's HTTP parser refuses never reach the app: a malformed request line, a method token it
// does not know, bytes HTTP does not allow in a target or header (spaces, controls, NUL), or a request line
// and headers over Node's limit (--max-http-header-size, 16 KiB by default). Node's own answer is a bare
// status line with no body; this answers them with the same problem body as every other error
// (`server.on('clientError', …)`, https://nodejs.org/api/http.html#event-clienterror).
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { HttpError, toProblem, type ProblemCode } from '../../contract/core/problem.ts';
import { MAX_QUERY_BYTES } from './params.ts';

type ParserError = Error & { code?: string; reason?: string; rawPacket?: Buffer; bytesParsed?: number };

const REQUEST_LINE_START = /^[A-Z]+ (?:\/|\*|[A-Za-z][A-Za-z0-9+.-]*:)/;
const REQUEST_LINE_END = / HTTP\/\d\.\d\r?$/;

/**
 * Whether the parser ran over its limit inside the request line (a long target), not in a header: no line
 * ended before the point it stopped, and the bytes it had are the start of a request line or the end of one
 * (`… HTTP/1.1`). Node says HPE_HEADER_OVERFLOW for both; a long target is a 414, as a long query is.
 */
function isLongRequestLine(err: ParserError): boolean {
  const raw = err.rawPacket;
  if (!raw) return false;
  const newline = raw.indexOf(10);
  if (newline !== -1 && newline < (err.bytesParsed ?? 0)) return false;
  const head = raw.toString('latin1', 0, Math.min(raw.length, 64));
  if (REQUEST_LINE_START.test(head)) return true;
  return newline !== -1 && REQUEST_LINE_END.test(raw.toString('latin1', Math.max(0, newline - 16), newline));
}

const BY_NODE_CODE: Record<string, [number, ProblemCode, string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'headers_too_large',
    'the request headers are larger than the server accepts (16 KiB with the request line)',
  ],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [
    413,
    'payload_too_large',
    'the chunk extensions of the request body are larger than the server accepts',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request_timeout', 'the request was not received in time'],
};

/** The whole HTTP response for a request the parser refused: status line, headers, problem body. */
export function toClientErrorResponse(err: ParserError, headers: Record<string, string> = {}): Buffer {
  const known =
    err.code === 'HPE_HEADER_OVERFLOW' && isLongRequestLine(err)
      ? ([
          414,
          'uri_too_long',
          `the request line is longer than the server accepts (16 KiB); a query string may have at most ${MAX_QUERY_BYTES} bytes`,
        ] as const)
      : BY_NODE_CODE[err.code ?? ''];
  const reason = err.reason ? `: ${err.reason.charAt(0).toLowerCase()}${err.reason.slice(1)}` : '';
  const [status, code, detail] = known ?? [400, 'bad_request', `the request is not valid HTTP/1.1${reason}`];
  return toRawProblem(new HttpError(status, code, detail), headers);
}

/** A problem as a whole HTTP/1.1 response, for a socket no ServerResponse writes to; the connection closes after it. */
export function toRawProblem(error: HttpError, headers: Record<string, string> = {}): Buffer {
  const { status } = error;
  const extra = { ...error.headers, ...headers };
  const body = JSON.stringify(toProblem(error).body);
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Content-Type: application/problem+json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'Connection: close',
    ...Object.entries(extra).map(([k, v]) => `${k}: ${v}`),
  ];
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}`);
}

/** The `clientError` listener: answers with a problem when the connection can still take one. */
export function answerClientError(err: ParserError, socket: Duplex, headers?: Record<string, string>): void {
  // A reset connection has no one to answer; a response already begun on it cannot be followed by another.
  const pending = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || pending?.headersSent) {
    socket.destroy();
    return;
  }
  socket.end(toClientErrorResponse(err, headers));
}
