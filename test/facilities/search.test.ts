// The name matcher answers exactly what lunr's trailing-wildcard REQUIRED query answers, over a real build's
// prebuilt index, for whole words, prefixes, several words and words that match nothing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import lunr from 'lunr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchNames, NameMatcher, toQueryTerms, type SearchIndexFile } from '../../pipeline/facilities/search.ts';
import { writeDemo } from '../../pipeline/services.ts';
import { buildFacilities } from '../../pipeline/facilities/index.ts';
import { tempDir } from '../helpers/server.ts';

let root: Awaited<ReturnType<typeof tempDir>>;
let index: lunr.Index;
let words: string[] = [];

beforeAll(async () => {
  root = await tempDir('facilities-search');
  await writeDemo('facilities', join(root.path, 'in'));
  await buildFacilities({ input: join(root.path, 'in'), outDir: join(root.path, 'out') });
  const file = JSON.parse(readFileSync(join(root.path, 'out', 'facilities', 'index', 'search.json'), 'utf8')) as SearchIndexFile;
  index = lunr.Index.load(file.lunr);
  words = file.facilities.flatMap((f) => toQueryTerms(f.name));
}, 60_000);
afterAll(() => root.remove());

describe('NameMatcher', () => {
  it('matches exactly what lunr matches, for 600 queries made of the index words', () => {
    const matcher = new NameMatcher(index);
    let nonEmpty = 0;
    for (let i = 0; i < 600; i++) {
      const a = words[(i * 7919) % words.length]!;
      const b = words[(i * 104_729) % words.length]!;
      const queries = [[a], [a.slice(0, Math.max(1, i % a.length))], [a, b], [a.slice(0, 2), b.slice(0, 3)], [`${a}zz`]];
      for (const q of queries) {
        const expected = matchNames(index, q);
        expect(matcher.match(q), q.join(' ')).toEqual(expected);
        if (expected.size > 0) nonEmpty++;
      }
    }
    expect(nonEmpty).toBeGreaterThan(1000);
  });
});
