// Each service's OpenAPI 3.1.0 document, generated at build time from the JSON Schemas ajv compiles (one source
// of truth) and the service's route table, and written beside the data so it is published atomically with it.
import { DOCS_PATH, DOCS_SCRIPT_PATH, NO_STORE, PUBLIC_CACHE } from '../../contract/core/layout.ts';
import type { SchemaRegistry } from '../../contract/core/schemas.ts';
import { PROJECT_LICENCE, toCreditsMarkdown, type Provenance } from '../../contract/core/licences.ts';

import { HEADERS, type HeaderName } from './openapi-headers.ts';

type Json = Record<string, unknown>;

export const OPENAPI_VERSION = '3.1.0';
export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/**
 * A schema of schemas/ by `$id`, optionally with a JSON pointer (`facilities/record#/$defs/spine_id`), or
 * an inline JSON Schema whose `$ref`s name schema ids the same way.
 */
export type SchemaSource = string | Json;

export interface ResponseSpec {
  description: string;
  /** Body schema by media type; a string schema for bodies that are not JSON (text/csv, text/html). */
  content?: Record<string, SchemaSource>;
  headers?: HeaderName[];
  /** The Cache-Control value, or each value the route may send. */
  cache?: string | string[];
}

export interface ParameterSpec {
  name: string;
  in: 'path' | 'header';
  description: string;
  required?: boolean;
  schema: SchemaSource;
}

export interface OperationSpec {
  method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI path template (`/api/v1/facility/{id}`). */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** A `*-query` schema: each of its properties is a query parameter. */
  query?: string;
  parameters?: ParameterSpec[];
  requestBody?: { description: string; required: boolean; content: Record<string, SchemaSource> };
  /** `bearer`: the route needs an API key; `optional`: some calls need one (`{}` or bearer). */
  security?: 'bearer' | 'optional';
  responses: Record<number, ResponseSpec>;
}

export interface ApiSpec {
  /** Where the document is served (`/api/v1/openapi.json`): its `servers` URL is relative to it. */
  openapiPath: string;
  title: string;
  version: string;
  description: string;
  /** The data the service serves: their attributions close the description. */
  sources: readonly Provenance[];
  tags: { name: string; description: string }[];
  operations: OperationSpec[];
  /** `components.securitySchemes.bearer`, for services with signed-in routes. */
  bearer?: { description: string };
}

export interface OpenApiDocument {
  openapi: string;
  jsonSchemaDialect: string;
  info: {
    title: string;
    version: string;
    description: string;
    license: { name: string; identifier: string };
  };
  servers: { url: string; description: string }[];
  /** `[]`: public unless an operation names a scheme. */
  security: Json[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, Json>>;
  components: Json & { schemas: Record<string, Json> };
}

/**
 * The document's server: the root of whichever host serves it, as a URL relative to the document
 * (`/api/v1/openapi.json` → `../..`), so the copy a CDN hosts names the CDN and the server's names the server.
 * The paths are absolute from that root.
 */
export function toServerUrl(openapiPath: string): string {
  const depth = openapiPath.split('/').length - 2;
  if (depth < 1) throw new Error(`${openapiPath}: the document must sit in a folder below the root`);
  return Array.from({ length: depth }, () => '..').join('/');
}

/** `facilities/record` → `facilities.record` (component names allow `[a-zA-Z0-9._-]` only). */
export function toComponentName(id: string): string {
  return id.replaceAll('/', '.');
}

/** A `$ref` as written in `fromId` (relative, as ajv resolves it), to the schema id and pointer it names. */
function resolveRef(ref: string, fromId: string): { id: string; pointer: string } {
  const hash = ref.indexOf('#');
  const base = hash < 0 ? ref : ref.slice(0, hash);
  const pointer = hash < 0 ? '' : ref.slice(hash + 1);
  if (pointer !== '' && !pointer.startsWith('/'))
    throw new Error(`${fromId}: $ref ${ref} uses an anchor; only JSON pointers are supported`);
  if (base === '') {
    if (fromId === '') throw new Error(`$ref ${ref} has no schema to point into`);
    return { id: fromId, pointer };
  }
  const url = new URL(base, `https://schemas.invalid/${fromId}`);
  return { id: url.pathname.slice(1), pointer };
}

/** Keywords whose values are data, not schemas: never searched for `$ref`. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples', 'example']);

/**
 * A copy of `schema` with every `$ref` (resolved against `fromId`) pointing into the document:
 * `record#/$defs/spine_id` → `#/components/schemas/facilities.record/$defs/spine_id`. `reach` is called with
 * each schema id named, so only the schemas the operations reach are kept.
 */
function rewriteRefs(schema: unknown, fromId: string, reach: (id: string) => void): unknown {
  if (Array.isArray(schema)) return schema.map((s) => rewriteRefs(s, fromId, reach));
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema as Json)) {
    if (key === '$ref' && typeof value === 'string') {
      const { id, pointer } = resolveRef(value, fromId);
      reach(id);
      out.$ref = `#/components/schemas/${toComponentName(id)}${pointer}`;
    } else if (DATA_KEYWORDS.has(key)) {
      out[key] = value;
    } else {
      out[key] = rewriteRefs(value, fromId, reach);
    }
  }
  return out;
}

/** Follows a JSON pointer (RFC 6901) into a schema; throws naming the pointer when it leads nowhere. */
function atPointer(schema: unknown, pointer: string, where: string): unknown {
  let node = schema;
  for (const raw of pointer.split('/').slice(1)) {
    const part = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (node === null || typeof node !== 'object' || !(part in node))
      throw new Error(`${where}: nothing at ${pointer}`);
    node = (node as Json)[part];
  }
  return node;
}

/** A problem+json response (server/core/problem.ts) with its status and the codes the route can give. */
export function problem(
  status: number,
  codes: string[],
  description: string,
  headers: HeaderName[] = [],
): ResponseSpec {
  return {
    description,
    headers,
    cache: NO_STORE,
    content: {
      'application/problem+json': {
        allOf: [{ $ref: 'core/problem' }],
        properties: { status: { const: status }, code: codes.length === 1 ? { const: codes[0] } : { enum: codes } },
      },
    },
  };
}

/** A JSON-RPC 2.0 message, as far as a document describes an MCP endpoint (economy's /mcp, carriers' /api/mcp). */
export const JSON_RPC_REQUEST = {
  type: 'object',
  description: 'A JSON-RPC 2.0 request or notification (or a batch of them, for 2025-era clients).',
  required: ['jsonrpc', 'method'],
  properties: {
    jsonrpc: { const: '2.0' },
    id: { type: ['string', 'integer'] },
    method: { type: 'string' },
    params: { type: 'object' },
  },
};
export const JSON_RPC_RESPONSE = {
  type: 'object',
  description:
    'A JSON-RPC 2.0 response: `result`, or `error` with a code (-32700 parse error, -32601 unknown method, -32602 bad params, -32000 rejected request).',
  required: ['jsonrpc'],
  properties: {
    jsonrpc: { const: '2.0' },
    id: { type: ['string', 'integer', 'null'] },
    result: { type: 'object' },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} },
    },
  },
};
export const rpcError = (description: string): ResponseSpec => ({
  description,
  content: { 'application/json': JSON_RPC_RESPONSE },
});

/**
 * `POST {path}`: an MCP endpoint over streamable HTTP as server/core/mcp.ts serves it (economy's /mcp,
 * facilities' /api/v1/mcp); `description` says what is the service's own (its tools).
 */
export function mcpOperation(path: string, description: string): OperationSpec {
  return {
    method: 'post',
    path,
    operationId: 'mcp',
    summary: 'MCP endpoint (JSON-RPC 2.0)',
    tag: 'MCP',
    description: `Model Context Protocol over streamable HTTP with no sessions: 2025-era clients (\`initialize\`, then \`tools/list\`, \`tools/call\`) and 2026-07-28 clients (\`server/discover\`, per-request \`_meta\`, \`MCP-Protocol-Version\`). ${description} \`Host\` and \`Origin\` must name an allowed host (MCP_ALLOWED_HOSTS; by default 127.0.0.1, localhost, [::1]). Send \`Accept: application/json, text/event-stream\`.`,
    requestBody: {
      description: 'A JSON-RPC 2.0 message; at most 64 KB.',
      required: true,
      content: { 'application/json': JSON_RPC_REQUEST },
    },
    responses: {
      200: {
        description:
          'The JSON-RPC response: one JSON body, or for 2025-era requests a one-event `text/event-stream` carrying it.',
        content: { 'application/json': JSON_RPC_RESPONSE, 'text/event-stream': { type: 'string' } },
      },
      202: { description: 'A notification was accepted; no body.' },
      400: rpcError(
        'Malformed JSON (-32700), a request whose headers disagree with its body, or a batch the protocol version has no place for (-32600).',
      ),
      403: rpcError('`Host` or `Origin` is not an allowed host (DNS-rebinding protection).'),
      404: rpcError('An unknown method (-32601) on the 2026-07-28 protocol.'),
      406: rpcError('`Accept` does not name both application/json and text/event-stream.'),
      413: problem(413, ['payload_too_large'], 'The request body is over 64 KB (65,536 bytes).'),
      415: rpcError('The body is not sent as `Content-Type: application/json`.'),
    },
  };
}

export const NOT_FOUND_DESCRIPTION =
  'No such resource (problem `not_found`). Any path that no route answers gets this canonical 404.';
export const METHOD_NOT_ALLOWED_DESCRIPTION =
  'The path exists but not for this method (problem `method_not_allowed`); `Allow` lists the methods it supports.';

/** The canonical 404: an operation that lists it refers to `components.responses.NotFound`. */
export const NOT_FOUND = problem(404, ['not_found'], NOT_FOUND_DESCRIPTION);

/**
 * The routes every service has (server/core/app.ts): health, problem pages, this document and the human
 * reference rendered from it, and the build's public files.
 */
export function coreOperations(options: {
  openapiPath: string;
  service: string;
  report: SchemaSource;
  registry: SchemaRegistry;
}): OperationSpec[] {
  const codes = (
    atPointer(options.registry.schema('core/problem'), '/properties/code/enum', 'core/problem') as string[]
  ).map((c) => c.replaceAll('_', '-'));
  const notFound = NOT_FOUND;
  const staticFile = (name: string, summary: string, schema: SchemaSource): OperationSpec => ({
    method: 'get',
    path: `/${name}`,
    operationId: `get${name[0]!.toUpperCase()}${name.slice(1, -'.json'.length)}`,
    summary,
    tag: 'Build',
    description: 'A file of the published build, served as it is (and uploaded as-is to a CDN).',
    responses: {
      200: { description: summary, content: { 'application/json': schema }, headers: ['ETag'], cache: PUBLIC_CACHE },
    },
  });
  return [
    {
      method: 'get',
      path: '/healthz',
      operationId: 'getHealth',
      summary: 'Health and loaded data version',
      tag: 'Service',
      description: 'Answers while the service runs, with the build it serves.',
      responses: {
        200: {
          description: 'The service is up.',
          content: { 'application/json': 'core/health' },
          headers: ['ETag'],
          cache: NO_STORE,
        },
      },
    },
    {
      method: 'get',
      path: '/problems/{type}',
      operationId: 'getProblemType',
      summary: 'Explanation of a problem type',
      tag: 'Service',
      description:
        'The `type` of every problem+json error is a relative URI answered here with a short plain-text explanation.',
      parameters: [
        {
          name: 'type',
          in: 'path',
          description: 'The problem type: its `code` with dashes.',
          required: true,
          schema: { type: 'string', enum: codes },
        },
      ],
      responses: {
        200: {
          description: 'Title and explanation.',
          content: { 'text/plain': { type: 'string' } },
          headers: ['ETag'],
          cache: PUBLIC_CACHE,
        },
        404: notFound,
      },
    },
    {
      method: 'get',
      path: options.openapiPath,
      operationId: 'getOpenApi',
      summary: 'This OpenAPI document',
      tag: 'Service',
      description: `The OpenAPI ${OPENAPI_VERSION} document of the ${options.service} service, generated at build time from the JSON Schemas in schemas/ and published with the data.`,
      responses: {
        200: {
          description: 'The OpenAPI document.',
          content: {
            'application/json': { type: 'object', required: ['openapi'], properties: { openapi: { type: 'string' } } },
          },
          headers: ['ETag'],
          cache: PUBLIC_CACHE,
        },
      },
    },
    {
      method: 'get',
      path: DOCS_PATH,
      operationId: 'getDocs',
      summary: 'API reference (HTML)',
      tag: 'Service',
      description: `A human API reference rendered in the browser from ${options.openapiPath}, with no resource from another host.`,
      responses: {
        200: {
          description: 'A small HTML page that loads the renderer.',
          content: { 'text/html': { type: 'string' } },
          headers: ['ETag'],
          cache: PUBLIC_CACHE,
        },
      },
    },
    {
      method: 'get',
      path: DOCS_SCRIPT_PATH,
      operationId: 'getDocsScript',
      summary: 'API reference renderer (JavaScript)',
      tag: 'Service',
      description:
        'The browser bundle of the reference renderer (@scalar/api-reference), served by the service itself. The page asks for it with its content hash in the query (`?v=`): under that URL it is cached for a year as immutable; asked without it, or with another version, for five minutes, since an upgrade may put another bundle there.',
      responses: {
        200: {
          description: 'The renderer.',
          content: { 'text/javascript': { type: 'string' } },
          headers: ['ETag'],
          cache: ['public, max-age=31536000, immutable', PUBLIC_CACHE],
        },
      },
    },
    staticFile('manifest.json', 'The build manifest', 'core/manifest'),
    staticFile('checksums.json', 'The sha256 of every file of the build', 'core/checksums'),
    staticFile('report.json', 'The build report', options.report),
  ];
}

/** The document: paths from the operations, components from the schemas they reach. */
export function toOpenApi(spec: ApiSpec, registry: SchemaRegistry): OpenApiDocument {
  const reached = new Set<string>();
  const queue: string[] = [];
  const reach = (id: string) => {
    if (reached.has(id)) return;
    registry.schema(id); // throws for an unknown id
    reached.add(id);
    queue.push(id);
  };
  const toSchema = (source: SchemaSource): unknown => {
    if (typeof source === 'string') {
      const { id, pointer } = resolveRef(source, '');
      reach(id);
      if (pointer) atPointer(registry.schema(id), pointer, id);
      return { $ref: `#/components/schemas/${toComponentName(id)}${pointer}` };
    }
    return rewriteRefs(source, '', reach);
  };
  // A component named `<Header>-<status>` is that header as one status sends it (`WWW-Authenticate-400`).
  // Only the headers some response sends become components.
  const usedHeaders = new Set<HeaderName>();
  const headerRefs = (names: readonly HeaderName[]): Json =>
    Object.fromEntries(
      names.map((n) => {
        usedHeaders.add(n);
        return [n.replace(/-\d{3}$/, ''), { $ref: `#/components/headers/${n}` }];
      }),
    );
  const toResponse = (r: ResponseSpec): Json => {
    const headers: Json = { ...headerRefs(['X-Data-Version', 'X-Content-Type-Options', ...(r.headers ?? [])]) };
    if (r.cache !== undefined) {
      const values = typeof r.cache === 'string' ? [r.cache] : r.cache;
      headers['Cache-Control'] = {
        description:
          values.length === 1 ? `Always \`${values[0]}\`.` : `One of: ${values.map((v) => `\`${v}\``).join(', ')}.`,
        required: true,
        schema: values.length === 1 ? { type: 'string', const: values[0] } : { type: 'string', enum: values },
      };
    }
    const out: Json = { description: r.description, headers };
    if (r.content)
      out.content = Object.fromEntries(Object.entries(r.content).map(([type, s]) => [type, { schema: toSchema(s) }]));
    return out;
  };

  const paths: Record<string, Record<string, Json>> = {};
  const operationIds = new Set<string>();
  for (const op of spec.operations) {
    if (operationIds.has(op.operationId)) throw new Error(`operationId ${op.operationId} is used twice`);
    operationIds.add(op.operationId);
    let item = paths[op.path];
    if (item === undefined) {
      item = {};
      paths[op.path] = item;
    }
    if (item[op.method]) throw new Error(`${op.method.toUpperCase()} ${op.path} is described twice`);

    const parameters: Json[] = (op.parameters ?? []).map((p) => ({
      name: p.name,
      in: p.in,
      description: p.description,
      required: p.in === 'path' ? true : (p.required ?? false),
      schema: toSchema(p.schema),
    }));
    const templated = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    for (const name of templated) {
      if (!parameters.some((p) => p.in === 'path' && p.name === name))
        throw new Error(`${op.path}: path parameter ${name} is not described`);
    }
    if (op.query) {
      const query = registry.schema(op.query) as { properties?: Record<string, Json>; required?: string[] };
      // The parameters are inlined from the query schema, which itself needs no component.
      for (const [name, prop] of Object.entries(query.properties ?? {})) {
        const { description, ...schema } = prop;
        parameters.push({
          name,
          in: 'query',
          required: (query.required ?? []).includes(name),
          ...(typeof description === 'string' && { description }),
          schema: rewriteRefs(schema, op.query, reach),
        });
      }
    }

    const responses: Record<string, Json> = {};
    for (const [status, r] of Object.entries(op.responses))
      responses[status] = r === NOT_FOUND ? { $ref: '#/components/responses/NotFound' } : toResponse(r);
    // Any other method on the path is a 405 with Allow (server/core/app.ts), unless the operation says more.
    responses['405'] ??= { $ref: '#/components/responses/MethodNotAllowed' };
    // Conditional GET (RFC 9110 §13.1.2): whatever carries an ETag answers If-None-Match with 304.
    const ok = op.responses[200];
    if (op.method === 'get' && ok?.headers?.includes('ETag')) {
      parameters.push({ $ref: '#/components/parameters/If-None-Match' });
      // A 304 carries the 200's headers but those of a body (RFC 9110 §15.4.5): the ETag, and the
      // RateLimit-* of a free key's profile among them.
      const headers = ok.headers.filter((h) => !/^content-/i.test(h));
      responses['304'] = toResponse({
        description: 'Not modified: `If-None-Match` matched the current ETag. No body.',
        headers,
        cache: ok.cache,
      });
    }

    const operation: Json = { operationId: op.operationId, summary: op.summary, tags: [op.tag] };
    if (op.description) operation.description = op.description;
    if (parameters.length) operation.parameters = parameters;
    if (op.requestBody) {
      operation.requestBody = {
        description: op.requestBody.description,
        required: op.requestBody.required,
        content: Object.fromEntries(
          Object.entries(op.requestBody.content).map(([type, s]) => [type, { schema: toSchema(s) }]),
        ),
      };
    }
    if (op.security === 'bearer') operation.security = [{ bearer: [] }];
    if (op.security === 'optional') operation.security = [{}, { bearer: [] }];
    operation.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)));
    item[op.method] = operation;
  }

  // Document-level answers the checker and readers rely on: any unknown path, any other method.
  const componentResponses = {
    NotFound: toResponse(NOT_FOUND),
    MethodNotAllowed: toResponse(problem(405, ['method_not_allowed'], METHOD_NOT_ALLOWED_DESCRIPTION, ['Allow'])),
  };

  const schemas: Record<string, Json> = {};
  while (queue.length) {
    const id = queue.shift()!;
    const { $id: _id, $schema: _schema, ...body } = registry.schema(id);
    schemas[toComponentName(id)] = rewriteRefs(body, id, reach) as Json;
  }
  const sortedSchemas = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

  const components: OpenApiDocument['components'] = {
    schemas: sortedSchemas,
    responses: componentResponses,
    parameters: {
      'If-None-Match': {
        name: 'If-None-Match',
        in: 'header',
        required: false,
        description:
          'ETags from earlier responses; a match (weak comparison, RFC 9110 §13.1.2) answers 304 with no body.',
        schema: { type: 'string' },
      },
    },
    headers: Object.fromEntries(Object.entries(HEADERS).filter(([name]) => usedHeaders.has(name as HeaderName))),
  };
  if (spec.bearer)
    components.securitySchemes = { bearer: { type: 'http', scheme: 'bearer', description: spec.bearer.description } };

  return {
    openapi: OPENAPI_VERSION,
    jsonSchemaDialect: JSON_SCHEMA_DIALECT,
    info: {
      title: spec.title,
      version: spec.version,
      description: `${spec.description}\n\n${toCreditsMarkdown(spec.sources)}`,
      // The code's licence; the data's are in the description.
      license: { name: PROJECT_LICENCE.name, identifier: PROJECT_LICENCE.identifier },
    },
    servers: [
      {
        url: toServerUrl(spec.openapiPath),
        description:
          "The root of the host that serves this document (a URL relative to the document's): the service, or a copy of its build's tree on a static host or CDN.",
      },
    ],
    security: [],
    tags: spec.tags,
    paths,
    components,
  };
}

/** Conventions every service shares, for each document's description (docs/contracts/common.md). */
export const COMMON_DESCRIPTION = [
  'Every response carries `X-Data-Version`. Documents carry a strong `ETag` and answer `If-None-Match` with 304; `HEAD` works wherever `GET` does.',
  'Errors are RFC 9457 `application/problem+json` bodies with a stable `code`; `GET /problems/{type}` explains each. A path no route answers is a 404 `not_found`; a known path with another method is a 405 `method_not_allowed` with `Allow`.',
  'Browsers: public routes answer every origin (`Access-Control-Allow-Origin: *`, with `ETag`, `X-Data-Version` and `X-Total-Count` among `Access-Control-Expose-Headers`); signed-in routes answer only the origins the server is configured with, and allow `Authorization`. `OPTIONS` on any path of the service is 204 with `Allow` and, for a CORS preflight, `Access-Control-Allow-Methods` and `Access-Control-Max-Age`. HTML pages carry a same-origin `Content-Security-Policy`.',
  'Unknown query parameters are ignored; a parameter given twice, or whose value is not percent-encoded UTF-8, is a 400 `invalid_parameter`, and a 400 lists every bad parameter in `errors`.',
  'Requests refused before any route reads them get the same problem body, whatever the path: 400 `bad_request` (a malformed request line or header, no `Host` or two), 408 `request_timeout` (head and body not received within 30 s), 417 `expectation_failed` (an `Expect` other than `100-continue`), 414 `uri_too_long` (a query string over 4,096 bytes, or a request line over 16 KiB) and 431 `headers_too_large` (request line and headers over 16 KiB). A parameter is checked against its schema before the route reads it: a value over its `maxLength` is a 400 on its length alone. They are not repeated under each operation.',
].join('\n\n');
