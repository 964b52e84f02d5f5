// A small LRU for responses computed per query (search): the same query answers from a precomputed
// Payload. Bounded so hostile query variety cannot grow memory.
export class Lru<V> {
  private map = new Map<string, V>();
  constructor(private readonly max = 1000) {}
  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as string);
  }
  get size(): number {
    return this.map.size;
  }
}
