// Which carrier holds which docket, from every L&I row that pairs the two: millions of rows with history at
// full size, held as three typed arrays (12 bytes a pair), sorted once. A docket's current holder is the
// carrier the current L&I carrier file names; without one, the carrier of the docket's latest dated row.
// A docket that moved between carrier numbers keeps its history: every carrier that held it, latest first.

export interface DocketHolders {
  key: number;
  /** Carrier numbers, the current holder first, each once. */
  dots: number[];
}

/** Days since 1970 of an ISO date; 0 for none. */
export const toDayNumber = (iso: string | null): number =>
  iso === null ? 0 : Math.floor(Date.parse(`${iso}T00:00:00Z`) / 86_400_000) + 1;

/** Above any day number: the rank of a pair the current carrier file gives. */
const CURRENT = 0xffffffff;

export class DocketPairs {
  private keys = new Uint32Array(1024);
  private dots = new Uint32Array(1024);
  private ranks = new Uint32Array(1024);
  private n = 0;

  get size(): number {
    return this.n;
  }

  /** A pairing seen in a row dated `day` (toDayNumber), or the current one (`current`). */
  add(key: number, dot: number, day: number, current = false): void {
    if (this.n === this.keys.length) {
      const grow = (a: Uint32Array) => {
        const b = new Uint32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.keys = grow(this.keys);
      this.dots = grow(this.dots);
      this.ranks = grow(this.ranks);
    }
    this.keys[this.n] = key;
    this.dots[this.n] = dot;
    this.ranks[this.n] = current ? CURRENT : day;
    this.n++;
  }

  /** Each docket with its holders, in ascending key order (a record store's). */
  *holders(): Generator<DocketHolders> {
    const order = Uint32Array.from({ length: this.n }, (_, i) => i);
    const { keys, dots, ranks } = this;
    // By docket, then latest first (current above every date), then by carrier number for a stable order.
    order.sort((a, b) => keys[a]! - keys[b]! || ranks[b]! - ranks[a]! || dots[a]! - dots[b]!);
    let i = 0;
    while (i < order.length) {
      const key = keys[order[i]!]!;
      const held: number[] = [];
      for (; i < order.length && keys[order[i]!] === key; i++) {
        const dot = dots[order[i]!]!;
        if (!held.includes(dot)) held.push(dot);
      }
      yield { key, dots: held };
    }
  }
}
