// The response headers every OpenAPI document describes once, in `components.headers` (pipeline/core/openapi.ts).

type Json = Record<string, unknown>;

/** Response headers described once in `components.headers`. */
export const HEADERS = {
  ETag: {
    description:
      'Strong validator of the body (RFC 9110 §8.8.3), computed once per document. Send it back in `If-None-Match` for a 304.',
    required: true,
    schema: { type: 'string', pattern: '^(W/)?"[^"]*"$' },
  },
  'X-Data-Version': {
    description:
      '`data_version` of the build that answered (its manifest.json): a hash of the inputs, options and build code.',
    required: true,
    schema: { type: 'string' },
  },
  'X-Content-Type-Options': {
    description: 'Always `nosniff`: the body is of its `Content-Type` and nothing else.',
    required: true,
    schema: { type: 'string', const: 'nosniff' },
  },
  'RateLimit-Limit': {
    description:
      'Free plan only: profile lookups allowed per calendar month (UTC) (draft-ietf-httpapi-ratelimit-headers). Absent for premium keys.',
    required: false,
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Remaining': {
    description: 'Free plan only: profile lookups left this calendar month (UTC). Absent for premium keys.',
    required: false,
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Reset': {
    description:
      'Free plan only: seconds until the allowance renews, at the first instant of the next UTC month. Absent for premium keys.',
    required: false,
    schema: { type: 'integer', minimum: 1 },
  },
  'Retry-After': {
    description: 'Seconds to wait before asking again (RFC 9110 §10.2.3).',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
  'WWW-Authenticate-400': {
    description:
      'On a 400 `bad_request` for a request that sends `Authorization` more than once: `Bearer error="invalid_request"` (RFC 6750 §3.1). Absent on other 400s.',
    required: false,
    schema: { type: 'string', pattern: '^Bearer' },
  },
  'WWW-Authenticate': {
    description:
      '`Bearer` when no key was sent; `Bearer error="invalid_token"` when the key is malformed, unknown or revoked (RFC 6750 §3).',
    required: true,
    schema: { type: 'string', pattern: '^Bearer' },
  },
  Location: {
    description: 'The new resource’s path (`/api/watchlists/<id>`).',
    required: true,
    schema: { type: 'string', pattern: '^/' },
  },
  'Content-Disposition': {
    description: 'The body is a download: `attachment; filename="carrier-<id>.json"` (or `.csv`).',
    required: true,
    schema: { type: 'string', pattern: '^attachment; filename="[^"]+"$' },
  },
  'Content-Disposition-200': {
    description: 'With `format=csv` only: the body is a download, `attachment; filename="<name>.csv"`.',
    required: false,
    schema: { type: 'string', pattern: '^attachment; filename="[^"]+"$' },
  },
  'X-Total-Count': {
    description: 'How many items matched before `offset` and `limit` (the body stays a plain array).',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  Allow: {
    description: 'The methods the path supports (RFC 9110 §10.2.1).',
    required: true,
    schema: { type: 'string' },
  },
  'Accept-Post': {
    description: 'The media type the route accepts for a request body.',
    required: true,
    schema: { type: 'string' },
  },
} satisfies Record<string, Json>;

export type HeaderName = keyof typeof HEADERS;
