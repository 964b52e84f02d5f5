// The carriers service's routes as OpenAPI operations (docs/contracts/carriers.md); the build turns them
// and schemas/ into `api/openapi.json` (pipeline/core/openapi.ts). Every route server/carriers registers
// must be listed here (test/openapi.test.ts checks it).
import {
  COMMON_DESCRIPTION,
  coreOperations,
  JSON_RPC_REQUEST,
  JSON_RPC_RESPONSE,
  problem,
  rpcError,
  toOpenApi,
  type ApiSpec,
  type OpenApiDocument,
  type OperationSpec,
  type ParameterSpec,
  type ResponseSpec,
} from '../core/openapi.ts';
import { changeOperations } from '../core/openapi-changes.ts';
import { watchlistOperations } from './openapi-watchlists.ts';
import { NO_STORE, PUBLIC_CACHE } from '../../contract/core/layout.ts';
import type { SchemaRegistry } from '../../contract/core/schemas.ts';
import { OPENAPI_PATH } from '../../contract/carriers/layout.ts';
import type { Provenance } from '../../contract/core/licences.ts';
import { PROVENANCE } from './inputs.ts';

const BASE = '/api';

const CARRIER_ID: ParameterSpec = {
  name: 'carrier_id',
  in: 'path',
  description: 'USDOT number: 1 to 8 digits (anything else is a 400).',
  schema: { type: 'string', pattern: '^[0-9]{1,8}$' },
};

/** A signed-in route's 400: its own `invalid_parameter` faults, and `bad_request` for two Authorization headers. */
const signedIn400 = (faults: string) =>
  problem(
    400,
    ['invalid_parameter', 'bad_request'],
    `\`invalid_parameter\`: ${faults}; \`errors\` lists each bad parameter. \`bad_request\`, with \`WWW-Authenticate: Bearer error="invalid_request"\`: the request sends \`Authorization\` more than once (nothing is counted).`,
    ['WWW-Authenticate-400'],
  );
const badCarrierId = (more = '') => signedIn400(`\`carrier_id\` is not a carrier number of 1 to 8 digits${more}`);
const unauthorized = problem(401, ['unauthorized'], 'No API key, or a malformed, unknown or revoked one.', [
  'WWW-Authenticate',
]);
const premiumRequired = problem(403, ['premium_required'], 'The key is on the free plan; this route is premium.');
const RATE_LIMIT = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'] as const;
const noCarrier = problem(404, ['not_found'], 'No carrier with this number in the build.');
/** The profile's 400 and 404 count nothing; to a free key they still say what is left (RateLimit-*). */
const withAllowance = (r: ResponseSpec): ResponseSpec => ({ ...r, headers: [...(r.headers ?? []), ...RATE_LIMIT] });
const SIGN_IN_LIMITED =
  '`sign_in_limited`: over 30 requests in a minute from this client address gave a malformed, unknown or revoked key; every key is refused from it until the minute is over (`Retry-After`).';
const quotaExhausted = problem(
  429,
  ['quota_exhausted', 'sign_in_limited'],
  `\`quota_exhausted\`: the free key's profile lookups for this calendar month (UTC) are used up. ${SIGN_IN_LIMITED}`,
  ['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'],
);
const signInLimited = problem(429, ['sign_in_limited'], SIGN_IN_LIMITED, ['Retry-After']);
const tooLarge = problem(413, ['payload_too_large'], 'The request body is over 64 KB (65,536 bytes).');
const notJson = problem(
  415,
  ['unsupported_media_type'],
  'The request body is not sent as `Content-Type: application/json` (UTF-8).',
  ['Accept-Post'],
);

const storeUnavailable = problem(
  503,
  ['store_unavailable'],
  'The account store (SQLite under `STATE_DIR`, or PostgreSQL with `DATABASE_URL`) did not answer within 5 s, so the key could not be checked or the lookup counted; retry after `Retry-After`. Nothing was counted.',
  ['Retry-After'],
);

/** A route that reads a key (always or when one is sent) answers 503 while the account store does not. */
const withStore = (op: OperationSpec): OperationSpec =>
  op.security === undefined ? op : { ...op, responses: { 503: storeUnavailable, ...op.responses } };

/** A refusal the `{"tool", "args"}` call answers as a problem and an MCP message as a JSON-RPC error. */
const orRpcError = (r: ResponseSpec, description: string): ResponseSpec => ({
  ...r,
  description: `${r.description} MCP: ${description}`,
  content: { ...r.content, 'application/json': JSON_RPC_RESPONSE },
});

const json = (schema: string, description: string, extra: Partial<ResponseSpec> = {}): ResponseSpec => ({
  description,
  content: { 'application/json': schema },
  ...extra,
});

/** `sources`: the build's (its manifest's); by default every input the build can read. */
export function toCarriersOpenApi(
  registry: SchemaRegistry,
  sources: readonly Provenance[] = Object.values(PROVENANCE),
): OpenApiDocument {
  const spec: ApiSpec = {
    openapiPath: OPENAPI_PATH,
    sources,
    title: 'shardline carriers',
    version: '1.0.0',
    description: [
      'US motor carriers from the FMCSA census and SMS inspection, violation and crash data, ranked against their peers with the published SMS methodology. Percentiles are our recomputation from FMCSA public data, not FMCSA’s published values.',
      'Search is public. Profiles need an API key (`Authorization: Bearer <key>`, issued with `npm run keys -- create`); a free key has a monthly allowance of profile lookups (RateLimit-* headers), premium keys also reach explain and export.',
      COMMON_DESCRIPTION,
    ].join('\n\n'),
    bearer: {
      description:
        'An API key issued with `npm run keys -- create --plan free|premium --label TEXT`, sent as `Authorization: Bearer <key>`.',
    },
    tags: [
      { name: 'Carriers', description: 'Search, profiles and their premium extras.' },
      {
        name: 'Watchlists',
        description: 'A key’s lists of carriers: their changes build after build, and webhooks that deliver them.',
      },
      {
        name: 'Tools',
        description: 'The same routes as tools with JSON Schema arguments, for programs that call tools.',
      },
      { name: 'Service', description: 'Health, problem types and this reference.' },
      { name: 'Build', description: 'Files of the published build.' },
    ],
    operations: [
      {
        method: 'get',
        path: `${BASE}/search`,
        operationId: 'searchCarriers',
        summary: 'Search carriers',
        tag: 'Carriers',
        description:
          'Public. A `q` of digits (optionally after `USDOT`, `DOT` or `US DOT`, with or without spaces or `#`) looks one carrier number up; any other `q` matches legal and DBA names. `state` (two letters, any case) keeps the carriers based in that state or province. Whole-name matches first, then power units descending, then `carrier_id`; `total` counts every match, and `offset` pages through them in that stable order (past the end: an empty page).',
        query: 'carriers/search-query',
        responses: {
          200: json('carriers/search', 'The matching carriers.', { headers: ['ETag'], cache: PUBLIC_CACHE }),
          400: problem(
            400,
            ['invalid_parameter'],
            'A missing, blank or over-long `q` (or one without a letter or digit), a `limit` out of 1–100, an `offset` out of 0–10,000, a `state` that is not two letters, or a parameter given twice; `errors` lists each.',
          ),
        },
      },
      {
        method: 'get',
        path: `${BASE}/carrier/{carrier_id}`,
        operationId: 'getCarrier',
        summary: 'Carrier profile',
        tag: 'Carriers',
        description:
          'Signed in. The profile with its BASIC measures and percentiles against the carrier’s safety event group. `data_gaps` lists the SMS inputs the build did not have; every figure resting on them is `null`, never 0. Each successful response to a free key counts one lookup of the calendar month (UTC); a 4xx never counts.',
        parameters: [CARRIER_ID],
        security: 'bearer',
        responses: {
          200: json('carriers/profile', 'The profile.', { headers: ['ETag', ...RATE_LIMIT], cache: NO_STORE }),
          400: withAllowance(badCarrierId()),
          401: unauthorized,
          404: withAllowance(noCarrier),
          429: quotaExhausted,
        },
      },
      {
        method: 'get',
        path: `${BASE}/carrier/{carrier_id}/inspections`,
        operationId: 'getCarrierInspections',
        summary: 'Inspections, violations and crashes',
        tag: 'Carriers',
        description:
          'Signed in, and counted as one profile lookup for a free key. The inspections of the 24-month window, newest first, paged by `limit` and `offset`, each with its violations (code, description, BASIC, severity weight, time weight, out of service), and every crash of the window with its severity and time weight: the events the profile’s measures and step-down rest on. A carrier without events in the window has empty lists; what the build had no input for is `null` (`data_gaps`). A 4xx never counts.',
        parameters: [CARRIER_ID],
        query: 'carriers/inspections-query',
        security: 'bearer',
        responses: {
          200: json('carriers/inspections', 'The page.', { headers: ['ETag', ...RATE_LIMIT], cache: NO_STORE }),
          400: withAllowance(badCarrierId(', a `limit` out of 1–100 or an `offset` out of 0–100,000')),
          401: unauthorized,
          404: withAllowance(noCarrier),
          429: quotaExhausted,
        },
      },
      {
        method: 'post',
        path: `${BASE}/carrier/{carrier_id}/explain`,
        operationId: 'explainCarrier',
        summary: 'Plain-language summary (premium)',
        tag: 'Carriers',
        description:
          'Premium. A summary for a shipper or broker generated from the profile alone (deterministic template by default), cached per carrier and data version: a second call answers the same summary with `cached: true`. With a model configured, `generator` says whether it wrote the summary; a template standing in for it says why in `fallback_reason` and is not cached.',
        parameters: [CARRIER_ID],
        security: 'bearer',
        requestBody: {
          description: 'The route takes no input: no body, or `{}`.',
          required: false,
          content: { 'application/json': { type: 'object', maxProperties: 0 } },
        },
        responses: {
          200: json('carriers/explain', 'The summary.', { cache: NO_STORE }),
          400: badCarrierId(', or a body other than `{}`'),
          401: unauthorized,
          403: premiumRequired,
          404: noCarrier,
          413: tooLarge,
          429: signInLimited,
        },
      },
      {
        method: 'get',
        path: `${BASE}/carrier/{carrier_id}/export`,
        operationId: 'exportCarrier',
        summary: 'Profile download (premium)',
        tag: 'Carriers',
        description:
          'Premium. `format=json`: the profile plus the inspection and crash counts by month. `format=csv`: RFC 4180, a header row (carrier_id, legal_name, category, measure, percentile, threshold, alert, violations, peer_group, data_as_of) then one row per BASIC; a text field beginning with =, +, -, @, a tab or a CR gets a leading apostrophe, so a spreadsheet does not run it as a formula.',
        parameters: [CARRIER_ID],
        query: 'carriers/export-query',
        security: 'bearer',
        responses: {
          200: {
            description: 'The download, as an attachment `carrier-<id>.json` or `carrier-<id>.csv`.',
            content: {
              'application/json': 'carriers/export',
              'text/csv': { type: 'string', description: 'RFC 4180 CSV, UTF-8 (`text/csv; charset=utf-8`).' },
            },
            headers: ['ETag', 'Content-Disposition'],
            cache: NO_STORE,
          },
          400: badCarrierId(', or a `format` other than json or csv'),
          401: unauthorized,
          403: premiumRequired,
          404: noCarrier,
          429: signInLimited,
        },
      },
      {
        method: 'get',
        path: `${BASE}/mcp`,
        operationId: 'listTools',
        summary: 'List the tools',
        tag: 'Tools',
        description:
          'Public. The tools `POST /api/mcp` runs, each with the JSON Schema of its `args`. The answer varies with `Accept` (`Vary: Accept`): a GET that asks for `text/event-stream` is an MCP client opening a stream of server messages, which this endpoint does not keep (405).',
        responses: {
          200: json('carriers/agent-tools', 'The tools.', { headers: ['ETag'], cache: PUBLIC_CACHE }),
          405: problem(
            405,
            ['method_not_allowed'],
            '`Accept` asks for `text/event-stream`: MCP has no stream to listen on here; send each MCP message with POST.',
            ['Allow'],
          ),
        },
      },
      {
        method: 'post',
        path: `${BASE}/mcp`,
        operationId: 'callTool',
        summary: 'Call a tool, or speak MCP',
        tag: 'Tools',
        description: [
          '`search_carrier` is public; `get_carrier_profile` needs the same key as `GET /api/carrier/{carrier_id}` and counts against the same allowance (with the same RateLimit-* headers and errors). `result` is exactly the body the matching REST route returns.',
          'A JSON-RPC 2.0 body (an object with `jsonrpc`, or a batch of them) is MCP over streamable HTTP with no sessions, as economy’s `/mcp`: 2025-era clients (`initialize`, then `tools/list`, `tools/call`) and 2026-07-28 clients (`server/discover`, per-request `_meta`, `MCP-Protocol-Version`), the same two tools with the same argument schemas, each result the REST body as its one text item and as `structuredContent` (`outputSchema` is the REST schema). Send `Accept: application/json, text/event-stream`; `Host` and `Origin` must name an allowed host (MCP_ALLOWED_HOSTS).',
          'Over MCP, a `tools/call` of `get_carrier_profile` without a valid key is the profile route’s 401 problem, before the call is read; bad arguments, an unknown carrier and a used-up allowance are tool results with `isError: true` and the REST problem’s `detail` as text, and a free key’s results carry `_meta.ratelimit` (`limit`, `remaining`, `reset`).',
        ].join('\n\n'),
        security: 'optional',
        requestBody: {
          description: 'The tool and its arguments, or a JSON-RPC 2.0 message (or batch); at most 64 KB.',
          required: true,
          content: {
            'application/json': {
              anyOf: [
                { $ref: 'carriers/agent-call' },
                JSON_RPC_REQUEST,
                { type: 'array', minItems: 1, items: JSON_RPC_REQUEST, description: 'A JSON-RPC batch (2025-03-26).' },
              ],
            },
          },
        },
        responses: {
          200: {
            description:
              'The tool and its result; or the JSON-RPC response, one JSON body, or for 2025-era requests a one-event `text/event-stream` carrying it (`Cache-Control: no-cache, no-transform`).',
            content: {
              'application/json': { anyOf: [{ $ref: 'carriers/agent-result' }, JSON_RPC_RESPONSE] },
              'text/event-stream': { type: 'string' },
            },
            headers: [...RATE_LIMIT],
            cache: [NO_STORE, 'no-cache, no-transform'],
          },
          202: { description: 'MCP: a notification (or a batch of notifications) was accepted; no body.' },
          400: orRpcError(
            withAllowance(
              signedIn400(
                'a body that is not JSON in UTF-8, an unknown tool (the message lists the known ones), or bad `args`',
              ),
            ),
            'a request whose headers disagree with its body (-32020), or a batch sent with an `MCP-Protocol-Version` of 2025-06-18 or later (-32600).',
          ),
          401: unauthorized,
          403: rpcError('MCP: `Host` or `Origin` is not an allowed host (DNS-rebinding protection).'),
          404: orRpcError(withAllowance(noCarrier), 'an unknown method (-32601) on the 2026-07-28 protocol.'),
          406: rpcError('MCP: `Accept` does not name both application/json and text/event-stream.'),
          413: tooLarge,
          415: orRpcError(notJson, 'a `+json` Content-Type other than `application/json` itself.'),
          429: quotaExhausted,
        },
      },
      ...changeOperations({
        base: BASE,
        tag: 'Carriers',
        historyPath: `${BASE}/carrier/{carrier_id}/history`,
        idParameter: {
          name: 'carrier_id',
          in: 'path',
          description: 'The USDOT number, 1 to 8 digits; anything else is a 400.',
          schema: { type: 'string', pattern: '^[0-9]{1,8}$' },
        },
        entities:
          'carriers (names, place, fleet, inspections and crashes, out-of-service rates, each category’s percentile and alert)',
        signedIn: {
          note: 'Signed in, as a profile is; not counted against the free allowance.',
          responses: { 401: unauthorized, 429: signInLimited },
        },
      }),
      ...watchlistOperations(BASE, { unauthorized, signInLimited, notJson }),
      ...coreOperations({ openapiPath: OPENAPI_PATH, service: 'carriers', report: 'carriers/report', registry }),
    ],
  };
  return toOpenApi({ ...spec, operations: spec.operations.map(withStore) }, registry);
}
