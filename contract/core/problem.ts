// One error class and one error body for every service: RFC 9457 problem details
// (https://www.rfc-editor.org/rfc/rfc9457), built by `toProblem` and nowhere else: the server answers it, and
// every build writes its 404 body as the tree's 404.json.

export type ProblemCode =
  | 'invalid_parameter'
  | 'not_found'
  | 'history_expired'
  | 'unauthorized'
  | 'premium_required'
  | 'quota_exhausted'
  | 'sign_in_limited'
  | 'upstream_unavailable'
  | 'store_unavailable'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'bad_request'
  | 'headers_too_large'
  | 'uri_too_long'
  | 'request_timeout'
  | 'expectation_failed'
  | 'internal';

export interface ParameterError {
  parameter: string;
  message: string;
}

/** Title and a short explanation per code; the explanation is what `GET /problems/<code>` answers. */
export const PROBLEMS: Record<ProblemCode, { title: string; explanation: string }> = {
  invalid_parameter: {
    title: 'Invalid parameter',
    explanation:
      'A query or path parameter, or a field of a request body, has a value the API does not accept. `errors` lists every bad parameter with the reason; fix them all and retry.',
  },
  not_found: { title: 'Not found', explanation: 'No resource exists at this path. Identifiers are case-sensitive.' },
  history_expired: {
    title: 'History expired',
    explanation:
      'The `since` asked names a build, or a day, older than the change history keeps (its last 400 builds). Ask again with a later `since`, or without one.',
  },
  unauthorized: {
    title: 'Unauthorized',
    explanation:
      'This route needs an API key in `Authorization: Bearer <key>`. The key was missing, malformed, unknown or revoked.',
  },
  premium_required: {
    title: 'Premium plan required',
    explanation: 'This route is part of the premium plan; the key given is on the free plan.',
  },
  quota_exhausted: {
    title: 'Monthly allowance used up',
    explanation:
      'The free plan allowance for this calendar month (UTC) is used up. `Retry-After` gives the seconds until it renews.',
  },
  sign_in_limited: {
    title: 'Too many failed sign-ins',
    explanation:
      'Too many requests from this client address gave an API key that is malformed, unknown or revoked (30 a minute by default). Sign-ins from the address are refused until the minute is over: `Retry-After` gives the seconds to wait.',
  },
  upstream_unavailable: {
    title: 'Upstream unavailable',
    explanation:
      'The upstream data source gave no usable answer (it could not be reached, timed out, failed, or refused the series) and no cached copy exists yet. `detail` says what happened. Retry after the number of seconds in `Retry-After`.',
  },
  store_unavailable: {
    title: 'Store unavailable',
    explanation:
      "The shared store that holds the service's state (PostgreSQL, with `DATABASE_URL`) did not answer in time, and this request needs it. Nothing was changed or counted. The service resumes by itself once the store is back: retry after the number of seconds in `Retry-After`.",
  },
  method_not_allowed: {
    title: 'Method not allowed',
    explanation: 'The path exists but not for this HTTP method. `Allow` lists the methods it supports.',
  },
  payload_too_large: { title: 'Payload too large', explanation: 'The request body is larger than the route accepts.' },
  unsupported_media_type: {
    title: 'Unsupported media type',
    explanation:
      'The request body is not in a format the route accepts. `Accept-Post` names the one it does (application/json, UTF-8).',
  },
  bad_request: {
    title: 'Bad request',
    explanation:
      'The request is not valid HTTP/1.1: a malformed request line, an unknown method, no Host header, or bytes HTTP does not allow in the path or a header (spaces, control characters); percent-encode them.',
  },
  headers_too_large: {
    title: 'Request headers too large',
    explanation:
      'The request line and headers together are larger than the server accepts (16 KiB); shorten the headers.',
  },
  uri_too_long: {
    title: 'URI too long',
    explanation:
      'The request target is longer than the server accepts: a query string (the part after `?`) of more than 4,096 bytes, or a request line over 16 KiB. No parameter of any route needs that much; shorten the query.',
  },
  request_timeout: {
    title: 'Request timeout',
    explanation: 'The request was not received completely in time; send it again.',
  },
  expectation_failed: {
    title: 'Expectation failed',
    explanation:
      'The request has an `Expect` header other than `100-continue`, the only expectation HTTP defines; send it without.',
  },
  internal: {
    title: 'Internal error',
    explanation: 'The server failed to answer. The failure was logged; retry later.',
  },
};

export function problemType(code: ProblemCode): string {
  return `/problems/${code.replaceAll('_', '-')}`;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ProblemCode,
    readonly detail: string,
    readonly errors?: ParameterError[],
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'HttpError';
  }
}

/**
 * What the error log says of a failed request (server/core/app.ts, and the MCP tools): a failure the service
 * classified itself (an HttpError such as 503 upstream_unavailable, whose detail says what happened) in one line,
 * with its status and code; anything else is a bug, logged with its whole stack.
 */
export function describeFailure(err: unknown): string {
  if (err instanceof HttpError) return `${err.status} ${err.code}: ${err.detail}`;
  return (err as Error)?.stack ?? String(err);
}

export function invalidParameters(errors: ParameterError[]): HttpError {
  const detail = errors.map((e) => `${e.parameter} ${e.message}`).join('; ');
  return new HttpError(400, 'invalid_parameter', detail, errors);
}

export function notFound(detail = 'no resource at this path'): HttpError {
  return new HttpError(404, 'not_found', detail);
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ProblemCode;
  errors?: ParameterError[];
}

export function toProblem(err: unknown): { body: ProblemBody; headers: Record<string, string> } {
  if (err instanceof HttpError) {
    const body: ProblemBody = {
      type: problemType(err.code),
      title: PROBLEMS[err.code].title,
      status: err.status,
      detail: err.detail,
      code: err.code,
    };
    if (err.errors) body.errors = err.errors;
    return { body, headers: err.headers };
  }
  // Anything else is our fault: the body never carries the message or a stack.
  return {
    body: {
      type: problemType('internal'),
      title: PROBLEMS.internal.title,
      status: 500,
      detail: 'the server failed to answer this request',
      code: 'internal',
    },
    headers: {},
  };
}
