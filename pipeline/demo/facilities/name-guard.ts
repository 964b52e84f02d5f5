import {
  maxSimilarity,
  normalizeCity,
  normalizeName,
  similarity,
} from '../../../contract/facilities/normalize-names.ts';

// The product's own normalization keeps random names apart, so the demo's only links are the planted ones.
const toNameKey = normalizeName;
const toCityKey = normalizeCity;
/** Similarity, with a length pre-check: most random pairs are far apart. */
const toSimilarity = (a: string, b: string) => (maxSimilarity(a, b) < 0.7 ? 0 : similarity(a, b));

/**
 * Keeps every random facility name unique and unlike any other name in the same city, so the only links and
 * near-misses in the demo are the planted ones. Margin: 0.75 against the product's 0.85.
 */
export class NameGuard {
  private readonly owners = new Map<string, string>();
  private readonly byCity = new Map<string, { owner: string; name: string }[]>();

  fits(owner: string, names: readonly string[], cities: readonly string[]): boolean {
    const keys = [...new Set(names.map(toNameKey))];
    for (const k of keys) {
      const o = this.owners.get(k);
      if (o !== undefined && o !== owner) return false;
    }
    for (const c of new Set(cities.map(toCityKey))) {
      for (const e of this.byCity.get(c) ?? []) {
        if (e.owner !== owner && keys.some((k) => toSimilarity(k, e.name) >= 0.75)) return false;
      }
    }
    return true;
  }

  add(owner: string, names: readonly string[], cities: readonly string[]): void {
    const keys = [...new Set(names.map(toNameKey))];
    for (const k of keys) this.owners.set(k, owner);
    for (const c of new Set(cities.map(toCityKey))) {
      const list = this.byCity.get(c) ?? [];
      this.byCity.set(c, list);
      for (const k of keys) list.push({ owner, name: k });
    }
  }
}
