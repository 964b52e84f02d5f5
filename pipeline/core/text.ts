// Text folding shared by every service's matching and search: accents, case and punctuation never decide
// whether two names are the same.

/** NFKD, combining marks removed: `Résolu` → `Resolu`, `ﬁ` → `fi`. */
export function foldAccents(s: string): string {
  return s.normalize('NFKD').replace(/\p{M}+/gu, '');
}

/**
 * Upper-case words: accents stripped, `&` → `AND`, every other character that is not a letter or digit
 * becomes a space, whitespace collapsed. `Smith & Sons Ltd.` → `SMITH AND SONS LTD`.
 */
export function toWordKey(s: string): string {
  return foldAccents(s)
    .toUpperCase()
    .replace(/&/g, ' AND ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Lower-case words for search indexes and queries: `Résolu-Thunder Bay` → `['resolu', 'thunder', 'bay']`. */
export function toSearchWords(s: string): string[] {
  const key = toWordKey(s).toLowerCase();
  return key ? key.split(' ') : [];
}
