// Text folding: the ASCII shortcut gives exactly what the Unicode definition gives.
import { describe, expect, it } from 'vitest';
import { foldAccents, toSearchWords, toWordKey } from '../../contract/core/text.ts';

/** The definition, without the shortcut. */
const reference = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toUpperCase()
    .replace(/&/g, ' AND ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

describe('toWordKey', () => {
  it('folds accents, case and punctuation', () => {
    expect(toWordKey('Smith & Sons Ltd.')).toBe('SMITH AND SONS LTD');
    expect(toWordKey('  Résolu-Thunder   Bay ')).toBe('RESOLU THUNDER BAY');
    expect(foldAccents('ﬁne Café')).toBe('fine Cafe');
    // Letters NFKD keeps whole fold to their base letters too.
    expect(foldAccents('ØZARK Łódź Œuvre Æther Straße Đakovo ÞING')).toBe(
      'OZARK Lodz OEuvre AEther Strasse Dakovo THING',
    );
    expect(toSearchWords('ØZARK Lines')).toEqual(toSearchWords('Ozark Lines'));
    expect(toSearchWords('A&W Transport, Inc.')).toEqual(['a', 'and', 'w', 'transport', 'inc']);
    expect(toSearchWords(' -- ')).toEqual([]);
  });

  it('gives the definition’s answer for every ASCII string, and for mixed ones', () => {
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0);
    const mixed = ['é', 'ß', 'İ', 'ﬁ', '²', '٣', '\u0301', 'Ω'];
    for (let i = 0; i < 20_000; i++) {
      let s = '';
      for (let n = next() % 24; n > 0; n--) s += String.fromCharCode(next() % 128);
      expect(toWordKey(s), JSON.stringify(s)).toBe(reference(s));
      const m = `${s}${mixed[i % mixed.length]}${s.slice(0, 3)}`;
      expect(toWordKey(m), JSON.stringify(m)).toBe(reference(m));
    }
  });
});
