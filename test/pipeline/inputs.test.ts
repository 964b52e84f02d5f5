// Input recognition and the checks a build makes of its inputs before it publishes (pipeline/core/inputs.ts).
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assertAllRecognized, assertRowsUsed, describeIgnored, scanInputs } from '../../pipeline/core/inputs.ts';
import type { ColumnSpec } from '../../pipeline/core/csv.ts';
import { tempDir } from '../helpers/server.ts';

const KINDS: { kind: 'plants' | 'trips'; columns: ColumnSpec[] }[] = [
  {
    kind: 'plants',
    columns: [
      { key: 'id', names: ['Plant ID'], required: true },
      { key: 'name', names: ['Plant Name'], required: true },
      { key: 'note', names: ['Note'] },
    ],
  },
  { kind: 'trips', columns: [{ key: 'trip', names: ['Trip'], required: true }] },
];

const roots: Awaited<ReturnType<typeof tempDir>>[] = [];
afterAll(async () => {
  for (const r of roots) await r.remove();
});

describe('scanInputs', () => {
  it('recognizes files by header, follows a link to a file, and says what a near miss lacks', async () => {
    const root = await tempDir('inputs');
    roots.push(root);
    const dir = join(root.path, 'in');
    await mkdir(join(dir, 'sub'), { recursive: true });
    await writeFile(join(root.path, 'elsewhere.csv'), 'Trip\r\n1\r\n');
    await symlink(join(root.path, 'elsewhere.csv'), join(dir, 'linked.csv'));
    await writeFile(join(dir, 'sub', 'plants.csv'), 'Plant ID,Plant Name\r\n1,A\r\n');
    await writeFile(join(dir, 'almost.csv'), 'Plant ID,Note\r\n1,x\r\n');
    await writeFile(join(dir, 'other.csv'), 'Colour\r\nred\r\n');
    const scan = await scanInputs(dir, KINDS);
    expect(scan.recognized.map((f) => [f.file, f.kind])).toEqual([
      ['linked.csv', 'trips'],
      ['sub/plants.csv', 'plants'],
    ]);
    expect(scan.ignored).toEqual([
      {
        file: 'almost.csv',
        reason: 'header matches no known input (closest: plants, without the column "Plant Name")',
      },
      { file: 'other.csv', reason: 'header matches no known input' },
    ]);
    expect(describeIgnored(scan)).toBe(
      '; files not taken: almost.csv: header matches no known input (closest: plants, without the column "Plant Name"); other.csv: header matches no known input',
    );
    expect(() => assertAllRecognized(scan)).toThrow(
      /every file here was downloaded as an input, but almost\.csv \(.*\), other\.csv \(header matches no known input\) is not one/,
    );
    expect(() => assertAllRecognized({ recognized: scan.recognized, ignored: [] })).not.toThrow();
  });
});

describe('assertRowsUsed', () => {
  const BENIGN = new Set(['duplicate', 'outside_window', 'unknown_carrier']);
  const account = (rows: number, used: number, dropped: Record<string, number>) => ({
    file: 'x.csv',
    rows,
    used,
    dropped,
  });

  it('stops a build on a file whose every row was damaged, naming the file and the reasons', () => {
    expect(() =>
      assertRowsUsed(
        [account(5, 5, {}), { ...account(246, 0, { malformed: 240, invalid_value: 6 }), file: 'crash.csv' }],
        BENIGN,
      ),
    ).toThrow(
      'crash.csv: none of its 246 rows could be used (malformed 240, invalid_value 6): the file is damaged, or not the data it looks like',
    );
  });

  it('lets through an empty file, one with a row used, and drops that are no damage', () => {
    expect(() =>
      assertRowsUsed(
        [
          account(0, 0, {}),
          account(10, 1, { malformed: 9 }),
          account(7, 0, { duplicate: 7 }),
          account(3, 0, { outside_window: 2, malformed: 1 }),
          account(4, 0, { unknown_carrier: 4 }),
        ],
        BENIGN,
      ),
    ).not.toThrow();
    // What is benign is the service's to say.
    expect(() => assertRowsUsed([account(4, 0, { unknown_carrier: 4 })], new Set())).toThrow(
      /x\.csv: none of its 4 rows could be used \(unknown_carrier 4\)/,
    );
  });
});
