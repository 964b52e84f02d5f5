// A service's download folder: one file per upstream source (or, for a zip archive, a folder holding what it
// unpacked to), plus a hidden `.nightly.json` remembering each file's address and validators for the next
// night's conditional requests. Hidden names are never read by the build (pipeline/core/inputs.ts skips them),
// so temporary files and the state can live beside the inputs.
import { open, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { downloadFile, type DownloadOptions, type Validators } from './fetch.ts';
import type { UpstreamFile } from './sources.ts';
import { extractZip, isZipHeader } from './zip.ts';

export const STATE_FILE = '.nightly.json';

export interface FileState {
  url: string;
  /** The answer was a zip archive, unpacked into the folder named after the file's stem. */
  zip: boolean;
  /** What the folder holds (zip), relative to the download folder. */
  unpacked?: string[];
  validators: Validators;
  bytes: number;
  updated_at: string;
}

export interface DownloadState {
  files: Record<string, FileState>;
}

export interface FileOutcome {
  file: UpstreamFile;
  status: 'downloaded' | 'unchanged' | 'failed';
  bytes: number;
  error?: string;
}

export type FetchFilesOptions = Omit<DownloadOptions, 'previous'> & { now?: () => Date };

const stemOf = (name: string) => name.replace(/\.[^.]+$/, '');

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

export async function readDownloadState(dir: string): Promise<DownloadState> {
  try {
    const doc = JSON.parse(await readFile(join(dir, STATE_FILE), 'utf8')) as Partial<DownloadState>;
    return { files: typeof doc.files === 'object' && doc.files !== null ? doc.files : {} };
  } catch {
    return { files: {} };
  }
}

async function writeDownloadState(dir: string, state: DownloadState): Promise<void> {
  const tmp = join(dir, `${STATE_FILE}.tmp-${process.pid}`);
  await writeFile(tmp, `${JSON.stringify(state, null, 2)}\n`);
  await rename(tmp, join(dir, STATE_FILE));
}

/** Removes what earlier nights fetched from sources no longer configured (a shorter ONTARIO_GHG_URL list). */
async function removeStale(dir: string, files: readonly UpstreamFile[], state: DownloadState): Promise<void> {
  const keep = new Set(files.flatMap((f) => [f.name, stemOf(f.name)]));
  for (const name of await readdir(dir)) {
    // Also what a killed run left: partial downloads, unpacked halves, state being written.
    const leftover = /^\..*\.(?:download|part-\d+|unpack-\d+|tmp-\d+)$/.test(name);
    if (leftover || (!name.startsWith('.') && !keep.has(name)))
      await rm(join(dir, name), { recursive: true, force: true });
  }
  for (const name of Object.keys(state.files)) if (!files.some((f) => f.name === name)) delete state.files[name];
}

/** Puts the folder `from` in place of `to` (any old `to` removed), with renames only. */
async function replaceDir(from: string, to: string): Promise<void> {
  const old = `${to}.old-${process.pid}`;
  if (await exists(to)) await rename(to, old);
  await rename(from, to);
  await rm(old, { recursive: true, force: true });
}

async function readHead(path: string, size = 4): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buf = Buffer.alloc(size);
    const { bytesRead } = await handle.read(buf, 0, size, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function fetchOne(
  file: UpstreamFile,
  dir: string,
  previous: FileState | undefined,
  options: FetchFilesOptions,
): Promise<{ outcome: FileOutcome; state?: FileState }> {
  const stem = stemOf(file.name);
  const plain = join(dir, file.name);
  const folder = join(dir, stem);
  // Ask conditionally only for the same address and when what it gave is still here.
  const present = previous !== undefined && previous.url === file.url && (await exists(previous.zip ? folder : plain));
  const hidden = join(dir, `.${file.name}.download`);
  const now = (options.now ?? (() => new Date()))().toISOString();
  try {
    const r = await downloadFile(file.url, hidden, { ...options, previous: present ? previous.validators : undefined });
    if (r.status === 'unchanged')
      return {
        outcome: { file, status: 'unchanged', bytes: r.bytes },
        state: { ...previous!, validators: r.validators },
      };
    let state: FileState;
    const head = await readHead(hidden, 512);
    // A portal down for maintenance often answers 200 with a web page; kept, it would replace the last good
    // file, and its validators would make the next nights' requests answer 304 to the page. Neither a CSV
    // nor a zip begins with `<`, nor is empty.
    if (head.length === 0) throw new Error(`${file.url}: answered an empty body`);
    if (/^(\ufeff)?\s*</.test(head.toString('utf8'))) {
      throw new Error(
        `${file.url}: answered a web page (${JSON.stringify(head.toString('utf8').trim().slice(0, 40))}…), not a data file`,
      );
    }
    if (isZipHeader(head)) {
      const unpack = join(dir, `.${stem}.unpack-${process.pid}`);
      await rm(unpack, { recursive: true, force: true });
      await mkdir(unpack);
      try {
        const entries = await extractZip(hidden, unpack);
        if (entries.length === 0) throw new Error('the archive holds no file');
        await replaceDir(unpack, folder);
        state = {
          url: file.url,
          zip: true,
          unpacked: entries.map((e) => `${stem}/${e.file}`),
          validators: r.validators,
          bytes: r.bytes,
          updated_at: now,
        };
      } catch (err) {
        await rm(unpack, { recursive: true, force: true });
        throw new Error(`${file.url}: not a readable zip archive: ${(err as Error).message}`);
      } finally {
        await rm(hidden, { force: true });
      }
      await rm(plain, { force: true });
    } else {
      await rename(hidden, plain);
      await rm(folder, { recursive: true, force: true });
      state = { url: file.url, zip: false, validators: r.validators, bytes: r.bytes, updated_at: now };
    }
    return { outcome: { file, status: 'downloaded', bytes: r.bytes }, state };
  } catch (err) {
    await rm(hidden, { force: true });
    return { outcome: { file, status: 'failed', bytes: 0, error: (err as Error).message } };
  }
}

/**
 * Brings `dir` up to date with `files` (all at once). A failed file leaves what an earlier night fetched in
 * place; the state keeps its old validators, so the next night asks again.
 */
export async function fetchFiles(
  dir: string,
  files: readonly UpstreamFile[],
  options: FetchFilesOptions,
): Promise<FileOutcome[]> {
  await mkdir(dir, { recursive: true });
  const state = await readDownloadState(dir);
  await removeStale(dir, files, state);
  const results = await Promise.all(files.map((f) => fetchOne(f, dir, state.files[f.name], options)));
  for (const r of results) if (r.state) state.files[r.outcome.file.name] = r.state;
  await writeDownloadState(dir, state);
  return results.map((r) => r.outcome);
}
