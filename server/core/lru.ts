// A bounded map that forgets its least recently used entry first: a Map keeps insertion order, so a read
// moves its key to the end and the first key is the one to drop.
export class Lru<K, V> {
  private readonly map = new Map<K, V>();

  constructor(readonly max: number) {
    if (!Number.isSafeInteger(max) || max < 1) throw new Error(`an LRU holds at least 1 entry, not ${max}`);
  }

  get size(): number {
    return this.map.size;
  }

  /** The value, now the most recently used; undefined when absent. */
  get(key: K): V | undefined {
    if (!this.map.has(key)) return undefined;
    const value = this.map.get(key) as V;
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  /** Stores `value` as the most recently used, dropping the least recently used entry when full. */
  set(key: K, value: V): void {
    this.map.delete(key);
    if (this.map.size >= this.max) {
      const oldest = this.map.keys().next();
      if (!oldest.done) this.map.delete(oldest.value);
    }
    this.map.set(key, value);
  }

  delete(key: K): void {
    this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }
}
