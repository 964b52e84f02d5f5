// The only writer of `dist-data/`: every document validated and written into a temporary folder, then swapped
// in by renames (the previous build kept as `<service>.prev`), so a failed or killed build never touches what
// is served.
import { type ShrinkRule, shrinkReasons, toShrinkError } from './shrink.ts';
import { acquireLock, fileLockEffects, type LockEffects } from './lock.ts';
import { constants as fsc } from 'node:fs';
import * as fs from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { promisify } from 'node:util';
import * as zlib from 'node:zlib';
import { createHash } from 'node:crypto';
import { sha256 } from '../../contract/core/hash.ts';
import { toHealth, type Manifest } from '../../contract/core/manifest.ts';
import { schemas, type SchemaRegistry } from '../../contract/core/schemas.ts';
import { notFound, toProblem } from '../../contract/core/problem.ts';
import {
  DATA_FORMAT,
  HEALTH_FILE,
  NOT_FOUND_FILE,
  PRIVATE_PREFIX,
  previousDir,
  privateDirOf,
  privateRoot,
} from '../../contract/core/layout.ts';

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/** All file-system effects of a build, so tests can fail or kill a build at a chosen write. */
export interface SinkEffects extends LockEffects {
  /** `mode` for the folders it creates (private data: 0o700). */
  mkdir(path: string, mode?: number): Promise<void>;
  /** `mode` when it creates the file (private data: 0o600). */
  writeFile(path: string, data: Uint8Array, mode?: number): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  exists(path: string): Promise<boolean>;
  list(dir: string): Promise<string[]>;
  /** Flushes a file or a folder (its entries) to disk (fsync), so a rename that publishes it finds it whole. */
  sync(path: string): Promise<void>;
  /**
   * Makes `to` hold the bytes of `from`, a file of a published build (never changed in place): a hard link
   * where the file system allows one, else a copy. Without it the sink reads and writes the bytes.
   */
  link?(from: string, to: string): Promise<void>;
  /** Opens a file for writing in pieces (large data files). */
  openWrite(path: string, mode?: number): Promise<{ write(data: Uint8Array): Promise<void>; close(): Promise<void> }>;
}

/**
 * Signed-in data (carriers profiles) is its owner's alone: folders 0700, files 0600 (docs/contracts/common.md).
 *
 * Signed-in files (`private/`) never join the published tree a CDN may host: publish moves them to
 * `<service>.private/<key>/`, named by the hash of their checksums (which the manifest holds), in place before the
 * tree naming them, never changed, removed once neither the live nor the previous build names them.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

export const fileEffects: SinkEffects = {
  async mkdir(path, mode) {
    await fs.mkdir(path, { recursive: true, ...(mode === undefined ? {} : { mode }) });
  },
  writeFile: (path, data, mode) => fs.writeFile(path, data, mode === undefined ? {} : { mode }),
  ...fileLockEffects,
  rename: (from, to) => fs.rename(from, to),
  exists: (path) =>
    fs.access(path, fsc.F_OK).then(
      () => true,
      () => false,
    ),
  list: (dir) => fs.readdir(dir).catch(() => []),
  async link(from, to) {
    try {
      await fs.link(from, to);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP') throw err;
      await fs.copyFile(from, to);
    }
  },
  async openWrite(path, mode) {
    const handle = await fs.open(path, 'w', mode);
    return {
      write: async (data) => {
        await handle.write(data);
      },
      close: () => handle.close(),
    };
  },
  async sync(path) {
    const handle = await fs.open(path, 'r');
    try {
      await handle.sync();
    } catch (err) {
      // Some systems cannot flush a folder opened for reading (EINVAL, EPERM, EISDIR): its files are flushed.
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EINVAL' && code !== 'EPERM' && code !== 'EISDIR') throw err;
    } finally {
      await handle.close();
    }
  },
};

export interface SinkOptions {
  service: string;
  outDir: string;
  effects?: SinkEffects;
  registry?: SchemaRegistry;
  /** Compress `.gz`/`.br` siblings (off only in tests that do not need them). */
  compress?: boolean;
  /**
   * What must not shrink against the build in `outDir` (pipeline/core/shrink.ts): publish refuses with a
   * ShrinkError, leaving the live build, when a rule is broken. None, or `acceptShrink`, publishes anyway.
   */
  shrink?: readonly ShrinkRule[];
  acceptShrink?: boolean;
}

export interface SinkStream {
  write(data: Uint8Array): Promise<void>;
  /** Bytes written so far. */
  readonly bytes: number;
  close(): Promise<void>;
}

export interface Sink {
  readonly dir: string;
  /**
   * Validates `doc` against `schemaId` and writes `relPath` (plus `.gz`/`.br`). Throws on a second write.
   * `relPath` is a `.json` file, or a `.geojson` one (RFC 7946: JSON too).
   */
  writeJson(relPath: string, doc: unknown, schemaId: string): Promise<void>;
  /**
   * A download that is not JSON (`.csv`; bytes for a binary one, `.sqlite`), written with `.gz`/`.br` like the
   * documents. Its content is the caller's to check: JSON goes through writeJson, which validates it.
   */
  writeText(relPath: string, text: string | Uint8Array): Promise<void>;
  /** A file that comes with its `.gz`/`.br` siblings already made (a vendored bundle), written as given. */
  writePrecompressed(relPath: string, file: { body: Buffer; gz: Buffer; br: Buffer }): Promise<void>;
  /**
   * A large data file written in pieces (a record store, an index), buffered into large writes and hashed
   * as it goes; not compressed (clients never fetch these whole). `close` registers it in the checksums.
   */
  openStream(relPath: string): Promise<SinkStream>;
  /**
   * A file of the published build carried into this one unchanged (a change record's older pages), linked
   * rather than rewritten; `sha256` is its checksum, which the caller verified against the published build.
   */
  carry(relPath: string, from: string, sha256: string): Promise<void>;
  /** The files written so far with their sha256, by relative path. */
  files(): ReadonlyMap<string, string>;
  /**
   * Writes `checksums.json`, then `manifest.json` (validated) last, with the data format, the file count and
   * the checksums' hash added; then swaps the build in.
   */
  publish(manifest: Omit<Manifest, 'format' | 'files' | 'checksums_sha256'>): Promise<void>;
  abort(): Promise<void>;
}

/**
 * Brotli quality 11 only for the few large documents, where it saves the most bytes; small shards get
 * quality 9 (measured on a 1 KB facility record: 0.1 ms and 388 bytes at 9, 2.7 ms and 351 bytes at 11),
 * which matters over hundreds of thousands of shards. The window is sized to the document.
 */
function brotliParams(size: number): Record<number, number> {
  const lgwin = Math.min(24, Math.max(10, Math.ceil(Math.log2(size + 1))));
  return {
    [zlib.constants.BROTLI_PARAM_QUALITY]: size >= 64 << 10 && size <= 4 << 20 ? 11 : 9,
    [zlib.constants.BROTLI_PARAM_LGWIN]: lgwin,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
  };
}

/**
 * Finishes a publish that was killed between its two renames: the previous build is still whole in
 * `<service>.prev`, so it is put back.
 */
export async function recoverPublish(outDir: string, service: string, effects = fileEffects): Promise<void> {
  const live = join(outDir, service);
  const prev = previousDir(live);
  if (!(await effects.exists(live)) && (await effects.exists(prev))) {
    await effects.rename(prev, live);
    await effects.sync(outDir);
  }
}

/**
 * recoverPublish for a process that will not build into `outDir` itself (npm start's check for a missing
 * tree): under the build lock only, so a publish a live build is in the middle of is never "recovered"
 * under it; throws, naming that build, when one holds the lock.
 */
export async function recoverPublishLocked(outDir: string, service: string, effects = fileEffects): Promise<void> {
  if (!(await effects.exists(outDir))) return;
  const lock = await acquireLock(outDir, service, effects);
  try {
    await recoverPublish(outDir, service, effects);
  } finally {
    await effects.rm(lock);
  }
}

/** The live build's manifest, or undefined when there is none or it cannot be read (nothing to compare). */
async function readLiveManifest(live: string, effects: SinkEffects): Promise<Manifest | undefined> {
  const body = await effects.readFile(join(live, 'manifest.json'));
  if (!body) return undefined;
  try {
    const m = JSON.parse(body.toString('utf8')) as Manifest;
    return m && typeof m.counts === 'object' && m.counts !== null ? m : undefined;
  } catch {
    return undefined;
  }
}

const NOT_FOUND_DOCUMENT = toProblem(notFound('no resource at this path in this build')).body;

/**
 * Removes the private folders that neither the live build nor the previous one names (those of builds
 * replaced twice, or of a publish killed before its tree was renamed in). With a manifest it cannot read,
 * it removes nothing.
 */
async function removeUnnamedPrivate(live: string, effects: SinkEffects): Promise<void> {
  const root = privateRoot(live);
  if (!(await effects.exists(root))) return;
  const named = new Set<string>();
  for (const tree of [live, previousDir(live)]) {
    if (!(await effects.exists(tree))) continue;
    const body = await effects.readFile(join(tree, 'manifest.json'));
    let manifest: Partial<Manifest>;
    try {
      manifest = JSON.parse(body?.toString('utf8') ?? '') as Partial<Manifest>;
    } catch {
      return;
    }
    const dir = typeof manifest.private_checksums_sha256 === 'string' ? privateDirOf(live, manifest) : undefined;
    if (dir) named.add(dir);
  }
  for (const name of await effects.list(root)) {
    const dir = join(root, name);
    if (named.has(dir)) continue;
    // Renamed first (at once), then removed: a removal cut short leaves a `.removing-` folder, never a
    // partial folder under a key that a later build of the same files would take for whole.
    if (name.startsWith('.removing-')) {
      await effects.rm(dir);
      continue;
    }
    const trash = join(root, `.removing-${name}-${process.pid}`);
    await effects.rename(dir, trash);
    await effects.rm(trash);
  }
}

export async function openSink(options: SinkOptions): Promise<Sink> {
  const { service, outDir } = options;
  const effects = options.effects ?? fileEffects;
  const registry = options.registry ?? schemas();
  const compress = options.compress ?? true;
  await effects.mkdir(outDir);
  const lock = await acquireLock(outDir, service, effects);
  await recoverPublish(outDir, service, effects);
  const tmpPrefix = `.${service}.tmp-`;
  for (const name of await effects.list(outDir)) {
    if (name.startsWith(tmpPrefix)) await effects.rm(join(outDir, name));
  }
  const dir = join(outDir, `${tmpPrefix}${process.pid}`);
  await effects.mkdir(dir);

  const written = new Map<string, string>();
  const reserved = new Set<string>();
  const madeDirs = new Set<string>();
  let closed = false;

  const put = async (relPath: string, data: Uint8Array) => {
    if (written.has(relPath)) throw new Error(`${relPath} was written twice in one build`);
    written.set(relPath, sha256(data));
    const abs = join(dir, relPath);
    const parent = dirname(abs);
    const secret = relPath.startsWith(PRIVATE_PREFIX);
    if (!madeDirs.has(parent)) {
      await effects.mkdir(parent, secret ? PRIVATE_DIR_MODE : undefined);
      madeDirs.add(parent);
    }
    await effects.writeFile(abs, data, secret ? PRIVATE_FILE_MODE : undefined);
    await effects.sync(abs);
  };

  // Compression and writes run a few at a time (the thread pool compresses, the disk writes) while the
  // caller goes on producing documents; publish waits for all of them.
  const inFlight = new Set<Promise<void>>();
  let failure: unknown;
  const MAX_IN_FLIGHT = 32;

  const writeOne = async (relPath: string, body: Buffer) => {
    await put(relPath, body);
    // Signed-in files are read by the server alone, never sent as they are: no compressed siblings.
    if (!compress || relPath.startsWith(PRIVATE_PREFIX)) return;
    const [gz, br] = await Promise.all([gzip(body, { level: 9 }), brotli(body, { params: brotliParams(body.length) })]);
    await Promise.all([put(`${relPath}.gz`, gz), put(`${relPath}.br`, br)]);
  };

  const drain = async () => {
    await Promise.all(inFlight);
    if (failure) throw failure;
  };

  const JSON_FILE = /\.(geo)?json$/;
  /** Claims `relPath` for one write; `json` says whether it must be a JSON document's path or must not. */
  const reserve = (relPath: string, json: boolean) => {
    if (closed) throw new Error('the build was already published or aborted');
    if (failure) throw failure;
    if (JSON_FILE.test(relPath) !== json || relPath.startsWith('/') || relPath.includes('..')) {
      throw new Error(`bad output path ${relPath}`);
    }
    if (reserved.has(relPath)) throw new Error(`${relPath} was written twice in one build`);
    reserved.add(relPath);
  };
  const enqueue = async (relPath: string, body: Buffer) => {
    const task = writeOne(relPath, body).catch((err: unknown) => {
      failure ??= err;
    });
    inFlight.add(task);
    void task.finally(() => inFlight.delete(task));
    if (inFlight.size >= MAX_IN_FLIGHT) await Promise.race(inFlight);
  };

  const writeJson = async (relPath: string, doc: unknown, schemaId: string) => {
    reserve(relPath, true);
    registry.assert(schemaId, doc, relPath);
    await enqueue(relPath, Buffer.from(JSON.stringify(doc)));
  };

  const writeText = async (relPath: string, text: string | Uint8Array) => {
    reserve(relPath, false);
    await enqueue(relPath, typeof text === 'string' ? Buffer.from(text, 'utf8') : Buffer.from(text));
  };

  const writePrecompressed = async (relPath: string, file: { body: Buffer; gz: Buffer; br: Buffer }) => {
    reserve(relPath, false);
    await put(relPath, file.body);
    if (compress) await Promise.all([put(`${relPath}.gz`, file.gz), put(`${relPath}.br`, file.br)]);
  };

  const STREAM_BUFFER = 1 << 20;
  const openStream = async (relPath: string): Promise<SinkStream> => {
    if (closed) throw new Error('the build was already published or aborted');
    if (relPath.startsWith('/') || relPath.includes('..')) throw new Error(`bad output path ${relPath}`);
    if (reserved.has(relPath)) throw new Error(`${relPath} was written twice in one build`);
    reserved.add(relPath);
    const abs = join(dir, relPath);
    const secret = relPath.startsWith(PRIVATE_PREFIX);
    await effects.mkdir(dirname(abs), secret ? PRIVATE_DIR_MODE : undefined);
    madeDirs.add(dirname(abs));
    const file = await effects.openWrite(abs, secret ? PRIVATE_FILE_MODE : undefined);
    const hash = createHash('sha256');
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    let bytes = 0;
    const flush = async () => {
      if (pendingBytes === 0) return;
      const chunk = Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      hash.update(chunk);
      await file.write(chunk);
    };
    return {
      get bytes() {
        return bytes;
      },
      async write(data) {
        pending.push(data);
        pendingBytes += data.length;
        bytes += data.length;
        if (pendingBytes >= STREAM_BUFFER) await flush();
      },
      async close() {
        await flush();
        await file.close();
        await effects.sync(abs);
        written.set(relPath, hash.digest('hex'));
      },
    };
  };

  const carry = async (relPath: string, from: string, sum: string) => {
    reserve(relPath, JSON_FILE.test(relPath));
    const abs = join(dir, relPath);
    const parent = dirname(abs);
    if (!madeDirs.has(parent)) {
      await effects.mkdir(parent, relPath.startsWith(PRIVATE_PREFIX) ? PRIVATE_DIR_MODE : undefined);
      madeDirs.add(parent);
    }
    if (effects.link) await effects.link(from, abs);
    else {
      const body = await effects.readFile(from);
      if (!body) throw new Error(`${from} is missing`);
      await effects.writeFile(abs, body, relPath.startsWith(PRIVATE_PREFIX) ? PRIVATE_FILE_MODE : undefined);
    }
    written.set(relPath, sum);
  };

  const release = async () => {
    closed = true;
    await effects.rm(lock);
  };

  return {
    dir,
    writeJson,
    writeText,
    writePrecompressed,
    openStream,
    carry,
    files: () => written,
    async publish(manifest) {
      // Before anything is written: a refused build leaves the output folder as it was.
      if (options.shrink?.length && !options.acceptShrink) {
        const previous = await readLiveManifest(join(outDir, service), effects);
        const reasons = previous ? shrinkReasons(previous, manifest, options.shrink) : [];
        if (reasons.length > 0) throw toShrinkError(service, reasons);
      }
      // The answer a static host gives for a path it does not have, as the server gives it: a CDN's error
      // document (docs/deployment.md, "Hosting dist-data/ on a CDN").
      await writeJson(NOT_FOUND_FILE, NOT_FOUND_DOCUMENT, 'core/problem');
      // GET /healthz as a file, like every GET without a query (docs/contracts/common.md): on a static host it
      // says which build is live.
      await writeJson(HEALTH_FILE, toHealth(manifest), 'core/health');
      await drain();
      const byPath = ([a]: [string, string], [b]: [string, string]) => (a < b ? -1 : a > b ? 1 : 0);
      const sorted = [...written].sort(byPath);
      const publicFiles = sorted.filter(([rel]) => !rel.startsWith(PRIVATE_PREFIX));
      const privateFiles = sorted
        .filter(([rel]) => rel.startsWith(PRIVATE_PREFIX))
        .map(([rel, sum]): [string, string] => [rel.slice(PRIVATE_PREFIX.length), sum]);
      const live = join(outDir, service);
      let privateKey: string | undefined;
      if (privateFiles.length > 0) {
        const privateChecksums = { files: Object.fromEntries(privateFiles) };
        registry.assert('core/checksums', privateChecksums, `${PRIVATE_PREFIX}checksums.json`);
        const body = Buffer.from(JSON.stringify(privateChecksums));
        const path = join(dir, PRIVATE_PREFIX, 'checksums.json');
        await effects.writeFile(path, body, PRIVATE_FILE_MODE);
        await effects.sync(path);
        privateKey = sha256(body);
      }
      const checksums = { files: Object.fromEntries(publicFiles) };
      registry.assert('core/checksums', checksums, 'checksums.json');
      const checksumsBody = Buffer.from(JSON.stringify(checksums));
      await put('checksums.json', checksumsBody);
      const full: Manifest = {
        format: DATA_FORMAT,
        ...manifest,
        files: publicFiles.length,
        checksums_sha256: sha256(checksumsBody),
        ...(privateKey ? { private_checksums_sha256: privateKey } : {}),
      };
      registry.assert('core/manifest', full, 'manifest.json');
      // The manifest is written last: a tree without one is never a finished build.
      await put('manifest.json', Buffer.from(`${JSON.stringify(full, null, 2)}\n`));
      // Every file was flushed as it was written; then every folder (deepest first), so that after a crash
      // the renames below never publish a tree whose names or bytes are still only in memory.
      const folders = new Set([dir]);
      for (let folder of madeDirs)
        for (; folder.startsWith(`${dir}${sep}`); folder = dirname(folder)) folders.add(folder);
      for (const folder of [...folders].sort((a, b) => b.length - a.length)) await effects.sync(folder);
      const privateDir = privateDirOf(live, full);
      if (privateDir) {
        // In place before the tree that names it. Already there from a build of the same files: the same bytes.
        await effects.mkdir(privateRoot(live), PRIVATE_DIR_MODE);
        if (await effects.exists(privateDir)) await effects.rm(join(dir, PRIVATE_PREFIX));
        else await effects.rename(join(dir, PRIVATE_PREFIX), privateDir);
        await effects.sync(privateRoot(live));
      }
      const prev = previousDir(live);
      if (await effects.exists(live)) {
        await effects.rm(prev);
        await effects.rename(live, prev);
      }
      await effects.rename(dir, live);
      // The renames themselves are entries of the output folder.
      await effects.sync(outDir);
      await removeUnnamedPrivate(live, effects);
      await release();
    },
    async abort() {
      if (closed) return;
      await Promise.allSettled(inFlight);
      await effects.rm(dir);
      await release();
    },
  };
}
