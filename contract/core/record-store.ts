// A record store: millions of precomputed response bodies in one data file, found by a numeric key through a
// sorted index, so a server answers a lookup with a binary search and one positioned read, without loading
// the records into its heap (2 million carrier profiles are gigabytes; the index is 12 bytes a record).
//
// Layout (little-endian):
//   <name>.dat   the bodies, back to back
//   <name>.idx   8-byte magic, u32 count, u32 0, u32 keys[count] (ascending), pad to 8, f64 offsets[count + 1]
// Written by pipeline/core/record-store.ts, read by server/core/record-store.ts.
export const RECORD_STORE_MAGIC = 'SLRSTOR1';

/** Byte offset of the offsets table in an index of `count` records. */
export function offsetsStart(count: number): number {
  const keysEnd = 16 + count * 4;
  return keysEnd + (keysEnd % 8 === 0 ? 0 : 8 - (keysEnd % 8));
}
