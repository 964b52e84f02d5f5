// Long parameter values of every kind of character, and the routes and parameters they go into, read from
// each service's OpenAPI document: the fuzz suite (test/reliability/fuzz-params.test.ts) sends them all,
// and the bench's long-parameter row (bench/long-params.ts) times them. A route added to a document is
// covered without a change here.

/** A kind of character, as it is written in a query string or path (already percent-encoded). */
export interface CharClass {
  name: string;
  /** Repeated (and cut at a whole unit) to make a value of the size asked for. */
  unit: string;
  /** What the unit means once decoded, for a JSON body (MCP tool arguments); the unit itself if absent. */
  decoded?: string;
  /** The value ends with this, after the repeats (the `x` after 16,000 `+` that made a search quadratic). */
  tail?: string;
}

export const CHAR_CLASSES: readonly CharClass[] = [
  { name: 'ASCII letters', unit: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ' },
  { name: 'digits', unit: '0123456789' },
  { name: 'spaces as +, then x', unit: '+', decoded: ' ', tail: 'x' },
  { name: 'spaces as %20', unit: '%20', decoded: ' ' },
  { name: 'tabs and spaces, then 1', unit: '%09+', decoded: '\t ', tail: '1' },
  { name: 'punctuation', unit: "!$'()*,;:@/?-._~", decoded: "!$'()*,;:@/?-._~" },
  { name: 'punctuation escaped', unit: '%21%22%23%25%26%28%29%2B%2C%2F%3A%3B%3C%3D%3E%3F%40%5B%5C%5D%5E%60%7B%7C%7D' },
  {
    name: 'control characters escaped',
    unit: '%01%02%07%08%0A%0D%1B%1F%7F',
    decoded: '\u0001\u0002\u0007\b\n\r\u001b\u001f\u007f',
  },
  { name: '%00', unit: '%00', decoded: '\u0000' },
  { name: 'multi-byte UTF-8', unit: '%C3%A9%E2%82%AC%F0%9F%9A%9A', decoded: 'é€🚚' },
  { name: 'lone surrogates escaped', unit: '%ED%A0%80%ED%BF%BF', decoded: '\ud800-\udfff-' },
  { name: 'malformed escapes', unit: '%zz%', decoded: '%zz%' },
  { name: 'brackets never closed', unit: '%28%5B', decoded: '([' },
  { name: 'carrier-number separators', unit: 'u.s.+dot+%23+', decoded: 'u.s. dot # ', tail: 'x' },
  { name: 'number separators', unit: '1.1e1', tail: 'x' },
  { name: 'word separators', unit: '-_*%26', decoded: '-_*&' },
  { name: 'date separators', unit: '2024-01-', tail: 'x' },
];

/** `cls` repeated to `bytes` bytes as written (whole units only), then its tail. */
export function toHostileValue(cls: CharClass, bytes: number): string {
  const tail = cls.tail ?? '';
  const repeats = Math.max(1, Math.floor((bytes - tail.length) / cls.unit.length));
  return cls.unit.repeat(repeats) + tail;
}

/** The same value decoded, as a JSON string argument carries it. */
export function toHostileText(cls: CharClass, bytes: number): string {
  const unit = cls.decoded ?? cls.unit;
  const tail = cls.tail ?? '';
  return unit.repeat(Math.max(1, Math.floor((bytes - tail.length) / cls.unit.length))) + tail;
}

interface OpenApiParameter {
  name: string;
  in: string;
  required?: boolean;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { parameters?: (OpenApiParameter | { $ref: string })[] } | unknown>>;
}

/** One parameter of one operation, with ordinary values for the operation's other required parameters. */
export interface ParameterTarget {
  method: 'GET' | 'POST';
  /** The OpenAPI path (`/api/carrier/{carrier_id}`). */
  path: string;
  parameter: string;
  in: 'query' | 'path';
  /** The target with `value` in the parameter, every other path or required parameter ordinary. */
  target(value: string): string;
  /** The operation's normal request: its path and required parameters ordinary, no optional one. */
  normal: string;
}

/**
 * Every query and path parameter of every operation of `doc`. `ordinary` gives a value that the route
 * answers normally for each path and required parameter (`carrier_id` → a carrier of the build); a
 * parameter without one is reported, so a new route cannot go unfuzzed.
 */
export function parameterTargets(
  doc: OpenApiDocument,
  ordinary: Readonly<Record<string, string>>,
): { targets: ParameterTarget[]; missing: string[] } {
  const targets: ParameterTarget[] = [];
  const missing: string[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [m, op] of Object.entries(ops)) {
      if (m !== 'get' && m !== 'post') continue;
      const params = ((op as { parameters?: unknown[] }).parameters ?? []).filter(
        (p): p is OpenApiParameter =>
          typeof p === 'object' && p !== null && 'in' in p && (p.in === 'query' || p.in === 'path'),
      );
      for (const p of params)
        if ((p.in === 'path' || p.required) && ordinary[p.name] === undefined) missing.push(`${m} ${path} ${p.name}`);
      const build = (p: OpenApiParameter | undefined, value: string) => {
        let url = path;
        for (const q of params.filter((x) => x.in === 'path'))
          url = url.replace(`{${q.name}}`, q === p ? value : (ordinary[q.name] ?? ''));
        const query = params
          .filter((x) => x.in === 'query' && (x === p || x.required))
          .map((x) => `${encodeURIComponent(x.name)}=${x === p ? value : (ordinary[x.name] ?? '')}`);
        return query.length ? `${url}?${query.join('&')}` : url;
      };
      const normal = build(undefined, '');
      for (const p of params) {
        targets.push({
          method: m.toUpperCase() as 'GET' | 'POST',
          path,
          parameter: p.name,
          in: p.in as 'query' | 'path',
          target: (value) => build(p, value),
          normal,
        });
      }
    }
  }
  return { targets, missing };
}
