// A recently-used cache, bounded so hostile query variety cannot grow memory. Two generations of Maps (as
// hashlru): O(1) operations and no one-by-one deletes from a Map's front, whose deleted slots V8 keeps until a
// rehash (12 us an operation at 20,000 entries under churn with that eviction, under 1 here).
export class Lru<V> {
  private young = new Map<string, V>();
  private old = new Map<string, V>();
  private readonly generation: number;

  /**
   * `max`: the most entries held at once. `onDrop`, if given, receives each value dropped with its
   * generation (so that large values can be recycled).
   */
  constructor(
    max = 1000,
    private readonly onDrop?: (value: V) => void,
  ) {
    this.generation = Math.max(1, Math.ceil(max / 2));
  }

  get(key: string): V | undefined {
    const v = this.young.get(key);
    if (v !== undefined) return v;
    const aged = this.old.get(key);
    if (aged !== undefined) {
      this.old.delete(key);
      this.insert(key, aged);
    }
    return aged;
  }

  set(key: string, value: V): void {
    if (this.young.has(key)) {
      this.young.set(key, value);
      return;
    }
    this.old.delete(key);
    this.insert(key, value);
  }

  private insert(key: string, value: V): void {
    this.young.set(key, value);
    if (this.young.size >= this.generation) {
      if (this.onDrop) for (const dropped of this.old.values()) this.onDrop(dropped);
      this.old = this.young;
      this.young = new Map();
    }
  }

  delete(key: string): void {
    this.young.delete(key);
    this.old.delete(key);
  }

  /** Forgets every entry (without onDrop: nothing is recycled that a caller may still hold). */
  clear(): void {
    this.young = new Map();
    this.old = new Map();
  }

  get size(): number {
    return this.young.size + this.old.size;
  }
}

/**
 * A recently-used cache that takes a value only when its key is offered a second time within the last
 * `max` offers. One-off keys (a crawl, random ids, never-repeated queries) then never displace what is
 * used again, and their values die young: a cached Buffer that is evicted later is garbage that only a
 * full collection frees, and a stream of them made V8 run one (10 ms and more) every second.
 */
export class RepeatCache<V> {
  private readonly seen: Lru<true>;
  private readonly kept: Lru<V>;

  constructor(max = 1000) {
    this.seen = new Lru(max);
    this.kept = new Lru(max);
  }

  get(key: string): V | undefined {
    return this.kept.get(key);
  }

  /** Keeps `value` if `key` was offered before (and not yet forgotten); else remembers the key alone. */
  offer(key: string, value: V): void {
    if (this.seen.get(key)) this.kept.set(key, value);
    else this.seen.set(key, true);
  }

  get size(): number {
    return this.kept.size;
  }
}
