// Numbers as the upstream files print them (pipeline/core/values.ts): null for a missing value, NaN for a
// malformed one (counted and reported by the build), never Infinity.
import { describe, expect, it } from 'vitest';
import { parseInteger, parseNumber, round } from '../../contract/core/values.ts';

describe('parseNumber', () => {
  it.each([
    ['12.5', 12.5],
    [' 1 000 ', 1000],
    ['-3', -3],
    ['+.5', 0.5],
    ['2.5e3', 2500],
    ['1e308', 1e308],
  ])('reads %j as %d', (raw, n) => expect(parseNumber(raw)).toBe(n));

  it.each(['1e400', '-1e400', '1e309', 'abc', '1,5', '0x10', 'Infinity'])(
    'reads %j as malformed (NaN), never as Infinity',
    (raw) => {
      expect(parseNumber(raw)).toBeNaN();
    },
  );

  it('reads an absent or empty value as null', () => {
    expect(parseNumber(undefined)).toBeNull();
    expect(parseNumber('')).toBeNull();
  });
});

describe('parseInteger', () => {
  it('takes whole numbers only', () => {
    expect(parseInteger('42')).toBe(42);
    expect(parseInteger('2.5')).toBeNaN();
    expect(parseInteger('1e400')).toBeNaN();
  });
});

describe('round', () => {
  it('rounds away binary noise, and keeps a figure too large to scale as it is (never Infinity)', () => {
    expect(round(0.1 + 0.2)).toBe(0.3);
    expect(round(1e305)).toBe(1e305);
    expect(round(-1.7e308)).toBe(-1.7e308);
  });
});
