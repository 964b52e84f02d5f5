// Query parameters validated by the same JSON Schemas that document them (ajv with allErrors, so every bad
// parameter is reported at once). Unknown parameters are ignored, as shared/contracts/common.md says.
import { parse } from 'node:querystring';
import type { ErrorObject } from 'ajv';
import { paramSchemas } from '../../pipeline/core/schemas.ts';
import { invalidParameters, type ParameterError } from './problem.ts';

export type RawQuery = Record<string, string | string[] | undefined>;

/**
 * The query of a request, parsed from its query string as polka parses it (node:querystring: `+` and
 * percent escapes decoded, a repeated name an array). Routes parse it themselves, and only when they need
 * to: a route that answers a repeated query from a cache keyed by the raw query string never parses it.
 */
export function queryOf(req: { search: string }): RawQuery {
  return req.search.length > 1 ? parse(req.search.slice(1)) : {};
}

const INTEGER = /^-?[0-9]+$/;

/** ajv's wording, made plain for the common cases. */
function toMessage(e: ErrorObject): string {
  switch (e.keyword) {
    case 'required':
      return 'is required';
    case 'enum':
      return `must be one of: ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`;
    case 'minLength':
      return (e.params as { limit: number }).limit === 1 ? 'must not be empty' : (e.message ?? 'is too short');
    case 'pattern':
      return (e.params as { pattern: string }).pattern === '\\S' ? 'must not be blank' : (e.message ?? 'is invalid');
    default:
      return e.message ?? 'is invalid';
  }
}

/**
 * One error per parameter (the first ajv reports), so each bad parameter is named once. `prefix` names
 * where the parameters sit (`args.` for the fields of a JSON body's `args` object).
 */
export function toParameterErrors(errors: readonly ErrorObject[], prefix = ''): ParameterError[] {
  const out = new Map<string, ParameterError>();
  for (const e of errors) {
    const name =
      e.keyword === 'required'
        ? String((e.params as { missingProperty: string }).missingProperty)
        : e.keyword === 'additionalProperties'
          ? String((e.params as { additionalProperty: string }).additionalProperty)
          : (e.instancePath.split('/')[1] ?? '');
    const parameter = prefix + name;
    if (!out.has(parameter)) out.set(parameter, { parameter, message: e.keyword === 'additionalProperties' ? 'is not a known parameter' : toMessage(e) });
  }
  return [...out.values()];
}

/**
 * Validates a query against the schema `schemaId` (an object schema whose properties are the parameters)
 * and returns the typed, coerced values. Throws a 400 problem listing every bad parameter.
 */
export function parseQuery<T>(query: RawQuery, schemaId: string): T {
  const registry = paramSchemas();
  const schema = registry.schema(schemaId) as { properties?: Record<string, { type?: string }> };
  const props = schema.properties ?? {};
  const errors: ParameterError[] = [];
  const input: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(props)) {
    const value = query[name];
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      errors.push({ parameter: name, message: 'must be given once' });
      continue;
    }
    if (value === '' && spec.type !== 'string') {
      errors.push({ parameter: name, message: 'must not be empty' });
      continue;
    }
    // ajv coerces with Number(), which also reads `0x10`, `1e1`, `10.0`, `+5` and ` 10`: an integer
    // parameter is decimal digits as written (a minus sign is left to the bounds check's message).
    if (spec.type === 'integer' && !INTEGER.test(value)) {
      errors.push({ parameter: name, message: 'must be an integer' });
      continue;
    }
    input[name] = value;
  }
  const validate = registry.get(schemaId);
  if (!validate(input)) errors.push(...toParameterErrors(validate.errors ?? []).filter((e) => !errors.some((x) => x.parameter === e.parameter)));
  if (errors.length) throw invalidParameters(errors.sort((a, b) => (a.parameter < b.parameter ? -1 : a.parameter > b.parameter ? 1 : 0)));
  return input as T;
}
