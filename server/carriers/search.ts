// Carrier search over the name index (pipeline/carriers/name-index.ts). Every word of the query must match
// the start of a word of the legal or DBA name: each word's matching index words are a contiguous range of
// the sorted word list, their postings are marked in one byte per carrier, and the carriers marked by every
// word are the matches. Marks are ranks, so results come out in ranking order; whole-name matches go first.
import type { LoadedBuild } from '../core/build.ts';
import { fnv1a, toNameKey } from '../../pipeline/carriers/name-index.ts';
import { toSearchWords } from '../../pipeline/core/text.ts';

const toU32 = (buf: Buffer) => {
  const out = new Uint32Array(buf.length / 4);
  Buffer.from(out.buffer).set(buf);
  return out;
};

export interface SearchHit {
  total: number;
  /** carrier_ids in result order. */
  dots: number[];
}

export class NameIndex {
  private readonly tokens: Buffer;
  private readonly tokenOffsets: Uint32Array;
  private readonly postingOffsets: Uint32Array;
  private readonly postings: Uint32Array;
  private readonly rankDots: Uint32Array;
  private readonly exact: Uint32Array;
  private readonly marks: Uint8Array;

  constructor(build: LoadedBuild) {
    this.tokens = build.readBuffer('index/names.tokens');
    this.tokenOffsets = toU32(build.readBuffer('index/names.token-offsets'));
    this.postingOffsets = toU32(build.readBuffer('index/names.posting-offsets'));
    this.postings = toU32(build.readBuffer('index/names.postings'));
    this.rankDots = toU32(build.readBuffer('index/names.rank-dots'));
    this.exact = toU32(build.readBuffer('index/names.exact'));
    this.marks = new Uint8Array(this.rankDots.length);
  }

  get carriers(): number {
    return this.rankDots.length;
  }

  /** Compares the first bytes of word `i` with `prefix`: <0, 0 (word starts with prefix) or >0. */
  private comparePrefix(i: number, prefix: Buffer): number {
    const start = this.tokenOffsets[i]!;
    const end = Math.min(this.tokenOffsets[i + 1]!, start + prefix.length);
    // The word's first bytes against the prefix; a word shorter than the prefix sorts before it.
    const c = this.tokens.compare(prefix, 0, prefix.length, start, end);
    if (c !== 0) return c;
    return end - start < prefix.length ? -1 : 0;
  }

  /** The range [lo, hi) of words starting with `prefix`. */
  private range(prefix: Buffer): [number, number] {
    const n = this.tokenOffsets.length - 1;
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.comparePrefix(mid, prefix) < 0) lo = mid + 1;
      else hi = mid;
    }
    let end = lo;
    let top = n;
    while (end < top) {
      const mid = (end + top) >>> 1;
      if (this.comparePrefix(mid, prefix) <= 0) end = mid + 1;
      else top = mid;
    }
    return [lo, end];
  }

  /** Ranks whose whole legal or DBA name equals the query's words (hash match; verified by the caller). */
  private exactRanks(key: string): number[] {
    const h = fnv1a(key);
    const pairs = this.exact.length / 2;
    let lo = 0;
    let hi = pairs;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.exact[mid * 2]! < h) lo = mid + 1;
      else hi = mid;
    }
    const out: number[] = [];
    for (let i = lo; i < pairs && this.exact[i * 2] === h; i++) out.push(this.exact[i * 2 + 1]!);
    return out;
  }

  /**
   * Matches `q` (already known not to be a carrier number). `isWholeName(dot, key)` confirms a hash hit of
   * the exact tier against the stored names.
   */
  search(q: string, limit: number, isWholeName: (dot: number, key: string) => boolean): SearchHit {
    const words = [...new Set(toSearchWords(q))].slice(0, 32);
    if (words.length === 0) return { total: 0, dots: [] };
    // The rarest word first: later words only promote carriers already marked.
    const ranges = words
      .map((w) => this.range(Buffer.from(w, 'utf8')))
      .map(([lo, hi]) => ({ lo, hi, size: this.postingOffsets[hi]! - this.postingOffsets[lo]! }))
      .sort((a, b) => a.size - b.size);
    if (ranges[0]!.size === 0) return { total: 0, dots: [] };
    const marks = this.marks;
    const touched: number[] = [];
    let total = 0;
    ranges.forEach(({ lo, hi }, level) => {
      const from = this.postingOffsets[lo]!;
      const to = this.postingOffsets[hi]!;
      for (let p = from; p < to; p++) {
        const r = this.postings[p]!;
        if (marks[r] !== level) continue;
        marks[r] = level + 1;
        if (level === 0) touched.push(r);
        if (level === ranges.length - 1) total++;
      }
    });
    const full = ranges.length;
    const key = toNameKey(q);
    const exact = this.exactRanks(key)
      .filter((r) => marks[r] === full && isWholeName(this.rankDots[r]!, key))
      .sort((a, b) => a - b);
    const picked = new Set(exact);
    const dots = exact.slice(0, limit).map((r) => this.rankDots[r]!);
    const take = (r: number) => {
      if (marks[r] === full && !picked.has(r)) dots.push(this.rankDots[r]!);
    };
    // Results in rank order. Few candidates: sort them. Many (a common word): walk the marks from the top
    // rank, which finds `limit` matches long before the end because matches are dense.
    if (touched.length <= 50_000) {
      const sorted = Uint32Array.from(touched).sort();
      for (let i = 0; i < sorted.length && dots.length < limit; i++) take(sorted[i]!);
    } else {
      for (let r = 0; r < marks.length && dots.length < limit; r++) take(r);
    }
    for (const r of touched) marks[r] = 0;
    return { total, dots };
  }
}
