import { describe, expect, it } from 'vitest';
import {
  maxSimilarity,
  normalizeCity,
  normalizeName,
  similarity,
  SIMILARITY_CHARS,
  toSearchText,
  toTitleCase,
} from '../../contract/facilities/normalize-names.ts';

// The table of cases for the identity rules (docs/contracts/facilities.md).
describe('normalizeName', () => {
  it.each([
    ['ADM Windsor', 'ADM WINDSOR'],
    ['  Smith &  Sons Ltd. ', 'SMITH AND SONS LTD'],
    ['Smith&Sons', 'SMITH AND SONS'],
    ['Produits forestiers Résolu', 'PRODUITS FORESTIERS RESOLU'],
    ['Usine Sainte-Thérèse', 'USINE SAINTE THERESE'],
    ['ÉNERGIE Ô', 'ENERGIE O'],
    ['Plant #1', 'PLANT 1'],
    ['Canada Bread Company, Ltd.', 'CANADA BREAD COMPANY LTD'],
    ['Resolute Forest Products - Thunder Bay Operations', 'RESOLUTE FOREST PRODUCTS THUNDER BAY OPERATIONS'],
    ['ﬁne “quotes”', 'FINE QUOTES'],
    ['', ''],
  ])('%j → %j', (input, expected) => {
    expect(normalizeName(input)).toBe(expected);
  });
});

describe('normalizeCity', () => {
  it.each([
    ['Sault Ste. Marie', 'SAULT ST MARIE'],
    ['SAULT STE. MARIE', 'SAULT ST MARIE'],
    ['Sault Sainte Marie', 'SAULT ST MARIE'],
    ['St. Catharines', 'ST CATHARINES'],
    ['Saint Catharines', 'ST CATHARINES'],
    ['Toronto (Etobicoke)', 'TORONTO'],
    ['Pickering [City of Toronto]', 'PICKERING'],
    ['Sainte-Anne', 'ST ANNE'],
    ['STEWARTTOWN', 'STEWARTTOWN'],
    ['Lévis', 'LEVIS'],
  ])('%j → %j', (input, expected) => {
    expect(normalizeCity(input)).toBe(expected);
  });
});

describe('similarity', () => {
  it.each([
    ['NORTHFIELD CEMENT PLANT', 'NORTHFIELD CEMENT PLANTS', 0.958],
    ['PLANT 1', 'PLANT 2', 0.857],
    ['ABC', 'XYZ', 0],
    ['SAME', 'SAME', 1],
  ])('%s ~ %s = %d', (a, b, expected) => {
    expect(similarity(a, b)).toBeCloseTo(expected, 3);
    expect(similarity(b, a)).toBeCloseTo(expected, 3);
  });

  it('compares the first SIMILARITY_CHARS characters of names of any length (a 1 MB field cannot stall a build)', () => {
    const long = 'ACME '.repeat(200_000);
    expect(similarity(long, `${long}X`)).toBe(1);
    expect(similarity(`B${long}`, long)).toBeCloseTo(1 - 2 / SIMILARITY_CHARS, 6);
    expect(maxSimilarity(long, 'ACME')).toBeCloseTo(4 / SIMILARITY_CHARS, 6);
  });
});

describe('display and search text', () => {
  it('title-cases an all-capitals city', () => {
    expect(toTitleCase('SAULT STE. MARIE')).toBe('Sault Ste. Marie');
    expect(toTitleCase('NIAGARA-ON-THE-LAKE')).toBe('Niagara-On-The-Lake');
  });
  it('folds search text to lower-case words', () => {
    expect(toSearchText('Résolu - Thunder Bay & Co.')).toBe('resolu thunder bay and co');
  });
});
