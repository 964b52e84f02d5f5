import type { Rng } from '../../../contract/core/rng.ts';

/**
 * Real carrier names have a long tail (1,000 real carriers hold about 1,800 distinct words, four in five used
 * once), so a name slot sometimes takes one of TAIL_WORDS made-up surnames, the k-th with probability about
 * 1/k (Zipf, from the 20th on): the demo's vocabulary grows with its size. One draw per slot, as a plain pick.
 */
const TAIL_WORDS = 1_500_000;
const TAIL_FIRST = 20;
const TAIL_SYLLABLES = [
  'BA',
  'KE',
  'LO',
  'MI',
  'RU',
  'DA',
  'NE',
  'SO',
  'TI',
  'VA',
  'GRO',
  'BEL',
  'HAR',
  'MOR',
  'KIN',
  'DRE',
  'WAL',
  'TON',
  'SHA',
  'FEL',
  'CAR',
  'LIN',
  'PER',
  'QUI',
  'ZE',
  'YO',
  'BRA',
  'STE',
  'CHU',
  'NO',
  'RI',
  'GA',
];
const TAIL_ENDINGS = ['', 'SON', 'ER', 'EZ', 'OV', 'TON', 'LEY', 'MAN', 'SKI', 'INI', 'ETTE', 'BURG'];

/** The made-up surname number k (1-based): two or three syllables and an ending, all fixed by k. */
export function tailWord(k: number): string {
  let h = Math.imul(k ^ 0x9e3779b9, 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  let word = '';
  for (let i = 0, n = 1 + (k % 2); i < n; i++) {
    word += TAIL_SYLLABLES[h % TAIL_SYLLABLES.length]!;
    h = Math.floor(h / TAIL_SYLLABLES.length);
  }
  // The number itself, spelled in the ending and a last syllable, keeps two values of k apart.
  return (
    word +
    TAIL_SYLLABLES[Math.floor(k / TAIL_ENDINGS.length) % TAIL_SYLLABLES.length]! +
    TAIL_ENDINGS[k % TAIL_ENDINGS.length]!
  );
}

/** A word for a name slot: from `list` with probability `listShare`, else from the long tail. */
export function nameWord(rng: Rng, list: readonly string[], listShare: number): string {
  const u = rng.next();
  if (u < listShare) return list[Math.floor((u / listShare) * list.length)]!;
  // Log-uniform over [TAIL_FIRST, TAIL_WORDS): the commonest made-up word is as common as a common surname.
  return tailWord(
    Math.floor(TAIL_FIRST * Math.exp(((u - listShare) / (1 - listShare)) * Math.log(TAIL_WORDS / TAIL_FIRST))),
  );
}
