// The name matcher answers exactly what lunr's trailing-wildcard REQUIRED query answers, over a real build's
// prebuilt index, for whole words, prefixes, several words and words that match nothing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import lunr from 'lunr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchNames } from '../../pipeline/facilities/search.ts';
import { NameMatcher, toQueryTerms, toSearchResponse, type SearchIndexFile } from '../../contract/facilities/search.ts';
import { normalizeCity } from '../../contract/facilities/normalize-names.ts';
import { loadSearch, search } from '../../server/facilities/routes.ts';
import { writeDemo } from '../../pipeline/services.ts';
import { buildFacilities } from '../../pipeline/facilities/index.ts';
import { tempDir } from '../helpers/server.ts';

let root: Awaited<ReturnType<typeof tempDir>>;
let index: lunr.Index;
let words: string[] = [];
let file: SearchIndexFile;

beforeAll(async () => {
  root = await tempDir('facilities-search');
  await writeDemo('facilities', join(root.path, 'in'));
  await buildFacilities({ input: join(root.path, 'in'), outDir: join(root.path, 'out') });
  file = JSON.parse(
    readFileSync(join(root.path, 'out', 'facilities', 'index', 'search.json'), 'utf8'),
  ) as SearchIndexFile;
  index = lunr.Index.load(file.lunr);
  words = file.facilities.flatMap((f) => toQueryTerms(f.name));
}, 60_000);
afterAll(() => root.remove());

describe('NameMatcher', () => {
  it('matches exactly what lunr matches, for 600 queries made of the index words, positions ascending', () => {
    const matcher = new NameMatcher(
      index,
      file.facilities.map((f) => f.spine_id),
    );
    let nonEmpty = 0;
    // Queries matching more than 1/16 of the index take the matcher's other way to order its positions.
    let broad = 0;
    for (let i = 0; i < 600; i++) {
      const a = words[(i * 7919) % words.length]!;
      const b = words[(i * 104_729) % words.length]!;
      const queries = [
        [a],
        [a.slice(0, Math.max(1, i % a.length))],
        [a, b],
        [a.slice(0, 2), b.slice(0, 3)],
        [`${a}zz`],
      ];
      for (const q of queries) {
        const expected = matchNames(index, q);
        expect(matcher.match(q), q.join(' ')).toEqual(expected);
        const positions = Array.from(matcher.matchPositions(q));
        expect(positions, q.join(' ')).toEqual([...positions].sort((x, y) => x - y));
        if (expected.size > 0) nonEmpty++;
        if (expected.size * 16 >= file.facilities.length) broad++;
      }
    }
    expect(nonEmpty).toBeGreaterThan(1000);
    expect(broad).toBeGreaterThan(50);
  });
});

describe('search responses', () => {
  it('are the bytes of the plain definition: every doc filtered in ranking order, then cut to the limit', () => {
    const data = loadSearch(file, 'v1');
    const cities = [...new Set(file.facilities.map((f) => f.city).filter((c): c is string => c !== null))];
    let nonEmpty = 0;
    for (let i = 0; i < 400; i++) {
      const w = words[(i * 7919) % words.length]!;
      const query = {
        q: i % 5 === 4 ? undefined : i % 2 ? w : w.slice(0, 3),
        city: i % 3 === 0 ? cities[i % cities.length] : undefined,
        tier: i % 7 === 0 ? ('anchored' as const) : undefined,
        limit: [1, 5, 50, 100][i % 4],
      };
      const terms = toQueryTerms(query.q ?? '');
      const named = terms.length ? matchNames(index, terms) : undefined;
      const expected = file.facilities.filter(
        (d) =>
          (!named || named.has(d.spine_id)) &&
          (!query.city || d.city_key === normalizeCity(query.city)) &&
          (!query.tier || d.tier === query.tier),
      );
      if (expected.length) nonEmpty++;
      const body = search(data, query).body.toString('utf8');
      expect(body, JSON.stringify(query)).toBe(JSON.stringify(toSearchResponse(expected, query.limit!)));
    }
    expect(nonEmpty).toBeGreaterThan(100);
  });
});
