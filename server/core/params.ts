// Query parameters validated by the same JSON Schemas that document them (ajv with allErrors, so every bad
// parameter is reported at once). Unknown parameters are ignored, as docs/contracts/common.md says, unless
// the route refuses them (`refuseUnknown`, /api/observations).
import { unescape as unescapeQuery } from 'node:querystring';
import type { ErrorObject } from 'ajv';
import { paramSchemas } from '../../contract/core/schemas.ts';
import { HttpError, invalidParameters, type ParameterError } from '../../contract/core/problem.ts';

/**
 * The longest query string (the raw part after `?`) any route reads, in bytes: the longest parameters
 * (200 characters, each up to 12 bytes percent-encoded) fit several times over.
 */
export const MAX_QUERY_BYTES = 4096;

/** 414 for a request target whose query string is over MAX_QUERY_BYTES, before any route or file reads it. */
export function refuseLongQuery(url: string): HttpError | undefined {
  if (url.length <= MAX_QUERY_BYTES + 1) return undefined;
  const start = url.indexOf('?');
  if (start === -1) return undefined;
  const hash = url.indexOf('#', start);
  const bytes = (hash === -1 ? url.length : hash) - start - 1;
  if (bytes <= MAX_QUERY_BYTES) return undefined;
  return new HttpError(
    414,
    'uri_too_long',
    `the query string has ${bytes} bytes; the server reads at most ${MAX_QUERY_BYTES}`,
  );
}

/** The names whose value was not percent-encoded UTF-8, kept beside the query (see queryOf). */
const MALFORMED = Symbol('malformed');

export type RawQuery = Record<string, string | string[] | undefined> & { [MALFORMED]?: Set<string> };

/** `+` as a space and percent escapes decoded; undefined for a malformed escape or bytes that are not UTF-8. */
function decodeComponent(s: string): string | undefined {
  const spaced = s.includes('+') ? s.replaceAll('+', ' ') : s;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return undefined;
  }
}

/**
 * The request's query, decoded as node:querystring (polka's parser) does, except that a malformed or
 * non-UTF-8 escape (`%zz`, `%E9`) is noted for parseQuery to refuse with a 400: node:querystring made
 * `q=%E9` a search for nothing, that is, everything (docs/operations.md, "Refused requests and hostile input").
 */
export function queryOf(req: { search: string }): RawQuery {
  const out = Object.create(null) as RawQuery;
  if (req.search.length <= 1) return out;
  // Every pair is read: node:querystring stops after 1,000, so unknown parameters in front could hide a
  // known one (or its repeat). MAX_QUERY_BYTES (a 414 before any route) bounds the work.
  for (const pair of req.search.slice(1).split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawName = eq < 0 ? pair : pair.slice(0, eq);
    const rawValue = eq < 0 ? '' : pair.slice(eq + 1);
    const name = decodeComponent(rawName) ?? unescapeQuery(rawName.replaceAll('+', ' '));
    let value = decodeComponent(rawValue);
    if (value === undefined) {
      out[MALFORMED] ??= new Set();
      out[MALFORMED].add(name);
      value = unescapeQuery(rawValue.replaceAll('+', ' '));
    }
    const before = out[name];
    if (before === undefined) out[name] = value;
    else if (Array.isArray(before)) before.push(value);
    else out[name] = [before, value];
  }
  return out;
}

const INTEGER = /^-?[0-9]+$/;
/** A number parameter as people write one: decimal digits, a point, a sign (no `0x10`, `1e3`, `Infinity`). */
const DECIMAL = /^-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$/;

/**
 * Whether `s` has more than `max` characters as JSON Schema counts them (code points, as ajv's maxLength
 * does): a surrogate pair is one. Counted only as far as needed.
 */
function isLongerThan(s: string, max: number): boolean {
  if (s.length <= max) return false;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    if (++n > max) return true;
  }
  return false;
}

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
    if (!out.has(parameter))
      out.set(parameter, {
        parameter,
        message: e.keyword === 'additionalProperties' ? 'is not a known parameter' : toMessage(e),
      });
  }
  return [...out.values()];
}

/**
 * The query's typed values by the schema `schemaId`, plus the route's own `check`; a 400 listing every bad
 * parameter. Schema first (docs/contracts/common.md, "Hostile input"): an over-long value is refused on its
 * length before any pattern reads it, and `check` sees only the parameters the schema accepted.
 */
export function parseQuery<T>(
  query: RawQuery,
  schemaId: string,
  check?: (input: Partial<T>) => ParameterError[],
  options: { refuseUnknown?: boolean } = {},
): T {
  const registry = paramSchemas();
  const schema = registry.schema(schemaId) as {
    properties?: Record<string, { type?: string; maxLength?: number; minimum?: number; maximum?: number }>;
  };
  const props = schema.properties ?? {};
  const errors: ParameterError[] = [];
  // A route that refuses unknown parameters names each: a misspelled one must not be answered as if it had
  // not been given.
  if (options.refuseUnknown)
    for (const name of Object.keys(query))
      if (!Object.hasOwn(props, name)) errors.push({ parameter: name, message: 'is not a known parameter' });
  const input: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(props)) {
    const value = query[name];
    if (value === undefined) continue;
    if (query[MALFORMED]?.has(name)) {
      errors.push({
        parameter: name,
        message: 'must be UTF-8, percent-encoded (RFC 3986): it has a malformed escape or bytes that are not UTF-8',
      });
      continue;
    }
    if (Array.isArray(value)) {
      errors.push({ parameter: name, message: 'must be given once' });
      continue;
    }
    if (spec.maxLength !== undefined && isLongerThan(value, spec.maxLength)) {
      errors.push({ parameter: name, message: `must NOT have more than ${spec.maxLength} characters` });
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
    if (spec.type === 'number' && (!DECIMAL.test(value) || !Number.isFinite(Number(value)))) {
      const message = DECIMAL.test(value)
        ? 'has too many digits to be a number'
        : 'must be a decimal number, such as 25000 or 1500.5';
      errors.push({ parameter: name, message });
      continue;
    }
    // Hundreds of digits are Infinity to Number(), which ajv lets through its bounds: refused here, in its words.
    if (spec.type === 'integer' && !Number.isSafeInteger(Number(value))) {
      const negative = value.startsWith('-');
      const bound = (negative ? spec.minimum : spec.maximum) ?? (negative ? -1 : 1) * Number.MAX_SAFE_INTEGER;
      const message = `must be ${negative ? '>=' : '<='} ${bound}`;
      errors.push({ parameter: name, message });
      continue;
    }
    input[name] = value;
  }
  const validate = registry.get(schemaId);
  if (!validate(input))
    errors.push(
      ...toParameterErrors(validate.errors ?? []).filter((e) => !errors.some((x) => x.parameter === e.parameter)),
    );
  // The route's own checks, of what a schema cannot say, on the values it accepted, reported with the rest.
  if (check) {
    const accepted: Record<string, unknown> = {};
    for (const [name, v] of Object.entries(input)) if (!errors.some((e) => e.parameter === name)) accepted[name] = v;
    errors.push(...check(accepted as Partial<T>).filter((e) => !errors.some((x) => x.parameter === e.parameter)));
  }
  if (errors.length)
    throw invalidParameters(
      errors.sort((a, b) => (a.parameter < b.parameter ? -1 : a.parameter > b.parameter ? 1 : 0)),
    );
  return input as T;
}
