// One ajv instance for every JSON Schema in `schemas/`: the pipeline validates each document it publishes
// against it, and the server validates query parameters with the same compiled functions.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';

export const SCHEMAS_DIR = fileURLToPath(new URL('../../schemas/', import.meta.url));

export class SchemaError extends Error {
  constructor(
    readonly schemaId: string,
    readonly where: string,
    readonly errors: ErrorObject[],
  ) {
    super(`${where} does not match ${schemaId}:\n${formatErrors(errors)}`);
    this.name = 'SchemaError';
  }
}

/** `instancePath: message` lines, as web-features prints them. */
export function formatErrors(errors: readonly ErrorObject[]): string {
  return errors.map((e) => `  ${e.instancePath || '/'}: ${e.message ?? 'is invalid'}`).join('\n');
}

export function listSchemaFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listSchemaFiles(path));
    else if (entry.name.endsWith('.schema.json')) out.push(path);
  }
  return out.sort();
}

export interface SchemaRegistry {
  ajv: Ajv2020;
  ids: string[];
  get(id: string): ValidateFunction;
  assert(id: string, doc: unknown, where: string): void;
  schema(id: string): Record<string, unknown>;
}

/**
 * `checkSchemas` also validates each schema against the JSON Schema meta-schema as it is added: the test
 * suite does (test/contract-layer/schemas.test.ts), while the server and the pipeline skip it, which was most of the
 * registry's cost at every start-up (about 90 ms). Strict mode still rejects unknown keywords at compile.
 */
export function createSchemaRegistry(
  dir = SCHEMAS_DIR,
  options: { coerceTypes?: boolean; checkSchemas?: boolean } = {},
): SchemaRegistry {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    validateSchema: options.checkSchemas ?? false,
    coerceTypes: options.coerceTypes ?? false,
  });
  // The two formats the schemas use, checked by shape (RFC 3339) without pulling in ajv-formats.
  ajv.addFormat('date', /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/);
  ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
  const raw = new Map<string, Record<string, unknown>>();
  for (const file of listSchemaFiles(dir)) {
    const schema = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    const id = schema.$id;
    if (typeof id !== 'string') throw new Error(`${file}: every schema needs an $id`);
    raw.set(id, schema);
    ajv.addSchema(schema);
  }
  const compiled = new Map<string, ValidateFunction>();
  const get = (id: string): ValidateFunction => {
    let fn = compiled.get(id);
    if (!fn) {
      fn = ajv.getSchema(id);
      if (!fn) throw new Error(`unknown schema ${id}`);
      compiled.set(id, fn);
    }
    return fn;
  };
  return {
    ajv,
    ids: [...raw.keys()].sort(),
    get,
    schema(id) {
      const s = raw.get(id);
      if (!s) throw new Error(`unknown schema ${id}`);
      return s;
    },
    assert(id, doc, where) {
      const validate = get(id);
      if (!validate(doc)) throw new SchemaError(id, where, validate.errors ?? []);
    },
  };
}

let outputs: SchemaRegistry | undefined;
let params: SchemaRegistry | undefined;
/** The registry over the project's own `schemas/`, compiled once per process; never changes a document. */
export function schemas(): SchemaRegistry {
  outputs ??= createSchemaRegistry();
  return outputs;
}
/**
 * The same schemas with type coercion, for query strings only: `limit=20` arrives as text and must validate
 * as an integer. Kept apart because coercion rewrites the document it checks.
 */
export function paramSchemas(): SchemaRegistry {
  params ??= createSchemaRegistry(SCHEMAS_DIR, { coerceTypes: true });
  return params;
}
