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
    expect(BITSET_KERNEL_WASM.length).toBeLessThan(256);
  });

  it.each([1, 3, 4, 5, 1003, 65_625])('ANDs and counts %i words exactly as JavaScript does, padding never counted', (words) => {
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
  });
});
