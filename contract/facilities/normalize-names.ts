// Name and city normalization for linking Ontario and federal records (docs/contracts/facilities.md,
// "Identity rules"). The table of cases lives in test/facilities/normalize-names.test.ts.

import { foldAccents, toWordKey } from '../core/text.ts';

export { foldAccents };

/**
 * Facility names: accents stripped, upper case, `&` → `AND`, every other character that is not a letter
 * or digit becomes a space, whitespace collapsed. `Smith & Sons Ltd.` → `SMITH AND SONS LTD`.
 */
export const normalizeName = toWordKey;

const SAINT = new Set(['ST', 'STE', 'SAINT', 'SAINTE']);

const CLOSING: Record<string, string> = { '(': ')', '[': ']' };

/**
 * Each `(…)` and `[…]` (to the first closing bracket of its kind) as a space, in one pass: the pattern
 * `/\([^)]*\)|\[[^\]]*\]/g` read to the end again from every `(` that is never closed.
 */
function withoutBracketed(s: string): string {
  let out = '';
  let from = 0;
  // Where the next closing bracket of each kind is; -1 once none is left.
  const next: Record<string, number> = { ')': 0, ']': 0 };
  for (let i = 0; i < s.length; i++) {
    const close = CLOSING[s[i]!];
    if (close === undefined) continue;
    if (next[close]! !== -1 && next[close]! <= i) next[close] = s.indexOf(close, i + 1);
    const end = next[close]!;
    if (end === -1) continue;
    out += `${s.slice(from, i)} `;
    from = end + 1;
    i = end;
  }
  return out + s.slice(from);
}

/**
 * Cities: as names, after dropping bracketed parts (`Toronto (Etobicoke)` → `TORONTO`), and with
 * `ST`/`STE`/`SAINT`/`SAINTE` folded to `ST` (`Sault Ste. Marie` = `SAULT SAINTE MARIE` = `SAULT ST MARIE`).
 */
export function normalizeCity(s: string): string {
  const name = normalizeName(withoutBracketed(s));
  return name
    .split(' ')
    .map((w) => (SAINT.has(w) ? 'ST' : w))
    .join(' ');
}

/**
 * Characters of each name compared: the distance takes time in the product of the lengths, and no facility
 * name is this long (a longer one is a damaged field, which must not hold a nightly build for hours).
 */
export const SIMILARITY_CHARS = 256;

/**
 * Similarity of two normalized names: 1 − Levenshtein distance / length of the longer, so 0.85 allows
 * about one edit in seven characters (`CEMENT PLANT` vs `CEMENT PLANTS` = 0.92). Of their first
 * SIMILARITY_CHARS characters.
 */
export function similarity(whole: string, other: string): number {
  if (whole === other) return 1;
  const a = whole.slice(0, SIMILARITY_CHARS);
  const b = other.slice(0, SIMILARITY_CHARS);
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
    }
    prev = cur;
  }
  return 1 - (prev[b.length] ?? longer) / longer;
}

/** `SAULT STE. MARIE` → `Sault Ste. Marie`, for display when a program only ever wrote a city in capitals. */
export function toTitleCase(s: string): string {
  return s.toLowerCase().replace(/(^|[\s\-'(./])(\p{L})/gu, (_, sep: string, c: string) => sep + c.toUpperCase());
}

/** Lower-case word tokens for the search index and queries: `Résolu-Thunder Bay` → `resolu thunder bay`. */
export function toSearchText(s: string): string {
  return normalizeName(s).toLowerCase();
}

/** An upper bound of `similarity` from lengths alone, to skip pairs that cannot reach a threshold. */
export function maxSimilarity(whole: string, other: string): number {
  const a = whole.slice(0, SIMILARITY_CHARS);
  const b = other.slice(0, SIMILARITY_CHARS);
  const longer = Math.max(a.length, b.length);
  return longer === 0 ? 1 : 1 - Math.abs(a.length - b.length) / longer;
}
