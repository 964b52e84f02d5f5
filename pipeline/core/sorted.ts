// Binary search over sorted typed arrays: the index of every keyed lookup the pipeline and the server make
// into millions of ids (carrier numbers, record keys).

/** Position of `key` in the ascending `keys`, or −1. */
export function indexOfSorted(keys: Uint32Array, key: number): number {
  let lo = 0;
  let hi = keys.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const k = keys[mid]!;
    if (k === key) return mid;
    if (k < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
