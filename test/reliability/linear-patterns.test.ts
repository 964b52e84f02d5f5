// The patterns rewritten to run in linear time (test/reliability/redos.test.ts) answer as the old ones did:
// the old pattern is kept here as the reference and both are run on a table of ordinary inputs and on
// seeded random short strings made of the characters the pattern cares about.
import { describe, expect, it } from 'vitest';
import { createRng } from '../../contract/core/rng.ts';
import { parseNumber } from '../../contract/core/values.ts';
import { withoutTrailingSlashes } from '../../contract/economy/upstream/port.ts';
import { toWdsNumber } from '../../contract/economy/upstream/statcan.ts';
import { toValetNumber } from '../../contract/economy/upstream/valet.ts';
import { normalizeCity, normalizeName } from '../../contract/facilities/normalize-names.ts';
import { checkLlmSummary } from '../../server/carriers/llm.ts';
import { CARRIER_NUMBER } from '../../server/carriers/search-thread.ts';
import type { Profile } from '../../contract/carriers/profile.ts';

/** `count` strings of 0 to `max` characters drawn from `alphabet`, the same every run. */
function randomStrings(seed: number, alphabet: readonly string[], count = 4000, max = 14): string[] {
  const rng = createRng(seed);
  return Array.from({ length: count }, () =>
    Array.from({ length: rng.int(0, max) }, () => rng.pick(alphabet)).join(''),
  );
}

const OLD_CARRIER_NUMBER = /^\s*(?:(?:u\.?\s*s\.?\s*)?dot\s*)?#?\s*(\d{1,8})\s*$/i;

describe('CARRIER_NUMBER', () => {
  const table = [
    '123456',
    ' 123456 ',
    'USDOT 123456',
    'usdot123456',
    'US DOT # 123456',
    'U.S. DOT #123456',
    'DOT#123456',
    'dot  #  7',
    '#42',
    '# 42',
    '123456789',
    'DOT',
    'DOT #',
    'ACME TRUCKING',
    'US 123',
    '12 34',
    '\t\n12\u00a0',
  ];
  const random = randomStrings(1, ['u', 'U', 's', 'S', '.', 'd', 'o', 't', 'T', '#', ' ', '\t', '1', '9', 'x']);

  it('matches what the old pattern matched, with the same number', () => {
    let matched = 0;
    for (const q of [...table, ...random]) {
      const before = OLD_CARRIER_NUMBER.exec(q)?.[1];
      expect(CARRIER_NUMBER.exec(q)?.[1], JSON.stringify(q)).toBe(before);
      if (before !== undefined) matched++;
    }
    // Both sides of the comparison are exercised.
    expect(matched).toBeGreaterThan(20);
  });
});

/** normalizeCity as it was, with the bracket pattern. */
function oldNormalizeCity(s: string): string {
  const saint = new Set(['ST', 'STE', 'SAINT', 'SAINTE']);
  return normalizeName(s.replace(/\([^)]*\)|\[[^\]]*\]/g, ' '))
    .split(' ')
    .map((w) => (saint.has(w) ? 'ST' : w))
    .join(' ');
}

describe('normalizeCity', () => {
  const table = [
    'Toronto (Etobicoke)',
    'Sault Ste. Marie',
    'SAULT SAINTE MARIE',
    'Montréal [QC]',
    '(Toronto)',
    'Hamilton (Stoney Creek) [ON]',
    'Ottawa (',
    'Ottawa )',
    'a (b [c) d] e',
    'a [b (c] d) e',
    '((nested)) town',
    '',
  ];
  const random = randomStrings(2, ['(', ')', '[', ']', 'a', 'B', ' ', 'é', '-']);

  it('gives what the old pattern gave', () => {
    let bracketed = 0;
    for (const s of [...table, ...random]) {
      expect(normalizeCity(s), JSON.stringify(s)).toBe(oldNormalizeCity(s));
      if (/\(.*\)|\[.*\]/.test(s)) bracketed++;
    }
    expect(bracketed).toBeGreaterThan(100);
  });
});

const OLD_DECIMAL = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

describe('decimal numbers (parseNumber, toWdsNumber, toValetNumber)', () => {
  const table = ['69652', '3858475.994', '3.78544E-05', '-1', '+.5', '5.', '.', '1e', '1e+', '1.2.3', 'e5', '0x10'];
  const random = randomStrings(3, ['1', '0', '.', 'e', 'E', '-', '+', 'x']);

  it('reads the same strings as numbers as the old pattern did', () => {
    let numbers = 0;
    for (const s of [...table, ...random]) {
      if (s.trim() === '') continue;
      const ok = OLD_DECIMAL.test(s) && Number.isFinite(Number(s));
      const n = parseNumber(s);
      expect(n !== null && !Number.isNaN(n), JSON.stringify(s)).toBe(ok);
      expect(toWdsNumber(s) !== undefined, JSON.stringify(s)).toBe(ok);
      expect(toValetNumber({ v: s }) !== undefined, JSON.stringify(s)).toBe(ok);
      if (ok) numbers++;
    }
    expect(numbers).toBeGreaterThan(50);
  });
});

describe('withoutTrailingSlashes', () => {
  it('drops what /\\/+$/ dropped', () => {
    for (const s of [
      'https://x.test/api/',
      'https://x.test/api//',
      'https://x.test/api',
      '/',
      '',
      ...randomStrings(4, ['/', 'a']),
    ])
      expect(withoutTrailingSlashes(s), JSON.stringify(s)).toBe(s.replace(/\/+$/, ''));
  });
});

describe('checkLlmSummary (markup and Markdown read line by line)', () => {
  const profile = { carrier_id: 1, counts: { inspections: 87 } } as unknown as Profile;
  const markup = /<\/?[a-z!][^>]*>/i;
  const markdown = /^\s{0,3}#{1,6}\s|\*\*[^*\n]+\*\*|__[^_\n]+__|^\s*[-*+]\s+\S/m;
  const table = [
    'Percentile 87.',
    '<p>Percentile 87.</p>',
    'Percentile 87 <b',
    'Percentile < 87 > 3',
    '87 <!-- x -->',
    '</ 87 >',
    '**Unsafe Driving**: 87',
    '** 87',
    '__87__',
    '# Summary\n87',
    '### 87',
    '#87',
    'Risks:\n- Unsafe Driving, 87',
    '  * 87',
    '+ 87',
    '-87',
    '5 - 3 = 87',
    'a * b * 87',
  ];
  it('refuses what the old patterns refused', () => {
    let refused = 0;
    for (const s of table) {
      const reason = checkLlmSummary(s, profile, '')?.message ?? '';
      const old = markup.test(s) ? 'markup' : markdown.test(s) ? 'Markdown' : 'none';
      const now = reason.includes('has markup') ? 'markup' : reason.includes('has Markdown') ? 'Markdown' : 'none';
      expect(now, JSON.stringify(s)).toBe(old);
      if (old !== 'none') refused++;
    }
    expect(refused).toBeGreaterThan(8);
  });
});
