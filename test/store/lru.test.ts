// Lru (server/core/lru.ts): the bound on the keys a store remembers forgets the least recently used one.
import { describe, expect, it } from 'vitest';
import { Lru } from '../../server/core/lru.ts';

describe('Lru', () => {
  it('drops the least recently used entry when full, and only that one', () => {
    const lru = new Lru<string, number>(3);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.set('c', 3);
    expect(lru.get('a')).toBe(1); // a is now the most recent; b the least
    lru.set('d', 4);
    expect(lru.size).toBe(3);
    expect(lru.get('b')).toBeUndefined();
    expect([lru.get('a'), lru.get('c'), lru.get('d')]).toEqual([1, 3, 4]);
  });

  it('keeps a null value as remembered, and a second set replaces without growing', () => {
    const lru = new Lru<string, number | null>(2);
    lru.set('x', null);
    lru.set('x', null);
    lru.set('y', 1);
    expect(lru.size).toBe(2);
    expect(lru.get('x')).toBeNull();
    expect(lru.get('z')).toBeUndefined();
  });

  it('refuses a bound below 1', () => {
    expect(() => new Lru(0)).toThrow(/at least 1/);
  });
});
