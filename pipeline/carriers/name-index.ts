// Builds the carrier name index (its format: contract/carriers/name-index.ts): every word of every legal and
// DBA name, sorted, with the carriers using it as postings in ranking order (power units descending, then
// carrier_id), and each carrier's state by rank, for the search's state filter.
import { fnv1aUtf8 } from '../../contract/core/hash.ts';
import {
  COMMON_POSTINGS,
  COMMON_TOP,
  type CommonPrefix,
  encodeCommon,
  encodeCommonTop,
  encodeStates,
  NAME_INDEX,
  toNameKey,
} from '../../contract/carriers/name-index.ts';
import type { Sink } from '../core/sink.ts';
import { indexOfSorted } from '../../contract/core/sorted.ts';

export interface NamedCarrier {
  dot: number;
  legal_name: string;
  dba_name: string | null;
  /** The size search ranks by: power units, or an outlier fleet's drivers (toRankingSize). */
  power_units: number | null;
  /** The census's physical state (PHY_STATE), which search filters by. */
  state: string | null;
}

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
          if (key && fnv1aUtf8(key) === h) keys.add(key);
        }
      }
      if (keys.size > 1) out.push(h);
    }
    i = j;
  }
  return out;
}

/** Writes the name index of `ranked`, which must already be in ranking order (compareRank). */
export async function writeNameIndex(
  sink: Sink,
  ranked: readonly NamedCarrier[],
  options: { commonPostings?: number; commonTop?: number } = {},
): Promise<{ tokens: number; postings: number; common: number; states: number }> {
  const postings = new Map<string, number[]>();
  const exact: [number, number][] = [];
  ranked.forEach((c, rank) => {
    const words = new Set<string>();
    for (const name of [c.legal_name, c.dba_name]) {
      if (!name) continue;
      const key = toNameKey(name);
      if (!key) continue;
      exact.push([fnv1aUtf8(key), rank]);
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
  await writeFile(sink, NAME_INDEX.tokens, Buffer.concat(tokens, bytes));
  await writeFile(sink, NAME_INDEX.tokenOffsets, u32(tokenOffsets));
  await writeFile(sink, NAME_INDEX.postingOffsets, u32(postingOffsets));
  await writeFile(sink, NAME_INDEX.postings, u32(all));
  await writeFile(sink, NAME_INDEX.rankDots, u32(ranked.map((c) => c.dot)));
  const byDot = Uint32Array.from(ranked, (c) => c.dot).sort();
  await writeFile(sink, NAME_INDEX.rankRecords, u32(Uint32Array.from(ranked, (c) => indexOfSorted(byDot, c.dot))));
  await writeFile(sink, NAME_INDEX.exact, u32(exact.flat()));
  await writeFile(sink, NAME_INDEX.exactCollisions, u32(collisions));
  await writeFile(sink, NAME_INDEX.forwardOffsets, u32(forwardOffsets));
  await writeFile(sink, NAME_INDEX.forward, u32(forward));
  await writeFile(sink, NAME_INDEX.common, encodeCommon(common));
  await writeFile(sink, NAME_INDEX.commonTop, u32(encodeCommonTop(common)));
  const states = encodeStates(ranked.map((c) => c.state));
  await writeFile(sink, NAME_INDEX.states, states.table);
  await writeFile(
    sink,
    NAME_INDEX.rankStates,
    Buffer.from(states.ranks.buffer, states.ranks.byteOffset, states.ranks.byteLength),
  );
  return { tokens: tokens.length, postings: total, common: common.length, states: states.table.length / 2 };
}
