import { describe, expect, it } from 'vitest';
import { indexOfSorted } from '../../contract/core/sorted.ts';

describe('indexOfSorted', () => {
  it('finds every key and no other value, whatever the spread of the keys', () => {
    let seed = 11;
    const rand = (n: number) => {
      seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
      return seed % n;
    };
    const spreads: [string, (i: number) => number][] = [
      ['even', (i) => i * 3 + 1],
      ['random gaps', () => 1 + rand(50)],
      ['clustered', (i) => (i % 100 === 0 ? 1_000_000 : 1)],
      ['exponential', (i) => 2 ** Math.min(20, Math.floor(i / 10))],
    ];
    for (const [name, gap] of spreads) {
      for (const n of [0, 1, 2, 3, 1000]) {
        const keys = new Uint32Array(n);
        for (let i = 0, k = 0; i < n; i++) keys[i] = k += gap(i);
        keys.forEach((k, i) => {
          expect(indexOfSorted(keys, k), `${name} ${n} ${k}`).toBe(i);
        });
        for (const k of keys) {
          if (k + 1 !== keys[keys.indexOf(k) + 1]) expect(indexOfSorted(keys, k + 1), `${name} ${n} ${k + 1}`).toBe(-1);
        }
        expect(indexOfSorted(keys, 0)).toBe(-1);
        expect(indexOfSorted(keys, 2 ** 32 - 1)).toBe(n > 0 && keys[n - 1] === 2 ** 32 - 1 ? n - 1 : -1);
      }
    }
  });
});
