import { createHash } from 'node:crypto';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CsvError,
  createDecoder,
  createRecordParser,
  matchColumns,
  normalizeHeader,
  readCsv,
  readHeader,
} from '../../pipeline/core/csv.ts';
import type { ColumnSpec, CsvProgress, CsvReport } from '../../pipeline/core/csv.ts';

/** Default fs read-stream chunk: fixtures place tricky bytes across this boundary. */
const CHUNK = 64 * 1024;

let dir = '';
let fixtureCount = 0;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'csv-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function fixture(content: string | Uint8Array): Promise<string> {
  const path = join(dir, `f${++fixtureCount}.csv`);
  await writeFile(path, content);
  return path;
}

const bytes = (...parts: (string | number[])[]): Buffer =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

async function collect(
  path: string,
  specs: ColumnSpec[],
  onProgress?: (p: CsvProgress) => void,
): Promise<{ report: CsvReport; rows: [number, Record<string, string>][] }> {
  const rows: [number, Record<string, string>][] = [];
  const report = await readCsv(path, specs, (row, record) => rows.push([record, row]), { onProgress });
  return { report, rows };
}

const ID_NAME: ColumnSpec[] = [
  { key: 'id', names: ['id'], required: true },
  { key: 'name', names: ['name'] },
];

/** Seeded PRNG (mulberry32) so property tests are reproducible. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('normalizeHeader', () => {
  it.each([
    ['FACILITY CITY', 'facility city'],
    ['  Facility_City  ', 'facility city'],
    ['Total Emissions (tonnes CO2e)', 'total emissions tonnes co2e'],
    ["No d'identification du PDGES", 'no d identification du pdges'],
    ['Émissions totales (tonnes éq. CO2)', 'emissions totales tonnes eq co2'],
    ['\ufeffid', 'id'],
    ['ﬁle №', 'file no'], // NFKD compatibility forms
    ['---', ''],
  ])('%j → %j', (input, expected) => {
    expect(normalizeHeader(input)).toBe(expected);
  });
});

describe('matchColumns', () => {
  const GHG_TOTAL = 'Total Emissions (tonnes CO2e) / Émissions totales (tonnes éq. CO2) - excl. CO2bio';
  const GHG_ID = "GHGRP ID No. / No d'identification du PDGES";
  it.each<{
    name: string;
    header: string[];
    specs: ColumnSpec[];
    columns: Record<string, number>;
    missing: string[];
    unmatched: string[];
  }>([
    {
      name: 'case and punctuation differences',
      header: ['FACILITY CITY', 'Facility_Name'],
      specs: [
        { key: 'name', names: ['Facility Name'] },
        { key: 'city', names: ['Facility City'] },
      ],
      columns: { name: 1, city: 0 },
      missing: [],
      unmatched: [],
    },
    {
      name: 'bilingual headers match on their English part',
      header: [GHG_ID, 'Reference Year / Année de référence', GHG_TOTAL],
      specs: [
        { key: 'id', names: ['GHGRP ID No.'], required: true },
        { key: 'total', names: ['Total Emissions (tonnes CO2e)'], required: true },
      ],
      columns: { id: 0, total: 2 },
      missing: [],
      unmatched: ['Reference Year / Année de référence'],
    },
    {
      name: 'whole bilingual header also matches',
      header: [GHG_ID],
      specs: [{ key: 'id', names: ["GHGRP ID No. / No d'identification du PDGES"] }],
      columns: { id: 0 },
      missing: [],
      unmatched: [],
    },
    {
      name: 'any accepted spelling, first matching column wins',
      header: ['Zip', 'Postal Code'],
      specs: [{ key: 'postal', names: ['postal code', 'zip'] }],
      columns: { postal: 0 },
      missing: [],
      unmatched: ['Postal Code'],
    },
    {
      name: 'a column is claimed by one spec only',
      header: ['name', 'name'],
      specs: [
        { key: 'a', names: ['Name'] },
        { key: 'b', names: ['NAME'] },
        { key: 'c', names: ['name'] },
      ],
      columns: { a: 0, b: 1 },
      missing: [],
      unmatched: [],
    },
    {
      name: 'missing lists required keys only',
      header: ['id'],
      specs: [
        { key: 'id', names: ['id'] },
        { key: 'city', names: ['city'], required: true },
        { key: 'x', names: ['x'] },
      ],
      columns: { id: 0 },
      missing: ['city'],
      unmatched: [],
    },
    {
      name: 'empty spelling never matches an empty header',
      header: ['', 'id'],
      specs: [{ key: 'blank', names: [''] }],
      columns: {},
      missing: [],
      unmatched: ['', 'id'],
    },
  ])('$name', ({ header, specs, columns, missing, unmatched }) => {
    expect(matchColumns(header, specs)).toEqual({ columns, missing, unmatched, repeated: [] });
  });
});

describe('createDecoder', () => {
  function decode(
    input: Buffer,
    pieces: Buffer[],
  ): { text: string; encoding: string; bom: boolean; undecodable: number } {
    expect(Buffer.concat(pieces).equals(input)).toBe(true);
    const decoder = createDecoder();
    const text = pieces.map((p) => decoder.write(p)).join('') + decoder.end();
    return { text, encoding: decoder.encoding, bom: decoder.bom, undecodable: decoder.undecodableBytes };
  }
  const whole = (b: Buffer): Buffer[] => [b];
  const byteByByte = (b: Buffer): Buffer[] => [...b].map((x) => Buffer.from([x]));

  it.each<[string, Buffer, string, 'utf-8' | 'windows-1252', boolean, number]>([
    ['ASCII only', bytes('id,name\n1,x\n'), 'id,name\n1,x\n', 'utf-8', false, 0],
    ['empty', bytes(), '', 'utf-8', false, 0],
    ['UTF-8 of 2, 3 and 4 bytes', bytes('a,é € 😀\n'), 'a,é € 😀\n', 'utf-8', false, 0],
    ['BOM stripped', bytes([0xef, 0xbb, 0xbf], 'id'), 'id', 'utf-8', true, 0],
    ['BOM only', bytes([0xef, 0xbb, 0xbf]), '', 'utf-8', true, 0],
    ['U+FEFF after the start is content', bytes('a\ufeffb'), 'a\ufeffb', 'utf-8', false, 0],
    ['BOM-like prefix that is not a BOM', bytes([0xef, 0xbb], 'A'), '\u00ef\u00bbA', 'windows-1252', false, 0],
    ['cp1252 é', bytes('caf', [0xe9], ',x'), 'café,x', 'windows-1252', false, 0],
    [
      'cp1252 0x80–0x9F per WHATWG, not Latin-1',
      bytes([0x80, 0x82, 0x8a, 0x92, 0x93, 0x94, 0x96, 0x9f]),
      '€‚Š’“”–Ÿ',
      'windows-1252',
      false,
      0,
    ],
    [
      'cp1252 unassigned bytes → U+FFFD, counted',
      bytes([0xe9, 0x20, 0x81, 0x8d, 0x8f, 0x90, 0x9d]),
      'é \ufffd\ufffd\ufffd\ufffd\ufffd',
      'windows-1252',
      false,
      5,
    ],
    ['bytes that happen to form UTF-8 decide UTF-8', bytes([0xe9, 0x81, 0x8d]), '遍', 'utf-8', false, 0],
    ['decided at the first non-ASCII byte', bytes([0xe9], ' ', [0xc3, 0xa9]), 'é Ã©', 'windows-1252', false, 0],
    ['lone UTF-8 lead at EOF is cp1252', bytes('a', [0xc3]), 'aÃ', 'windows-1252', false, 0],
    ['UTF-8 with a stray byte', bytes('é ', [0xff], ' x'), 'é \ufffd x', 'utf-8', false, 1],
    ['literal U+FFFD is not counted', bytes('é \ufffd'), 'é \ufffd', 'utf-8', false, 0],
    ['truncated sequence mid-text: one U+FFFD, 2 bytes', bytes('é', [0xe2, 0x82], 'A'), 'é\ufffdA', 'utf-8', false, 2],
    ['truncated sequence at EOF', bytes('é', [0xe2, 0x82]), 'é\ufffd', 'utf-8', false, 2],
    ['surrogate code point', bytes('é', [0xed, 0xa0, 0x80]), 'é\ufffd\ufffd\ufffd', 'utf-8', false, 3],
    ['overlong encoding', bytes('é', [0xc0, 0xaf]), 'é\ufffd\ufffd', 'utf-8', false, 2],
    ['BOM then invalid byte', bytes([0xef, 0xbb, 0xbf, 0xe9]), '\ufffd', 'utf-8', true, 1],
  ])('%s', (_, input, text, encoding, bom, undecodable) => {
    for (const split of [whole, byteByByte]) {
      expect(decode(input, split(input))).toEqual({ text, encoding, bom, undecodable });
    }
  });

  it('matches the WHATWG UTF-8 decoder on random bytes in random pieces', () => {
    const random = prng(42);
    const alphabet = [
      0x41, 0x2c, 0x0a, 0x80, 0x8f, 0xa0, 0xbf, 0xbd, 0xc0, 0xc3, 0xa9, 0xe0, 0xe2, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff,
    ];
    for (let run = 0; run < 500; run++) {
      // A leading é decides UTF-8; the rest is noise.
      const input = bytes(
        'é',
        Array.from({ length: Math.floor(random() * 40) }, () => alphabet[Math.floor(random() * alphabet.length)]!),
      );
      const pieces: Buffer[] = [];
      for (let at = 0; at < input.length; ) {
        const size = 1 + Math.floor(random() * 5);
        pieces.push(input.subarray(at, at + size));
        at += size;
      }
      const expected = new TextDecoder('utf-8', { ignoreBOM: true }).decode(input);
      const got = decode(input, pieces);
      expect(got.text).toBe(expected);
      // Valid input round-trips byte for byte, so the invalid bytes are what the output does not account for.
      const literals = input.toString('latin1').split('\u00ef\u00bf\u00bd').length - 1;
      const replacements = (expected.match(/\ufffd/g)?.length ?? 0) - literals;
      expect(got.undecodable).toBe(input.length - (Buffer.byteLength(expected) - 3 * replacements));
    }
  });
});

describe('createRecordParser', () => {
  function parse(text: string, pieceSize: number, max?: number): [string[], string | undefined][] {
    const out: [string[], string | undefined][] = [];
    const parser = createRecordParser((fields, error) => out.push([fields, error]), max);
    for (let at = 0; at < text.length; at += pieceSize) parser.write(text.slice(at, at + pieceSize));
    parser.end();
    return out;
  }

  it.each<[string, string, [string[], string | undefined][]]>([
    [
      'LF',
      'a,b\n1,2\n',
      [
        [['a', 'b'], undefined],
        [['1', '2'], undefined],
      ],
    ],
    [
      'CRLF',
      'a,b\r\n1,2\r\n',
      [
        [['a', 'b'], undefined],
        [['1', '2'], undefined],
      ],
    ],
    [
      'no final newline',
      'a,b\r\n1,2',
      [
        [['a', 'b'], undefined],
        [['1', '2'], undefined],
      ],
    ],
    [
      'mixed line ends',
      'a,b\n1,2\r\n3,4\n',
      [
        [['a', 'b'], undefined],
        [['1', '2'], undefined],
        [['3', '4'], undefined],
      ],
    ],
    [
      'quoted LF, comma and quote',
      'a,b\n"x\ny, ""z""",2\n',
      [
        [['a', 'b'], undefined],
        [['x\ny, "z"', '2'], undefined],
      ],
    ],
    [
      'quoted CRLF, quoted last field in CRLF file',
      'a,b\r\n"x\r\ny","2"\r\n',
      [
        [['a', 'b'], undefined],
        [['x\r\ny', '2'], undefined],
      ],
    ],
    [
      'blank line and empty fields',
      'a,b\n\n,\n',
      [
        [['a', 'b'], undefined],
        [[''], undefined],
        [['', ''], undefined],
      ],
    ],
    [
      'unterminated quote at EOF',
      'a,b\n1,"open\n2,3\n',
      [
        [['a', 'b'], undefined],
        [['1', 'open\n2,3\n'], 'Quoted field unterminated'],
      ],
    ],
    [
      'text after a closing quote',
      'a,b\n1,"x"y",2\n',
      [
        [['a', 'b'], undefined],
        [['1', 'x"y', '2'], 'Trailing quote on quoted field is malformed'],
      ],
    ],
    // As in papaparse: after a bad closing quote the field runs on to the next quote, here to EOF.
    [
      'bad closing quote with no later quote',
      'a,b\n1,"x"y\n2,3\n',
      [
        [['a', 'b'], undefined],
        [['1', 'x"y\n2,3\n'], 'Trailing quote on quoted field is malformed'],
      ],
    ],
  ])('%s', (_, text, expected) => {
    for (const size of [1, 2, 3, 7, text.length]) expect(parse(text, size)).toEqual(expected);
  });

  it('resumes after an overlong record instead of buffering the rest of the file', () => {
    const tail = Array.from({ length: 50 }, (_, i) => `${i},ok\n`).join('');
    const records = parse(`a,b\n1,"stray\n${tail}`, 16, 100);
    expect(records[0]).toEqual([['a', 'b'], undefined]);
    expect(records[1]).toEqual([[], 'record longer than 100 characters (unterminated quoted field?)']);
    expect(records.slice(2)).toEqual(Array.from({ length: 50 }, (_, i) => [[String(i), 'ok'], undefined]));
  });
});

describe('readCsv', () => {
  it.each<[string, Buffer, 'utf-8' | 'windows-1252', boolean]>([
    ['UTF-8 without BOM', bytes('id,name\n1,Montréal\n'), 'utf-8', false],
    [
      'UTF-8 with BOM, first header field still matched',
      bytes([0xef, 0xbb, 0xbf], 'id,name\n1,Montréal\n'),
      'utf-8',
      true,
    ],
    ['Windows-1252', bytes('id,name\n1,Montr', [0xe9], 'al\n'), 'windows-1252', false],
  ])('decodes %s', async (_, content, encoding, bom) => {
    const { report, rows } = await collect(await fixture(content), ID_NAME);
    expect(rows).toEqual([[1, { id: '1', name: 'Montréal' }]]);
    expect(report).toMatchObject({
      encoding,
      bom,
      header: ['id', 'name'],
      columns: { id: 0, name: 1 },
      undecodableBytes: 0,
      issues: [],
    });
  });

  it('detects Windows-1252 when the first non-ASCII byte is far past the first chunk', async () => {
    const ascii = Array.from({ length: 10_000 }, (_, i) => `${i},plain name ${i}\n`).join('');
    expect(ascii.length).toBeGreaterThan(2 * CHUNK);
    const { report, rows } = await collect(
      await fixture(bytes('id,name\n', ascii, '10000,Qu', [0xe9], 'bec\n')),
      ID_NAME,
    );
    expect(report.encoding).toBe('windows-1252');
    expect(report.rows).toBe(10_001);
    expect(rows.at(-1)).toEqual([10_001, { id: '10000', name: 'Québec' }]);
  });

  it('replaces and reports one stray invalid byte in a UTF-8 file, still delivering the row', async () => {
    const path = await fixture(bytes('id,name\n1,Montréal\n2,Gen', [0xff], 've\n3,Zürich\n'));
    const { report, rows } = await collect(path, ID_NAME);
    expect(rows.map(([, r]) => r.name)).toEqual(['Montréal', 'Gen\ufffdve', 'Zürich']);
    expect(report).toMatchObject({ encoding: 'utf-8', undecodableBytes: 1, rows: 3, malformed: 0 });
    expect(report.issues).toEqual([{ record: 0, kind: 'undecodable', message: expect.stringContaining('1 byte(s)') }]);
  });

  it('does not count a literal U+FFFD', async () => {
    const { report, rows } = await collect(await fixture('id,name\n1,a\ufffdb\n'), ID_NAME);
    expect(rows).toEqual([[1, { id: '1', name: 'a\ufffdb' }]]);
    expect(report).toMatchObject({ undecodableBytes: 0, issues: [] });
  });

  it('matches reordered columns and different header case', async () => {
    const path = await fixture('NAME,Extra,ID\nAcme,x,7\n');
    const { report, rows } = await collect(path, ID_NAME);
    expect(rows).toEqual([[1, { id: '7', name: 'Acme' }]]);
    expect(report).toMatchObject({ columns: { id: 2, name: 0 }, unmatched: ['Extra'] });
  });

  it('matches bilingual federal headers, including the renamed total', async () => {
    const header = [
      "GHGRP ID No. / No d'identification du PDGES",
      "Facility Name / Nom de l'installation",
      'Total Emissions (tonnes CO2e) / Émissions totales (tonnes éq. CO2) - excl. CO2bio',
    ];
    const csv = `${header.map((h) => `"${h}"`).join(',')}\r\nG10001,"Usine, Nord",12345.6\r\n`;
    const specs: ColumnSpec[] = [
      { key: 'id', names: ['GHGRP ID No.'], required: true },
      { key: 'name', names: ['Facility Name'] },
      { key: 'total', names: ['Total Emissions (tonnes CO2e)'], required: true },
    ];
    const { report, rows } = await collect(await fixture(csv), specs);
    expect(report.header).toEqual(header);
    expect(rows).toEqual([[1, { id: 'G10001', name: 'Usine, Nord', total: '12345.6' }]]);
  });

  it('leaves unmatched optional keys out of the row', async () => {
    const { rows } = await collect(await fixture('id\n1\n'), ID_NAME);
    expect(rows).toEqual([[1, { id: '1' }]]);
  });

  it('throws a CsvError naming the file and the missing required columns', async () => {
    const path = await fixture('name,city\nAcme,Toronto\n');
    const specs: ColumnSpec[] = [
      { key: 'id', names: ['Facility ID', 'id'], required: true },
      { key: 'total', names: ['Total Emissions (tonnes CO2e)'], required: true },
    ];
    const error = await readCsv(path, specs, () => {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CsvError);
    expect((error as Error).message).toContain(path);
    expect((error as Error).message).toContain('"Facility ID"');
    expect((error as Error).message).toContain('"Total Emissions (tonnes CO2e)"');
  });

  it('throws a CsvError when a column it reads appears twice in the header (and not for a repeated column it ignores)', async () => {
    const path = await fixture('id,Name,NAME\n1,Acme,Acme Holdings\n');
    const error = await readCsv(path, ID_NAME, () => {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CsvError);
    expect((error as Error).message).toMatch(
      /: the header has "Name" more than once, so which column holds the data cannot be told/,
    );
    const { rows } = await collect(await fixture('id,name,note,Note\n1,Acme,a,b\n'), ID_NAME);
    expect(rows).toEqual([[1, { id: '1', name: 'Acme' }]]);
    expect(
      matchColumns(['Zip', 'Postal Code', 'zip'], [{ key: 'postal', names: ['postal code', 'zip'] }]).repeated,
    ).toEqual(['Zip']);
  });

  it.each<[string, string | Buffer]>([
    ['an empty file', ''],
    ['a BOM-only file', bytes([0xef, 0xbb, 0xbf])],
    ['a file whose first record is blank', '\nid,name\n1,x\n'],
  ])('throws a CsvError for %s', async (_, content) => {
    const path = await fixture(content);
    await expect(readCsv(path, ID_NAME, () => {})).rejects.toThrow(CsvError);
    await expect(readHeader(path)).rejects.toThrow(path);
  });

  it('throws a CsvError naming an unreadable path', async () => {
    const path = join(dir, 'does-not-exist.csv');
    await expect(readCsv(path, ID_NAME, () => {})).rejects.toThrow(CsvError);
    await expect(readCsv(dir, ID_NAME, () => {})).rejects.toThrow(dir);
  });

  it('counts malformed records, reports them by record number and delivers their neighbours', async () => {
    const csv = 'id,name\n1,a\n2,b,extra\n3,c\n4\n5,"x"y"\n6,f\n';
    const { report, rows } = await collect(await fixture(csv), ID_NAME);
    expect(rows.map(([n, r]) => [n, r.id])).toEqual([
      [1, '1'],
      [3, '3'],
      [6, '6'],
    ]);
    expect(report).toMatchObject({ records: 6, rows: 3, malformed: 3, blank: 0 });
    expect(report.issues).toEqual([
      { record: 2, kind: 'malformed', message: 'expected 2 fields, found 3' },
      { record: 4, kind: 'malformed', message: 'expected 2 fields, found 1' },
      { record: 5, kind: 'malformed', message: 'Trailing quote on quoted field is malformed' },
    ]);
  });

  it('keeps 1000 issues but counts every malformed record', async () => {
    const csv = `id,name\n${Array.from({ length: 1500 }, (_, i) => `${i},a,b\n`).join('')}ok,fine\n`;
    const { report } = await collect(await fixture(csv), ID_NAME);
    expect(report).toMatchObject({ malformed: 1500, rows: 1, records: 1501 });
    expect(report.issues).toHaveLength(1000);
  });

  it('skips and counts blank records; record numbers still point at the record', async () => {
    const csv = 'id,name,x,y,z\n1,a,,,\n,,,,\n\n2,b,,,\n';
    const { report, rows } = await collect(await fixture(csv), ID_NAME);
    expect(rows).toEqual([
      [1, { id: '1', name: 'a' }],
      [4, { id: '2', name: 'b' }],
    ]);
    expect(report).toMatchObject({ records: 2, rows: 2, blank: 2, malformed: 0 });
  });

  it.each([
    ['LF', 'id,name\n1,"a, ""b""\nc"\n2,d\n'],
    ['CRLF', 'id,name\r\n1,"a, ""b""\nc"\r\n2,d\r\n'],
    ['no final newline', 'id,name\r\n1,"a, ""b""\nc"\r\n2,d'],
  ])('reads %s line ends and quoted fields with embedded LF and comma', async (_, csv) => {
    const { report, rows } = await collect(await fixture(csv), ID_NAME);
    expect(rows).toEqual([
      [1, { id: '1', name: 'a, "b"\nc' }],
      [2, { id: '2', name: 'd' }],
    ]);
    expect(report).toMatchObject({ records: 2, blank: 0, malformed: 0 });
  });

  it('parses records and characters that straddle read-chunk boundaries', async () => {
    // Lay out ASCII filler so each tricky record sits exactly on a 64 KiB boundary.
    let csv = 'id,name\r\n';
    let id = 0;
    const place = (record: string, byteOffsetOfSplit: number, boundary: number): void => {
      const start = boundary - byteOffsetOfSplit;
      while (Buffer.byteLength(csv) + 200 < start) csv += `${id++},filler filler filler\r\n`;
      const gap = start - Buffer.byteLength(csv) - `${id},\r\n`.length;
      csv += `${id++},${'f'.repeat(gap)}\r\n`;
      expect(Buffer.byteLength(csv)).toBe(start);
      csv += record;
    };
    place('q1,"line one\r\nline two, with comma"\r\n', 'q1,"line one\r'.length, CHUNK);
    place('q2,Montréal\r\n', Buffer.byteLength('q2,Montr') + 1, 2 * CHUNK);
    place('q3,"quoted 😀 emoji"\r\n', Buffer.byteLength('q3,"quoted ') + 2, 3 * CHUNK);
    csv += `${id},last`;

    const { report, rows } = await collect(await fixture(csv), ID_NAME);
    const byId = new Map(rows.map(([, r]) => [r.id, r.name]));
    expect(byId.get('q1')).toBe('line one\r\nline two, with comma');
    expect(byId.get('q2')).toBe('Montréal');
    expect(byId.get('q3')).toBe('quoted 😀 emoji');
    expect(byId.get(String(id))).toBe('last');
    expect(report).toMatchObject({ encoding: 'utf-8', rows: id + 4, malformed: 0, blank: 0, undecodableBytes: 0 });
  });

  it('reports size and a sha256 of the raw bytes', async () => {
    const content = bytes([0xef, 0xbb, 0xbf], 'id,name\r\n1,é\r\n');
    const path = await fixture(content);
    const { report } = await collect(path, ID_NAME);
    expect(report.file).toBe(path);
    expect(report.bytes).toBe(content.length);
    expect(report.sha256).toBe(createHash('sha256').update(content).digest('hex'));
  });

  it('ends with a progress call that covers the whole file', async () => {
    const path = await fixture('id,name\n1,a\n2,b\n');
    const calls: CsvProgress[] = [];
    const { report } = await collect(path, ID_NAME, (p) => calls.push(p));
    expect(calls.at(-1)).toEqual({ bytesRead: report.bytes, bytes: report.bytes, rows: 2 });
  });

  it('lets an error thrown by onRow propagate', async () => {
    const path = await fixture('id,name\n1,a\n');
    await expect(
      readCsv(path, ID_NAME, () => {
        throw new RangeError('stop');
      }),
    ).rejects.toThrow(RangeError);
  });

  it('streams a ~50 MB file in bounded memory', async () => {
    const path = join(dir, 'large.csv');
    const hash = createHash('sha256');
    const file = await open(path, 'w');
    const blocks = 50;
    const rowsPerBlock = 20_000;
    let size = 0;
    for (let b = 0; b < blocks; b++) {
      let block = b === 0 ? 'id,name,note,amount\r\n' : '';
      for (let i = 0; i < rowsPerBlock; i++) {
        const n = b * rowsPerBlock + i;
        block += `${n},Carrier ${n} Trucking Ltd,"note ${n}, with comma\nand a line",${(n * 1.37).toFixed(2)}\r\n`;
      }
      const buf = Buffer.from(block);
      hash.update(buf);
      size += buf.length;
      await file.write(buf);
    }
    await file.close();
    expect(size).toBeGreaterThan(45_000_000);

    // external counts Buffers, which live outside the V8 heap.
    const used = (): number => process.memoryUsage().heapUsed + process.memoryUsage().external;
    const baseline = used();
    let peak = baseline;
    let last = '';
    const report = await readCsv(path, [...ID_NAME, { key: 'note', names: ['note'] }], (row, record) => {
      if (record % 10_000 === 0) peak = Math.max(peak, used());
      last = row.note ?? '';
    });
    expect(report).toMatchObject({ bytes: size, rows: blocks * rowsPerBlock, malformed: 0, blank: 0 });
    expect(report.sha256).toBe(hash.digest('hex'));
    expect(last).toBe(`note ${blocks * rowsPerBlock - 1}, with comma\nand a line`);
    // Holding the file would cost at least its size; streaming costs a chunk plus young-generation garbage
    // (measured 6–16 MB here), which does not grow with the file.
    expect(peak - baseline).toBeLessThan(size * 0.6);
  });
});

describe('readHeader', () => {
  it('returns the header fields, encoding and BOM', async () => {
    const path = await fixture(bytes([0xef, 0xbb, 0xbf], '"Nom / Name",Ville\r\n1,Montréal\r\n'));
    expect(await readHeader(path)).toEqual({ encoding: 'utf-8', bom: true, fields: ['Nom / Name', 'Ville'] });
  });

  it('reports Windows-1252 when the header shows it', async () => {
    const path = await fixture(bytes('R', [0xe9], 'gion,id\n'));
    expect(await readHeader(path)).toEqual({ encoding: 'windows-1252', bom: false, fields: ['Région', 'id'] });
  });
});
