// Input recognition: a build reads a folder of upstream downloads under any names and in any subfolder,
// and recognizes each file by its header (shared/contracts/common.md, "Builds").
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { matchColumns, readHeader, type ColumnSpec } from './csv.ts';

export interface RecognizedFile<K extends string> {
  kind: K;
  path: string;
  /** Relative to the input folder, with `/` separators: what reports and the manifest show. */
  file: string;
}

export interface InputScan<K extends string> {
  recognized: RecognizedFile<K>[];
  ignored: { file: string; reason: string }[];
}

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const out: string[] = [];
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await walk(path)));
    else if (e.isFile()) out.push(path);
  }
  return out.sort();
}

/** Recognizes every file below `dir` as the first kind whose required columns its header has. */
export async function scanInputs<K extends string>(dir: string, kinds: readonly { kind: K; columns: ColumnSpec[] }[]): Promise<InputScan<K>> {
  const scan: InputScan<K> = { recognized: [], ignored: [] };
  let files: string[];
  try {
    files = await walk(dir);
  } catch {
    throw new Error(`input folder ${dir} cannot be read`);
  }
  for (const path of files) {
    const file = relative(dir, path).split('\\').join('/');
    let fields: string[];
    try {
      fields = (await readHeader(path)).fields;
    } catch (err) {
      scan.ignored.push({ file, reason: `not a readable CSV file (${(err as Error).message.split('\n')[0]})` });
      continue;
    }
    const match = kinds.find((k) => matchColumns(fields, k.columns).missing.length === 0);
    if (match) scan.recognized.push({ kind: match.kind, path, file });
    else scan.ignored.push({ file, reason: 'header matches no known input' });
  }
  return scan;
}
