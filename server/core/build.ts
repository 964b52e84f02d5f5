// Loads a published build at start-up (and on reload): the manifest, the checksums, and every API document
// as a precomputed Payload. Each file is verified against checksums.json as it is read, so a damaged or
// half-copied tree stops the server with a clear message instead of serving wrong bytes. A build's private
// files (signed-in data) are in the folder its manifest names beside the tree (pipeline/core/sink.ts), and
// verified against that folder's own checksums; the routes read them as `private/<file>`.
import { readFile } from 'node:fs/promises';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import type { Manifest } from '../../contract/core/manifest.ts';
import { DATA_FORMAT, PRIVATE_PREFIX, previousDir, privateDirOf } from '../../contract/core/layout.ts';
import { schemas, SchemaError } from '../../contract/core/schemas.ts';
import { etagOf, type Payload } from './payload.ts';

export class DataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataError';
  }
}

export interface LoadedBuild {
  dir: string;
  manifest: Manifest;
  /** The tree's files (checksums.json); private ones are listed beside the tree, in its private folder. */
  checksums: Record<string, string>;
  /** Where a file of the build is on disk: in the tree, or in its private folder for `private/<file>`. */
  pathOf(relPath: string): string;
  /** Every `api/**.json` document by its URL path without `.json` (`/api/v1/stats`). */
  payloads: Map<string, Payload>;
  /** Reads and verifies one JSON file of the build (an index the service needs at load). */
  readJson<T>(relPath: string): T;
  /** Reads and verifies one binary file of the build. */
  readBuffer(relPath: string): Buffer;
  /** readBuffer without holding up the event loop while the file is read (a large file read after load). */
  readBufferAsync(relPath: string): Promise<Buffer>;
  /** Whether the build lists the file (in the tree's checksums, or its private folder's for `private/<file>`). */
  has(relPath: string): boolean;
  /** The files of the tree read and verified so far (the API documents at load, then what the service read). */
  readonly verified: ReadonlySet<string>;
}

/** SHA-256 of buffers read ahead, hashed as they arrived (prefetchBuild, prefetchTree), not in one block. */
const hashedAhead = new WeakMap<Buffer, string>();

/** The SHA-256 (hex) of `buf`: remembered from its read-ahead, else computed now. */
export function sha256Of(buf: Buffer): string {
  return hashedAhead.get(buf) ?? createHash('sha256').update(buf).digest('hex');
}

/** Hashes a buffer read ahead, in the turn that read it, so the load that follows only compares. */
export function hashAhead(buf: Buffer): Buffer {
  hashedAhead.set(buf, createHash('sha256').update(buf).digest('hex'));
  return buf;
}

const hex = sha256Of;

/**
 * Files read ahead, by absolute path (prefetchBuild): a reload reads them without blocking the event loop,
 * then loads from memory. A file not there is read as it is needed.
 */
export type Prefetched = ReadonlyMap<string, Buffer>;

function readVerified(
  dir: string,
  relPath: string,
  checksums: Record<string, string>,
  prefetched?: Prefetched,
): Buffer {
  const expected = checksums[relPath];
  if (!expected) throw new DataError(`${join(dir, relPath)} is not listed in checksums.json`);
  let buf: Buffer;
  try {
    buf = prefetched?.get(join(dir, relPath)) ?? readFileSync(join(dir, relPath));
  } catch {
    throw new DataError(`${join(dir, relPath)} is missing: the build is incomplete; rebuild it`);
  }
  if (hex(buf) !== expected)
    throw new DataError(`${join(dir, relPath)} does not match checksums.json: the build is damaged; rebuild it`);
  return buf;
}

/** The error code a stat of `path` fails with, or undefined when it succeeds. */
function statFailure(path: string): string | undefined {
  try {
    statSync(path);
    return undefined;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? 'EIO';
  }
}

/**
 * Why the tree at `dir` cannot be looked at now (gone, moved, a publish cut short between its two renames,
 * unreadable), or undefined when its manifest can be reached. Said in /healthz and the server's log.
 */
export function treeTrouble(dir: string): string | undefined {
  const atDir = statFailure(dir);
  if (atDir === 'ENOENT') {
    return statFailure(previousDir(dir)) === undefined
      ? `a publish was cut short: ${dir} is missing and ${previousDir(dir)} holds the build before it (the next build puts it back)`
      : `${dir} is gone (moved or removed)`;
  }
  if (atDir === 'ENOTDIR') return `${dir} is not a folder`;
  if (atDir !== undefined) return `${dir} cannot be read (${atDir})`;
  const atManifest = statFailure(join(dir, 'manifest.json'));
  if (atManifest === 'EACCES' || atManifest === 'EPERM') return `${dir} cannot be read (permission denied)`;
  if (atManifest !== undefined) return `${join(dir, 'manifest.json')} is missing (${atManifest})`;
  return undefined;
}

/** How many files a prefetch reads at once. */
const PREFETCH_CONCURRENCY = 32;

/**
 * Reads, without blocking the event loop, the files loadBuild will read for the build in `dir`: its
 * manifest, checksums and documents. Nothing is checked here (loadBuild checks what it is given); a file
 * that cannot be read is left for loadBuild to report.
 */
export async function prefetchBuild(dir: string, options: { apiPrefix?: string } = {}): Promise<Prefetched> {
  const apiPrefix = options.apiPrefix ?? 'api/';
  const out = new Map<string, Buffer>();
  const take = async (rel: string) => {
    const abs = join(dir, rel);
    try {
      out.set(abs, hashAhead(await readFile(abs)));
    } catch {
      // loadBuild says what is wrong with it
    }
  };
  await take('manifest.json');
  await take('checksums.json');
  let checksums: Record<string, string> = {};
  try {
    checksums =
      (JSON.parse(out.get(join(dir, 'checksums.json'))?.toString('utf8') ?? '{}') as { files?: Record<string, string> })
        .files ?? {};
  } catch {
    return out;
  }
  const wanted = Object.keys(checksums).filter(
    (rel) =>
      rel.startsWith(apiPrefix) && (rel.endsWith('.json') || rel.endsWith('.json.gz') || rel.endsWith('.json.br')),
  );
  for (let i = 0; i < wanted.length; i += PREFETCH_CONCURRENCY)
    await Promise.all(wanted.slice(i, i + PREFETCH_CONCURRENCY).map(take));
  return out;
}

export function loadBuild(
  dir: string,
  service: string,
  options: { apiPrefix?: string; prefetched?: Prefetched } = {},
): LoadedBuild {
  const apiPrefix = options.apiPrefix ?? 'api/';
  const prefetched = options.prefetched;
  const readAt = (abs: string) => prefetched?.get(abs) ?? readFileSync(abs);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readAt(join(dir, 'manifest.json')).toString('utf8')) as Manifest;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT'
        ? 'is missing'
        : code === 'EISDIR'
          ? 'is not a file'
          : code === 'EACCES' || code === 'EPERM'
            ? 'cannot be read (permission denied)'
            : 'is not valid JSON';
    throw new DataError(
      `${join(dir, 'manifest.json')} ${reason}: build the data first (npm run build -- --service ${service} --input DIR)`,
    );
  }
  // A manifest of a build (it has a data_version) in another format: said as such, not as damage.
  const { format, data_version } = (manifest ?? {}) as { format?: unknown; data_version?: unknown };
  if (format !== DATA_FORMAT && typeof data_version === 'string')
    throw new DataError(
      `${dir} is a build of data format ${format ?? '0 (none stated)'}; this server reads format ${DATA_FORMAT}: rebuild with this version (npm run build -- --service ${service} --input DIR)`,
    );
  try {
    schemas().assert('core/manifest', manifest, 'manifest.json');
  } catch (err) {
    throw new DataError(
      err instanceof SchemaError ? `${join(dir, 'manifest.json')} is damaged:\n${err.message}` : String(err),
    );
  }
  if (manifest.service !== service) throw new DataError(`${dir} holds a ${manifest.service} build, not ${service}`);
  let checksumsBody: Buffer;
  try {
    checksumsBody = readAt(join(dir, 'checksums.json'));
  } catch {
    throw new DataError(`${join(dir, 'checksums.json')} is missing: the build is incomplete`);
  }
  if (hex(checksumsBody) !== manifest.checksums_sha256)
    throw new DataError(`${join(dir, 'checksums.json')} does not match the manifest: the build is damaged`);
  const checksums = (JSON.parse(checksumsBody.toString('utf8')) as { files: Record<string, string> }).files;

  const privateDir = privateDirOf(dir, manifest);
  let privateSums: Record<string, string> = {};
  if (privateDir) {
    const path = join(privateDir, 'checksums.json');
    let body: Buffer;
    try {
      body = readFileSync(path);
    } catch {
      throw new DataError(`${path} is missing: the build's private files are not beside it; rebuild it`);
    }
    if (hex(body) !== manifest.private_checksums_sha256)
      throw new DataError(`${path} does not match the manifest: the build is damaged`);
    privateSums = (JSON.parse(body.toString('utf8')) as { files: Record<string, string> }).files;
  }
  const isPrivate = (relPath: string) => relPath.startsWith(PRIVATE_PREFIX);
  const located = (relPath: string): [string, string, Record<string, string>] => {
    if (!isPrivate(relPath)) return [dir, relPath, checksums];
    if (privateDir === undefined) throw new DataError(`${relPath}: this build has no private files`);
    return [privateDir, relPath.slice(PRIVATE_PREFIX.length), privateSums];
  };
  const verified = new Set<string>(['checksums.json']);
  const read = (relPath: string) => {
    const buf = readVerified(...located(relPath), prefetched);
    if (!isPrivate(relPath)) verified.add(relPath);
    return buf;
  };

  const payloads = new Map<string, Payload>();
  for (const relPath of Object.keys(checksums)) {
    if (!relPath.startsWith(apiPrefix) || !relPath.endsWith('.json')) continue;
    const body = read(relPath);
    const payload: Payload = { body, etag: etagOf(checksums[relPath]!), type: 'application/json' };
    if (checksums[`${relPath}.gz`]) payload.gz = read(`${relPath}.gz`);
    if (checksums[`${relPath}.br`]) payload.br = read(`${relPath}.br`);
    payloads.set(`/${relPath.slice(0, -'.json'.length)}`, payload);
  }
  return {
    dir,
    manifest,
    checksums,
    pathOf: (relPath) => {
      const [base, rel] = located(relPath);
      return join(base, rel);
    },
    payloads,
    readJson<T>(relPath: string): T {
      return JSON.parse(read(relPath).toString('utf8')) as T;
    },
    readBuffer: read,
    has(relPath) {
      if (!isPrivate(relPath)) return relPath in checksums;
      return privateDir !== undefined && relPath.slice(PRIVATE_PREFIX.length) in privateSums;
    },
    async readBufferAsync(relPath) {
      const [base, rel, sums] = located(relPath);
      const expected = sums[rel];
      if (!expected) throw new DataError(`${join(base, rel)} is not listed in checksums.json`);
      let buf: Buffer;
      try {
        buf = await readFile(join(base, rel));
      } catch {
        throw new DataError(`${join(base, rel)} is missing: the build is incomplete; rebuild it`);
      }
      if (hex(buf) !== expected)
        throw new DataError(`${join(base, rel)} does not match checksums.json: the build is damaged; rebuild it`);
      return buf;
    },
    verified,
  };
}
