// Requests that Node's HTTP parser refuses never reach the app: a malformed request line, a method token it
// does not know, bytes HTTP does not allow in a target or header (spaces, controls, NUL), or a request line
// and headers over Node's limit (--max-http-header-size, 16 KiB by default). Node's own answer is a bare
// status line with no body; this answers them with the same problem body as every other error
// (`server.on('clientError', …)`, https://nodejs.org/api/http.html#event-clienterror).
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { HttpError, toProblem, type ProblemCode } from '../../contract/core/problem.ts';

type ParserError = Error & { code?: string; reason?: string };

const BY_NODE_CODE: Record<string, [number, ProblemCode, string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'headers_too_large',
    'the request line and headers together are larger than the server accepts (16 KiB)',
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
  const known = BY_NODE_CODE[err.code ?? ''];
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
