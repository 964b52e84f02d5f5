// Each service's OpenAPI document as its build generates it: valid against the official OpenAPI 3.1 schema
// (@seriousme/openapi-schema-validator), every $ref resolving, and describing every route the service
// registers, so a new route without a description fails here. The documents are checked against real
// responses by the contract suite (test/http-contract/suite.ts) and the services' own openapi tests.
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../pipeline/core/openapi.ts';
import { schemas, type SchemaRegistry } from '../contract/core/schemas.ts';
import { toCarriersOpenApi } from '../pipeline/carriers/openapi.ts';
import { toEconomyOpenApi } from '../pipeline/economy/openapi.ts';
import { toFacilitiesOpenApi } from '../pipeline/facilities/openapi.ts';
import { coreRoutes } from '../server/core/app.ts';
import type { Routes } from '../server/core/service.ts';
import { SERVICES } from '../server/services.ts';

const DOCUMENTS: Record<string, (registry: SchemaRegistry) => OpenApiDocument> = {
  facilities: toFacilitiesOpenApi,
  carriers: toCarriersOpenApi,
  economy: toEconomyOpenApi,
};

/** Downloads a build writes into its tree, which the statics serve and the document describes. */
const DOWNLOADS: Record<string, string[]> = {
  facilities: [
    'GET /api/v1/emissions.csv',
    'GET /api/v1/facilities.sqlite',
    'GET /api/v1/spine.csv',
    'GET /api/v1/spine.geojson',
  ],
  economy: ['GET /registry.json'],
};

/** `METHOD /path/{param}` for every route the service's app registers (core routes included). */
function registeredRoutes(name: string): string[] {
  const def = SERVICES[name]!.create({ stateDir: '/nonexistent', env: {} });
  const out: string[] = [];
  const toTemplate = (p: string) => p.replace(/:(\w+)/g, '{$1}');
  const recorder: Routes<unknown> = {
    get: (p) => out.push(`GET ${toTemplate(p)}`),
    post: (p) => out.push(`POST ${toTemplate(p)}`),
    put: (p) => out.push(`PUT ${toTemplate(p)}`),
    delete: (p) => out.push(`DELETE ${toTemplate(p)}`),
  };
  coreRoutes(recorder, def);
  def.routes(recorder);
  return out.sort();
}

function documentedRoutes(doc: OpenApiDocument): string[] {
  return Object.entries(doc.paths)
    .flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`))
    .sort();
}

it('has a document generator for every service', () => {
  expect(Object.keys(DOCUMENTS).sort()).toEqual(Object.keys(SERVICES).sort());
});

describe.each(Object.keys(SERVICES))('%s OpenAPI document', (name) => {
  const doc = DOCUMENTS[name]!(schemas());

  it('is valid OpenAPI 3.1.0 and every $ref resolves', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as unknown as Record<string, unknown>);
    expect(result.errors, JSON.stringify(result.errors, null, 2)).toBeUndefined();
    expect(validator.version).toBe('3.1');
    expect(() => validator.resolveRefs()).not.toThrow();
    schemas().assert('core/openapi', doc, `${name} openapi`);
  });

  it("names the code's licence in info.license and credits the data's sources in info.description", () => {
    expect(doc.info.license).toEqual({ name: 'Apache License 2.0', identifier: 'Apache-2.0' });
    expect(doc.info.description).toMatch(/\n\n## Data sources and licences\n\n- \*\*/);
    expect(doc.info.description).toContain('[Apache License 2.0](https://www.apache.org/licenses/LICENSE-2.0)');
  });

  it('describes every route the service registers', () => {
    const documented = new Set(documentedRoutes(doc));
    const missing = registeredRoutes(name).filter((r) => !documented.has(r));
    expect(missing, `routes of ${name} missing from its document`).toEqual([]);
  });

  it('describes no route the service does not serve, besides the static files of its build', () => {
    const registered = new Set(registeredRoutes(name));
    const extra = documentedRoutes(doc).filter((r) => !registered.has(r));
    expect(extra).toEqual(
      [...(DOWNLOADS[name] ?? []), 'GET /checksums.json', 'GET /manifest.json', 'GET /report.json'].sort(),
    );
  });

  it('names the service in the document served at its own path', () => {
    const def = SERVICES[name]!.create({ stateDir: '/nonexistent', env: {} });
    expect(def.openapi).toBeDefined();
    expect(doc.paths[def.openapi!]?.get).toBeDefined();
    expect(doc.info.title).toContain(name);
  });

  it('lists every parameter of each query schema and every response with a status, media type and schema', () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const responses = op.responses as Record<
          string,
          { $ref?: string; content?: Record<string, { schema?: unknown }> }
        >;
        expect(Object.keys(responses).length, `${method} ${path}`).toBeGreaterThan(0);
        for (const [status, given] of Object.entries(responses)) {
          // A shared answer (404, 405) is described once, in components.responses.
          const r = given.$ref
            ? (doc.components.responses as Record<string, typeof given>)[given.$ref.split('/').pop()!]!
            : given;
          expect(r, `${method} ${path} ${status}`).toBeDefined();
          if (status === '304' || status === '202') expect(r.content, `${method} ${path} ${status}`).toBeUndefined();
          else
            for (const [type, media] of Object.entries(r.content ?? {}))
              expect(media.schema, `${method} ${path} ${status} ${type}`).toBeDefined();
          if (Number(status) >= 400)
            expect(
              Object.keys(r.content ?? {}).some((t) => t.endsWith('json')),
              `${method} ${path} ${status}`,
            ).toBe(true);
        }
      }
    }
  });
});

describe('query parameters come from the *-query schemas', () => {
  it.each([
    ['facilities', '/api/v1/search', 'facilities/search-query'],
    ['carriers', '/api/search', 'carriers/search-query'],
    ['carriers', '/api/carrier/{carrier_id}/export', 'carriers/export-query'],
    ['economy', '/api/series', 'economy/series-query'],
    ['economy', '/api/observations', 'economy/observations-query'],
    ['economy', '/api/vintages', 'economy/vintages-query'],
    ['economy', '/api/revisions', 'economy/revisions-query'],
  ])('%s GET %s ← %s', (service, path, schemaId) => {
    const doc = DOCUMENTS[service]!(schemas());
    const query = schemas().schema(schemaId) as {
      properties: Record<string, { description?: string }>;
      required?: string[];
    };
    const params = (
      (doc.paths[path]?.get?.parameters ?? []) as {
        name: string;
        in: string;
        required: boolean;
        description?: string;
        schema: Record<string, unknown>;
      }[]
    ).filter((p) => p.in === 'query');
    expect(params.map((p) => p.name).sort()).toEqual(Object.keys(query.properties).sort());
    for (const p of params) {
      const { description, ...schema } = query.properties[p.name]!;
      expect(p.schema).toEqual(schema);
      expect(p.required).toBe((query.required ?? []).includes(p.name));
      expect(p.description).toBe(description);
    }
  });
});

it("gives a 304 the 200's headers but its body's: a free key's profile 304 lists the RateLimit-* headers", () => {
  const doc = toCarriersOpenApi(schemas());
  const responses = doc.paths['/api/carrier/{carrier_id}']?.get?.responses as Record<
    string,
    { headers?: Record<string, unknown> }
  >;
  expect(Object.keys(responses['304']?.headers ?? {}).sort()).toEqual([
    'Cache-Control',
    'ETag',
    'RateLimit-Limit',
    'RateLimit-Remaining',
    'RateLimit-Reset',
    'X-Content-Type-Options',
    'X-Data-Version',
  ]);
});

it('describes the bearer scheme on the carriers routes that need a key, and nowhere else', () => {
  const doc = toCarriersOpenApi(schemas());
  expect(doc.components.securitySchemes).toEqual({
    bearer: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
  });
  const secured = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([, op]) => op.security)
      .map(([m, op]) => [`${m.toUpperCase()} ${path}`, op.security]),
  );
  expect(Object.fromEntries(secured)).toEqual({
    'GET /api/carrier/{carrier_id}': [{ bearer: [] }],
    'GET /api/carrier/{carrier_id}/inspections': [{ bearer: [] }],
    'GET /api/carrier/{carrier_id}/history': [{ bearer: [] }],
    'GET /api/changes': [{ bearer: [] }],
    'POST /api/carrier/{carrier_id}/explain': [{ bearer: [] }],
    'GET /api/carrier/{carrier_id}/export': [{ bearer: [] }],
    'POST /api/mcp': [{}, { bearer: [] }],
    'POST /api/watchlists': [{ bearer: [] }],
    'GET /api/watchlists': [{ bearer: [] }],
    'GET /api/watchlists/{id}': [{ bearer: [] }],
    'PUT /api/watchlists/{id}': [{ bearer: [] }],
    'DELETE /api/watchlists/{id}': [{ bearer: [] }],
    'GET /api/watchlists/{id}/changes': [{ bearer: [] }],
  });
  for (const other of [toFacilitiesOpenApi(schemas()), toEconomyOpenApi(schemas())])
    expect(other.components.securitySchemes).toBeUndefined();
});
