import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareRank, toNameKey, writeNameIndex, type NamedCarrier } from '../../pipeline/carriers/name-index.ts';
import { openSink } from '../../pipeline/core/sink.ts';
import { loadBuild } from '../../server/core/build.ts';
import { NameIndex } from '../../server/carriers/search.ts';

const CARRIERS: NamedCarrier[] = [
  { dot: 1, legal_name: 'ACME TRUCKING LLC', dba_name: null, power_units: 10 },
  { dot: 2, legal_name: 'ACME', dba_name: 'ROAD RUNNER', power_units: 5 },
  { dot: 3, legal_name: 'TRUCKS R US', dba_name: null, power_units: null },
  { dot: 4, legal_name: 'Élan Transport', dba_name: 'ACME EXPRESS', power_units: 100 },
  { dot: 5, legal_name: 'ACME', dba_name: null, power_units: 1 },
  { dot: 6, legal_name: 'TRU-LINE & SONS', dba_name: 'TRUCK TRUCK TRUCKING', power_units: 10 },
];

let dir = '';
let index: NameIndex;
const byDot = new Map(CARRIERS.map((c) => [c.dot, c]));
const whole = (dot: number, key: string) => {
  const c = byDot.get(dot)!;
  return toNameKey(c.legal_name) === key || (c.dba_name !== null && toNameKey(c.dba_name) === key);
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'shardline-names-'));
  const sink = await openSink({ service: 'carriers', outDir: dir });
  await writeNameIndex(sink, [...CARRIERS].sort(compareRank));
  await sink.publish({ service: 'carriers', data_version: '0123456789abcdef', built_at: '2026-01-01T00:00:00.000Z', demo: true, sources: [], counts: {} });
  index = new NameIndex(loadBuild(join(dir, 'carriers'), 'carriers'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('name index search', () => {
  it.each([
    // Whole-name matches first, then by power units, then carrier_id.
    ['acme', 4, [2, 5, 4, 1]],
    ['ACME express', 1, [4]],
    ['tru', 3, [1, 6, 3]],
    ['truck', 3, [1, 6, 3]],
    ['trucking acme', 1, [1]],
    ['elan', 1, [4]],
    ['ÉLAN transp', 1, [4]],
    ['sons & tru-line', 1, [6]],
    ['road', 1, [2]],
    ['cme', 0, []],
    ['zzz', 0, []],
    ['acme zzz', 0, []],
  ])('%j → total %i, %j', (q, total, dots) => {
    expect(index.search(q, 25, whole)).toEqual({ total, dots });
  });

  it('counts all matches but returns at most limit, and leaves no marks behind', () => {
    expect(index.search('acme', 2, whole)).toEqual({ total: 4, dots: [2, 5] });
    expect(index.search('acme', 25, whole)).toEqual({ total: 4, dots: [2, 5, 4, 1] });
  });
});

describe('name index search over many matches', () => {
  it('walks the ranks when a word matches more carriers than it sorts (60,000 here), same order and total', async () => {
    const many: NamedCarrier[] = Array.from({ length: 60_000 }, (_, i) => ({
      dot: i + 1,
      legal_name: i % 3 === 0 ? `ZULU HAULING ${i}` : `ZULU FREIGHT ${i}`,
      dba_name: i === 59_999 ? 'ZULU' : null,
      power_units: i % 1000,
    }));
    const out = await mkdtemp(join(tmpdir(), 'shardline-names-many-'));
    try {
      const sink = await openSink({ service: 'carriers', outDir: out });
      await writeNameIndex(sink, [...many].sort(compareRank));
      await sink.publish({ service: 'carriers', data_version: '0123456789abcdef', built_at: '2026-01-01T00:00:00.000Z', demo: true, sources: [], counts: {} });
      const big = new NameIndex(loadBuild(join(out, 'carriers'), 'carriers'));
      const byDot = new Map(many.map((c) => [c.dot, c]));
      const isWhole = (dot: number, key: string) => toNameKey(byDot.get(dot)!.dba_name ?? '') === key;
      // The whole-name match first, then power units descending (999 first), then carrier_id.
      expect(big.search('zulu', 4, isWhole)).toEqual({ total: 60_000, dots: [60_000, 1000, 2000, 3000] });
      expect(big.search('zulu hauling', 3, isWhole)).toEqual({ total: 20_000, dots: [1000, 4000, 7000] });
      // Marks are cleared after a dense search too.
      expect(big.search('freight', 1, isWhole).total).toBe(40_000);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});

describe('name index search against its definition', () => {
  it('answers 1,000 random queries exactly as a scan of every name would, through every path of the search, with and without bitsets', async () => {
    // A small vocabulary over 6,000 carriers, so words and short prefixes are common (past a threshold of
    // 40 postings here), rare, or absent, and queries hit the common-prefix table, the candidate walk, the
    // sorted and the top-rank result paths.
    const vocab = ['trans', 'transport', 'trucking', 'truck', 'tri', 'express', 'exp', 'logistics', 'log', 'acme', 'zeta', 'ñandu', 'nandina', 'a', 'ab', 'abc', 'road', 'roadway', 'rapid', 'sons'];
    let seed = 7;
    const rand = (n: number) => {
      seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
      return seed % n;
    };
    const nameOf = () => Array.from({ length: 1 + rand(3) }, () => vocab[rand(vocab.length)]!).join(' ').toUpperCase();
    const many: NamedCarrier[] = Array.from({ length: 6_000 }, (_, i) => ({
      dot: i + 1,
      legal_name: rand(50) === 0 ? `ZETA${i}` : nameOf(),
      dba_name: rand(4) === 0 ? nameOf() : null,
      power_units: rand(5) === 0 ? null : rand(300),
    }));
    const ranked = [...many].sort(compareRank);
    const out = await mkdtemp(join(tmpdir(), 'shardline-names-prop-'));
    try {
      const sink = await openSink({ service: 'carriers', outDir: out });
      const stats = await writeNameIndex(sink, ranked, { commonPostings: 40 });
      expect(stats.common).toBeGreaterThan(20);
      await sink.publish({ service: 'carriers', data_version: '0123456789abcdef', built_at: '2026-01-01T00:00:00.000Z', demo: true, sources: [], counts: {} });
      // Every way of testing a range: no bitsets at all; one kept at a time and never ANDed; the defaults
      // (most drivers here are large enough to AND, with the SIMD kernel), the same ANDs in JavaScript;
      // bitsets tested one carrier at a time from postings.
      const build = loadBuild(join(out, 'carriers'), 'carriers');
      const indexes = [
        new NameIndex(build, { bitsets: 0 }),
        new NameIndex(build, { bitsets: 1, andAt: Infinity }),
        new NameIndex(build),
        new NameIndex(build, { simd: false }),
        new NameIndex(build, { andAt: Infinity, bitsetDriverAt: Infinity }),
      ];
      const byDot = new Map(many.map((c) => [c.dot, c]));
      const whole = (dot: number, key: string) => {
        const c = byDot.get(dot)!;
        return toNameKey(c.legal_name) === key || (c.dba_name !== null && toNameKey(c.dba_name) === key);
      };
      const words = new Map(many.map((c) => [c.dot, [c.legal_name, c.dba_name ?? ''].flatMap((n) => toNameKey(n).split(' ')).filter(Boolean)]));
      const paths = new Set<string>();
      for (let i = 0; i < 1_000; i++) {
        const qWords = Array.from({ length: 1 + rand(3) }, () => {
          const w = rand(10) === 0 ? 'zzz' : vocab[rand(vocab.length)]!;
          return w.slice(0, 1 + rand(w.length));
        });
        const q = rand(8) === 0 ? toNameKey(ranked[rand(ranked.length)]!.legal_name) : qWords.join(' ');
        const limit = [1, 5, 25, 100][rand(4)]!;
        const terms = [...new Set(toNameKey(q).split(' ').filter(Boolean))];
        const key = toNameKey(q);
        const matches = ranked.filter((c) => terms.every((t) => words.get(c.dot)!.some((w) => w.startsWith(t))));
        const exactFirst = [...matches.filter((c) => whole(c.dot, key)), ...matches.filter((c) => !whole(c.dot, key))];
        for (const [i, idx] of indexes.entries()) {
          expect(idx.search(q, limit, whole), `${q} (index ${i})`).toEqual({ total: matches.length, dots: exactFirst.slice(0, limit).map((c) => c.dot) });
        }
        paths.add(terms.length === 1 && matches.length > 40 ? 'common' : matches.length > 0 ? 'walk' : 'none');
      }
      expect([...paths].sort()).toEqual(['common', 'none', 'walk']);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});
