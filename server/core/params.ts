// Query parameters validated by the same JSON Schemas that document them (ajv with allErrors, so every bad
// parameter is reported at once). Unknown parameters are ignored, as shared/contracts/common.md says.
import type { ErrorObject } from 'ajv';
import { paramSchemas } from '../../pipeline/core/schemas.ts';
import { invalidParameters, type ParameterError } from './problem.ts';

type RawQuery = Record<string, string | string[] | undefined>;

function toParameterErrors(errors: readonly ErrorObject[]): ParameterError[] {
  const out: ParameterError[] = [];
  for (const e of errors) {
    const parameter = e.keyword === 'required' ? String((e.params as { missingProperty: string }).missingProperty) : e.instancePath.split('/')[1] ?? '';
    if (e.keyword === 'enum') {
      const allowed = (e.params as { allowedValues: unknown[] }).allowedValues.join(', ');
      out.push({ parameter, message: `must be one of: ${allowed}` });
    } else {
      out.push({ parameter, message: e.message ?? 'is invalid' });
    }
  }
  return out;
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
    input[name] = value;
  }
  const validate = registry.get(schemaId);
  if (!validate(input)) errors.push(...toParameterErrors(validate.errors ?? []).filter((e) => !errors.some((x) => x.parameter === e.parameter)));
  if (errors.length) throw invalidParameters(errors.sort((a, b) => (a.parameter < b.parameter ? -1 : a.parameter > b.parameter ? 1 : 0)));
  return input as T;
}
