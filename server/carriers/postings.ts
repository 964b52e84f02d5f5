// Small pieces of the name search over sorted postings (ranks ascending): the popcount table, galloping search,
// setting a bitset from postings, and the bounded set of the smallest ranks a page needs. Used by NameIndex
// (server/carriers/search.ts).

/** Set bits of every 16-bit number: two table reads count a 32-bit word, faster here than bit tricks. */
export const POPCOUNT16 = new Uint8Array(65_536);
for (let i = 1; i < 65_536; i++) POPCOUNT16[i] = (i & 1) + POPCOUNT16[i >>> 1]!;

/**
 * The first position from `from` to `end` whose posting is at least `r` (`end` if none), the postings
 * there ascending: steps that double from `from`, then halve (galloping: about log2 of the distance).
 */
export function gallop(postings: Uint32Array, from: number, end: number, r: number): number {
  if (from >= end || postings[from]! >= r) return from;
  // postings[lo] < r throughout; hi ends at `end` or at a posting >= r.
  let lo = from;
  let step = 1;
  let hi = from + 1;
  while (hi < end && postings[hi]! < r) {
    lo = hi;
    step <<= 1;
    hi = lo + step;
  }
  if (hi > end) hi = end;
  lo++;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (postings[mid]! < r) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Sets the bit of each posting from `from` to `end`. A function of its own: V8 optimizes a long loop inside
 * a larger method on the stack (OSR), and code compiled that way lacked feedback for what follows the loop,
 * so it deoptimized at every new bitset and ran slower code until optimized again.
 */
export function setBits(bits: Int32Array, postings: Uint32Array, from: number, end: number): void {
  for (let p = from; p < end; p++) {
    const r = postings[p]!;
    bits[r >>> 5]! |= 1 << (r & 31);
  }
}

/**
 * Up to this many ranks, TopRanks keeps them in an insertion list; beyond (a deep page: offset up to
 * 10,000), shifting a long list at each insert would cost more than sorting now and then.
 */
const INSERTION_MAX = 128;

/**
 * The smallest ranks offered, at most `limit` of them, ascending: a bounded insertion list, or for a large
 * limit a buffer sorted and cut back to `limit` whenever it holds twice as many (each rank is then moved
 * O(log) times, not O(limit)).
 */
export class TopRanks {
  private readonly kept: number[] = [];
  /** With a buffer: ranks at or above it can no longer be among the smallest `limit`. */
  private cut = Number.POSITIVE_INFINITY;
  constructor(private readonly limit: number) {}
  offer(r: number): void {
    const a = this.kept;
    if (this.limit > INSERTION_MAX) {
      if (r >= this.cut) return;
      a.push(r);
      if (a.length >= 2 * this.limit) this.prune();
      return;
    }
    if (a.length === this.limit) {
      if (r >= a[a.length - 1]!) return;
      a.pop();
    }
    let i = a.length;
    a.push(r);
    while (i > 0 && a[i - 1]! > r) {
      a[i] = a[i - 1]!;
      i--;
    }
    a[i] = r;
  }
  private prune(): void {
    const a = this.kept;
    a.sort((x, y) => x - y);
    if (a.length > this.limit) {
      a.length = this.limit;
      this.cut = a[this.limit - 1]!;
    }
  }
  /** The ranks kept, ascending. */
  ranks(): number[] {
    if (this.limit > INSERTION_MAX) this.prune();
    return this.kept;
  }
}
