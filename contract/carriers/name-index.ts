// The carrier name index: every word of every legal and DBA name, sorted, with the carriers using it as
// postings in ranking order (power units descending, then carrier_id). Built by pipeline/carriers/name-index.ts,
// read as typed arrays by server/carriers/search.ts; this file is the format both follow. At 2 million carriers it is a few tens of megabytes, where a lunr
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
//   index/names.states         the distinct states of the carriers (toStateKey: two letters, upper case),
//                              sorted, 2 ASCII bytes each
//   index/names.rank-states    by rank, the carrier's state: 1 + its position in names.states, 0 for none (an
//                              empty or malformed census state); u8[N] while names.states holds at most 255
//                              states, else u16[N] (the reader tells by the file's length)
//
// The forward lists let a search check a candidate against the other words of a query without walking
// those words' postings; the common prefixes give the total and the first results of a one-word query for a
// prefix of several words ("t", "tra", "transp") without walking thousands or millions of postings. The
// states filter a search by the carrier's state at the cost of a byte (or two) a carrier: the server reads
// them only once a search asks for a state, and makes a bitset per state asked for.
import { toSearchWords } from '../core/text.ts';

/** The name index's files, by what they hold (see the list above). */
export const NAME_INDEX = {
  tokens: 'index/names.tokens',
  tokenOffsets: 'index/names.token-offsets',
  postingOffsets: 'index/names.posting-offsets',
  postings: 'index/names.postings',
  rankDots: 'index/names.rank-dots',
  rankRecords: 'index/names.rank-records',
  exact: 'index/names.exact',
  exactCollisions: 'index/names.exact-collisions',
  forwardOffsets: 'index/names.forward-offsets',
  forward: 'index/names.forward',
  common: 'index/names.common',
  commonTop: 'index/names.common-top',
  states: 'index/names.states',
  rankStates: 'index/names.rank-states',
} as const;

/**
 * A state as search filters by it: two letters, upper case (`tx` → `TX`), or null for anything else. The
 * census's physical state is a USPS code for US states and territories, a Canada Post code for provinces,
 * and a code of FMCSA's own for Mexican states (`JA`, `SO`, `TA`), so no list of codes is assumed.
 */
export function toStateKey(state: string | null | undefined): string | null {
  if (state === null || state === undefined) return null;
  const key = state.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(key) ? key : null;
}

/** names.states and names.rank-states for the carriers' states in ranking order. */
export function encodeStates(states: readonly (string | null)[]): { table: Buffer; ranks: Uint8Array | Uint16Array } {
  const keys = states.map(toStateKey);
  const table = [...new Set(keys.filter((k): k is string => k !== null))].sort();
  const codes = new Map(table.map((k, i) => [k, i + 1]));
  const ranks = table.length <= 255 ? new Uint8Array(keys.length) : new Uint16Array(keys.length);
  keys.forEach((k, r) => {
    ranks[r] = k === null ? 0 : codes.get(k)!;
  });
  return { table: Buffer.from(table.join(''), 'ascii'), ranks };
}

/** names.states → the states in their order (code − 1). */
export function decodeStateTable(buf: Buffer): string[] {
  if (buf.length % 2 !== 0) throw new RangeError('names.states is not whole two-letter states');
  const out: string[] = [];
  for (let at = 0; at < buf.length; at += 2) out.push(buf.toString('ascii', at, at + 2));
  return out;
}

/** names.rank-states as the typed array of its codes, given the number of ranks. */
export function decodeRankStates(buf: Buffer, ranks: number): Uint8Array | Uint16Array {
  if (buf.length === ranks) return new Uint8Array(buf.buffer, buf.byteOffset, ranks);
  if (buf.length === 2 * ranks) {
    if (buf.byteOffset % 2 === 0) return new Uint16Array(buf.buffer, buf.byteOffset, ranks);
    // A Uint16Array view needs an even offset: a Buffer at an odd one is copied.
    const out = new Uint16Array(ranks);
    Buffer.from(out.buffer).set(buf);
    return out;
  }
  throw new RangeError(`names.rank-states has ${buf.length} bytes for ${ranks} carriers`);
}

/** A whole name as the exact tier compares it, from its search words (toSearchWords): joined by one space. */
export const nameKeyOf = (words: readonly string[]) => words.join(' ');

/** A whole name as the exact tier compares it: its search words joined by one space. */
export const toNameKey = (name: string) => nameKeyOf(toSearchWords(name));

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

export function encodeCommon(entries: readonly CommonPrefix[]): Buffer {
  const parts: Buffer[] = [];
  for (const { prefix, count } of entries) {
    const head = Buffer.alloc(6);
    head.writeUInt32LE(count, 0);
    head.writeUInt16LE(prefix.length, 4);
    parts.push(head, prefix);
  }
  return Buffer.concat(parts);
}

export function encodeCommonTop(entries: readonly CommonPrefix[]): Uint32Array {
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
