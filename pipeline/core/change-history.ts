// The published tree's change record, as the next build carries it: its index read and checked, and each kept
// build's files (pages, notable index, compressed siblings) found in the published checksums and verified by
// hash, never parsed, so carrying a history of hundreds of large builds costs a read of its bytes.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import {
  CHANGES_DIR,
  CHANGES_INDEX,
  type ChangeEntry,
  type ChangesIndex,
  notableIndexName,
  pagesOf,
} from '../../contract/core/changes.ts';
import { privateDirOf } from '../../contract/core/layout.ts';
import type { Manifest } from '../../contract/core/manifest.ts';
import { schemas } from '../../contract/core/schemas.ts';
import type { SinkEffects } from './sink.ts';

/** A file of the published build: where it is, and its checksum there. */
export interface PublishedFile {
  abs: string;
  sha256: string;
}

export interface PublishedHistory {
  /** The index, with the builds whose files are whole (a damaged build drops with every older one). */
  index?: ChangesIndex;
  /** True when the index itself cannot be read: a new history starts. */
  damaged: boolean;
  /** Each kept build's files, by its href, named relative to the changes folder. */
  files: Map<string, Map<string, PublishedFile>>;
  /** Every file of the published changes folder, named relative to it (a service's own files there). */
  folder: Map<string, PublishedFile>;
}

/** The SHA-256 (hex) of a file read in pieces, or undefined when it cannot be read. */
export function hashFile(path: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', () => resolve(undefined))
      .on('end', () => resolve(hash.digest('hex')));
  });
}

/** The published changes folder's files with their checksums (public, or beside the tree with `private`). */
async function publishedFolder(
  live: string,
  privatePages: boolean,
  effects: SinkEffects,
): Promise<Map<string, PublishedFile>> {
  const manifestBody = await effects.readFile(join(live, 'manifest.json'));
  if (!manifestBody) throw new Error('manifest.json is missing');
  const manifest = JSON.parse(manifestBody.toString('utf8')) as Manifest;
  const base = privatePages ? privateDirOf(live, manifest) : live;
  if (base === undefined) throw new Error('the published build names no private folder');
  const sums = await effects.readFile(join(base, 'checksums.json'));
  if (!sums) throw new Error(`${join(base, 'checksums.json')} is missing`);
  const files = (JSON.parse(sums.toString('utf8')) as { files?: Record<string, string> }).files ?? {};
  const folder = new Map<string, PublishedFile>();
  const prefix = `${CHANGES_DIR}/`;
  for (const [rel, sha256] of Object.entries(files))
    if (rel.startsWith(prefix)) folder.set(rel.slice(prefix.length), { abs: join(base, rel), sha256 });
  return folder;
}

/** A kept build's files: its pages (each must be there), its notable index, and their compressed siblings. */
async function filesOf(entry: ChangeEntry, folder: Map<string, PublishedFile>): Promise<Map<string, PublishedFile>> {
  const own = new Map<string, PublishedFile>();
  const pages = pagesOf(entry);
  for (const name of [...pages, notableIndexName(entry.href)]) {
    const file = folder.get(name);
    if (!file) {
      if (pages.includes(name)) throw new Error(`${CHANGES_DIR}/${name} is not in the published build`);
      continue;
    }
    for (const sibling of [name, `${name}.gz`, `${name}.br`]) {
      const f = folder.get(sibling);
      if (!f) continue;
      if ((await hashFile(f.abs)) !== f.sha256)
        throw new Error(`${CHANGES_DIR}/${sibling} does not match its checksum`);
      own.set(sibling, f);
    }
  }
  return own;
}

/** The published record at `live`, or an empty one where there is none; a damaged part is said in `warnings`. */
export async function readPublishedHistory(
  live: string,
  privatePages: boolean,
  effects: SinkEffects,
  warnings: string[],
): Promise<PublishedHistory> {
  const files = new Map<string, Map<string, PublishedFile>>();
  const empty = { damaged: false, files, folder: new Map<string, PublishedFile>() };
  const indexBody = await effects.readFile(join(live, CHANGES_INDEX));
  if (!indexBody) return empty;
  let index: ChangesIndex;
  let folder: Map<string, PublishedFile>;
  try {
    index = JSON.parse(indexBody.toString('utf8')) as ChangesIndex;
    schemas().assert('core/changes-index', index, CHANGES_INDEX);
    folder = await publishedFolder(live, privatePages, effects);
  } catch (err) {
    warnings.push(`the published change record cannot be read (${(err as Error).message}): a new history starts`);
    return { ...empty, damaged: true };
  }
  const kept: ChangeEntry[] = [];
  for (const entry of index.builds) {
    try {
      files.set(entry.href, await filesOf(entry, folder));
      kept.push(entry);
    } catch (err) {
      // The builds older than a damaged one are dropped with it: a history has no holes.
      warnings.push(
        `the change document of build ${entry.data_version} cannot be read (${(err as Error).message}): the history keeps the ${kept.length} newer build(s)`,
      );
      break;
    }
  }
  return { index: { ...index, builds: kept }, damaged: false, files, folder };
}
