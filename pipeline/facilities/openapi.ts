// The facilities service's routes as OpenAPI operations (docs/contracts/facilities.md); the build turns
// them and schemas/ into `api/v1/openapi.json` (pipeline/core/openapi.ts). Every route server/facilities
// registers must be listed here (test/openapi.test.ts checks it).
import {
  COMMON_DESCRIPTION,
  coreOperations,
  problem,
  mcpOperation,
  toOpenApi,
  type ApiSpec,
  type OpenApiDocument,
  type ResponseSpec,
  type SchemaSource,
} from '../core/openapi.ts';
import { changeOperations } from '../core/openapi-changes.ts';
import { PUBLIC_CACHE } from '../../contract/core/layout.ts';
import type { SchemaRegistry } from '../../contract/core/schemas.ts';
import { OPENAPI_PATH } from '../../contract/facilities/layout.ts';
import { SPINE_CSV_PATH, SPINE_GEOJSON_PATH } from '../../contract/facilities/downloads.ts';
import { EMISSIONS_COLUMNS, EMISSIONS_CSV_PATH, EMISSIONS_GASES } from './emissions.ts';
import { SQLITE_PATH, SQLITE_TABLES } from './sqlite.ts';
import type { Provenance } from '../../contract/core/licences.ts';
import { PROVENANCE } from './inputs.ts';

const BASE = '/api/v1';

/** A document without a query: JSON, or one of the downloads; a strong ETag and 304 either way. */
const document = (schema: SchemaSource, description: string, type = 'application/json'): ResponseSpec => ({
  description,
  content: { [type]: schema },
  headers: ['ETag'],
  cache: PUBLIC_CACHE,
});

const csvBody = (what: string) => ({
  type: 'string',
  description: `${what}: RFC 4180 CSV in UTF-8 with CRLF line ends, the header row \`spine_id,name,city,tier,program,naics,year,ontario_total,federal_total,delta_tonnes,delta_pct,emissions,latitude,longitude\` (each column as schema facilities.spine-row describes it) then one row per facility; null is an empty field, and a name or city beginning with =, +, -, @, a tab or a CR gets a leading apostrophe so a spreadsheet does not run it as a formula.`,
});

const emissionsCsvBody = {
  type: 'string',
  description: `Every facility, year, program and gas: RFC 4180 CSV in UTF-8 with CRLF line ends, the header row \`${EMISSIONS_COLUMNS.join(',')}\` then one row per facility, year, program (\`federal\`, \`ontario\`) and gas (\`${EMISSIONS_GASES.join('`, `')}\`), ascending by spine_id, year, program and gas in that order. \`tonnes_co2e\` is the record's \`by_gas\` figure (a gas the program does not report that year has no row; 0 is a row); \`total\` is the program's total for a year in which it reports no gas at all (the federal large-facilities indicator table), never beside gas rows of the same facility, year and program. \`latitude\` and \`longitude\` are the record's coordinates, empty where it has none; name and city are guarded against formulas as in spine.csv.`,
};

const sqliteBody = {
  type: 'string',
  format: 'binary',
  description: `A SQLite 3 database file (tables ${SQLITE_TABLES.map((t) => `\`${t}\``).join(', ')} and \`meta\`; docs/api-facilities.md documents every column), the same bytes for the same inputs.`,
};

/** `sources`: the build's (its manifest's); by default every input the build can read. */
export function toFacilitiesOpenApi(
  registry: SchemaRegistry,
  sources: readonly Provenance[] = Object.values(PROVENANCE),
): OpenApiDocument {
  const spec: ApiSpec = {
    openapiPath: OPENAPI_PATH,
    sources,
    title: 'shardline facilities',
    version: '1.0.0',
    description: [
      "Ontario's provincial GHG registry (O. Reg. 390/18) linked with Canada's federal Greenhouse Gas Reporting Program: one canonical spine of facilities (`ONF-000123`, stable across rebuilds), match tiers, search (as JSON or CSV), statistics, full records with coordinates and emissions by gas, and whole-registry downloads as CSV (a row per facility, or per facility, year, program and gas), GeoJSON and SQLite.",
      'Every document without a query is also a static file of the build (`/api/v1/facility/ONF-000001` is `api/v1/facility/ONF-000001.json`), so a CDN can host it with no server.',
      COMMON_DESCRIPTION,
    ].join('\n\n'),
    tags: [
      { name: 'Facilities', description: 'The linked facility records.' },
      { name: 'Service', description: 'Health, problem types and this reference.' },
      { name: 'Build', description: 'Files of the published build.' },
      { name: 'MCP', description: 'Model Context Protocol over streamable HTTP.' },
    ],
    operations: [
      {
        method: 'get',
        path: `${BASE}/spine`,
        operationId: 'getSpine',
        summary: 'Every facility',
        tag: 'Facilities',
        description: 'Every facility ascending by `spine_id`, without `flags` and `delta`.',
        responses: { 200: document('facilities/spine', 'The spine.') },
      },
      {
        method: 'get',
        path: SPINE_CSV_PATH,
        operationId: 'getSpineCsv',
        summary: 'Every facility as CSV',
        tag: 'Facilities',
        description:
          'The whole registry as one CSV file, ascending by `spine_id`: a file the build writes into its tree (with `.gz` and `.br` beside it), served as it is and uploadable to a CDN.',
        responses: { 200: document(csvBody('Every facility'), 'The CSV download.', 'text/csv') },
      },
      {
        method: 'get',
        path: SPINE_GEOJSON_PATH,
        operationId: 'getSpineGeoJson',
        summary: 'Located facilities as GeoJSON',
        tag: 'Facilities',
        description:
          'A GeoJSON FeatureCollection (RFC 7946) of a Point per facility with known coordinates, ascending by `spine_id`: coordinates `[longitude, latitude]`, the spine id as the feature id, the CSV row as properties. A file of the build tree, as spine.csv is.',
        responses: {
          200: document('facilities/spine-geojson', 'The GeoJSON download.', 'application/geo+json'),
        },
      },
      {
        method: 'get',
        path: EMISSIONS_CSV_PATH,
        operationId: 'getEmissionsCsv',
        summary: 'Every year, program and gas as CSV',
        tag: 'Facilities',
        description:
          'Every year of every facility as one CSV file, a row per facility, year, program and gas, with the coordinates: a file the build writes into its tree (with `.gz` and `.br` beside it), served as it is and uploadable to a CDN.',
        responses: { 200: document(emissionsCsvBody, 'The CSV download.', 'text/csv') },
      },
      {
        method: 'get',
        path: SQLITE_PATH,
        operationId: 'getFacilitiesSqlite',
        summary: 'The whole registry as SQLite',
        tag: 'Facilities',
        description:
          'Every facility with its names, source ids, yearly totals per program, gases and flag reasons, as one SQLite database to query with SQL (the sqlite3 shell, datasette): a file of the build tree, as spine.csv is, with `.gz` and `.br` beside it.',
        responses: { 200: document(sqliteBody, 'The database file.', 'application/vnd.sqlite3') },
      },
      {
        method: 'get',
        path: `${BASE}/stats`,
        operationId: 'getStats',
        summary: 'Match statistics',
        tag: 'Facilities',
        description:
          'Match counts, the funnel from the raw inputs to anchored facilities (stages with `narrowing: true` never grow), the top 30 emitters, agreement buckets (cumulative) and the 10 largest disagreements, for the comparison year.',
        responses: { 200: document('facilities/stats', 'The statistics.') },
      },
      {
        method: 'get',
        path: `${BASE}/facility/{id}`,
        operationId: 'getFacility',
        summary: 'One facility',
        tag: 'Facilities',
        description:
          'The full record: names and ids from both programs, totals, delta, yearly series, coordinates (from the federal files), emissions by gas per program and year, EWRB buildings of its city, methane and anomaly flags with their reasons.',
        parameters: [
          {
            name: 'id',
            in: 'path',
            description: 'A spine id, `ONF-` and 6 digits; anything else is a 404.',
            schema: 'facilities/record#/$defs/spine_id',
          },
        ],
        responses: {
          200: document('facilities/record', 'The facility record.'),
          404: problem(
            404,
            ['not_found'],
            'No facility with this id, or an id that is not a spine id (malformed ones too).',
          ),
        },
      },
      {
        method: 'get',
        path: `${BASE}/search`,
        operationId: 'searchFacilities',
        summary: 'Search facilities',
        tag: 'Facilities',
        description:
          'Filters combine with AND. Results are ranked by emissions descending (the federal total of the comparison year where present, else the biomass-adjusted provincial total; facilities with neither last; ties by spine_id); `total` counts every match before `limit`. `format=csv` answers the same page as CSV, the rows spine.csv has for those facilities.',
        query: 'facilities/search-query',
        responses: {
          200: {
            description: 'The matching facilities: the JSON document, or with `format=csv` the page as CSV.',
            content: {
              'application/json': 'facilities/search',
              'text/csv': csvBody('With `format=csv`, the page'),
            },
            headers: ['ETag', 'Content-Disposition-200'],
            cache: PUBLIC_CACHE,
          },
          400: problem(
            400,
            ['invalid_parameter'],
            'A bad parameter value (a `limit` out of 1–200, an unknown `tier`, `program` or `format`, a `q` over 200 characters, a parameter given twice); `errors` lists each.',
          ),
        },
      },
      mcpOperation(
        `${BASE}/mcp`,
        'Tools: `search_facilities` (the parameters of `GET /api/v1/search` but `format`), `get_facility` (`id`), `get_stats` and `get_changes` (the parameters of `GET /api/v1/changes`); each result carries its route’s JSON as `structuredContent` and as one text item, with the build’s `provenance`, and a refused call is a result with `isError: true` and the route’s problem `detail`.',
      ),
      ...changeOperations({
        base: BASE,
        tag: 'Facilities',
        historyPath: `${BASE}/facility/{id}/history`,
        idParameter: {
          name: 'id',
          in: 'path',
          description: 'A spine id, `ONF-` and 6 digits; anything else is a 404.',
          schema: 'facilities/record#/$defs/spine_id',
        },
        entities: 'facilities',
      }),
      ...coreOperations({ openapiPath: OPENAPI_PATH, service: 'facilities', report: 'facilities/report', registry }),
    ],
  };
  return toOpenApi(spec, registry);
}
