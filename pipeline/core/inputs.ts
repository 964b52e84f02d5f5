// Input recognition: a build reads a folder of upstream downloads under any names and in any subfolder,
// and recognizes each file by its header (docs/contracts/common.md, "Builds").
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
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
    // A link to a file is read as the file (a folder of downloads linked from elsewhere); links to folders
    // are not followed, so no cycle is possible.
    else if (
      e.isSymbolicLink() &&
      (await stat(path).then(
        (s) => s.isFile(),
        () => false,
      ))
    )
      out.push(path);
  }
  return out.sort();
}

/** Why a header matches no kind: the kind it comes closest to (most required columns present) and what it lacks. */
function toMismatch<K extends string>(fields: string[], kinds: readonly { kind: K; columns: ColumnSpec[] }[]): string {
  let best: { kind: K; missing: string[] } | undefined;
  for (const k of kinds) {
    const required = k.columns.filter((c) => c.required === true);
    const missing = matchColumns(fields, k.columns).missing.map(
      (key) => required.find((c) => c.key === key)?.names[0] ?? key,
    );
    if (missing.length < required.length && (!best || missing.length < best.missing.length))
      best = { kind: k.kind, missing };
  }
  if (!best) return 'header matches no known input';
  return `header matches no known input (closest: ${best.kind}, without the column${best.missing.length === 1 ? '' : 's'} ${best.missing.map((c) => JSON.stringify(c)).join(', ')})`;
}

/** Recognizes every file below `dir` as the first kind whose required columns its header has. */
export async function scanInputs<K extends string>(
  dir: string,
  kinds: readonly { kind: K; columns: ColumnSpec[] }[],
): Promise<InputScan<K>> {
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
    else scan.ignored.push({ file, reason: toMismatch(fields, kinds) });
  }
  return scan;
}

/** For the error of a missing input: the files that were there, and why each was not taken. */
export function describeIgnored(scan: InputScan<string>): string {
  if (scan.ignored.length === 0) return scan.recognized.length === 0 ? '; the folder holds no file' : '';
  const shown = scan.ignored.slice(0, 5).map((i) => `${i.file}: ${i.reason}`);
  const more = scan.ignored.length > shown.length ? `; and ${scan.ignored.length - shown.length} more` : '';
  return `; files not taken: ${shown.join('; ')}${more}`;
}

/**
 * For a folder whose every file is meant as an input (the nightly job's downloads): a file the build does
 * not recognize is a damaged download, never a file to skip.
 */
export function assertAllRecognized(scan: InputScan<string>): void {
  if (scan.ignored.length > 0) {
    throw new Error(
      `every file here was downloaded as an input, but ${scan.ignored.map((i) => `${i.file} (${i.reason})`).join(', ')} is not one: the download is damaged, or the upstream changed its format`,
    );
  }
}

/**
 * A file with rows of which none could be read (every one malformed or invalid) is damaged or not the data
 * it looks like: publishing without it would quietly drop what it should hold. `benign` names the service's
 * drop reasons that say nothing is wrong with the file (a duplicate of another file's row, an event outside
 * the window): rows dropped for those are no damage.
 */
export function assertRowsUsed(
  accounts: readonly { file: string; rows: number; used: number; dropped: Record<string, number> }[],
  benign: ReadonlySet<string>,
): void {
  for (const a of accounts) {
    const excused = Object.entries(a.dropped)
      .filter(([k]) => benign.has(k))
      .reduce((n, [, v]) => n + v, 0);
    if (a.rows > 0 && a.used === 0 && excused === 0) {
      const why = Object.entries(a.dropped)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ');
      throw new Error(
        `${a.file}: none of its ${a.rows} rows could be used (${why}): the file is damaged, or not the data it looks like`,
      );
    }
  }
}

/**
 * A file given as an input with a header and no row: the build goes on without what it would hold (an
 * optional input; a required one stops the build elsewhere), so it says so. A bad upstream answer of one
 * header line would otherwise remove, say, every carrier's inspections in silence.
 */
export function emptyInputWarnings(accounts: readonly { file: string; kind: string; rows: number }[]): string[] {
  return accounts
    .filter((a) => a.rows === 0)
    .map(
      (a) =>
        `${a.file} (${a.kind}) has a header and no rows: this build has nothing from it; if the upstream file is not empty, fetch it again`,
    );
}

/** sha256 of a file, streamed. */
async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Moves the files of `kinds` whose bytes repeat an earlier file's of the same kind (a download saved twice,
 * `SMS_Input_Inspection (1).csv`) from recognized to ignored, so that their rows are not counted twice.
 * Only files of equal size are hashed.
 */
export async function ignoreCopies<K extends string>(scan: InputScan<K>, kinds: readonly K[]): Promise<void> {
  const bySize = new Map<string, RecognizedFile<K>[]>();
  for (const f of scan.recognized) {
    if (!kinds.includes(f.kind)) continue;
    const key = `${f.kind}\0${(await stat(f.path)).size}`;
    bySize.set(key, [...(bySize.get(key) ?? []), f]);
  }
  const copies = new Set<RecognizedFile<K>>();
  for (const group of bySize.values()) {
    if (group.length < 2) continue;
    const first = new Map<string, RecognizedFile<K>>();
    for (const f of group) {
      const sum = await hashFile(f.path);
      const earlier = first.get(sum);
      if (earlier) {
        copies.add(f);
        scan.ignored.push({ file: f.file, reason: `the same bytes as ${earlier.file}: read once` });
      } else first.set(sum, f);
    }
  }
  if (copies.size > 0) scan.recognized = scan.recognized.filter((f) => !copies.has(f));
}
