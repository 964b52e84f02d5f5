// Schema first (server/core/params.ts, docs/contracts/common.md "Hostile input"): a parameter the schema
// refuses never reaches the route's own check, and an over-long value is refused on its length alone.
import { describe, expect, it } from 'vitest';
import { HttpError, type ParameterError } from '../../contract/core/problem.ts';
import { checkSearchText } from '../../server/carriers/routes.ts';
import { checkSearchQuery } from '../../server/facilities/routes.ts';
import { parseQuery, queryOf } from '../../server/core/params.ts';

/** The 400's errors of a parse, or [] when it passed. */
function errorsOf(run: () => unknown): ParameterError[] {
  try {
    run();
    return [];
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    expect(err.status).toBe(400);
    return err.errors ?? [];
  }
}

const LONG = `${'+'.repeat(16_000)}x`;

describe('parseQuery: the schema first', () => {
  it.each([
    [
      'carriers/search-query',
      `?q=${LONG}&state=tx`,
      'q',
      (input: Record<string, unknown>) => checkSearchText(input.q as string | undefined),
    ],
    ['facilities/search-query', `?q=acme&city=${LONG}&naics=32`, 'city', checkSearchQuery],
    ['facilities/search-query', `?q=${LONG}&limit=oops`, 'q', checkSearchQuery],
    ['economy/series-query', `?q=${'%20'.repeat(5000)}x`, 'q', () => []],
  ])('%s %#: the route check is given only what the schema accepted', (schemaId, search, refused, check) => {
    const seen: Record<string, unknown>[] = [];
    const errors = errorsOf(() =>
      parseQuery<Record<string, unknown>>(queryOf({ search }), schemaId, (input) => {
        seen.push({ ...input });
        return check(input);
      }),
    );
    expect(errors.find((e) => e.parameter === refused)?.message).toMatch(/^must NOT have more than \d+ characters$/);
    for (const input of seen) expect(Object.keys(input)).not.toContain(refused);
  });

  it('still runs the route check on the parameters the schema accepted, and reports both', () => {
    const errors = errorsOf(() =>
      parseQuery(queryOf({ search: `?q=***&city=${LONG}` }), 'facilities/search-query', checkSearchQuery),
    );
    expect(errors.map((e) => e.parameter)).toEqual(['city', 'q']);
    expect(errors[1]!.message).toMatch(/letter or digit/);
  });

  it('counts characters as JSON Schema does: a surrogate pair is one', () => {
    const emoji = '\u{1F69A}';
    const at = (n: number) => `?q=${encodeURIComponent(`acme ${emoji.repeat(n - 5)}`)}`;
    expect(parseQuery<{ q: string }>(queryOf({ search: at(200) }), 'facilities/search-query').q).toHaveLength(
      5 + 195 * 2,
    );
    expect(errorsOf(() => parseQuery(queryOf({ search: at(201) }), 'facilities/search-query'))).toEqual([
      { parameter: 'q', message: 'must NOT have more than 200 characters' },
    ]);
  });
});

describe('parseQuery: integers too long for a number', () => {
  it.each([
    ['carriers/search-query', 'limit', '9'.repeat(400), 'must be <= 100'],
    ['carriers/search-query', 'offset', '0123456789'.repeat(40), 'must be <= 10000'],
    ['facilities/search-query', 'limit', '9'.repeat(400), 'must be <= 200'],
    ['economy/observations-query', 'offset', '9'.repeat(400), `must be <= ${Number.MAX_SAFE_INTEGER}`],
    ['carriers/search-query', 'offset', `-${'9'.repeat(400)}`, 'must be >= 0'],
  ])('%s %s of %#: a 400, not Infinity', (schemaId, name, value, message) => {
    const required = schemaId.startsWith('carriers') ? 'q=acme&' : schemaId.startsWith('economy') ? 'series=X&' : '';
    expect(errorsOf(() => parseQuery(queryOf({ search: `?${required}${name}=${value}` }), schemaId))).toEqual([
      { parameter: name, message },
    ]);
  });
});
