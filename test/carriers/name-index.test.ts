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
