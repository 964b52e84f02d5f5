// Text folding shared by every service's matching and search: accents, case and punctuation never decide
// whether two names are the same.

/** Only ASCII: NFKD leaves it as it is, and its letters and digits are A-Z, a-z and 0-9. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the class is all of ASCII, control characters included
const ASCII = /^[\x00-\x7f]*$/;

/**
 * Latin letters NFKD leaves whole (a stroke or a ligature is not a combining mark), as their base letters:
 * `ØZARK` must find `OZARK` as `ÖZARK` does.
 */
const UNDECOMPOSED: Record<string, string> = {
  Ø: 'O',
  ø: 'o',
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Ð: 'D',
  ð: 'd',
  Ħ: 'H',
  ħ: 'h',
  Ŧ: 'T',
  ŧ: 't',
  Æ: 'AE',
  æ: 'ae',
  Œ: 'OE',
  œ: 'oe',
  Þ: 'TH',
  þ: 'th',
  ß: 'ss',
  ẞ: 'SS',
  ı: 'i',
};
const UNDECOMPOSED_RE = new RegExp(`[${Object.keys(UNDECOMPOSED).join('')}]`, 'g');

/** NFKD, combining marks removed, and the letters NFKD keeps whole: `Résolu` → `Resolu`, `ﬁ` → `fi`, `Œuvre` → `OEuvre`. */
export function foldAccents(s: string): string {
  return ASCII.test(s)
    ? s
    : s
        .normalize('NFKD')
        .replace(/\p{M}+/gu, '')
        .replace(UNDECOMPOSED_RE, (c) => UNDECOMPOSED[c]!);
}

/**
 * Upper-case words: accents stripped, `&` → `AND`, every other character that is not a letter or digit
 * becomes a space, whitespace collapsed. `Smith & Sons Ltd.` → `SMITH AND SONS LTD`.
 */
export function toWordKey(s: string): string {
  // Most names and queries are ASCII: the same result without normalization or Unicode classes, which
  // were most of a search's text handling.
  if (ASCII.test(s)) {
    return s
      .toUpperCase()
      .replace(/&/g, ' AND ')
      .replace(/[^A-Z0-9]+/g, ' ')
      .trim();
  }
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
