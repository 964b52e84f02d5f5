// A record store: millions of response bodies in one data file found through a sorted index (12 bytes a record),
// so a lookup is a binary search and one positioned read, never the heap. `<name>.dat` holds the bodies back to
// back; `<name>.idx`: 8-byte magic, u32 count, u32 0, u32 keys[count] ascending, pad to 8, f64 offsets[count + 1].
export const RECORD_STORE_MAGIC = 'SLRSTOR1';

/** Byte offset of the offsets table in an index of `count` records. */
export function offsetsStart(count: number): number {
  const keysEnd = 16 + count * 4;
  return keysEnd + (keysEnd % 8 === 0 ? 0 : 8 - (keysEnd % 8));
}
