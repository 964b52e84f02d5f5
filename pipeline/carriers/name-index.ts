// The carrier name index: every word of every legal and DBA name, sorted, with the carriers using it as
// postings in ranking order (power units descending, then carrier_id). Built once here, read as typed
// arrays by server/carriers/search.ts. At 2 million carriers it is a few tens of megabytes, where a lunr
// index of the same names would not fit the server's memory budget.
//
// Files (raw little-endian arrays, written through the sink):
//   index/names.tokens         the distinct words, UTF-8, sorted by bytes, back to back
//   index/names.token-offsets  u32[T + 1]: where each word starts in names.tokens
//   index/names.posting-offsets u32[T + 1]: where each word's postings start
//   index/names.postings       u32[P]: ranks (positions in ranking order), ascending per word
//   index/names.rank-dots      u32[N]: carrier_id by rank
//   index/names.rank-records   u32[N]: by rank, the carrier's position in carrier_id order, which is where the
//                              record stores (profiles, search records) keep it: results are read by position
//   index/names.exact          u32 pairs [hash, rank], sorted: FNV-1a of each whole name's word key
//   index/names.exact-collisions u32[], ascending: the hashes shared by two different name keys. Any other
//                              hash names one key, so one stored name confirms (or rules out) all its ranks
//   index/names.forward-offsets u32[N + 1]: where each rank's words start in names.forward
//   index/names.forward        u32[P]: each rank's word ids (positions in names.tokens' order), ascending
//   index/names.common         the prefixes whose words have more than COMMON_POSTINGS postings, with the
//                              number of distinct carriers they match: records of u32 count, u16 byte
//                              length, the prefix's UTF-8 bytes
//   index/names.common-top     for each of those prefixes, in the same order, the first COMMON_TOP ranks
//                              they match (fewer when they match fewer): u32 n, then n u32 ranks ascending
//
// The forward lists let a search check a candidate against the other words of a query without walking
// those words' postings; the common prefixes give the total and the first results of a one-word query for a
// prefix of several words ("t", "tra", "transp") without walking thousands or millions of postings.
import { toSearchWords } from '../core/text.ts';
import type { Sink } from '../core/sink.ts';
import { indexOfSorted } from '../core/sorted.ts';

export interface NamedCarrier {
  dot: number;
  legal_name: string;
  dba_name: string | null;
  power_units: number | null;
}

/** 32-bit FNV-1a of a string's UTF-8 bytes: the hash behind the whole-name (exact) look-up. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(s, 'utf8')) {
    h ^= byte;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A whole name as the exact tier compares it, from its search words (toSearchWords): joined by one space. */
export const nameKeyOf = (words: readonly string[]) => words.join(' ');

/** A whole name as the exact tier compares it: its search words joined by one space. */
export const toNameKey = (name: string) => nameKeyOf(toSearchWords(name));

/** Ranking order for search: power units descending (unknown last), then carrier_id ascending. */
export function compareRank(a: NamedCarrier, b: NamedCarrier): number {
  const pa = a.power_units ?? -1;
  const pb = b.power_units ?? -1;
  return pb - pa || a.dot - b.dot;
}

const u32 = (arr: Uint32Array | number[]) => {
  const typed = arr instanceof Uint32Array ? arr : Uint32Array.from(arr);
  return Buffer.from(typed.buffer, typed.byteOffset, typed.byteLength);
};

async function writeFile(sink: Sink, relPath: string, data: Uint8Array): Promise<void> {
  const s = await sink.openStream(relPath);
  await s.write(data);
  await s.close();
}

/**
 * A prefix whose words carry more postings than this has its distinct count in names.common and its first
 * ranks in names.common-top. Below it, a one-word query walks at most that many postings; at 2.1 M
 * carriers about 3,600 prefixes pass it, and finding them all takes under a second of the build.
 */
export const COMMON_POSTINGS = 1_000;
/** Ranks kept per common prefix: the search's largest page (limit 100). */
export const COMMON_TOP = 100;

export interface CommonPrefix {
  prefix: Buffer;
  /** Distinct ranks the prefix's words match. */
  count: number;
  /** The smallest `top` of them, ascending. */
  first: number[];
}

/**
 * The smallest `top` distinct ranks of the postings from `lo` to `hi`: each word's postings ascend, so a
 * word is read only until its ranks pass the largest one kept.
 */
function firstRanks(postingOffsets: Uint32Array, postings: Uint32Array, lo: number, hi: number, top: number): number[] {
  const kept: number[] = [];
  for (let t = lo; t < hi; t++) {
    for (let p = postingOffsets[t]!, end = postingOffsets[t + 1]!; p < end; p++) {
      const r = postings[p]!;
      if (kept.length === top && r >= kept[top - 1]!) break;
      let i = kept.length;
      while (i > 0 && kept[i - 1]! > r) i--;
      if (kept[i - 1] === r) continue; // a carrier with two of the words
      kept.splice(i, 0, r);
      if (kept.length > top) kept.pop();
    }
  }
  return kept;
}

/**
 * Every byte prefix whose range of sorted words carries more than `threshold` postings, with the number
 * of distinct ranks in that range and its first `top` ranks: a walk down the implicit trie of the sorted
 * words, deeper only where a range is still large, so the work is about the postings of the common words
 * times their length.
 */
export function commonPrefixes(
  tokens: readonly Buffer[],
  postingOffsets: Uint32Array,
  postings: Uint32Array,
  ranks: number,
  threshold: number,
  top = COMMON_TOP,
): CommonPrefix[] {
  const out: CommonPrefix[] = [];
  const seen = new Uint32Array(ranks);
  let generation = 0;
  const visit = (lo: number, hi: number, depth: number) => {
    // Words shorter than depth + 1 bytes end here; the rest group by their byte at `depth`.
    let i = lo;
    while (i < hi && tokens[i]!.length <= depth) i++;
    while (i < hi) {
      const byte = tokens[i]![depth]!;
      let j = i + 1;
      while (j < hi && tokens[j]![depth] === byte) j++;
      if (postingOffsets[j]! - postingOffsets[i]! > threshold) {
        generation++;
        let count = 0;
        for (let p = postingOffsets[i]!; p < postingOffsets[j]!; p++) {
          const r = postings[p]!;
          if (seen[r] !== generation) {
            seen[r] = generation;
            count++;
          }
        }
        out.push({
          prefix: tokens[i]!.subarray(0, depth + 1),
          count,
          first: firstRanks(postingOffsets, postings, i, j, top),
        });
        visit(i, j, depth + 1);
      }
      i = j;
    }
  };
  visit(0, tokens.length, 0);
  return out;
}

function encodeCommon(entries: readonly CommonPrefix[]): Buffer {
  const parts: Buffer[] = [];
  for (const { prefix, count } of entries) {
    const head = Buffer.alloc(6);
    head.writeUInt32LE(count, 0);
    head.writeUInt16LE(prefix.length, 4);
    parts.push(head, prefix);
  }
  return Buffer.concat(parts);
}

function encodeCommonTop(entries: readonly CommonPrefix[]): Uint32Array {
  const out: number[] = [];
  for (const { first } of entries) out.push(first.length, ...first);
  return Uint32Array.from(out);
}

/**
 * names.common-top, given names.common decoded (decodeCommon) → byte prefix (hex) → the prefix's first
 * ranks, as views of `top` (the order of names.common).
 */
export function decodeCommonTop(common: ReadonlyMap<string, number>, top: Uint32Array): Map<string, Uint32Array> {
  const out = new Map<string, Uint32Array>();
  let at = 0;
  for (const prefix of common.keys()) {
    const n = top[at];
    if (n === undefined || at + 1 + n > top.length)
      throw new RangeError('names.common-top is shorter than names.common');
    out.set(prefix, top.subarray(at + 1, at + 1 + n));
    at += 1 + n;
  }
  return out;
}

/** names.common → byte prefix (hex) → distinct carriers. */
export function decodeCommon(buf: Buffer): Map<string, number> {
  const out = new Map<string, number>();
  for (let at = 0; at + 6 <= buf.length; ) {
    const count = buf.readUInt32LE(at);
    const length = buf.readUInt16LE(at + 4);
    out.set(buf.toString('hex', at + 6, at + 6 + length), count);
    at += 6 + length;
  }
  return out;
}

/** `ranked` must already be in ranking order (compareRank). */
/** The hashes of the sorted exact table that stand for more than one name key. */
export function exactCollisions(exact: readonly [number, number][], ranked: readonly NamedCarrier[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < exact.length; ) {
    const h = exact[i]![0];
    let j = i + 1;
    while (j < exact.length && exact[j]![0] === h) j++;
    if (j - i > 1) {
      const keys = new Set<string>();
      for (let k = i; k < j; k++) {
        const c = ranked[exact[k]![1]]!;
        for (const name of [c.legal_name, c.dba_name]) {
          const key = name ? toNameKey(name) : '';
          if (key && fnv1a(key) === h) keys.add(key);
        }
      }
      if (keys.size > 1) out.push(h);
    }
    i = j;
  }
  return out;
}

export async function writeNameIndex(
  sink: Sink,
  ranked: readonly NamedCarrier[],
  options: { commonPostings?: number; commonTop?: number } = {},
): Promise<{ tokens: number; postings: number; common: number }> {
  const postings = new Map<string, number[]>();
  const exact: [number, number][] = [];
  ranked.forEach((c, rank) => {
    const words = new Set<string>();
    for (const name of [c.legal_name, c.dba_name]) {
      if (!name) continue;
      const key = toNameKey(name);
      if (!key) continue;
      exact.push([fnv1a(key), rank]);
      for (const w of key.split(' ')) words.add(w);
    }
    for (const w of words) {
      let list = postings.get(w);
      if (!list) {
        list = [];
        postings.set(w, list);
      }
      list.push(rank);
    }
  });
  const tokens = [...postings.keys()].map((t) => Buffer.from(t, 'utf8')).sort(Buffer.compare);
  const tokenOffsets = new Uint32Array(tokens.length + 1);
  const postingOffsets = new Uint32Array(tokens.length + 1);
  let total = 0;
  let bytes = 0;
  tokens.forEach((t, i) => {
    tokenOffsets[i] = bytes;
    postingOffsets[i] = total;
    bytes += t.length;
    total += postings.get(t.toString('utf8'))!.length;
  });
  tokenOffsets[tokens.length] = bytes;
  postingOffsets[tokens.length] = total;
  const all = new Uint32Array(total);
  tokens.forEach((t, i) => {
    all.set(postings.get(t.toString('utf8'))!, postingOffsets[i]!);
  });
  postings.clear();
  // The forward lists: each rank's word ids, ascending because word ids are visited in order.
  const forwardOffsets = new Uint32Array(ranked.length + 1);
  for (let p = 0; p < total; p++) forwardOffsets[all[p]! + 1]!++;
  for (let r = 0; r < ranked.length; r++) forwardOffsets[r + 1]! += forwardOffsets[r]!;
  const fill = forwardOffsets.slice(0, ranked.length);
  const forward = new Uint32Array(total);
  for (let t = 0; t < tokens.length; t++) {
    for (let p = postingOffsets[t]!; p < postingOffsets[t + 1]!; p++) forward[fill[all[p]!]!++] = t;
  }
  const common = commonPrefixes(
    tokens,
    postingOffsets,
    all,
    ranked.length,
    options.commonPostings ?? COMMON_POSTINGS,
    options.commonTop ?? COMMON_TOP,
  );
  exact.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const collisions = exactCollisions(exact, ranked);
  await writeFile(sink, 'index/names.tokens', Buffer.concat(tokens, bytes));
  await writeFile(sink, 'index/names.token-offsets', u32(tokenOffsets));
  await writeFile(sink, 'index/names.posting-offsets', u32(postingOffsets));
  await writeFile(sink, 'index/names.postings', u32(all));
  await writeFile(sink, 'index/names.rank-dots', u32(ranked.map((c) => c.dot)));
  const byDot = Uint32Array.from(ranked, (c) => c.dot).sort();
  await writeFile(sink, 'index/names.rank-records', u32(Uint32Array.from(ranked, (c) => indexOfSorted(byDot, c.dot))));
  await writeFile(sink, 'index/names.exact', u32(exact.flat()));
  await writeFile(sink, 'index/names.exact-collisions', u32(collisions));
  await writeFile(sink, 'index/names.forward-offsets', u32(forwardOffsets));
  await writeFile(sink, 'index/names.forward', u32(forward));
  await writeFile(sink, 'index/names.common', encodeCommon(common));
  await writeFile(sink, 'index/names.common-top', u32(encodeCommonTop(common)));
  return { tokens: tokens.length, postings: total, common: common.length };
}
