// The zip reader the nightly job unpacks upstream archives with: stored and deflated entries, the ZIP64
// form, flattened names, and every kind of damage refused with a clear message.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractZip, isZipHeader, readZipEntries, toEntryFileName, ZipError } from '../../../pipeline/nightly/zip.ts';
import { tempDir } from '../../helpers/server.ts';
import { toZip } from '../../helpers/zip.ts';

let root: Awaited<ReturnType<typeof tempDir>>;
let n = 0;

beforeAll(async () => {
  root = await tempDir('zip');
});
afterAll(async () => {
  await root.remove();
});

/** Writes `bytes` as an archive and gives a fresh folder to unpack it into. */
async function place(bytes: Buffer): Promise<{ zip: string; out: string }> {
  n++;
  const zip = join(root.path, `a${n}.zip`);
  const out = join(root.path, `out${n}`);
  await writeFile(zip, bytes);
  await mkdir(out);
  return { zip, out };
}

// A text long and repetitive enough that deflate changes its size a lot.
const CENSUS = `"DOT_NUMBER","LEGAL_NAME"\r\n${Array.from({ length: 2000 }, (_, i) => `"${1000 + i}","CARRIER ${i} LLC"`).join('\r\n')}\r\n`;

describe('extractZip', () => {
  for (const zip64 of [false, true]) {
    it(`unpacks stored and deflated entries${zip64 ? ' (ZIP64 form)' : ''}, checking CRC and size`, async () => {
      const bytes = toZip(
        [
          { name: 'FMCSA_CENSUS1_2026Oct.txt', data: CENSUS, method: 8 },
          { name: 'readme/CENSUS_README.txt', data: 'field list\n', method: 0 },
          { name: 'empty.txt', data: '', method: 0 },
          { name: 'docs/', data: '', method: 0 },
        ],
        { zip64 },
      );
      expect(isZipHeader(bytes)).toBe(true);
      const { zip, out } = await place(bytes);
      const entries = await readZipEntries(zip);
      expect(entries.map((e) => [e.name, e.method, e.size])).toEqual([
        ['FMCSA_CENSUS1_2026Oct.txt', 8, Buffer.byteLength(CENSUS)],
        ['readme/CENSUS_README.txt', 0, 11],
        ['empty.txt', 0, 0],
        ['docs/', 0, 0],
      ]);
      expect(entries[0]!.compressedSize).toBeLessThan(entries[0]!.size / 3);
      const written = await extractZip(zip, out);
      expect(written).toEqual([
        { file: 'FMCSA_CENSUS1_2026Oct.txt', bytes: Buffer.byteLength(CENSUS) },
        { file: 'CENSUS_README.txt', bytes: 11 },
        { file: 'empty.txt', bytes: 0 },
      ]);
      expect(await readFile(join(out, 'FMCSA_CENSUS1_2026Oct.txt'), 'utf8')).toBe(CENSUS);
      expect(await readFile(join(out, 'CENSUS_README.txt'), 'utf8')).toBe('field list\n');
      expect((await readdir(out)).sort()).toEqual(['CENSUS_README.txt', 'FMCSA_CENSUS1_2026Oct.txt', 'empty.txt']);
    });
  }

  it('keeps every entry inside the folder, whatever its name says', async () => {
    const { zip, out } = await place(
      toZip([
        { name: '../../escape.txt', data: 'a' },
        { name: '/abs/path.txt', data: 'b' },
        { name: '__MACOSX/._x', data: 'c' },
        { name: '.hidden', data: 'd' },
      ]),
    );
    expect(await extractZip(zip, out)).toEqual([
      { file: 'escape.txt', bytes: 1 },
      { file: 'path.txt', bytes: 1 },
    ]);
    expect((await readdir(out)).sort()).toEqual(['escape.txt', 'path.txt']);
    expect((await readdir(root.path)).includes('escape.txt')).toBe(false);
  });

  it.each([
    ['a.txt', 'a.txt'],
    ['dir/sub/b c.csv', 'b c.csv'],
    ['win\\path\\c.txt', 'c.txt'],
    ['weird:name?.txt', 'weird_name_.txt'],
    ['dir/', undefined],
    ['.DS_Store', undefined],
  ])('names %s as %s', (name, file) => {
    expect(toEntryFileName(name)).toBe(file);
  });

  it('refuses a damaged entry (CRC-32 mismatch)', async () => {
    const bytes = toZip([{ name: 'data.txt', data: 'hello world, stored as is', method: 0 }]);
    // Flip one byte of the stored data (after the 30-byte local header and the 8-byte name).
    bytes.writeUInt8(bytes.readUInt8(30 + 8 + 3) ^ 0xff, 30 + 8 + 3);
    const { zip, out } = await place(bytes);
    await expect(extractZip(zip, out)).rejects.toThrow(/CRC-32 mismatch/);
  });

  it('refuses encrypted entries and unknown methods', async () => {
    const enc = await place(toZip([{ name: 'secret.txt', data: 'x', method: 0, flags: 0x1 }]));
    await expect(extractZip(enc.zip, enc.out)).rejects.toThrow(/encrypted/);
    const bytes = toZip([{ name: 'odd.txt', data: 'x', method: 0 }]);
    // Method 12 (bzip2) in both the local and the central header.
    bytes.writeUInt16LE(12, 8);
    bytes.writeUInt16LE(12, bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 10);
    const odd = await place(bytes);
    await expect(extractZip(odd.zip, odd.out)).rejects.toThrow(/compression method 12/);
  });

  it('refuses a truncated archive and a file that is not one', async () => {
    const whole = toZip([{ name: 'census.txt', data: CENSUS }]);
    const cut = await place(whole.subarray(0, Math.floor(whole.length / 2)));
    await expect(extractZip(cut.zip, cut.out)).rejects.toBeInstanceOf(ZipError);
    await expect(extractZip(cut.zip, cut.out)).rejects.toThrow(/no end of central directory/);
    const text = await place(Buffer.from(CENSUS));
    expect(isZipHeader(Buffer.from(CENSUS))).toBe(false);
    await expect(readZipEntries(text.zip)).rejects.toThrow(/not a zip archive/);
  });
});
