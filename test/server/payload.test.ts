import { describe, expect, it } from 'vitest';
import { identityTag, matchesEtag, pickEncoding, toPayload } from '../../server/core/payload.ts';
import { parseQuery, queryOf } from '../../server/core/params.ts';
import { HttpError } from '../../contract/core/problem.ts';

const big = toPayload('x'.repeat(5000));
const small = toPayload('{}');

describe('pickEncoding (RFC 9110 §12.5.3)', () => {
  it.each([
    ['br, gzip', 'big', 'br'],
    ['gzip, deflate', 'big', 'gzip'],
    ['gzip;q=1, br;q=0', 'big', 'gzip'],
    ['*', 'big', 'br'],
    ['gzip;q=0, *', 'big', 'br'],
    ['br;q=0, gzip;q=0, *', 'big', undefined],
    ['br;q=0, *;q=0.5', 'big', 'gzip'],
    ['gzip;q=0', 'big', undefined],
    ['gzip;q=0.000, deflate', 'big', undefined],
    ['br;q=0.5, gzip', 'big', 'gzip'],
    ['br;q=0.8, gzip;q=0.8', 'big', 'br'],
    ['x-gzip', 'big', 'gzip'],
    ['GZIP;Q=1', 'big', 'gzip'],
    ['gzip;q=NaN', 'big', undefined],
    ['identity', 'big', undefined],
    [undefined, 'big', undefined],
    ['br', 'small (not compressed)', undefined],
  ])('%j on a %s payload → %j', (header, which, expected) => {
    expect(pickEncoding(header, which === 'big' ? big : small)).toBe(expected);
  });
});

describe('identityTag', () => {
  it('is the two 32-bit FNV-1a hashes as 16 hex digits, then the length in hex', () => {
    // Tags as the first form (toString(16), zero-padded) wrote them: a change of format would change every
    // ETag clients hold. One hash here starts with a zero digit.
    const pinned: [string, string][] = [
      ['', '"811c9dc5050c5d1f0"'],
      ['a', '"e40c292c707727421"'],
      ['a7cadffee1de1b18\0q=a', '"6e671b78256c4d6614"'],
      ['é€😀', '"0c5e230df3798df34"'],
      [`v\0q=${'x'.repeat(39)}39`, '"79df29c395560fd32d"'],
    ];
    for (const [id, tag] of pinned) expect(identityTag(id)).toBe(tag);
    // Every first digit occurs, so no value loses its leading zeros.
    const identities = Array.from({ length: 500 }, (_, i) => `v\0q=${'x'.repeat(i % 40)}${i}`);
    expect(new Set(identities.map((id) => identityTag(id).slice(1, 2))).size).toBe(16);
    for (const id of identities)
      expect(identityTag(id)).toMatch(new RegExp(`^"[0-9a-f]{16}${id.length.toString(16)}"$`));
  });

  it('names one identity with one quoted tag, and tells apart near-identical identities', () => {
    const version = 'a7cadffee1de1b18';
    expect(identityTag(`${version}\0q=a`)).toBe(identityTag(`${version}\0q=a`));
    expect(identityTag(`${version}\0q=a`)).toMatch(/^"[0-9a-f]{17,}"$/);
    expect(toPayload('{}', 'application/json', false, `${version}\0q=a`).etag).toBe(identityTag(`${version}\0q=a`));
    // Queries as a search sees them: every 1-3 letter query, under two data versions, and one-character edits.
    const letters = 'abcdefghijklmnopqrstuvwxyz0123456789 ';
    const tags = new Set<string>();
    let count = 0;
    for (const v of [version, 'a7cadffee1de1b19']) {
      for (const a of letters)
        for (const b of letters)
          for (const c of ['', ...letters]) {
            tags.add(identityTag(`${v}\0${25}\0\0\0${a}${b}${c}\0`));
            count++;
          }
    }
    expect(count).toBe(2 * 37 * 37 * 38);
    expect(tags.size).toBe(count);
  });
});

describe('matchesEtag (weak comparison, RFC 9110 §13.1.2)', () => {
  const tag = big.etag;
  const bare = tag.slice(1, -1);
  it.each([
    [tag, true],
    [`W/${tag}`, true],
    [`"other", ${tag}`, true],
    // A coded body's tag is another representation's (RFC 9110 §8.8.3).
    [`"${bare}-br"`, false],
    [`"${bare}-gz"`, false],
    ['*', true],
    ['"other"', false],
    [bare, false],
    ['', false],
  ])('%j → %j', (header, expected) => {
    expect(matchesEtag(header, tag)).toBe(expected);
  });
});

describe('queryOf', () => {
  const q = (search: string) => ({ ...queryOf({ search }) });
  it('decodes as node:querystring does: + as a space, escapes, repeated names as arrays, bare names as empty', () => {
    expect(q('')).toEqual({});
    expect(q('?')).toEqual({});
    expect(q('?q=a+b%20c&limit=5&q=%C3%A9&flag&=x&&')).toEqual({ q: ['a b c', 'é'], limit: '5', flag: '', '': 'x' });
    expect(Object.entries(queryOf({ search: '?__proto__=1&constructor=2' }))).toEqual([
      ['__proto__', '1'],
      ['constructor', '2'],
    ]);
  });
  it.each(['%zz', '%', 'a%2', '%E9', '%C3', '%FF', '%ED%A0%80'])(
    'makes q=%s a 400 naming q, and only where the parameter is read',
    (raw) => {
      const query = queryOf({ search: `?q=${raw}&limit=5&other=${raw}` });
      try {
        parseQuery(query, 'facilities/search-query');
        expect.unreachable();
      } catch (err) {
        expect((err as HttpError).status).toBe(400);
        expect((err as HttpError).errors).toEqual([
          {
            parameter: 'q',
            message: 'must be UTF-8, percent-encoded (RFC 3986): it has a malformed escape or bytes that are not UTF-8',
          },
        ]);
      }
    },
  );
  it('reads every pair: a known parameter after 1,000 unknown ones counts, and so does its repeat', () => {
    const noise = Array.from({ length: 1200 }, (_, i) => `x${i}=1`).join('&');
    expect(parseQuery(queryOf({ search: `?${noise}&q=acme&limit=5` }), 'facilities/search-query')).toEqual({
      q: 'acme',
      limit: 5,
    });
    expect(() => parseQuery(queryOf({ search: `?limit=5&${noise}&limit=6` }), 'facilities/search-query')).toThrow(
      HttpError,
    );
  });
  it('takes %25 and a literal U+FFFD (%EF%BF%BD) as the characters they encode', () => {
    expect(parseQuery(queryOf({ search: '?q=100%25' }), 'facilities/search-query')).toEqual({ q: '100%' });
    expect(parseQuery(queryOf({ search: '?q=%EF%BF%BD' }), 'facilities/search-query')).toEqual({ q: '\uFFFD' });
  });
});

describe('parseQuery', () => {
  const parse = (q: Record<string, string | string[]>) =>
    parseQuery<Record<string, unknown>>(q, 'facilities/search-query');
  it('coerces and keeps known parameters, ignores unknown ones', () => {
    expect(parse({ q: 'x', limit: '20', extra: 'y' })).toEqual({ q: 'x', limit: 20 });
  });
  it('lists every bad parameter at once', () => {
    try {
      parse({ limit: '0', tier: 'gold', program: ['a', 'b'] });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(HttpError);
      const e = err as HttpError;
      expect(e.status).toBe(400);
      expect(e.errors).toEqual([
        { parameter: 'limit', message: 'must be >= 1' },
        { parameter: 'program', message: 'must be given once' },
        { parameter: 'tier', message: 'must be one of: anchored, unmatched' },
      ]);
    }
  });
  it.each(['0x10', '1e1', '10.0', '+5', ' 10', '10 ', '\t', '0b11', 'Infinity'])(
    'refuses limit=%j: an integer is decimal digits as written',
    (limit) => {
      expect(() => parse({ limit })).toThrow(HttpError);
      try {
        parse({ limit });
      } catch (err) {
        expect((err as HttpError).errors).toEqual([{ parameter: 'limit', message: 'must be an integer' }]);
      }
    },
  );
  it('reads leading zeros as decimal and leaves a negative number to the bounds', () => {
    expect(parse({ limit: '010' })).toEqual({ limit: 10 });
    let errors: unknown;
    try {
      parse({ limit: '-3' });
    } catch (err) {
      errors = (err as HttpError).errors;
    }
    expect(errors).toEqual([{ parameter: 'limit', message: 'must be >= 1' }]);
  });
});
