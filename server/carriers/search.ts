// Carrier search over the name index: every query word must start a word of the name. The rarest word range
// drives; a candidate must be in every other range (a bitset read when the range is dense, else its forward
// list); ranks come out in ranking order with whole names first, and totals are exact without walking
// millions of postings (common prefixes are precomputed by the build).
import { gallop, POPCOUNT16, setBits, TopRanks } from './postings.ts';
import type { LoadedBuild } from '../core/build.ts';
import { Lru } from '../core/cache.ts';
import { u32View } from '../core/typed-view.ts';
import { createBitsetKernel, type BitsetKernel } from './bitset-kernel.ts';
import {
  COMMON_TOP,
  decodeCommon,
  decodeCommonTop,
  decodeRankStates,
  decodeStateTable,
  NAME_INDEX,
  nameKeyOf,
  toStateKey,
} from '../../contract/carriers/name-index.ts';
import { fnv1aUtf8 } from '../../contract/core/hash.ts';
import { indexOfSorted } from '../../contract/core/sorted.ts';
import { toSearchWords } from '../../contract/core/text.ts';

export interface SearchHit {
  total: number;
  /** carrier_ids in result order. */
  dots: number[];
  /** The same carriers' positions in the build's record stores (carrier_id order), from names.rank-records. */
  records: number[];
}

interface WordRange {
  key: Buffer;
  lo: number;
  hi: number;
  /** Postings in the range: at least the number of carriers it matches. */
  size: number;
  /** One bit per rank, set for the ranks the range matches, when the search uses one for this range. */
  bits: Int32Array | undefined;
  /**
   * True when a single word's postings are tested by a cursor instead: candidates come in ascending rank
   * order, as its postings do, so the cursor only moves forward (galloping), through `at` up to `end`.
   */
  merge: boolean;
  at: number;
  end: number;
  /** A filter, not a word: `bits` holds the carriers it keeps (a state's), and lo, hi, at and end are unused. */
  filter?: true;
}

/**
 * Bitsets kept, the recently used ones (server/core/cache.ts): at most BITSETS dense ranges and BITSETS / 2
 * others, 1.5 × BITSETS × N/8 bytes (100 MB at 2.1 M carriers).
 * A bitset of N bits is small enough to stay in the CPU cache, where a forward list or a mark array of N
 * entries is not: testing a candidate against a range is one bit read instead of two cache misses.
 */
const BITSETS = 256;
/**
 * A range gets a bitset made when its postings are at most this many times the driver's (it pays off at
 * once), or when it matches at least N / DENSE_SHARE carriers: such ranges (LLC, TRUCKING, one letter)
 * are few and come back in query after query, so their cache keeps them.
 */
const BUILD_FACTOR = 32;
const DENSE_SHARE = 64;
/** A one-word query for a common prefix matching at least N / this carriers may find its page by walking ranks. */
const WALK_SHARE = 128;
/** A prefix driver (several words) with at least N / this postings is read through its bitset, in order. */
const BITSET_DRIVER_SHARE = 64;
/**
 * When the driver has at least N / this postings, a query of several ranges ANDs their bitsets word by
 * word instead of testing each of the driver's carriers at random: with the SIMD kernel (bitset-kernel.ts)
 * an AND costs about as much as testing 4,000 carriers, in JavaScript about as much as 40,000.
 */
const AND_SHARE = { simd: 256, js: 48 };
/**
 * State bitsets kept (N/8 bytes each, 4 MB at 2.1 M carriers): one is made from the ranks' states in one
 * pass (a couple of milliseconds at full size) the first time a search asks for that state.
 */
const STATE_BITSETS = 16;
/**
 * A one-word query for a common prefix finds its page by walking the top ranks only for pages this deep:
 * past it (a deep page, up to offset 10,000), the general path reads the prefix's bitset in order.
 */
const WALK_WANT = 2 * COMMON_TOP;

export class NameIndex {
  private readonly tokens: Buffer;
  private readonly tokenOffsets: Uint32Array;
  private readonly postingOffsets: Uint32Array;
  private readonly postings: Uint32Array;
  private readonly rankDots: Uint32Array;
  private readonly rankRecords: Uint32Array;
  private readonly exact: Uint32Array;
  /** Hashes of the exact table shared by different names. */
  private readonly collisions: Uint32Array;
  private readonly forwardOffsets: Uint32Array;
  private readonly forward: Uint32Array;
  private readonly common: Map<string, number>;
  /** The common prefixes' first ranks. */
  private readonly commonTop: Map<string, Uint32Array>;
  /**
   * One bit per rank, all clear between searches: marks the ranks a prefix driver has given already (a
   * carrier with two words of the prefix counts once). N/8 bytes stay in the CPU cache where a mark per
   * rank would not; a search clears the words it set.
   */
  private readonly scratch: Int32Array;
  /** Bitsets by word range (`lo:hi`), the recently used ones. */
  private readonly bitsets: Lru<Int32Array>;
  /**
   * The same for dense ranges (at least N / DENSE_SHARE postings: LLC, TRUCKING, one letter), kept apart so
   * that the stream of rarer ranges never pushes them out: they come back in query after query, and one
   * costs a millisecond to build again.
   */
  private readonly denseBitsets: Lru<Int32Array>;
  /**
   * Bitsets the cache dropped, cleared and reused by later searches: a new one is N/8 bytes that the
   * system maps, faults in and unmaps, and that only a full collection gives back. Dropped during a search,
   * a bitset may still be one of its ranges', so it waits in `dropped` until the next search begins.
   */
  private dropped: Int32Array[] = [];
  private spare: Int32Array[] = [];
  private readonly bitsetCap: number;
  private readonly andAt: number;
  private readonly bitsetDriverAt: number;
  private readonly denseAt: number;
  private readonly kernel: BitsetKernel | undefined;
  /** 32-bit words in a bitset of every rank. */
  private readonly words: number;
  /** The build's states (names.states) → their code in names.rank-states (1 + position). */
  private readonly states: Map<string, number>;
  /** The state of each rank (names.rank-states), read at the first search for a state. */
  private rankStates: Uint8Array | Uint16Array | undefined;
  /** Bitsets of the states searched for lately, with their number of carriers. */
  private readonly stateBitsets = new Lru<{ bits: Int32Array; count: number }>(STATE_BITSETS);
  private readonly build: Pick<LoadedBuild, 'readBuffer'>;

  /**
   * The options exist for tests, to take each path on a small index: bitsets kept, the driver sizes from
   * which bitsets are ANDed and from which a prefix driver is read through its bitset, the range size from
   * which a range is dense, and the SIMD kernel.
   */
  constructor(
    build: Pick<LoadedBuild, 'checksums' | 'readBuffer'>,
    options: { bitsets?: number; andAt?: number; bitsetDriverAt?: number; denseAt?: number; simd?: boolean } = {},
  ) {
    this.build = build;
    this.tokens = build.readBuffer(NAME_INDEX.tokens);
    this.tokenOffsets = u32View(build.readBuffer(NAME_INDEX.tokenOffsets));
    this.postingOffsets = u32View(build.readBuffer(NAME_INDEX.postingOffsets));
    this.postings = u32View(build.readBuffer(NAME_INDEX.postings));
    this.rankDots = u32View(build.readBuffer(NAME_INDEX.rankDots));
    this.rankRecords = u32View(build.readBuffer(NAME_INDEX.rankRecords));
    this.exact = u32View(build.readBuffer(NAME_INDEX.exact));
    this.collisions = u32View(build.readBuffer(NAME_INDEX.exactCollisions));
    this.forwardOffsets = u32View(build.readBuffer(NAME_INDEX.forwardOffsets));
    this.forward = u32View(build.readBuffer(NAME_INDEX.forward));
    this.common = decodeCommon(build.readBuffer(NAME_INDEX.common));
    this.commonTop = decodeCommonTop(this.common, u32View(build.readBuffer(NAME_INDEX.commonTop)));
    this.states = new Map(decodeStateTable(build.readBuffer(NAME_INDEX.states)).map((state, i) => [state, i + 1]));
    this.words = (this.rankDots.length + 31) >>> 5;
    this.scratch = new Int32Array(this.words);
    this.bitsetCap = options.bitsets ?? BITSETS;
    this.bitsets = new Lru(Math.max(1, this.bitsetCap >> 1), (bits) => this.dropped.push(bits));
    this.denseBitsets = new Lru(this.bitsetCap, (bits) => this.dropped.push(bits));
    // Room in the kernel's memory for every bitset the caches hold, and some dropped ones waiting for reuse.
    this.kernel =
      options.simd === false ? undefined : createBitsetKernel(this.words, this.bitsetCap + (this.bitsetCap >> 1) + 8);
    this.andAt = options.andAt ?? Math.ceil(this.rankDots.length / (this.kernel ? AND_SHARE.simd : AND_SHARE.js));
    this.bitsetDriverAt = options.bitsetDriverAt ?? Math.ceil(this.rankDots.length / BITSET_DRIVER_SHARE);
    this.denseAt = options.denseAt ?? Math.ceil(this.rankDots.length / DENSE_SHARE);
  }

  get carriers(): number {
    return this.rankDots.length;
  }

  /**
   * Compares the first bytes of word `i` with `prefix`: <0, 0 (word starts with prefix) or >0. A loop
   * over the bytes: words are a few bytes long, and Buffer.compare's call into C++ cost more than that.
   */
  private comparePrefix(i: number, prefix: Buffer): number {
    const tokens = this.tokens;
    const start = this.tokenOffsets[i]!;
    const length = this.tokenOffsets[i + 1]! - start;
    const n = Math.min(length, prefix.length);
    for (let k = 0; k < n; k++) {
      const d = tokens[start + k]! - prefix[k]!;
      if (d !== 0) return d;
    }
    // The word's first bytes equal the prefix's; a word shorter than the prefix sorts before it.
    return length < prefix.length ? -1 : 0;
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
    // The words after the first one that starts with the prefix: usually none or a few, so look just past
    // it in doubling steps before halving.
    let end = lo;
    let top = n;
    for (let step = 1; end + step <= n; step <<= 1) {
      if (this.comparePrefix(end + step - 1, prefix) > 0) {
        top = end + step - 1;
        break;
      }
      end += step;
    }
    while (end < top) {
      const mid = (end + top) >>> 1;
      if (this.comparePrefix(mid, prefix) <= 0) end = mid + 1;
      else top = mid;
    }
    const from = this.postingOffsets[lo]!;
    const to = this.postingOffsets[end]!;
    return { key: prefix, lo, hi: end, size: to - from, bits: undefined, merge: false, at: from, end: to };
  }

  /**
   * The carriers of a state (toStateKey's form) as a filter range with its bitset, or undefined when no
   * carrier of the build has that state. The ranks' states are read at the first call.
   */
  private stateRange(state: string): WordRange | undefined {
    const code = this.states.get(state);
    if (code === undefined) return undefined;
    let kept = this.stateBitsets.get(state);
    if (!kept) {
      this.rankStates ??= decodeRankStates(this.build.readBuffer(NAME_INDEX.rankStates), this.rankDots.length);
      const codes = this.rankStates;
      const bits = new Int32Array(this.words);
      let count = 0;
      for (let r = 0; r < codes.length; r++) {
        if (codes[r] !== code) continue;
        bits[r >>> 5]! |= 1 << (r & 31);
        count++;
      }
      kept = { bits, count };
      this.stateBitsets.set(state, kept);
    }
    const key = Buffer.from(state, 'ascii');
    return { key, lo: 0, hi: 0, size: kept.count, bits: kept.bits, merge: false, at: 0, end: 0, filter: true };
  }

  /**
   * True when rank `r` has a word in every one of `ranges` from `from` on (a bit, the word's postings from
   * its cursor on, or the rank's forward list). With cursors, `r` must be above the ranks tested before.
   */
  private hasAll(r: number, ranges: readonly WordRange[], from: number): boolean {
    for (let k = from; k < ranges.length; k++) {
      const range = ranges[k]!;
      const { lo, hi, bits } = range;
      if (bits) {
        if (((bits[r >>> 5]! >>> (r & 31)) & 1) === 0) return false;
        continue;
      }
      if (range.merge) {
        if (!this.seek(range, r)) return false;
        continue;
      }
      let found = false;
      for (let p = this.forwardOffsets[r]!, end = this.forwardOffsets[r + 1]!; p < end; p++) {
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

  /**
   * Moves the range's cursor to its first posting at or above `r`, in steps that double and then halve
   * (galloping: about log2 of the postings skipped), and tells whether that posting is `r`.
   */
  private seek(range: WordRange, r: number): boolean {
    const postings = this.postings;
    const end = range.end;
    let at = range.at;
    if (at < end && postings[at]! < r) {
      at = gallop(postings, at + 1, end, r);
      range.at = at;
    }
    return at < end && postings[at] === r;
  }

  /** The range's bitset if one is kept, or a new one when `make` (kept among the recently used). */
  private bitsetOf(range: WordRange, make: boolean): Int32Array | undefined {
    if (range.filter) return range.bits;
    const key = `${range.lo}:${range.hi}`;
    const cache = range.size >= this.denseAt ? this.denseBitsets : this.bitsets;
    const kept = cache.get(key);
    if (kept) return kept;
    if (!make || this.bitsetCap === 0) return undefined;
    const bits = this.spare.pop()?.fill(0) ?? this.kernel?.alloc() ?? new Int32Array(this.words);
    setBits(bits, this.postings, this.postingOffsets[range.lo]!, this.postingOffsets[range.hi]!);
    cache.set(key, bits);
    return bits;
  }

  /**
   * Every carrier the driver (`ranges[0]`, the rarest) matches that the other ranges match too: their
   * number and the `want` smallest ranks, ascending. A one-word driver's postings are already distinct and
   * in rank order; a prefix driver of several words is read through its bitset (each rank once, in order)
   * when it is large, and otherwise through its postings with a bit per rank in the scratch bitset.
   */
  private candidates(ranges: readonly WordRange[], want: number): { total: number; ranks: number[] } {
    const driver = ranges[0]!;
    if (ranges.length > 1 && this.bitsetCap > 0 && driver.size >= this.andAt) {
      return this.intersect(
        ranges.map((r) => this.bitsetOf(r, true)!),
        want,
      );
    }
    const from = this.postingOffsets[driver.lo]!;
    const to = this.postingOffsets[driver.hi]!;
    const postings = this.postings;
    const ranks: number[] = [];
    let total = 0;
    // With one other range and its bitset, the test is inlined: the common two-word query.
    const only = ranges.length === 2 ? ranges[1]!.bits : undefined;
    const passes = (r: number) =>
      only ? ((only[r >>> 5]! >>> (r & 31)) & 1) === 1 : ranges.length === 1 || this.hasAll(r, ranges, 1);
    if (driver.hi - driver.lo === 1) {
      if (ranges.length === 1) {
        for (let p = from; p < to && ranks.length < want; p++) ranks.push(postings[p]!);
        return { total: to - from, ranks };
      }
      if (only) {
        for (let p = from; p < to; p++) {
          const r = postings[p]!;
          const bit = (only[r >>> 5]! >>> (r & 31)) & 1;
          if (total < want && bit === 1) ranks.push(r);
          total += bit;
        }
        return { total, ranks };
      }
      if (ranges.length === 2 && ranges[1]!.merge) {
        // Two sorted lists: each side jumps (galloping) to the other's current posting.
        const other = ranges[1]!;
        let a = from;
        let b = other.at;
        const end = other.end;
        while (a < to && b < end) {
          const x = postings[a]!;
          const y = postings[b]!;
          if (x === y) {
            if (total++ < want) ranks.push(x);
            a++;
            b++;
          } else if (x < y) a = gallop(postings, a + 1, to, y);
          else b = gallop(postings, b + 1, end, x);
        }
        return { total, ranks };
      }
      for (let p = from; p < to; p++) {
        const r = postings[p]!;
        if (!this.hasAll(r, ranges, 1)) continue;
        if (total++ < want) ranks.push(r);
      }
      return { total, ranks };
    }
    const bits = driver.size >= this.bitsetDriverAt ? this.bitsetOf(driver, true) : undefined;
    if (bits) {
      for (let w = 0; w < bits.length; w++) {
        let word = bits[w]!;
        while (word !== 0) {
          const low = word & -word;
          word ^= low;
          const r = (w << 5) | (31 - Math.clz32(low));
          if (!passes(r)) continue;
          if (total++ < want) ranks.push(r);
        }
      }
      return { total, ranks };
    }
    const scratch = this.scratch;
    const top = new TopRanks(want);
    for (let p = from; p < to; p++) {
      const r = postings[p]!;
      const w = r >>> 5;
      const bit = 1 << (r & 31);
      if ((scratch[w]! & bit) !== 0) continue;
      scratch[w]! |= bit;
      if (!passes(r)) continue;
      total++;
      top.offer(r);
    }
    for (let p = from; p < to; p++) scratch[postings[p]! >>> 5] = 0;
    return { total, ranks: top.ranks() };
  }

  /** The AND of the bitsets: how many bits it sets, and its first `want` set bits (ranks, ascending). */
  private intersect(sets: readonly Int32Array[], want: number): { total: number; ranks: number[] } {
    const [first, second] = sets as [Int32Array, Int32Array];
    const ranks: number[] = [];
    if (this.kernel) {
      let total = this.kernel.and(first, second);
      for (let k = 2; k < sets.length; k++) total = this.kernel.andInto(sets[k]!);
      const bits = this.kernel.result;
      // The AND of common words is often sparse: blocks without a bit are skipped in the kernel.
      for (
        let block = this.kernel.nextSet(0);
        block < bits.length && ranks.length < want;
        block = this.kernel.nextSet(block + 4)
      ) {
        for (let w = block, end = Math.min(block + 4, bits.length); w < end; w++) {
          let x = bits[w]!;
          while (x !== 0 && ranks.length < want) {
            const low = x & -x;
            x ^= low;
            ranks.push((w << 5) | (31 - Math.clz32(low)));
          }
        }
      }
      return { total, ranks };
    }
    let total = 0;
    for (let w = 0; w < first.length; w++) {
      let x = first[w]! & second[w]!;
      for (let k = 2; k < sets.length; k++) x &= sets[k]![w]!;
      // No branch on x: in real bitsets it is zero or not at random, and a missed guess costs more.
      total += POPCOUNT16[x & 0xffff]! + POPCOUNT16[x >>> 16]!;
      while (x !== 0 && ranks.length < want) {
        const low = x & -x;
        x ^= low;
        ranks.push((w << 5) | (31 - Math.clz32(low)));
      }
    }
    return { total, ranks };
  }

  /** Ranks with a whole legal or DBA name whose key hashes to `h` (the key's; verified by the caller). */
  private exactRanks(h: number): number[] {
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
   * Matches `q` (already known not to be a carrier number): the page of `limit` results from `offset` in
   * result order (whole-name matches, then ranking order), among the carriers of `state` when one is given
   * (toStateKey's form). `isWholeName(dot, key)` confirms a hash hit of the exact tier against the stored
   * names.
   */
  search(
    q: string,
    limit: number,
    isWholeName: (dot: number, key: string) => boolean,
    page: { offset?: number; state?: string } = {},
  ): SearchHit {
    if (this.dropped.length > 0) {
      this.spare.push(...this.dropped);
      this.dropped = [];
    }
    const offset = page.offset ?? 0;
    const all = toSearchWords(q);
    // Every word counts (the contract: every word must match); `q` is at most 200 characters.
    const words = [...new Set(all)];
    if (words.length === 0) return this.hit(0, []);
    // The rarest word first: the others only filter its postings.
    const ranges = words.map((w) => this.range(Buffer.from(w, 'utf8'))).sort((a, b) => a.size - b.size);
    if (ranges[0]!.size === 0) return this.hit(0, []);
    if (page.state !== undefined) {
      // The state is a filter after the words, never the driver: the rarest word's postings are few enough
      // to test one by one, or large enough that the search ANDs bitsets, the state's among them.
      const state = toStateKey(page.state);
      const filter = state === null ? undefined : this.stateRange(state);
      if (!filter || filter.size === 0) return this.hit(0, []);
      ranges.push(filter);
    }
    // The query as a whole name (toNameKey), from the words already split.
    const key = nameKeyOf(all);
    const h = fnv1aUtf8(key);
    // A carrier whose legal and DBA names are the same words is in the exact table twice: once here.
    let exact = [...new Set(this.exactRanks(h))].filter((r) => this.hasAll(r, ranges, 0));
    if (indexOfSorted(this.collisions, h) < 0) {
      // The hash stands for one name: the first carrier's names tell whether it is the query's, for all.
      if (exact.length > 0 && !isWholeName(this.rankDots[exact[0]!]!, key)) exact = [];
    } else {
      exact = exact.filter((r) => isWholeName(this.rankDots[r]!, key));
    }
    exact.sort((a, b) => a - b);
    const picked = new Set(exact);
    // Results come in one stable order, whole names first, so a page is a slice of it: the first
    // `offset + limit` ranks of the others suffice, and at most exact.length of those are whole names.
    const end = offset + limit;
    const want = end + exact.length;
    const paged = (total: number, ranks: Iterable<number>) => {
      const shown = exact.slice(offset, end);
      let skip = Math.max(0, offset - exact.length);
      if (shown.length < limit)
        for (const r of ranks) {
          if (picked.has(r)) continue;
          if (skip > 0) skip--;
          else if (shown.push(r) === limit) break;
        }
      return this.hit(total, shown);
    };
    const one = ranges.length === 1 && ranges[0]!.hi - ranges[0]!.lo > 1;
    const prefix = one ? ranges[0]!.key.toString('hex') : '';
    const known = one ? this.common.get(prefix) : undefined;
    if (known !== undefined) {
      // A common prefix of several words: its total and its first ranks are in the build's tables, enough
      // when they hold the first `want` (the page's and any whole names among them) or every match.
      const first = this.commonTop.get(prefix);
      if (first && (first.length >= want || first.length === known)) return paged(known, first);
    }
    if (known !== undefined && known * WALK_SHARE >= this.rankDots.length && want <= WALK_WANT) {
      // Past those ranks, a prefix matching many carriers: they are
      // dense among the top ranks, so walking from the top finds `want` of them within want × WALK_SHARE.
      const found: number[] = [];
      for (let r = 0; r < this.rankDots.length && found.length < want && found.length < known; r++) {
        if (this.hasAll(r, ranges, 0)) found.push(r);
      }
      return paged(known, found);
    }
    // Each other range is tested through a bitset when one is kept or worth making for this driver (a
    // state's always has one). When
    // the driver gives its candidates in rank order (one word's postings, or a large prefix read through
    // its bitset), another single word too large for a bitset to pay off has its postings merged instead:
    // a cursor that gallops through them costs about log2 of their ratio per candidate. (For lists of
    // similar sizes the bitset is the cheaper: 6,000 against 10,000 postings take 70 us through a bitset
    // made for them, 160 us by galloping, 180 us by a plain merge.)
    const driver = ranges[0]!;
    const ordered = driver.hi - driver.lo === 1 || (driver.size >= this.bitsetDriverAt && this.bitsetCap > 0);
    for (let k = 1; k < ranges.length; k++) {
      const range = ranges[k]!;
      range.bits = this.bitsetOf(range, range.size >= this.denseAt || range.size <= driver.size * BUILD_FACTOR);
      range.merge = !range.bits && ordered && range.hi - range.lo === 1;
    }
    const { total, ranks } = this.candidates(ranges, want);
    return paged(total, ranks);
  }

  private hit(total: number, ranks: readonly number[]): SearchHit {
    const dots = ranks.map((r) => this.rankDots[r]!);
    const rankRecords = this.rankRecords;
    return { total, dots, records: ranks.map((r) => rankRecords[r]!) };
  }
}
