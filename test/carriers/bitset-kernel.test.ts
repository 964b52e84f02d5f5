import { describe, expect, it } from 'vitest';
import { BITSET_KERNEL_WASM, createBitsetKernel } from '../../server/carriers/bitset-kernel.ts';

const bitsOf = (x: number) => {
  let n = 0;
  for (let v = x >>> 0; v !== 0; v >>>= 1) n += v & 1;
  return n;
};

describe('bitset kernel (WebAssembly SIMD)', () => {
  it('is a valid module on this runtime (Node 20 has SIMD), and a small one', () => {
    expect(createBitsetKernel(4)).toBeDefined();
    expect(BITSET_KERNEL_WASM.length).toBeLessThan(512);
  });

  it.each([1, 3, 4, 5, 1003, 65_625])(
    'ANDs and counts %i words exactly as JavaScript does, padding never counted',
    (words) => {
      const kernel = createBitsetKernel(words)!;
      let seed = words;
      const rand = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) | 0);
      const sets = [0, 1, 2].map(() => Int32Array.from({ length: words }, rand));
      const ones = new Int32Array(words).fill(-1);
      expect(kernel.and(ones, ones)).toBe(words * 32);
      let expected = sets[0]!.map((x, i) => x & sets[1]![i]!);
      expect(kernel.and(sets[0]!, sets[1]!)).toBe(expected.reduce((n, x) => n + bitsOf(x), 0));
      expect([...kernel.result]).toEqual([...expected]);
      expected = expected.map((x, i) => x & sets[2]![i]!);
      expect(kernel.andInto(sets[2]!)).toBe(expected.reduce((n, x) => n + bitsOf(x), 0));
      expect([...kernel.result]).toEqual([...expected]);
    },
  );

  it.each([1, 4, 5, 1003])('finds the blocks of %i words that have a bit set, and nothing past the last', (words) => {
    const kernel = createBitsetKernel(words)!;
    const zero = new Int32Array(words);
    const only = (w: number, bit: number) => {
      const set = new Int32Array(words);
      set[w] = 1 << bit;
      return set;
    };
    kernel.and(zero, zero);
    expect(kernel.nextSet(0)).toBeGreaterThanOrEqual(words);
    // A bit in the last word, then bits in a few words: each found from its block's first word, the
    // blocks between skipped.
    const last = only(words - 1, 31);
    kernel.and(last, last);
    expect(kernel.nextSet(0)).toBe((words - 1) & ~3);
    expect(kernel.nextSet(((words - 1) & ~3) + 4)).toBeGreaterThanOrEqual(words);
    if (words >= 1003) {
      const some = new Int32Array(words);
      for (const w of [2, 3, 500, 997]) some[w] = 1 << (w % 32);
      kernel.and(some, some);
      const blocks: number[] = [];
      for (let b = kernel.nextSet(0); b < words; b = kernel.nextSet(b + 4)) blocks.push(b);
      expect(blocks).toEqual([0, 500, 996]);
    }
  });

  it('ANDs bitsets in its own memory where they are, mixed with bitsets from elsewhere, and gives out only its slots', () => {
    const words = 1003;
    const kernel = createBitsetKernel(words, 3)!;
    const slots = [kernel.alloc()!, kernel.alloc()!, kernel.alloc()!];
    expect(kernel.alloc()).toBeUndefined();
    let seed = 11;
    const rand = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) | 0);
    for (const slot of slots) {
      expect(slot.length).toBe(words);
      expect(slot.every((x) => x === 0)).toBe(true);
      for (let i = 0; i < words; i++) slot[i] = rand();
    }
    // Writing one slot left the others as they were: no two share memory.
    const copies = slots.map((slot) => Int32Array.from(slot));
    const outside = Int32Array.from({ length: words }, rand);
    const count = (xs: Int32Array) => xs.reduce((n, x) => n + bitsOf(x), 0);
    const and = (a: Int32Array, b: Int32Array) => a.map((x, i) => x & b[i]!);
    let expected = and(copies[0]!, copies[1]!);
    expect(kernel.and(slots[0]!, slots[1]!)).toBe(count(expected));
    expect([...kernel.result]).toEqual([...expected]);
    expected = and(expected, outside);
    expect(kernel.andInto(outside)).toBe(count(expected));
    expected = and(expected, copies[2]!);
    expect(kernel.andInto(slots[2]!)).toBe(count(expected));
    expect([...kernel.result]).toEqual([...expected]);
    expected = and(outside, copies[2]!);
    expect(kernel.and(outside, slots[2]!)).toBe(count(expected));
    expect([...kernel.result]).toEqual([...expected]);
    slots.forEach((slot, i) => {
      expect([...slot]).toEqual([...copies[i]!]);
    });
  });
});
