// Percentile ranks within safety event groups (reference §B.6; methodology `percentiles`): round₁(100 × L / (n − 1))
// with L the carriers of the group with a strictly lower measure, so ties share a value and a group of one gets 0.
// Sized for 2 M carriers: typed arrays, a radix sort on the measures' bits, then a stable counting sort by group.
import { round } from '../../contract/core/values.ts';

export interface RankItem {
  dot: number;
  /** SEG id, e.g. `hos_compliance:3`. */
  seg: string;
  /** Finite and ≥ 0. */
  measure: number;
}

const DIGIT = 0xffff;
// The word order below assumes a little-endian platform (every platform Node ships for).
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Item indices ordered by measure, stable; `words` is the little-endian Uint32 view of the measures. */
function toMeasureOrder(words: Uint32Array, n: number): Uint32Array {
  if (!LITTLE_ENDIAN) throw new Error('rankPercentiles needs a little-endian platform');
  let order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  let next = new Uint32Array(n);
  const count = new Uint32Array(DIGIT + 1);
  // Four 16-bit digits, low word first; a digit that is the same for every item is skipped.
  for (let pass = 0; pass < 4; pass++) {
    const word = pass >> 1;
    const shift = (pass & 1) * 16;
    count.fill(0);
    for (let i = 0; i < n; i++) count[(words[2 * i + word]! >>> shift) & DIGIT]! += 1;
    if (count.includes(n)) continue;
    let sum = 0;
    for (let d = 0; d <= DIGIT; d++) {
      const c = count[d]!;
      count[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const j = order[i]!;
      const d = (words[2 * j + word]! >>> shift) & DIGIT;
      next[count[d]!] = j;
      count[d]! += 1;
    }
    [order, next] = [next, order];
  }
  return order;
}

/** Carrier → percentile for the items of one BASIC; each carrier appears once. */
export function rankPercentiles(items: readonly RankItem[], decimals = 1, singleCarrier = 0): Map<number, number> {
  const n = items.length;
  const segIndex = new Map<string, number>();
  const segOfItem = new Uint32Array(n);
  const measures = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const item = items[i]!;
    if (!Number.isFinite(item.measure) || item.measure < 0)
      throw new Error(`carrier ${item.dot}: measure ${item.measure} cannot be ranked`);
    let s = segIndex.get(item.seg);
    if (s === undefined) {
      s = segIndex.size;
      segIndex.set(item.seg, s);
    }
    segOfItem[i] = s;
    // `+ 0` turns −0 into 0, whose bits would otherwise sort above every positive measure.
    measures[i] = item.measure + 0;
  }
  const byMeasure = toMeasureOrder(new Uint32Array(measures.buffer), n);

  // Stable counting sort by SEG: each SEG's items end up contiguous and still ordered by measure.
  const segs = segIndex.size;
  const start = new Uint32Array(segs + 1);
  for (let i = 0; i < n; i++) start[segOfItem[i]! + 1]! += 1;
  for (let s = 0; s < segs; s++) start[s + 1]! += start[s]!;
  const fill = start.slice(0, segs);
  const sorted = new Uint32Array(n);
  for (const j of byMeasure) {
    const s = segOfItem[j]!;
    sorted[fill[s]!] = j;
    fill[s]! += 1;
  }

  const percentile = new Float64Array(n);
  for (let s = 0; s < segs; s++) {
    const from = start[s]!;
    const size = start[s + 1]! - from;
    let lower = 0;
    for (let k = 0; k < size; k++) {
      const j = sorted[from + k]!;
      if (k > 0 && measures[j] !== measures[sorted[from + k - 1]!]) lower = k;
      percentile[j] = size > 1 ? round((100 * lower) / (size - 1), decimals) : singleCarrier;
    }
  }

  const out = new Map<number, number>();
  for (let i = 0; i < n; i++) out.set(items[i]!.dot, percentile[i]!);
  if (out.size !== n) {
    const seen = new Set<number>();
    const twice = items.find((item) => seen.size === seen.add(item.dot).size)!;
    throw new Error(`carrier ${twice.dot} appears twice in one ranking`);
  }
  return out;
}

/** Carriers per SEG id: the peer-group sizes a profile cites. */
export function countBySeg(items: Iterable<{ seg: string }>, into = new Map<string, number>()): Map<string, number> {
  for (const { seg } of items) into.set(seg, (into.get(seg) ?? 0) + 1);
  return into;
}
