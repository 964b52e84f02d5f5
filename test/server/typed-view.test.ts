import { describe, expect, it } from 'vitest';
import { f64View, u32View } from '../../server/core/typed-view.ts';

describe('typed views over file bytes', () => {
  const bytes = Buffer.alloc(4 + 12 + 16);
  [7, 0xfffffffe, 42].forEach((v, i) => {
    bytes.writeUInt32LE(v, 4 + i * 4);
  });
  [1.5, -2e10].forEach((v, i) => {
    bytes.writeDoubleLE(v, 16 + i * 8);
  });

  it('shares the memory of an aligned Buffer', () => {
    const view = u32View(bytes, 4, 3);
    expect([...view]).toEqual([7, 0xfffffffe, 42]);
    bytes.writeUInt32LE(9, 4);
    expect(view[0]).toBe(9);
    bytes.writeUInt32LE(7, 4);
    expect([...f64View(bytes, 16, 2)]).toEqual([1.5, -2e10]);
  });

  it('copies a Buffer that starts at an odd offset, with the same values', () => {
    const odd = Buffer.alloc(bytes.length + 1).subarray(1);
    bytes.copy(odd);
    expect(odd.byteOffset % 4).not.toBe(0);
    expect([...u32View(odd, 4, 3)]).toEqual([7, 0xfffffffe, 42]);
    expect([...u32View(odd.subarray(4, 16))]).toEqual([7, 0xfffffffe, 42]);
    expect([...f64View(odd, 16, 2)]).toEqual([1.5, -2e10]);
  });
});
