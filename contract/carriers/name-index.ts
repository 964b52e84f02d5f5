// The carrier name index's format, which pipeline/carriers/name-index.ts writes and server/carriers/search.ts
// reads as typed arrays (raw little-endian, written through the sink). Every word of every legal and DBA name,
// sorted, with its carriers as postings in ranking order (power units descending, then carrier_id): a few tens
// of megabytes at 2 million carriers, where a lunr index of the same names would not fit the memory budget.
import { toSearchWords } from '../core/text.ts';

/** The name index's files, by what they hold. */
export const NAME_INDEX = {
  /** The distinct words, UTF-8, sorted by bytes, back to back. */
  tokens: 'index/names.tokens',
  /** u32[T + 1]: where each word starts in names.tokens. */
  tokenOffsets: 'index/names.token-offsets',
  /** u32[T + 1]: where each word's postings start. */
  postingOffsets: 'index/names.posting-offsets',
  /** u32[P]: ranks (positions in ranking order), ascending per word. */
  postings: 'index/names.postings',
  /** u32[N]: carrier_id by rank. */
  rankDots: 'index/names.rank-dots',
  /** u32[N]: by rank, the carrier's position in carrier_id order, where the record stores keep it. */
  rankRecords: 'index/names.rank-records',
  /** u32 pairs [hash, rank], sorted: FNV-1a of each whole name's word key. */
  exact: 'index/names.exact',
  /** u32[], ascending: hashes shared by two name keys; any other hash names one key, so one name confirms all its ranks. */
  exactCollisions: 'index/names.exact-collisions',
  /** u32[N + 1]: where each rank's words start in names.forward. */
  forwardOffsets: 'index/names.forward-offsets',
  /** u32[P]: each rank's word ids, ascending, so a candidate is checked against a query's other words without their postings. */
  forward: 'index/names.forward',
  /** Prefixes matching more than COMMON_POSTINGS postings, with their distinct carriers: u32 count, u16 length, UTF-8 bytes. */
  common: 'index/names.common',
  /** For each common prefix, in order, its first COMMON_TOP ranks: u32 n, then n u32 ranks ascending. */
  commonTop: 'index/names.common-top',
  /** The carriers' distinct states (toStateKey), sorted, 2 ASCII bytes each. */
  states: 'index/names.states',
  /** By rank, 1 + the state's position in names.states (0 for none): u8[N] up to 255 states, else u16[N]. */
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
