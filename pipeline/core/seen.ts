// Which strings have been seen, for millions of them (the inspection ids of 24 months of FMCSA data): each
// kept as a 64-bit fingerprint in an open-addressing table of two Uint32Arrays, about 16 bytes per string
// at most, where a Set of strings would hold the strings themselves. Two different strings share a
// fingerprint with a chance of about n² / 2^65 (one in a million for 8 million strings): then the later one
// is taken for a repeat.

/** Two independent 32-bit hashes of the UTF-16 code units (FNV-1a, and a multiply-xorshift mix). */
function fingerprint(s: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  b = Math.imul(b ^ (b >>> 13), 0xc2b2ae35);
  return [a >>> 0, (b ^ (b >>> 16)) >>> 0];
}

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
    let [h, l] = fingerprint(s);
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
