// SeenSet (pipeline/core/seen.ts): which strings were seen, kept as fingerprints.
import { describe, expect, it } from 'vitest';
import { SeenSet } from '../../pipeline/core/seen.ts';

describe('SeenSet', () => {
  it('says true the first time a string is added and false after, across growth', () => {
    const seen = new SeenSet(4);
    const ids = Array.from({ length: 100_000 }, (_, i) => `${1_000_000_000 + i * 7}`);
    expect(ids.every((id) => seen.add(id))).toBe(true);
    expect(seen.size).toBe(100_000);
    expect(ids.some((id) => seen.add(id))).toBe(false);
    expect(seen.size).toBe(100_000);
  });

  it('tells apart strings that differ in one character, in order or in case, and the empty string', () => {
    const seen = new SeenSet();
    for (const s of ['', 'TX1\t1', 'TX1\t2', 'TX2\t1', '1\tTX1', 'tx1\t1', 'é', 'e\u0301'])
      expect(seen.add(s), JSON.stringify(s)).toBe(true);
    expect(seen.add('TX1\t1')).toBe(false);
    expect(seen.add('')).toBe(false);
  });
});
