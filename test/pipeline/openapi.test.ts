// The OpenAPI generator (pipeline/core/openapi.ts) over a small schema folder of our own: schemas become
// components with every $ref rewritten into the document, query schemas become parameters, conditional GET
// is described where an ETag is, and mistakes in a route table stop the build. Then the response checker
// the contract suite uses (test/http-contract/openapi-check.ts): it must refuse what the document does not say.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problem, toOpenApi, type ApiSpec, type OperationSpec } from '../../pipeline/core/openapi.ts';
import { toDocumentFile, toPayloadPath } from '../../contract/core/layout.ts';
import { createSchemaRegistry, type SchemaRegistry } from '../../contract/core/schemas.ts';
import { OpenApiChecker } from '../http-contract/openapi-check.ts';
import { tempDir } from '../helpers/server.ts';

// biome-ignore lint/suspicious/noExplicitAny: the generated operations are plain JSON, read deep in assertions
type Operation = Record<string, any>;

const SCHEMAS: Record<string, object> = {
  'core/problem': {
    type: 'object',
    required: ['type', 'title', 'status', 'detail', 'code'],
    properties: {
      type: { type: 'string' },
      title: { type: 'string' },
      status: { type: 'integer' },
      detail: { type: 'string' },
      code: { enum: ['not_found', 'method_not_allowed', 'invalid_parameter'] },
    },
  },
  'shop/item': {
    type: 'object',
    required: ['id', 'price', 'maker'],
    properties: {
      id: { $ref: '#/$defs/id' },
      price: { $ref: 'money' },
      maker: { $ref: '../core/maker#/properties/name' },
    },
    $defs: { id: { type: 'string', pattern: '^I[0-9]+$' } },
  },
  'shop/money': { type: 'number', minimum: 0 },
  'core/maker': { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
  'shop/unused': { type: 'object', required: ['x'], properties: { x: { type: 'string' } } },
  'shop/list-query': {
    type: 'object',
    required: ['q'],
    properties: {
      q: { type: 'string', maxLength: 10, description: 'Words.' },
      limit: { type: 'integer', minimum: 1, default: 5 },
    },
  },
};

let registry: SchemaRegistry;
let root: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  root = await tempDir('openapi');
  for (const [id, schema] of Object.entries(SCHEMAS)) {
    mkdirSync(join(root.path, id.split('/')[0]!), { recursive: true });
    writeFileSync(
      join(root.path, `${id}.schema.json`),
      JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', $id: id, ...schema }),
    );
  }
  registry = createSchemaRegistry(root.path);
});
afterAll(() => root.remove());

const getItem: OperationSpec = {
  method: 'get',
  path: '/items/{id}',
  operationId: 'getItem',
  summary: 'One item',
  tag: 'Items',
  parameters: [{ name: 'id', in: 'path', description: 'Item id.', schema: 'shop/item#/$defs/id' }],
  responses: {
    200: {
      description: 'The item.',
      content: { 'application/json': 'shop/item' },
      headers: ['ETag'],
      cache: 'public, max-age=300',
    },
    404: problem(404, ['not_found'], 'No such item.'),
  },
};
const listItems: OperationSpec = {
  method: 'get',
  path: '/items',
  operationId: 'listItems',
  summary: 'Items',
  tag: 'Items',
  query: 'shop/list-query',
  responses: {
    200: { description: 'Items.', content: { 'application/json': { type: 'array', items: { $ref: 'shop/item' } } } },
  },
};
const spec = (operations: OperationSpec[]): ApiSpec => ({
  openapiPath: '/api/openapi.json',
  title: 'shop',
  version: '1',
  description: 'A shop.',
  sources: [],
  tags: [{ name: 'Items', description: 'Items.' }],
  operations,
});

describe('toOpenApi', () => {
  it('puts the schemas the operations reach into components, every $ref rewritten into the document', () => {
    const doc = toOpenApi(spec([getItem, listItems]), registry);
    expect(Object.keys(doc.components.schemas)).toEqual(['core.maker', 'core.problem', 'shop.item', 'shop.money']);
    expect(doc.components.schemas['shop.item']).toEqual({
      type: 'object',
      required: ['id', 'price', 'maker'],
      properties: {
        id: { $ref: '#/components/schemas/shop.item/$defs/id' },
        price: { $ref: '#/components/schemas/shop.money' },
        maker: { $ref: '#/components/schemas/core.maker/properties/name' },
      },
      $defs: { id: { type: 'string', pattern: '^I[0-9]+$' } },
    });
    const op = doc.paths['/items/{id}']!.get as Operation;
    expect(op.parameters[0]).toEqual({
      name: 'id',
      in: 'path',
      description: 'Item id.',
      required: true,
      schema: { $ref: '#/components/schemas/shop.item/$defs/id' },
    });
    expect(op.responses['404'].content['application/problem+json'].schema).toEqual({
      allOf: [{ $ref: '#/components/schemas/core.problem' }],
      properties: { status: { const: 404 }, code: { const: 'not_found' } },
    });
    const list = doc.paths['/items']!.get as Operation;
    expect(list.responses['200'].content['application/json'].schema).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/shop.item' },
    });
  });

  it('makes each property of a query schema a query parameter', () => {
    const doc = toOpenApi(spec([listItems]), registry);
    expect(doc.paths['/items']!.get!.parameters).toEqual([
      { name: 'q', in: 'query', required: true, description: 'Words.', schema: { type: 'string', maxLength: 10 } },
      { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: 5 } },
    ]);
  });

  it('describes If-None-Match and 304 where a 200 carries an ETag, and only there', () => {
    const doc = toOpenApi(spec([getItem, listItems]), registry);
    const withEtag = doc.paths['/items/{id}']!.get as Operation;
    expect(Object.keys(withEtag.responses)).toEqual(['200', '304', '404', '405']);
    expect(withEtag.responses['304'].content).toBeUndefined();
    expect(withEtag.parameters).toContainEqual({ $ref: '#/components/parameters/If-None-Match' });
    expect(Object.keys((doc.paths['/items']!.get as Operation).responses)).toEqual(['200', '405']);
    // Any other method on a path: the shared 405, with Allow.
    expect(withEtag.responses['405']).toEqual({ $ref: '#/components/responses/MethodNotAllowed' });
  });

  it('refuses a route table with a mistake in it', () => {
    expect(() => toOpenApi(spec([{ ...getItem, parameters: [] }]), registry)).toThrow(
      /path parameter id is not described/,
    );
    expect(() => toOpenApi(spec([getItem, { ...getItem, operationId: 'again' }]), registry)).toThrow(/described twice/);
    expect(() => toOpenApi(spec([getItem, { ...listItems, operationId: 'getItem' }]), registry)).toThrow(/used twice/);
    expect(() =>
      toOpenApi(
        spec([
          { ...listItems, responses: { 200: { description: 'x', content: { 'application/json': 'shop/nothing' } } } },
        ]),
        registry,
      ),
    ).toThrow(/unknown schema shop\/nothing/);
    expect(() =>
      toOpenApi(
        spec([
          { ...getItem, parameters: [{ name: 'id', in: 'path', description: 'x', schema: 'shop/item#/$defs/nope' }] },
        ]),
        registry,
      ),
    ).toThrow(/nothing at \/\$defs\/nope/);
  });

  it('is the same document every time (deterministic builds)', () => {
    expect(JSON.stringify(toOpenApi(spec([listItems, getItem]), registry))).toBe(
      JSON.stringify(toOpenApi(spec([listItems, getItem]), registry)),
    );
  });

  it('maps a document URL to its build file and payload', () => {
    expect(toDocumentFile('/api/openapi')).toBe('api/openapi.json');
    expect(toDocumentFile('/api/v1/openapi.json')).toBe('api/v1/openapi.json');
    expect(toPayloadPath('/api/openapi')).toBe('/api/openapi');
    expect(toPayloadPath('/api/v1/openapi.json')).toBe('/api/v1/openapi');
  });
});

describe('OpenApiChecker', () => {
  const item = JSON.stringify({ id: 'I1', price: 2, maker: 'Acme' });
  const headers = (h: Record<string, string>) =>
    new Headers({
      'x-data-version': 'abc',
      'x-content-type-options': 'nosniff',
      'content-type': 'application/json; charset=utf-8',
      ...h,
    });
  const ok = { 'cache-control': 'public, max-age=300', etag: '"1"' };
  let checker: OpenApiChecker;
  beforeAll(() => {
    checker = new OpenApiChecker(toOpenApi(spec([getItem, listItems]), registry));
  });

  it('accepts a response the document describes, and HEAD against GET', () => {
    expect(checker.check({ method: 'GET', path: '/items/I1', status: 200, headers: headers(ok), body: item })).toEqual(
      [],
    );
    expect(checker.check({ method: 'HEAD', path: '/items/I1', status: 200, headers: headers(ok), body: '' })).toEqual(
      [],
    );
    expect(checker.check({ method: 'GET', path: '/items/I1', status: 304, headers: headers(ok), body: '' })).toEqual(
      [],
    );
  });

  it('refuses an undocumented status, a body off its schema, a missing or wrong header, another media type, a body on a 304', () => {
    expect(
      checker.check({ method: 'GET', path: '/items/I1', status: 500, headers: headers(ok), body: '{}' })[0],
    ).toMatch(/does not list/);
    expect(
      checker.check({
        method: 'GET',
        path: '/items/I1',
        status: 200,
        headers: headers(ok),
        body: JSON.stringify({ id: 'x', price: -1, maker: 'A' }),
      }),
    ).toHaveLength(2);
    expect(
      checker
        .check({
          method: 'GET',
          path: '/items/I1',
          status: 200,
          headers: headers({ 'cache-control': 'no-store' }),
          body: item,
        })
        .join('\n'),
    ).toMatch(/no ETag header[\s\S]*Cache-Control/);
    expect(
      checker.check({
        method: 'GET',
        path: '/items/I1',
        status: 200,
        headers: headers({ ...ok, 'content-type': 'text/plain' }),
        body: item,
      })[0],
    ).toMatch(/text\/plain is not one/);
    expect(
      checker.check({ method: 'GET', path: '/items/I1', status: 304, headers: headers(ok), body: 'x' })[0],
    ).toMatch(/describes no body/);
  });

  it('holds unknown paths to the canonical 404 and other methods to 405 with Allow', () => {
    const notFound = JSON.stringify({
      type: '/problems/not-found',
      title: 'Not found',
      status: 404,
      detail: 'no',
      code: 'not_found',
    });
    const problemHeaders = headers({ 'content-type': 'application/problem+json', 'cache-control': 'no-store' });
    expect(
      checker.check({ method: 'GET', path: '/nothing', status: 404, headers: problemHeaders, body: notFound }),
    ).toEqual([]);
    expect(
      checker.check({ method: 'GET', path: '/nothing', status: 200, headers: headers(ok), body: item })[0],
    ).toMatch(/not described/);
    const notAllowed = JSON.stringify({
      type: '/problems/method-not-allowed',
      title: 'Method not allowed',
      status: 405,
      detail: 'no',
      code: 'method_not_allowed',
    });
    expect(
      checker.check({ method: 'PUT', path: '/items/I1', status: 405, headers: problemHeaders, body: notAllowed }),
    ).toEqual([expect.stringMatching(/no Allow header/)]);
    expect(
      checker.check({
        method: 'PUT',
        path: '/items/I1',
        status: 405,
        headers: headers({
          'content-type': 'application/problem+json',
          'cache-control': 'no-store',
          allow: 'GET, HEAD',
        }),
        body: notAllowed,
      }),
    ).toEqual([]);
  });
});
