// Tool schemas from schemas/ for the MCP endpoints: a REST route's query parameters as a tool's arguments
// (read back into the strings the route's parseQuery reads, so a refusal has the REST route's words), and a
// response schema as a document a client compiles alone.
import { invalidParameters, type ParameterError } from '../../contract/core/problem.ts';
import { paramSchemas, schemas } from '../../contract/core/schemas.ts';

type Json = Record<string, unknown>;

/** A tool's arguments: what the SDK advertises (server/core/mcp.ts's `advertised`) and `toQuery` checks. */
export interface ArgumentsSchema extends Json {
  type: 'object';
  properties: Record<string, Json>;
  required: string[];
  additionalProperties: false;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The parameters of the query schema `id` (paramSchemas) as a tool's arguments, but those in `omit`; defaults
 * are left to the route. Read from the schema, so a parameter added there is an argument without more code.
 */
export function queryArguments(id: string, omit: readonly string[] = []): Record<string, Json> {
  const { properties } = paramSchemas().schema(id) as { properties: Record<string, Json> };
  return Object.fromEntries(
    Object.entries(properties)
      .filter(([name]) => !omit.includes(name))
      .map(([name, { default: _, ...spec }]) => [name, spec]),
  );
}

const byParameter = (a: ParameterError, b: ParameterError) =>
  a.parameter < b.parameter ? -1 : a.parameter > b.parameter ? 1 : 0;

/**
 * The arguments as the query strings of the REST route, or a 400 naming every argument of the wrong JSON type,
 * missing or unknown (REST ignores unknown parameters; a misspelt argument here would otherwise be answered as
 * if it had not been given). Only the JSON type is checked: the values go to the route's own `parseQuery`.
 */
export function toQuery(schema: ArgumentsSchema, args: Record<string, unknown>): Record<string, string> {
  const errors: ParameterError[] = [];
  const out: Record<string, string> = {};
  for (const name of Object.keys(args))
    if (!Object.hasOwn(schema.properties, name))
      errors.push({ parameter: name, message: 'is not an argument of this tool' });
  for (const [name, spec] of Object.entries(schema.properties)) {
    const value = args[name];
    if (value === undefined) {
      if (schema.required.includes(name)) errors.push({ parameter: name, message: 'is required' });
    } else if (spec.type === 'integer') {
      if (Number.isSafeInteger(value)) out[name] = String(value);
      else errors.push({ parameter: name, message: 'must be integer' });
    } else if (spec.type === 'number') {
      if (typeof value === 'number' && Number.isFinite(value)) out[name] = String(value);
      else errors.push({ parameter: name, message: 'must be number' });
    } else if (typeof value === 'string') out[name] = value;
    else errors.push({ parameter: name, message: 'must be string' });
  }
  if (errors.length) throw invalidParameters(errors.sort(byParameter));
  return out;
}

/** Keywords whose values are data, not schemas: never searched for `$ref`. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);
/** Keywords that say nothing a value must meet: beside a `$ref`, they are merged into what it names. */
const ANNOTATIONS = new Set(['title', 'description', '$comment', 'examples', 'default', 'deprecated']);

/**
 * The response schema `id` of schemas/ as one document with no `$ref` (every reference, to another file or
 * within one, replaced by what it names), no `$id`, `$schema` or `$defs`, and closed tuples as `items: {anyOf}`
 * with their length kept: 2025-era clients validate `structuredContent` with draft-07 ajv and resolve nothing.
 */
export function selfContainedSchema(id: string): Json {
  return resolve(schemas().schema(id), id, []) as Json;
}

function resolve(node: unknown, base: string, seen: readonly string[]): unknown {
  if (Array.isArray(node)) return node.map((n) => resolve(n, base, seen));
  if (!isObject(node)) return node;
  if (Array.isArray(node.prefixItems)) {
    if (node.items !== false)
      throw new Error(`${base}: only a closed tuple (items: false) can be described to 2025-era clients`);
    const { prefixItems, items: _, ...rest } = node;
    return resolve({ ...rest, items: { anyOf: prefixItems } }, base, seen);
  }
  const out: Json = {};
  let target: Json | undefined;
  for (const [key, value] of Object.entries(node)) {
    if (key === '$id' || key === '$schema' || key === '$defs') continue;
    if (key === '$ref' && typeof value === 'string') target = referenced(value, base, seen);
    else out[key] = DATA_KEYWORDS.has(key) ? value : resolve(value, base, seen);
  }
  if (!target) return out;
  return Object.keys(out).every((k) => ANNOTATIONS.has(k)) ? { ...target, ...out } : { allOf: [target], ...out };
}

/** What `ref` names, seen from schema `base`, itself resolved. */
function referenced(ref: string, base: string, seen: readonly string[]): Json {
  const hash = ref.indexOf('#');
  const path = hash === -1 ? ref : ref.slice(0, hash);
  const file = path === '' ? base : new URL(path, `https://schemas.invalid/${base}`).pathname.slice(1);
  const pointer = hash === -1 ? '' : ref.slice(hash + 1);
  const key = `${file}#${pointer}`;
  if (seen.includes(key))
    throw new Error(`${base}: $ref ${ref} refers to itself; a recursive schema has no inline form`);
  return resolve(atPointer(schemas().schema(file), pointer, key), file, [...seen, key]) as Json;
}

/** The node at a JSON Pointer (RFC 6901, as a URI fragment). */
function atPointer(doc: Json, pointer: string, key: string): Json {
  let node: unknown = doc;
  for (const token of pointer.split('/').slice(1)) {
    const name = decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~');
    node = isObject(node) || Array.isArray(node) ? (node as Json)[name] : undefined;
  }
  if (!isObject(node)) throw new Error(`$ref ${key} names no schema`);
  return node;
}
