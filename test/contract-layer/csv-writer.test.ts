// The one CSV writer (contract/core/csv.ts): RFC 4180 quoting, one row per edge case, and a round trip
// through papaparse, an independent reader.
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { toCsv, toCsvField, guardFormula, type CsvValue } from '../../contract/core/csv.ts';

describe('toCsvField', () => {
  it.each<[CsvValue, string]>([
    ['plain', 'plain'],
    ['', ''],
    [null, ''],
    [0, '0'],
    [-500.25, '-500.25'],
    [3882002.891, '3882002.891'],
    ['Canada Bread Company, Ltd.', '"Canada Bread Company, Ltd."'],
    ['the "Works"', '"the ""Works"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\rhere', '"cr\rhere"'],
    ["Bœuf d'Or", "Bœuf d'Or"],
    [' padded ', ' padded '],
  ])('%j → %j', (value, text) => {
    expect(toCsvField(value)).toBe(text);
  });

  it('refuses a number with no decimal form', () => {
    expect(() => toCsvField(Number.NaN)).toThrow(/no CSV form/);
    expect(() => toCsvField(Number.POSITIVE_INFINITY)).toThrow(/no CSV form/);
  });
});

describe('toCsv', () => {
  it('ends every record, the last too, in CRLF', () => {
    const rows: CsvValue[][] = [
      ['1', 2],
      [null, 'x,y'],
    ];
    expect(toCsv(['a', 'b'], rows)).toBe('a,b\r\n1,2\r\n,"x,y"\r\n');
    expect(toCsv(['a'], [])).toBe('a\r\n');
  });

  it('reads back field for field with another reader', () => {
    const rows: CsvValue[][] = [
      ['Résolu "Thunder Bay", Ont.', -1.5, null],
      ['line\r\nbreak', 0, 'x'],
    ];
    const text = toCsv(['name', 'n', 'z'], rows);
    const parsed = Papa.parse<string[]>(text, { newline: '\r\n', skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data).toEqual([
      ['name', 'n', 'z'],
      ['Résolu "Thunder Bay", Ont.', '-1.5', ''],
      ['line\r\nbreak', '0', 'x'],
    ]);
  });
});

describe('guardFormula', () => {
  it.each([
    ['=HYPERLINK("x")', `'=HYPERLINK("x")`],
    ['+1', "'+1"],
    ['-x', "'-x"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tTab', "'\tTab"],
    ['Plant = 1', 'Plant = 1'],
    ['Algoma Steel Inc', 'Algoma Steel Inc'],
  ])('%j → %j', (text, guarded) => {
    expect(guardFormula(text)).toBe(guarded);
  });
});
