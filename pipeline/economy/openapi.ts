// The economy service's routes as OpenAPI operations (docs/contracts/economy.md); the build turns them and
// schemas/ into `api/openapi.json` (pipeline/core/openapi.ts). Every route server/economy registers must be
// listed here (test/openapi.test.ts checks it).
import {
  COMMON_DESCRIPTION,
  coreOperations,
  problem,
  mcpOperation,
  toOpenApi,
  type ApiSpec,
  type OpenApiDocument,
  type OperationSpec,
  type ResponseSpec,
} from '../core/openapi.ts';
import { changeOperations } from '../core/openapi-changes.ts';
import { API, OPENAPI_PATH, SNAPSHOT_CACHE, STALE_CACHE } from '../../contract/economy/api.ts';
import { PUBLIC_CACHE } from '../../contract/core/layout.ts';
import type { SchemaRegistry } from '../../contract/core/schemas.ts';
import type { Provenance } from '../../contract/core/licences.ts';
import { loadRegistry } from './registry.ts';
import { REGISTRY_PROVENANCE, toUpstreamSources } from './provenance.ts';

export { OPENAPI_PATH };

const document = (schema: string, description: string, cache: string | string[] = PUBLIC_CACHE): ResponseSpec => ({
  description,
  content: { 'application/json': schema },
  headers: ['ETag'],
  cache,
});
/** FRED's answer: its XML document by default, its JSON with `file_type=json`. */
const fredDocument = (what: string): ResponseSpec => ({
  description: `${what}: FRED's document, XML unless \`file_type=json\`.`,
  content: {
    'text/xml': { type: 'string', description: "FRED's XML, element and attribute names as FRED writes them." },
    'application/json': { type: 'object', description: "FRED's JSON: its envelope's keys, then the rows." },
  },
  headers: ['ETag'],
  cache: PUBLIC_CACHE,
});
const FRED_ERROR: ResponseSpec = {
  description:
    'FRED\'s error document: `<error code="400" message="Bad Request.  …"/>`, or `{ "error_code": 400, "error_message": "…" }` with `file_type=json` (404 for a real-time day before the archive; 503 when the upstream cannot be reached and nothing is cached).',
  content: {
    'text/xml': { type: 'string' },
    'application/json': {
      type: 'object',
      required: ['error_code', 'error_message'],
      properties: { error_code: { type: 'integer' }, error_message: { type: 'string' } },
    },
  },
};
const fred = (path: string, operationId: string, summary: string, description: string): OperationSpec => ({
  method: 'get',
  path: `/fred/${path}`,
  operationId,
  summary,
  tag: 'FRED',
  description,
  query: `economy/fred-${path.replace('/', '-')}-query`,
  responses: { 200: fredDocument(summary), 400: FRED_ERROR, 404: FRED_ERROR, 503: FRED_ERROR },
});
const FRED_OPERATIONS: OperationSpec[] = [
  fred('series', 'fredSeries', 'A series (FRED)', 'One `<series>` record for a registry id.'),
  fred(
    'series/observations',
    'fredSeriesObservations',
    'Observations (FRED, ALFRED)',
    'Observations with their real-time periods, from the same cache and archive as `/api/observations`; `"."` for a point published without a value.',
  ),
  fred('series/search', 'fredSeriesSearch', 'Search (FRED)', 'Series ranked for `search_text`.'),
  fred('series/vintagedates', 'fredSeriesVintageDates', 'Vintage dates (FRED)', "The archive's days for a series."),
  fred('series/updates', 'fredSeriesUpdates', 'Updated series (FRED)', 'The series changed lately, newest first.'),
  fred(
    'category/children',
    'fredCategoryChildren',
    'Categories (FRED)',
    'Category 0 lists the 8 categories, numbered 1 to 8.',
  ),
  fred('category/series', 'fredCategorySeries', "A category's series (FRED)", 'The series of a category 1 to 8.'),
];

const badParameters = (what: string) =>
  problem(400, ['invalid_parameter'], `${what}; \`errors\` lists every bad parameter.`);
const unknownSeries = (more = '') => problem(404, ['not_found'], `The series id is not in the registry${more}.`);
const STORE_UNAVAILABLE =
  'The shared store (PostgreSQL, with `DATABASE_URL`) that holds the snapshots did not answer; retry after `Retry-After`.';

/** `sources`: the build's (its manifest's); by default the registry and the upstreams it reads from. */
export function toEconomyOpenApi(
  registry: SchemaRegistry,
  sources: readonly Provenance[] = [REGISTRY_PROVENANCE, ...toUpstreamSources(loadRegistry().entries)],
): OpenApiDocument {
  const spec: ApiSpec = {
    openapiPath: OPENAPI_PATH,
    sources,
    title: 'shardline economy',
    version: '1.0.0',
    description: [
      'A registry of Canadian economic series (Statistics Canada, Bank of Canada) with their real upstream identifiers, and observations pulled from the upstreams at most once per series per 24 hours, with daily vintages and the revisions between them. The same data is offered as MCP tools at `/mcp`.',
      COMMON_DESCRIPTION,
    ].join('\n\n'),
    tags: [
      { name: 'Series', description: 'The registry: series, details and categories.' },
      { name: 'Observations', description: 'Observations through the 24-hour cache, vintages and revisions.' },
      {
        name: 'FRED',
        description:
          "FRED API v1's own paths and documents under `/fred`, so a FRED client reads these series unchanged: XML by default, JSON with `file_type=json`, FRED's error document for a bad request.",
      },
      { name: 'MCP', description: 'Model Context Protocol over streamable HTTP.' },
      { name: 'Service', description: 'Health, problem types and this reference.' },
      { name: 'Build', description: 'Files of the published build.' },
    ],
    operations: [
      {
        method: 'get',
        path: `${API}/series`,
        operationId: 'listSeries',
        summary: 'List or search series',
        tag: 'Series',
        description:
          'Every series by id; with `q`, ranked: exact id, then id prefix, then title words, then description words (ties by id).',
        query: 'economy/series-query',
        responses: {
          200: {
            ...document('economy/series-list', 'The series list records, paged by offset and limit.'),
            headers: ['ETag', 'X-Total-Count'],
          },
          400: badParameters(
            'A `q` without a letter or digit, over 200 characters or given twice, or a bad `limit` or `offset`',
          ),
        },
      },
      {
        method: 'get',
        path: `${API}/series/{id}`,
        operationId: 'getSeries',
        summary: 'One series',
        tag: 'Series',
        description: 'The list record plus `vectorIds`, `unitsDetail`, `lastVerified`, `scalar_factor` and `upstream`.',
        parameters: [
          {
            name: 'id',
            in: 'path',
            description: 'Series id: upper case letters, digits and underscores; anything else is a 404.',
            schema: 'economy/registry#/$defs/id',
          },
        ],
        responses: {
          200: document('economy/series-detail', 'The series detail.'),
          404: unknownSeries(),
        },
      },
      {
        method: 'get',
        path: `${API}/categories`,
        operationId: 'listCategories',
        summary: 'Categories',
        tag: 'Series',
        description: 'The 8 categories with how many series each holds and up to 3 example titles.',
        responses: { 200: document('economy/categories', 'The categories.') },
      },
      ...FRED_OPERATIONS,
      {
        method: 'get',
        path: `${API}/updates`,
        operationId: 'getSeriesUpdates',
        summary: 'Series updated lately',
        tag: 'Observations',
        description:
          'The series whose latest change in the vintage archive (a snapshot adding or revising values) came after `since`, newest first, as FRED’s `series/updates`. The nightly job snapshots every series once a day.',
        query: 'economy/updates-query',
        responses: {
          200: document('economy/updates', 'The series updated after `since`.'),
          400: badParameters('A `since` that is not an ISO 8601 date-time with its offset'),
        },
      },
      {
        method: 'get',
        path: `${API}/observations`,
        operationId: 'getObservations',
        summary: 'Observations of a series, or of several side by side',
        tag: 'Observations',
        description:
          'Pulled from the upstream at most once per series per 24 hours (`cached` says whether this answer needed a pull; `asOf` is the time of the pull). When a pull fails and a copy is cached, the copy is served with `stale: true`. With `vintage`, the observations as they were in that day’s snapshot. With ALFRED’s `realtime_start`, `realtime_end`, `output_type` or `vintage_dates`, the values as they were known on past days, each with the real-time period in which it was published. Points published without a value are left out (or, with `include_missing=true`, answered as null with their status), never 0. `series=A,B,C` (at most 20) answers the series side by side, one row per date. An unknown parameter is a 400, except the `api_key` and `file_type` FRED clients send.',
        query: 'economy/observations-query',
        responses: {
          200: {
            ...document('economy/observations', 'The observations, oldest first unless `sort_order=desc`.', [
              PUBLIC_CACHE,
              STALE_CACHE,
              SNAPSHOT_CACHE,
            ]),
            content: {
              'application/json': {
                oneOf: [{ $ref: 'economy/observations' }, { $ref: 'economy/observations-of-several' }],
              },
              'text/csv': {
                type: 'string',
                description:
                  'With `format=csv`: `date,value` rows (`date,value,realtime_start,realtime_end` for a real-time query; `date,A,B,…` for several series), RFC 4180, UTF-8.',
              },
            },
            headers: ['ETag', 'Content-Disposition-200'],
          },
          400: badParameters(
            'A missing `series`, more than 20 series, a malformed or impossible date, `from` after `to`, `realtime_start` after `realtime_end`, both names of one parameter (`from` and `observation_start`), an unknown parameter, an unknown `units`, `frequency`, `aggregation_method`, `sort_order`, `output_type` or `format`, a `frequency` above the series’ own, or a bad `limit` or `offset`',
          ),
          404: unknownSeries(
            ', there is no snapshot of the `vintage` day, or a real-time day is before the archive of the series starts (the detail says when)',
          ),
          503: problem(
            503,
            ['upstream_unavailable', 'store_unavailable'],
            'The upstream could not be reached and nothing is cached yet (`upstream_unavailable`), or the shared store (PostgreSQL, with `DATABASE_URL`) did not answer and this server has no copy (`store_unavailable`).',
            ['Retry-After'],
          ),
        },
      },
      {
        method: 'get',
        path: `${API}/vintages`,
        operationId: 'listVintages',
        summary: 'Snapshot days of a series',
        tag: 'Observations',
        description:
          'The days on which a snapshot was archived, ascending; each is readable with `/api/observations?vintage=`.',
        query: 'economy/vintages-query',
        responses: {
          200: document('economy/vintages', 'The snapshot days.'),
          400: badParameters('A missing `series`'),
          404: unknownSeries(),
          503: problem(503, ['store_unavailable'], STORE_UNAVAILABLE, ['Retry-After']),
        },
      },
      {
        method: 'get',
        path: `${API}/revisions`,
        operationId: 'getRevisions',
        summary: 'Revisions between two vintages',
        tag: 'Observations',
        description:
          'The values that changed, appeared or disappeared between the snapshots of days `from` and `to`. No Canadian upstream offers this view.',
        query: 'economy/revisions-query',
        responses: {
          200: document('economy/revisions', 'The differences.', [PUBLIC_CACHE, SNAPSHOT_CACHE]),
          400: badParameters('A missing parameter, a malformed or impossible date, or `from` after `to`'),
          404: unknownSeries(', or there is no snapshot of one of the days'),
          503: problem(503, ['store_unavailable'], STORE_UNAVAILABLE, ['Retry-After']),
        },
      },
      mcpOperation(
        '/mcp',
        'Tools: `search_series` (`query`), `get_observations` (`series`, optional `from`, `to` and FRED’s parameters), `list_categories`, `get_changes` (the parameters of `GET /api/changes`) and `get_series_updates` (`since`); each result carries its JSON as `structuredContent` and as one text item, with provenance, and a refused call is a result with `isError: true` and the route’s problem `detail`.',
      ),
      {
        method: 'get',
        path: '/registry.json',
        operationId: 'getRegistry',
        summary: 'The registry of series the build read',
        tag: 'Build',
        description:
          'A file of the published build, served as it is (and uploaded as-is to a CDN): every series with its upstream identifiers.',
        responses: {
          200: {
            description: 'The registry.',
            content: { 'application/json': 'economy/registry' },
            headers: ['ETag'],
            cache: PUBLIC_CACHE,
          },
        },
      },
      ...changeOperations({
        base: API,
        tag: 'Series',
        historyPath: `${API}/series/{id}/history`,
        idParameter: {
          name: 'id',
          in: 'path',
          description: 'Series id: upper case letters, digits and underscores; anything else is a 404.',
          schema: 'economy/registry#/$defs/id',
        },
        entities:
          'series (their registry metadata, and their observations between the snapshots of two nightly builds)',
      }),
      ...coreOperations({
        openapiPath: OPENAPI_PATH,
        service: 'economy',
        report: 'economy/registry#/$defs/buildReport',
        registry,
      }),
    ],
  };
  return toOpenApi(spec, registry);
}
