// Search over sorted typed arrays: the index of every keyed lookup the pipeline and the server make into
// millions of ids (carrier numbers, record keys).

/**
 * Position of `key` in the ascending `keys` (distinct values), or −1. Probes alternate between guessing
 * the position from the key's value (interpolation: ids spread fairly evenly, so the first guess lands
 * close and the next probes touch the same few cache lines) and halving the range, which bounds the worst
 * case at twice a binary search's probes whatever the spread.
 */
export function indexOfSorted(keys: Uint32Array, key: number): number {
  let lo = 0;
  let hi = keys.length - 1;
  for (let guess = true; lo <= hi; guess = !guess) {
    const klo = keys[lo]!;
    const khi = keys[hi]!;
    if (key < klo || key > khi) return -1;
    const mid = guess && khi > klo ? lo + Math.floor(((key - klo) / (khi - klo)) * (hi - lo)) : (lo + hi) >>> 1;
    const k = keys[mid]!;
    if (k === key) return mid;
    if (k < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
