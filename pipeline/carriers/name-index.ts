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
//   index/names.exact          u32 pairs [hash, rank], sorted: FNV-1a of each whole name's word key
import { toSearchWords } from '../core/text.ts';
import type { Sink } from '../core/sink.ts';

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

/** A whole name as the exact tier compares it: its search words joined by one space. */
export const toNameKey = (name: string) => toSearchWords(name).join(' ');

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

/** `ranked` must already be in ranking order (compareRank). */
export async function writeNameIndex(sink: Sink, ranked: readonly NamedCarrier[]): Promise<{ tokens: number; postings: number }> {
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
      if (!list) postings.set(w, (list = []));
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
  tokens.forEach((t, i) => all.set(postings.get(t.toString('utf8'))!, postingOffsets[i]!));
  exact.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  await writeFile(sink, 'index/names.tokens', Buffer.concat(tokens, bytes));
  await writeFile(sink, 'index/names.token-offsets', u32(tokenOffsets));
  await writeFile(sink, 'index/names.posting-offsets', u32(postingOffsets));
  await writeFile(sink, 'index/names.postings', u32(all));
  await writeFile(sink, 'index/names.rank-dots', u32(ranked.map((c) => c.dot)));
  await writeFile(sink, 'index/names.exact', u32(exact.flat()));
  return { tokens: tokens.length, postings: total };
}
