// Checks a real response against a service's OpenAPI document, so the document cannot drift from what the
// server answers: the path and method must be described (or the answer must be the document-level 404 for
// an unknown path, 405 for another method on a known one), the status must be listed for that operation,
// the Content-Type must be one it lists, a JSON body must validate with ajv against the schema given for
// that status and media type, and every required header must be present with a valid value. HEAD is
// checked against GET, with no body.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { expect } from 'vitest';
import type { OpenApiDocument } from '../../pipeline/core/openapi.ts';

type Json = Record<string, unknown>;

export interface ObservedResponse {
  method: string;
  /** The request's path as sent (percent-escapes kept), without the query. */
  path: string;
  status: number;
  headers: Headers;
  body: string;
}

const DOC_ID = 'https://shardline.invalid/openapi.json';
const escapePointer = (s: string) => encodeURIComponent(s.replaceAll('~', '~0').replaceAll('/', '~1'));
const mediaTypeOf = (header: string | null) => (header ?? '').split(';')[0]!.trim().toLowerCase();
const isJsonType = (type: string) => type === 'application/json' || type.endsWith('+json');

export class OpenApiChecker {
  private readonly ajv: Ajv2020;
  private readonly headerAjv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly templates: { template: string; pattern: RegExp; params: number }[];

  constructor(readonly doc: OpenApiDocument) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    // Header values are text: coercion lets `RateLimit-Remaining: 3` validate as the integer it documents.
    this.headerAjv = new Ajv2020({ strict: false, allErrors: true, coerceTypes: true });
    for (const ajv of [this.ajv, this.headerAjv]) {
      // The two formats schemas/ uses, as pipeline/core/schemas.ts checks them.
      ajv.addFormat('date', /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/);
      ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
    }
    this.ajv.addSchema(doc, DOC_ID);
    this.templates = Object.keys(doc.paths)
      .map((template) => {
        const parts = template.split(/\{\w+\}/);
        const source = parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+');
        return { template, pattern: new RegExp(`^${source}$`), params: parts.length - 1 };
      })
      // A literal path wins over a template that also matches it.
      .sort((a, b) => a.params - b.params);
  }

  /** The described path template a request path falls under, if any. */
  templateOf(path: string): string | undefined {
    return this.templates.find((t) => t.pattern.test(path))?.template;
  }

  /** Every way the response departs from the document; empty when it conforms. */
  check(r: ObservedResponse): string[] {
    const template = this.templateOf(r.path);
    const method = r.method.toLowerCase();
    const operationMethod = method === 'head' ? 'get' : method;
    const operation = template ? this.doc.paths[template]![operationMethod] : undefined;
    if (!template) {
      if (r.status !== 404) return [`${r.path} is not described and answered ${r.status}, not the canonical 404`];
      return this.checkResponse(r, '/components/responses/NotFound');
    }
    if (!operation) {
      if (r.status !== 405) return [`${r.method} ${template} is not described and answered ${r.status}, not 405`];
      return this.checkResponse(r, '/components/responses/MethodNotAllowed');
    }
    const responses = operation.responses as Record<string, Json>;
    if (!responses[String(r.status)])
      return [
        `${r.method} ${template} answered ${r.status}, which the document does not list (${Object.keys(responses).join(', ')})`,
      ];
    return this.checkResponse(r, `/paths/${escapePointer(template)}/${operationMethod}/responses/${r.status}`);
  }

  private resolve(pointer: string): { pointer: string; node: Json } {
    let node: unknown = this.doc;
    for (const raw of pointer.split('/').slice(1))
      node = (node as Json)?.[decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~')];
    if (node === undefined || node === null || typeof node !== 'object')
      throw new Error(`the document has nothing at ${pointer}`);
    const ref = (node as Json).$ref;
    if (typeof ref === 'string')
      return this.resolve(
        ref
          .slice(1)
          .split('/')
          .map((p, i) => (i === 0 ? p : encodeURIComponent(p)))
          .join('/'),
      );
    return { pointer, node: node as Json };
  }

  private validator(ajv: Ajv2020, pointer: string, schema?: Json): ValidateFunction {
    const key = `${ajv === this.ajv ? 'body' : 'header'}:${pointer}`;
    let fn = this.compiled.get(key);
    if (!fn) {
      // Header schemas hold no $ref into the document: they are compiled on their own.
      fn = schema ? ajv.compile(schema) : ajv.compile({ $ref: `${DOC_ID}#${pointer}` });
      this.compiled.set(key, fn);
    }
    return fn;
  }

  private checkResponse(r: ObservedResponse, responsePointer: string): string[] {
    const failures: string[] = [];
    const where = `${r.method} ${r.path} → ${r.status}`;
    const { pointer, node: response } = this.resolve(responsePointer);

    for (const name of Object.keys((response.headers ?? {}) as Record<string, Json>)) {
      const { node: header } = this.resolve(`${pointer}/headers/${escapePointer(name)}`);
      const got = r.headers.get(name);
      if (got === null) {
        if (header.required === true) failures.push(`${where}: no ${name} header`);
        continue;
      }
      const validate = this.validator(
        this.headerAjv,
        `${pointer}/headers/${escapePointer(name)}`,
        (header.schema ?? {}) as Json,
      );
      if (!validate(got))
        failures.push(`${where}: ${name}: ${JSON.stringify(got)} ${this.ajv.errorsText(validate.errors)}`);
    }

    const content = response.content as Record<string, Json> | undefined;
    const noBody = r.method === 'HEAD' || r.status === 304;
    if (!content) {
      if (r.body !== '') failures.push(`${where}: the document describes no body, but one came`);
      return failures;
    }
    const type = mediaTypeOf(r.headers.get('content-type'));
    if (!content[type]) {
      failures.push(
        `${where}: Content-Type ${type || '(none)'} is not one the document lists (${Object.keys(content).join(', ')})`,
      );
      return failures;
    }
    if (noBody) return failures;
    if (isJsonType(type)) {
      let body: unknown;
      try {
        body = JSON.parse(r.body);
      } catch {
        failures.push(`${where}: the ${type} body is not JSON`);
        return failures;
      }
      const validate = this.validator(this.ajv, `${pointer}/content/${escapePointer(type)}/schema`);
      if (!validate(body))
        failures.push(
          ...(validate.errors ?? []).map(
            (e) => `${where}: body${e.instancePath} ${e.message ?? 'is invalid'} (${e.schemaPath})`,
          ),
        );
    }
    return failures;
  }
}

/**
 * `fetch` whose every response is checked against the document before the caller sees it; a departure
 * fails the test. `checker` is read per request, so a suite can create it once its server is up.
 */
export function conformingFetch(
  checker: () => OpenApiChecker | undefined,
  label: string,
): (url: string, init?: RequestInit) => Promise<Response> {
  return async (url, init) => {
    const res = await fetch(url, init);
    const c = checker();
    if (c) {
      const method = init?.method ?? 'GET';
      const path = new URL(url).pathname;
      const failures = c.check({
        method,
        path,
        status: res.status,
        headers: res.headers,
        body: await res.clone().text(),
      });
      expect(failures, `${method} ${path} against ${label}`).toEqual([]);
    }
    return res;
  };
}
