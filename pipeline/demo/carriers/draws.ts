// Small draws shared by the carrier, census and vehicle generators.
import type { Rng } from '../../../contract/core/rng.ts';
import { FLEET_ALPHA, FLEET_MAX } from './model.ts';

export function poisson(rng: Rng, lambda: number): number {
  if (lambda <= 0) return 0;
  if (lambda > 30) return Math.max(0, Math.round(rng.normal(lambda, Math.sqrt(lambda))));
  const limit = Math.exp(-lambda);
  let k = 0;
  let p = rng.next();
  while (p > limit) {
    k++;
    p *= rng.next();
  }
  return k;
}

export function fleetSize(rng: Rng): number {
  // Inverse CDF of a Pareto(α) truncated at FLEET_MAX: P(X > x) ∝ x^−α − FLEET_MAX^−α.
  const tail = 1 - FLEET_MAX ** -FLEET_ALPHA;
  return Math.min(FLEET_MAX, Math.floor((1 - rng.next() * tail) ** (-1 / FLEET_ALPHA)));
}

export const digits = (rng: Rng, n: number) => {
  let s = '';
  for (let i = 0; i < n; i++) s += String(rng.int(0, 9));
  return s;
};
export const chars = (rng: Rng, alphabet: string, n: number) => {
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[rng.int(0, alphabet.length - 1)];
  return s;
};

export const PLATE_LETTERS = 'ABCDEFGHJKLMNPRSTUVWXYZ';
