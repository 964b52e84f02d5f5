import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toNameKey } from '../../contract/carriers/name-index.ts';
import { fnv1aUtf8 } from '../../contract/core/hash.ts';
import { compareRank, writeNameIndex, type NamedCarrier } from '../../pipeline/carriers/name-index.ts';
import { openSink } from '../../pipeline/core/sink.ts';
import { loadBuild } from '../../server/core/build.ts';
import { NameIndex } from '../../server/carriers/search.ts';

const CARRIERS: NamedCarrier[] = [
  { dot: 1, legal_name: 'ACME TRUCKING LLC', dba_name: null, power_units: 10, state: 'TX' },
  { dot: 2, legal_name: 'ACME', dba_name: 'ROAD RUNNER', power_units: 5, state: 'tx' },
  { dot: 3, legal_name: 'TRUCKS R US', dba_name: null, power_units: null, state: null },
  { dot: 4, legal_name: 'Élan Transport', dba_name: 'ACME EXPRESS', power_units: 100, state: 'QC' },
  { dot: 5, legal_name: 'ACME', dba_name: null, power_units: 1, state: 'T1' },
  { dot: 6, legal_name: 'TRU-LINE & SONS', dba_name: 'TRUCK TRUCK TRUCKING', power_units: 10, state: 'TX' },
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
  await sink.publish({
    service: 'carriers',
    data_version: '0123456789abcdef',
    built_at: '2026-01-01T00:00:00.000Z',
    demo: true,
    sources: [],
    counts: {},
  });
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
    // Record positions are positions in carrier_id order: carrier_id − 1 here.
    expect(index.search(q, 25, whole)).toEqual({ total, dots, records: dots.map((d) => d - 1) });
  });

  it('counts all matches but returns at most limit, and leaves no marks behind', () => {
    expect(index.search('acme', 2, whole)).toEqual({ total: 4, dots: [2, 5], records: [1, 4] });
    expect(index.search('acme', 25, whole)).toEqual({ total: 4, dots: [2, 5, 4, 1], records: [1, 4, 3, 0] });
  });

  it('pages through the matches from offset, whole names first, and past the end to nothing', () => {
    expect(index.search('acme', 2, whole, { offset: 1 }).dots).toEqual([5, 4]);
    expect(index.search('acme', 2, whole, { offset: 2 })).toEqual({ total: 4, dots: [4, 1], records: [3, 0] });
    expect(index.search('acme', 25, whole, { offset: 4 })).toEqual({ total: 4, dots: [], records: [] });
    expect(index.search('acme', 25, whole, { offset: 10_000 })).toEqual({ total: 4, dots: [], records: [] });
  });

  it.each([
    // A state in any case; the census's lower-case tx is TX; a malformed one (T1) is no state.
    ['acme', 'TX', 2, [2, 1]],
    ['acme', 'tx', 2, [2, 1]],
    ['tru', 'Tx', 2, [1, 6]],
    ['acme', 'QC', 1, [4]],
    ['acme', 'CA', 0, []],
    ['acme', 'T1', 0, []],
    ['truck', 'TX', 2, [1, 6]],
    ['zzz', 'TX', 0, []],
  ])('%j in state %j → total %i, %j', (q, state, total, dots) => {
    expect(index.search(q, 25, whole, { state })).toEqual({ total, dots, records: dots.map((d) => d - 1) });
  });

  it('writes each rank a state code and the states once, sorted', () => {
    const build = loadBuild(join(dir, 'carriers'), 'carriers');
    expect(build.readBuffer('index/names.states').toString('ascii')).toBe('QCTX');
    // Ranking order: 4 (100 power units), 1 and 6 (10), 2 (5), 5 (1), 3 (unknown).
    expect([...build.readBuffer('index/names.rank-states')]).toEqual([1, 2, 2, 2, 0, 0]);
  });
});

describe('name index search with many words', () => {
  it('counts every word, however many: a word that matches nothing after 33 that all match leaves nothing', async () => {
    const root = await mkdtemp(join(tmpdir(), 'shardline-names-many-'));
    try {
      const sink = await openSink({ service: 'carriers', outDir: root });
      const one: NamedCarrier = {
        dot: 7,
        legal_name: 'QUIXOTIC ZEPHYR WOMBAT',
        dba_name: 'JUXTAPOSE VORTEX',
        power_units: 3,
        state: 'NE',
      };
      await writeNameIndex(sink, [one]);
      await sink.publish({
        service: 'carriers',
        data_version: '0123456789abcdef',
        built_at: '2026-01-01T00:00:00.000Z',
        demo: true,
        sources: [],
        counts: {},
      });
      const names = new NameIndex(loadBuild(join(root, 'carriers'), 'carriers'));
      // Every prefix of every word: 35 distinct words, all matching the one carrier.
      const prefixes = ['quixotic', 'zephyr', 'wombat', 'juxtapose', 'vortex'].flatMap((w) =>
        Array.from({ length: w.length }, (_, i) => w.slice(0, i + 1)),
      );
      expect(new Set(prefixes).size).toBe(35);
      const isWhole = () => false;
      expect(names.search(prefixes.join(' '), 25, isWhole)).toMatchObject({ total: 1, dots: [7] });
      expect(names.search([...prefixes, 'zzz'].join(' '), 25, isWhole)).toMatchObject({ total: 0, dots: [] });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('name index search over many matches', () => {
  it('walks the ranks when a word matches more carriers than it sorts (60,000 here), same order and total', async () => {
    // carrier_ids 10, 20, …: a carrier's record position (in carrier_id order) is carrier_id / 10 − 1.
    const many: NamedCarrier[] = Array.from({ length: 60_000 }, (_, i) => ({
      dot: 10 * (i + 1),
      legal_name: i % 3 === 0 ? `ZULU HAULING ${i}` : `ZULU FREIGHT ${i}`,
      dba_name: i === 59_999 ? 'ZULU' : null,
      power_units: i % 1000,
      state: i % 2 === 0 ? 'CA' : 'NV',
    }));
    const out = await mkdtemp(join(tmpdir(), 'shardline-names-many-'));
    try {
      const sink = await openSink({ service: 'carriers', outDir: out });
      await writeNameIndex(sink, [...many].sort(compareRank));
      await sink.publish({
        service: 'carriers',
        data_version: '0123456789abcdef',
        built_at: '2026-01-01T00:00:00.000Z',
        demo: true,
        sources: [],
        counts: {},
      });
      const big = new NameIndex(loadBuild(join(out, 'carriers'), 'carriers'));
      const byDot = new Map(many.map((c) => [c.dot, c]));
      const isWhole = (dot: number, key: string) => toNameKey(byDot.get(dot)!.dba_name ?? '') === key;
      // The whole-name match first, then power units descending (999 first), then carrier_id.
      expect(big.search('zulu', 4, isWhole)).toEqual({
        total: 60_000,
        dots: [600_000, 10_000, 20_000, 30_000],
        records: [59_999, 999, 1999, 2999],
      });
      expect(big.search('zulu hauling', 3, isWhole)).toEqual({
        total: 20_000,
        dots: [10_000, 40_000, 70_000],
        records: [999, 3999, 6999],
      });
      // Marks are cleared after a dense search too.
      expect(big.search('freight', 1, isWhole).total).toBe(40_000);
      // The deepest page, whole name first: ranks 10,000 to 10,099 after it.
      const deep = big.search('zulu', 100, isWhole, { offset: 10_000 });
      expect(deep.total).toBe(60_000);
      expect(deep.dots).toHaveLength(100);
      const ranked = [...many].sort(compareRank).filter((c) => c.dot !== 600_000);
      expect(deep.dots).toEqual(ranked.slice(9_999, 10_099).map((c) => c.dot));
      // Every other carrier is in CA (even i, carrier_id 10, 30, …): the state halves the count.
      expect(big.search('zulu', 1, isWhole, { state: 'ca' }).total).toBe(30_000);
      expect(big.search('zulu hauling', 2, isWhole, { state: 'NV', offset: 5 }).dots).toEqual(
        ranked
          .filter((c) => c.legal_name.startsWith('ZULU HAULING') && c.state === 'NV')
          .slice(5, 7)
          .map((c) => c.dot),
      );
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});

describe('name index search against its definition', () => {
  it('answers 1,000 random queries exactly as a scan of every name would, through every path of the search, with and without bitsets', async () => {
    // A small vocabulary over 6,000 carriers, so words and short prefixes are common (past a threshold of
    // 40 postings here, with their first 8 ranks kept), rare, or absent, and queries hit the common-prefix
    // tables (a page within the first ranks, or past them), the candidate walk, the sorted and the top-rank
    // result paths.
    const vocab = [
      'trans',
      'transport',
      'trucking',
      'truck',
      'tri',
      'express',
      'exp',
      'logistics',
      'log',
      'acme',
      'zeta',
      'ñandu',
      'nandina',
      'a',
      'ab',
      'abc',
      'road',
      'roadway',
      'rapid',
      'sons',
    ];
    let seed = 7;
    const rand = (n: number) => {
      seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
      return seed % n;
    };
    // A few states, one of them common, so that a state is sometimes rarer than the words and sometimes not.
    const STATES = ['TX', 'TX', 'TX', 'CA', 'ON', 'JA', 'WY'];
    const nameOf = () =>
      Array.from({ length: 1 + rand(3) }, () => vocab[rand(vocab.length)]!)
        .join(' ')
        .toUpperCase();
    const many: NamedCarrier[] = Array.from({ length: 6_000 }, (_, i) => ({
      dot: i + 1,
      legal_name: rand(50) === 0 ? `ZETA${i} ${nameOf()}` : nameOf(),
      dba_name: rand(4) === 0 ? nameOf() : null,
      power_units: rand(5) === 0 ? null : rand(300),
      state: rand(20) === 0 ? null : STATES[rand(STATES.length)]!,
    }));
    const ranked = [...many].sort(compareRank);
    const out = await mkdtemp(join(tmpdir(), 'shardline-names-prop-'));
    try {
      const sink = await openSink({ service: 'carriers', outDir: out });
      const stats = await writeNameIndex(sink, ranked, { commonPostings: 40, commonTop: 8 });
      expect(stats.common).toBeGreaterThan(20);
      await sink.publish({
        service: 'carriers',
        data_version: '0123456789abcdef',
        built_at: '2026-01-01T00:00:00.000Z',
        demo: true,
        sources: [],
        counts: {},
      });
      // Every way of testing a range: no bitsets at all; one kept at a time and never ANDed; the defaults
      // (most drivers here are large enough to AND, with the SIMD kernel), the same ANDs in JavaScript;
      // bitsets tested one carrier at a time from postings; no range dense, so that other single words are
      // merged through their postings whenever the driver gives its candidates in order, with bitsets and
      // without any (then a prefix driver's candidates come unordered, and nothing is merged).
      const build = loadBuild(join(out, 'carriers'), 'carriers');
      const indexes = [
        new NameIndex(build, { bitsets: 0 }),
        new NameIndex(build, { bitsets: 1, andAt: Infinity }),
        new NameIndex(build),
        new NameIndex(build, { simd: false }),
        new NameIndex(build, { andAt: Infinity, bitsetDriverAt: Infinity }),
        new NameIndex(build, { andAt: Infinity, denseAt: Infinity }),
        new NameIndex(build, { bitsets: 0, denseAt: Infinity, bitsetDriverAt: 1 }),
        // A build written before names.common-top: common prefixes walk the top ranks or take the general path.
        new NameIndex({
          ...build,
          checksums: Object.fromEntries(
            Object.entries(build.checksums).filter(([f]) => f !== 'index/names.common-top'),
          ),
        }),
      ];
      const byDot = new Map(many.map((c) => [c.dot, c]));
      const whole = (dot: number, key: string) => {
        const c = byDot.get(dot)!;
        return toNameKey(c.legal_name) === key || (c.dba_name !== null && toNameKey(c.dba_name) === key);
      };
      const words = new Map(
        many.map((c) => [
          c.dot,
          [c.legal_name, c.dba_name ?? ''].flatMap((n) => toNameKey(n).split(' ')).filter(Boolean),
        ]),
      );
      const paths = new Set<string>();
      for (let i = 0; i < 1_000; i++) {
        const qWords = Array.from({ length: 1 + rand(3) }, () => {
          // Now and then the prefix of a few unique names (zeta1 → zeta1, zeta10, …): a rare range of
          // several words, so a driver whose candidates come word by word.
          const w = rand(10) === 0 ? 'zzz' : rand(8) === 0 ? `zeta${rand(60)}` : vocab[rand(vocab.length)]!;
          return w.slice(0, 1 + rand(w.length));
        });
        const q = rand(8) === 0 ? toNameKey(ranked[rand(ranked.length)]!.legal_name) : qWords.join(' ');
        const limit = [1, 5, 25, 100][rand(4)]!;
        // Mostly the first page; now and then a later one, a state, or both.
        const offset = rand(3) === 0 ? [1, 7, 40, 150][rand(4)]! : 0;
        const state = rand(3) === 0 ? ['tx', 'CA', 'wy', 'ZZ'][rand(4)]! : undefined;
        const terms = [...new Set(toNameKey(q).split(' ').filter(Boolean))];
        const key = toNameKey(q);
        const matches = ranked.filter(
          (c) =>
            terms.every((t) => words.get(c.dot)!.some((w) => w.startsWith(t))) &&
            (state === undefined || c.state === state.toUpperCase()),
        );
        const exactFirst = [...matches.filter((c) => whole(c.dot, key)), ...matches.filter((c) => !whole(c.dot, key))];
        for (const [i, idx] of indexes.entries()) {
          const dots = exactFirst.slice(offset, offset + limit).map((c) => c.dot);
          expect(idx.search(q, limit, whole, { offset, state }), `${q} ${offset} ${state} (index ${i})`).toEqual({
            total: matches.length,
            dots,
            records: dots.map((d) => d - 1),
          });
        }
        paths.add(
          state !== undefined
            ? matches.length > 0
              ? 'state'
              : 'state-none'
            : terms.length === 1 && matches.length > 40
              ? 'common'
              : matches.length > 0
                ? 'walk'
                : 'none',
        );
      }
      expect([...paths].sort()).toEqual(['common', 'none', 'state', 'state-none', 'walk']);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  }, 120_000); // 12 s alone, far longer beside other suites on two CPUs
});

describe('whole-name matches through the exact table', () => {
  it('confirms a hash shared by many carriers of one name once, and checks each carrier of a hash two names share', async () => {
    // Pairs of different name keys with the same 32-bit FNV-1a, found among `acme N` keys (birthday bound).
    const seen = new Map<number, number>();
    const pairs: [number, number][] = [];
    for (let n = 0; pairs.length < 2; n++) {
      const h = fnv1aUtf8(`acme ${n}`);
      const other = seen.get(h);
      if (other !== undefined) pairs.push([other, n]);
      else seen.set(h, n);
    }
    const [[a, b], [c, d]] = pairs as [[number, number], [number, number]];
    expect(fnv1aUtf8(`acme ${a}`)).toBe(fnv1aUtf8(`acme ${b}`));
    expect(fnv1aUtf8(`acme ${c}`)).toBe(fnv1aUtf8(`acme ${d}`));
    for (const [x, y] of [
      [a, b],
      [b, a],
      [c, d],
      [d, c],
    ])
      expect(String(x).startsWith(String(y))).toBe(false);
    const carriers: NamedCarrier[] = [
      { dot: 11, legal_name: `ACME ${a}`, dba_name: null, power_units: 1, state: 'OH' },
      { dot: 12, legal_name: `Acme ${b}`, dba_name: null, power_units: 50, state: 'OH' },
      { dot: 13, legal_name: 'ROAD RUNNER INC', dba_name: `ACME ${a}`, power_units: 3, state: 'PA' },
      { dot: 14, legal_name: `ACME ${a}0`, dba_name: null, power_units: 900, state: 'OH' },
      // Of the second pair, only one whole name is stored (its hash names one key); the DBA has the
      // other's words, so the other's query finds this carrier, but not as a whole-name match.
      { dot: 15, legal_name: `ACME ${c}`, dba_name: `ACME ${d}0`, power_units: 7, state: 'OH' },
      // One name, many carriers (no collision): confirmed by the first one's record alone.
      ...Array.from({ length: 40 }, (_, i) => ({
        dot: 100 + i,
        legal_name: 'BLUE LINE EXPRESS',
        dba_name: null,
        power_units: i,
        state: i % 2 === 0 ? 'OH' : 'PA',
      })),
      { dot: 200, legal_name: 'BLUE LINE EXPRESS CO', dba_name: null, power_units: 999, state: 'PA' },
    ];
    const out = await mkdtemp(join(tmpdir(), 'shardline-names-exact-'));
    try {
      const sink = await openSink({ service: 'carriers', outDir: out });
      await writeNameIndex(sink, [...carriers].sort(compareRank));
      await sink.publish({
        service: 'carriers',
        data_version: '0123456789abcdef',
        built_at: '2026-01-01T00:00:00.000Z',
        demo: true,
        sources: [],
        counts: {},
      });
      const build = loadBuild(join(out, 'carriers'), 'carriers');
      expect(
        Array.from(new Uint32Array(new Uint8Array(build.readBuffer('index/names.exact-collisions')).buffer)),
      ).toEqual([fnv1aUtf8(`acme ${a}`)]);
      const idx = new NameIndex(build);
      const byDot = new Map(carriers.map((c) => [c.dot, c]));
      const asked: number[] = [];
      const whole = (dot: number, key: string) => {
        asked.push(dot);
        const c = byDot.get(dot)!;
        return toNameKey(c.legal_name) === key || (c.dba_name !== null && toNameKey(c.dba_name) === key);
      };
      // The shared hash: each carrier that has the query's words is checked; the query's name comes first.
      expect(idx.search(`acme ${a}`, 10, whole)).toMatchObject({ total: 3, dots: [13, 11, 14] });
      expect(asked.sort()).toEqual([11, 13]);
      asked.length = 0;
      expect(idx.search(`acme ${b}`, 10, whole)).toMatchObject({ total: 1, dots: [12] });
      expect(asked).toEqual([12]);
      asked.length = 0;
      // A hash that names another key only: one check rules the query's name out.
      expect(idx.search(`acme ${d}`, 10, whole)).toMatchObject({ total: 1, dots: [15] });
      expect(asked).toEqual([15]);
      asked.length = 0;
      // One name: one check, all 40 first (by power units), then the longer name.
      const blue = idx.search('blue line express', 50, whole);
      expect(asked).toHaveLength(1);
      expect(blue.total).toBe(41);
      expect(blue.dots).toEqual([...Array.from({ length: 40 }, (_, i) => 139 - i), 200]);
      asked.length = 0;
      // No whole name: ranking order alone.
      expect(idx.search('blue line', 3, whole)).toMatchObject({ total: 41, dots: [200, 139, 138] });
      expect(asked).toEqual([]);
      // Whole names of a state first, then the others of that state; a page past the whole names.
      expect(idx.search('blue line express', 3, whole, { state: 'pa' })).toMatchObject({
        total: 21,
        dots: [139, 137, 135],
      });
      expect(idx.search('blue line express', 3, whole, { state: 'PA', offset: 19 })).toMatchObject({
        total: 21,
        dots: [101, 200],
      });
      expect(idx.search(`acme ${a}`, 10, whole, { state: 'OH' })).toMatchObject({ total: 2, dots: [11, 14] });
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});
