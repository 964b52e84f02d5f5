// Which strings have been seen, for millions of them (the inspection ids of 24 months of FMCSA data): each
// kept as a 64-bit fingerprint in an open-addressing table of two Uint32Arrays, about 16 bytes per string
// at most, where a Set of strings would hold the strings themselves. Two different strings share a
// fingerprint with a chance of about n² / 2^65 (one in a million for 8 million strings): then the later one
// is taken for a repeat.
import { fingerprint64 } from '../../contract/core/hash.ts';

const scratch = new Uint32Array(2);

export class SeenSet {
  private hi: Uint32Array;
  private lo: Uint32Array;
  private count = 0;

  constructor(capacity = 1024) {
    let slots = 16;
    while (slots < capacity * 2) slots *= 2;
    this.hi = new Uint32Array(slots);
    this.lo = new Uint32Array(slots);
  }

  get size(): number {
    return this.count;
  }

  /** Adds `s`; true when it was not there yet. */
  add(s: string): boolean {
    fingerprint64(s, scratch);
    const h = scratch[0]!;
    let l = scratch[1]!;
    // (0, 0) marks an empty slot.
    if (h === 0 && l === 0) l = 1;
    if ((this.count + 1) * 2 > this.hi.length) this.grow();
    return this.insert(h, l);
  }

  private insert(h: number, l: number): boolean {
    const mask = this.hi.length - 1;
    for (let i = (h ^ Math.imul(l, 0x9e3779b1)) & mask; ; i = (i + 1) & mask) {
      const sh = this.hi[i]!;
      const sl = this.lo[i]!;
      if (sh === 0 && sl === 0) {
        this.hi[i] = h;
        this.lo[i] = l;
        this.count++;
        return true;
      }
      if (sh === h && sl === l) return false;
    }
  }

  private grow(): void {
    const { hi, lo } = this;
    this.hi = new Uint32Array(hi.length * 2);
    this.lo = new Uint32Array(lo.length * 2);
    this.count = 0;
    for (let i = 0; i < hi.length; i++) {
      if (hi[i] !== 0 || lo[i] !== 0) this.insert(hi[i]!, lo[i]!);
    }
  }
}
