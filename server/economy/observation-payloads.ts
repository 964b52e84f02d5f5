// Precomputed `/api/observations` responses (server/core/payload.ts: body, compressed forms, ETag), so a
// query asked again over cached data costs a Map read instead of slicing, serializing, hashing and
// compressing again. Each payload is tied to the cache entry it was made from: the observations array the
// cache answered with, which the cache replaces (never mutates) on a pull or a reload. A series holds
// payloads of one entry at a time; the first time the route sees the cache answer from another entry, the
// series' older payloads are dropped, and a payload is only ever served to a request whose cache answer is
// the very entry it was made from, so no response claims fresher data (`asOf`, `cached`, `stale`) than it has.
// Bounded by bytes, so query variety cannot grow memory: the oldest go first, except that one used since it
// was last looked at gets a second chance (CLOCK), which keeps a hit to one Map read and a flag.
import type { Observation, RegistryEntry } from '../../contract/economy/types.ts';
import type { Payload } from '../core/payload.ts';

export interface ObservationPayload {
  /** The registry entry the request named: what the cache is asked about before this payload is served. */
  entry: RegistryEntry;
  /** The cache entry's observations this payload was made from (compared by identity). */
  source: readonly Observation[];
  payload: Payload;
}

interface Item extends ObservationPayload {
  bytes: number;
  /** Read since it was stored or last spared by eviction. */
  used: boolean;
}

/** Map bookkeeping per item beyond its buffers and key, roughly. */
const ITEM_OVERHEAD = 256;

export class ObservationPayloads {
  /** By key, oldest first. */
  private readonly items = new Map<string, Item>();
  /** Per series: the cache entry its payloads were made from, and their keys. */
  private readonly series = new Map<string, { source: readonly Observation[]; keys: Set<string> }>();
  private total = 0;

  constructor(private readonly maxBytes: number) {}

  /**
   * The item under `key`, whatever entry it was made from: the caller compares `source` with what the cache
   * answers now before serving it.
   */
  peek(key: string): ObservationPayload | undefined {
    const item = this.items.get(key);
    if (item) item.used = true;
    return item;
  }

  /**
   * The payload under `key` made from `source`, the observations the cache has just answered with. Payloads
   * of the series made from another entry are dropped: the cache has replaced it.
   */
  get(key: string, series: string, source: readonly Observation[]): Payload | undefined {
    const held = this.series.get(series);
    if (held && held.source !== source) {
      this.drop(series);
      return undefined;
    }
    const item = this.peek(key);
    return item?.source === source ? item.payload : undefined;
  }

  set(key: string, value: ObservationPayload): void {
    this.remove(key);
    const id = value.entry.id;
    let held = this.series.get(id);
    if (held && held.source !== value.source) {
      this.drop(id);
      held = undefined;
    }
    const p = value.payload;
    const item: Item = {
      ...value,
      used: false,
      bytes: p.body.length + (p.gz?.length ?? 0) + (p.br?.length ?? 0) + key.length * 2 + ITEM_OVERHEAD,
    };
    // Larger than the whole budget: kept by nobody, rather than emptying the cache for it.
    if (item.bytes > this.maxBytes) return;
    if (!held) this.series.set(id, (held = { source: value.source, keys: new Set() }));
    this.items.set(key, item);
    held.keys.add(key);
    this.total += item.bytes;
    // Each item is spared at most once (moved to the end with its flag cleared), so this ends.
    for (const [oldest, candidate] of this.items) {
      if (this.total <= this.maxBytes) break;
      if (candidate.used && candidate !== item) {
        candidate.used = false;
        this.items.delete(oldest);
        this.items.set(oldest, candidate);
      } else {
        this.remove(oldest);
      }
    }
  }

  /** Forgets every payload of a series. */
  drop(series: string): void {
    const held = this.series.get(series);
    if (!held) return;
    for (const key of [...held.keys]) this.remove(key);
    this.series.delete(series);
  }

  get size(): number {
    return this.items.size;
  }

  /** Bytes held: bodies, compressed forms, keys and bookkeeping. */
  get bytes(): number {
    return this.total;
  }

  private remove(key: string): void {
    const item = this.items.get(key);
    if (!item) return;
    this.items.delete(key);
    this.total -= item.bytes;
    const held = this.series.get(item.entry.id);
    held?.keys.delete(key);
    if (held && held.keys.size === 0) this.series.delete(item.entry.id);
  }
}
