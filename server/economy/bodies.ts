// Response bodies of the observation routes, made once per copy of the data and slice, then one Map read.
// Compressed on the event loop, once: the thread pool measured slower on two CPUs (bench/HISTORY.md,
// "Economy observation bodies").
import type { Payload } from '../core/payload.ts';
import type { ObservationsAnswer } from './observations.ts';

/** A daily series' whole history is about 250 kB with its compressed forms; most queries are a few kB. */
export const OBSERVATION_BODY_BYTES = 64 * 1024 * 1024;

/** Map bookkeeping per item beyond its buffers and key, roughly. */
const ITEM_OVERHEAD = 256;

interface Item {
  payload: Payload;
  bytes: number;
  /** Read since it was stored or last spared by eviction. */
  used: boolean;
}

const ids = new WeakMap<object, number>();
let lastId = 0;

/** A number for an object, the same for as long as it lives and never given to another. */
export function identityOf(x: object): number {
  let id = ids.get(x);
  if (id === undefined) {
    id = ++lastId;
    ids.set(x, id);
  }
  return id;
}

/**
 * The key of an answer's body: its data by identity, the slice, and the flags the document carries. The cache and
 * the vintage archive replace an observations array, never mutate it, so a body never outlives its data.
 */
export function toBodyKey(a: ObservationsAnswer): string {
  const flags = a.stale ? 's' : a.cached ? 'c' : 'p';
  const v = a.view;
  // A transform selects by date after it runs, so the dates asked for, not only the slice, name the body.
  // So do the missing points' dates, kept apart from the observations' slice.
  const view = `${v.units}${v.frequency ?? ''}${v.method}${v.order}${v.offset}/${v.limit}${v.format}${v.includeMissing ? 'm' : ''}`;
  const dates =
    v.units === 'lin' && v.frequency === undefined && !v.includeMissing ? '' : `${v.from ?? ''}~${v.to ?? ''}`;
  return `${identityOf(a.observations)}${flags}${a.start}-${a.end}${view}${dates}`;
}

/** Bounded by bytes, oldest out first, but one read since last looked at gets a second chance (CLOCK). */
export class BodyMemo {
  /** By key, oldest first. */
  private readonly items = new Map<string, Item>();
  /** Bodies being made: concurrent requests for one key wait for the same one. */
  private readonly making = new Map<string, Promise<Payload>>();
  private total = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): Payload | undefined {
    const item = this.items.get(key);
    if (!item) return undefined;
    item.used = true;
    return item.payload;
  }

  /** The body under `key`, made by `make` (once, whoever else asks meanwhile) when there is none. */
  async getOrMake(key: string, make: () => Payload | Promise<Payload>): Promise<Payload> {
    const held = this.get(key);
    if (held) return held;
    let pending = this.making.get(key);
    if (!pending) {
      pending = Promise.resolve()
        .then(make)
        .then((p) => {
          this.set(key, p);
          return p;
        })
        .finally(() => this.making.delete(key));
      this.making.set(key, pending);
    }
    return pending;
  }

  set(key: string, payload: Payload): void {
    this.remove(key);
    // Codings are made on first use (codedBody): counted up front at a quarter of the body, more than JSON's
    // gzip and brotli forms together take.
    const made = (payload.gz?.length ?? 0) + (payload.br?.length ?? 0);
    const codings = payload.compressible ? Math.max(made, Math.ceil(payload.body.length / 4)) : made;
    const bytes = payload.body.length + codings + key.length * 2 + ITEM_OVERHEAD;
    // Larger than the whole budget: kept by nobody, rather than emptying the memo for it.
    if (bytes > this.maxBytes) return;
    const item: Item = { payload, bytes, used: false };
    this.items.set(key, item);
    this.total += bytes;
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
  }
}
