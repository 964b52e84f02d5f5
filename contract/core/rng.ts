/**
 * A seeded PRNG, so demo inputs are byte-identical for a seed: mulberry32 (Tommy Ettinger, public domain),
 * one 32-bit state word, period 2^32, good enough for fake facilities and carriers.
 */
import { fnv1a } from './hash.ts';

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max], both ends included. */
  int(min: number, max: number): number;
  /** Uniform float in [min, max). */
  float(min: number, max: number): number;
  /** Log-uniform float in [min, max): spreads emitters over orders of magnitude like real registries. */
  logFloat(min: number, max: number): number;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** One element, chosen with probability proportional to its weight. */
  pickWeighted<T>(items: readonly (readonly [T, number])[]): T;
  /** True with probability p. */
  chance(p: number): boolean;
  /** Normal-ish value (Irwin–Hall sum of 4 uniforms, so no unbounded tails). */
  normal(mean?: number, sd?: number): number;
  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[];
  /** An independent stream derived from this seed and a label, so adding draws in one part of a generator
   * does not shift every later part. */
  fork(label: string): Rng;
}

export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function createRng(seed: number): Rng {
  const next = mulberry32(seed);
  const rng: Rng = {
    next,
    int(min, max) {
      return min + Math.floor(next() * (max - min + 1));
    },
    float(min, max) {
      return min + next() * (max - min);
    },
    logFloat(min, max) {
      return Math.exp(Math.log(min) + next() * (Math.log(max) - Math.log(min)));
    },
    pick(items) {
      if (items.length === 0) throw new Error('rng.pick: empty list');
      return items[Math.floor(next() * items.length)] as (typeof items)[number];
    },
    pickWeighted(items) {
      const total = items.reduce((sum, [, weight]) => sum + weight, 0);
      let r = next() * total;
      for (const [item, weight] of items) {
        r -= weight;
        if (r < 0) return item;
      }
      const last = items[items.length - 1];
      if (last === undefined) throw new Error('rng.pickWeighted: empty list');
      return last[0];
    },
    chance(p) {
      return next() < p;
    },
    normal(mean = 0, sd = 1) {
      // Sum of 4 uniforms has variance 4/12; rescale to unit variance.
      const sum = next() + next() + next() + next();
      return mean + sd * (sum - 2) * Math.sqrt(3);
    },
    shuffle(items) {
      const out = items.slice();
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        const a = out[i] as (typeof out)[number];
        out[i] = out[j] as (typeof out)[number];
        out[j] = a;
      }
      return out;
    },
    fork(label) {
      return createRng((seed ^ fnv1a(label)) >>> 0);
    },
  };
  return rng;
}
