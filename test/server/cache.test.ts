// The recently-used cache: never more than its bound, keeps what was used lately, and drops what was not.
import { describe, expect, it } from 'vitest';
import { Lru, RepeatCache } from '../../server/core/cache.ts';

describe('Lru', () => {
  it('holds at most max entries, however many go in', () => {
    for (const max of [1, 2, 3, 10, 101]) {
      const lru = new Lru<number>(max);
      for (let i = 0; i < 1000; i++) {
        lru.set(`k${i % 337}`, i);
        if (i % 3 === 0) lru.get(`k${(i * 7) % 337}`);
        expect(lru.size).toBeLessThanOrEqual(max);
      }
    }
  });

  it('keeps the entries used within the last max/2 insertions, updates values, and drops the unused', () => {
    const lru = new Lru<string>(10);
    lru.set('hot', 'a');
    for (let i = 0; i < 100; i++) {
      lru.set(`cold${i}`, String(i));
      // Used at every step: never dropped.
      expect(lru.get('hot')).toBe('a');
    }
    lru.set('hot', 'b');
    expect(lru.get('hot')).toBe('b');
    // The last four insertions are always there (generations of 5); the early ones are gone.
    for (let i = 96; i < 100; i++) expect(lru.get(`cold${i}`)).toBe(String(i));
    for (let i = 0; i < 80; i++) expect(lru.get(`cold${i}`)).toBeUndefined();
    expect(lru.get('never')).toBeUndefined();
  });

  it('keeps a value read from the older generation', () => {
    const lru = new Lru<number>(4);
    lru.set('a', 1);
    lru.set('b', 2); // generation full: a, b are now the old generation
    expect(lru.get('a')).toBe(1); // moved back to the young one
    lru.set('c', 3); // young full again (a, c): the old generation (b) is dropped
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe(1);
    expect(lru.get('c')).toBe(3);
  });
});

describe('Lru as the stores and limiters use it', () => {
  it('keeps a null value as remembered, and a second set replaces without growing', () => {
    const lru = new Lru<number | null>(4);
    lru.set('x', null);
    lru.set('x', null);
    lru.set('y', 1);
    expect(lru.size).toBe(2);
    expect(lru.get('x')).toBeNull();
    expect(lru.get('z')).toBeUndefined();
  });

  it('forgets one key from either generation with delete, and every key with clear', () => {
    const lru = new Lru<number>(4);
    lru.set('a', 1);
    lru.set('b', 2); // a, b now the old generation
    lru.set('c', 3);
    lru.delete('a');
    lru.delete('c');
    expect([lru.get('a'), lru.get('b'), lru.get('c')]).toEqual([undefined, 2, undefined]);
    lru.clear();
    expect(lru.size).toBe(0);
    expect(lru.get('b')).toBeUndefined();
  });
});

describe('Lru onDrop', () => {
  it('hands over each value dropped with its generation, and none still held', () => {
    const dropped: number[] = [];
    const lru = new Lru<number>(4, (v) => dropped.push(v));
    for (let i = 0; i < 10; i++) lru.set(`k${i}`, i);
    // Generations of 2: after 10 insertions, k8 and k9 are the old one, and k0..k7 were dropped in order.
    expect(dropped).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(lru.get('k8')).toBe(8);
    lru.set('k10', 10);
    lru.set('k11', 11);
    // k8 moved back to the young generation before it aged out: only k9 goes.
    expect(dropped.slice(8)).toEqual([9]);
    expect(lru.get('k8')).toBe(8);
  });
});

describe('RepeatCache', () => {
  it('keeps a value from the second offer of its key on, and never for keys offered once', () => {
    const cache = new RepeatCache<number>(4);
    cache.offer('a', 1);
    expect(cache.get('a')).toBeUndefined();
    cache.offer('a', 2);
    expect(cache.get('a')).toBe(2);
    // A stream of one-off keys neither enters nor pushes out what repeats.
    for (let i = 0; i < 100; i++) {
      cache.offer(`once${i}`, i);
      expect(cache.get(`once${i}`)).toBeUndefined();
    }
    expect(cache.get('a')).toBe(2);
    expect(cache.size).toBe(1);
    // A key offered again only after `max` other offers counts as new.
    cache.offer('b', 1);
    for (let i = 0; i < 4; i++) cache.offer(`gap${i}`, i);
    cache.offer('b', 2);
    expect(cache.get('b')).toBeUndefined();
  });
});
