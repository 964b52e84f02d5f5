// Carrier search over the name index (pipeline/carriers/name-index.ts). Every word of the query must match
// the start of a word of the legal or DBA name: each word's matching index words are a contiguous range of
// the sorted word list (so a range of word ids). The rarest word's postings are the candidates; a candidate
// matches when its forward list (its word ids) has an id in every other word's range. Ranks are positions
// in ranking order, so results come out in ranking order; whole-name matches go first. A one-word query on
// a common prefix takes its total from the build's table of common prefixes and its results from the top
// ranks, so no query walks millions of postings unless all its words are common.
import type { LoadedBuild } from '../core/build.ts';
import { decodeCommon, fnv1a, toNameKey } from '../../pipeline/carriers/name-index.ts';
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

interface WordRange {
  key: Buffer;
  lo: number;
  hi: number;
  /** Postings in the range: at least the number of carriers it matches. */
  size: number;
}

/** Results are sorted when there are at most this many matches; more, and the top ranks are walked. */
const SORT_AT_MOST = 50_000;

export class NameIndex {
  private readonly tokens: Buffer;
  private readonly tokenOffsets: Uint32Array;
  private readonly postingOffsets: Uint32Array;
  private readonly postings: Uint32Array;
  private readonly rankDots: Uint32Array;
  private readonly exact: Uint32Array;
  private readonly forwardOffsets: Uint32Array;
  private readonly forward: Uint32Array;
  private readonly common: Map<string, number>;
  /** Per rank, the search that last saw it: a new search takes a new generation, so nothing is cleared. */
  private readonly seen: Uint32Array;
  private generation = 0;

  constructor(build: LoadedBuild) {
    this.tokens = build.readBuffer('index/names.tokens');
    this.tokenOffsets = toU32(build.readBuffer('index/names.token-offsets'));
    this.postingOffsets = toU32(build.readBuffer('index/names.posting-offsets'));
    this.postings = toU32(build.readBuffer('index/names.postings'));
    this.rankDots = toU32(build.readBuffer('index/names.rank-dots'));
    this.exact = toU32(build.readBuffer('index/names.exact'));
    this.forwardOffsets = toU32(build.readBuffer('index/names.forward-offsets'));
    this.forward = toU32(build.readBuffer('index/names.forward'));
    this.common = decodeCommon(build.readBuffer('index/names.common'));
    this.seen = new Uint32Array(this.rankDots.length);
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

  /** The range of words starting with `prefix`. */
  private range(prefix: Buffer): WordRange {
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
    return { key: prefix, lo, hi: end, size: this.postingOffsets[end]! - this.postingOffsets[lo]! };
  }

  /** True when rank `r` has a word in every one of `ranges` (its forward list meets each id range). */
  private hasAll(r: number, ranges: readonly WordRange[], from: number): boolean {
    const start = this.forwardOffsets[r]!;
    const end = this.forwardOffsets[r + 1]!;
    for (let k = from; k < ranges.length; k++) {
      const { lo, hi } = ranges[k]!;
      let found = false;
      for (let p = start; p < end; p++) {
        const t = this.forward[p]!;
        if (t >= lo && t < hi) {
          found = true;
          break;
        }
      }
      if (!found) return false;
    }
    return true;
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
   * The matches of the rarest word's postings that have every other word, each once: their count, and
   * the ranks themselves when there are few enough to sort.
   */
  private candidates(ranges: readonly WordRange[]): { total: number; ranks?: Uint32Array } {
    const gen = ++this.generation;
    if (gen === 0xffffffff) {
      this.seen.fill(0);
      this.generation = 1;
    }
    const g = this.generation;
    const { lo, hi } = ranges[0]!;
    const from = this.postingOffsets[lo]!;
    const to = this.postingOffsets[hi]!;
    // Kept while they are few enough to sort; past that, matches are dense enough to walk the top ranks.
    const keep = new Uint32Array(Math.min(to - from, SORT_AT_MOST));
    let total = 0;
    if (hi - lo === 1) {
      // One word: its postings are already distinct and in rank order.
      for (let p = from; p < to; p++) {
        const r = this.postings[p]!;
        if (ranges.length > 1 && !this.hasAll(r, ranges, 1)) continue;
        if (total < keep.length) keep[total] = r;
        total++;
      }
      return { total, ranks: total <= keep.length ? keep.subarray(0, total) : undefined };
    }
    for (let p = from; p < to; p++) {
      const r = this.postings[p]!;
      if (this.seen[r] === g) continue;
      this.seen[r] = g;
      if (ranges.length > 1 && !this.hasAll(r, ranges, 1)) continue;
      if (total < keep.length) keep[total] = r;
      total++;
    }
    return { total, ranks: total <= keep.length ? keep.subarray(0, total).sort() : undefined };
  }

  /**
   * Matches `q` (already known not to be a carrier number). `isWholeName(dot, key)` confirms a hash hit of
   * the exact tier against the stored names.
   */
  search(q: string, limit: number, isWholeName: (dot: number, key: string) => boolean): SearchHit {
    const words = [...new Set(toSearchWords(q))].slice(0, 32);
    if (words.length === 0) return { total: 0, dots: [] };
    // The rarest word first: the others only filter its postings.
    const ranges = words.map((w) => this.range(Buffer.from(w, 'utf8'))).sort((a, b) => a.size - b.size);
    if (ranges[0]!.size === 0) return { total: 0, dots: [] };
    const key = toNameKey(q);
    // A carrier whose legal and DBA names are the same words is in the exact table twice: once here.
    const exact = [...new Set(this.exactRanks(key))]
      .filter((r) => this.hasAll(r, ranges, 0) && isWholeName(this.rankDots[r]!, key))
      .sort((a, b) => a - b);
    const picked = new Set(exact);
    const dots = exact.slice(0, limit).map((r) => this.rankDots[r]!);
    const take = (r: number) => {
      if (!picked.has(r)) dots.push(this.rankDots[r]!);
    };
    const known = ranges.length === 1 ? this.common.get(ranges[0]!.key.toString('hex')) : undefined;
    const { total, ranks } = known !== undefined ? { total: known, ranks: undefined } : this.candidates(ranges);
    if (ranks) {
      for (let i = 0; i < ranks.length && dots.length < limit; i++) take(ranks[i]!);
    } else {
      // Many matches: they are dense among the top ranks, so walking from the top finds `limit` soon.
      for (let r = 0, found = 0; r < this.rankDots.length && dots.length < limit && found < total; r++) {
        if (this.hasAll(r, ranges, 0)) {
          found++;
          take(r);
        }
      }
    }
    return { total, dots };
  }
}
