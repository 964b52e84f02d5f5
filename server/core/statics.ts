// The static tree (dist-data/<service>/, as a CDN would serve it) through sirv, for the files no route
// answers: manifest, report, indexes. sirv streams them with their precompressed siblings; around it, the
// tree is answered as the routes are (docs/contracts/common.md):
// - only the build's files: those checksums.json lists, and the manifest and checksums themselves, never
//   a private/ path and never anything else found in the folder (a STATE_DIR put there by
//   mistake, a stray copy); a `.gz` or `.br` sibling is a coding of its file, not a resource (404 by name);
// - a Content-Type for each: JSON, CSV and GeoJSON downloads, the explorer's page, scripts and styles, or
//   application/octet-stream for the binary indexes (sirv knows no type for them and sent an empty one), and
//   Vary only for a file with a compressed sibling;
// - `/` is the explorer's page (index.html at the tree's root), as on a static host;
// - Cache-Control by path (contract/core/layout.ts, staticCacheOf): `immutable` for the explorer's hashed
//   assets only, revalidation for its page, the data's five minutes for everything else;
// - the strong ETag of checksums.json (the routes' tag for the same bytes, `-gz`/`-br` per coding) instead
//   of sirv's weak size-mtime tag, and If-None-Match by the weak comparison (lists, `*`), each coding
//   with a tag of its own; If-Modified-Since against the sent coding's Last-Modified when no If-None-Match
//   is given (RFC 9110 §13.1.3); a 304 carrying ETag, Last-Modified, Cache-Control, X-Data-Version and Vary;
// - the coding picked by Accept-Encoding's weights (sirv takes br or gzip whenever the header names it,
//   even with q=0);
// - 405 with Allow for another method on a file of the tree (sirv serves any method);
// - no byte ranges (RFC 9110 §14.2 lets a server ignore Range: sirv reads `bytes=5-1` as a stream it cannot
//   open after its headers are out, `bytes=-1` as the first two bytes, applies ranges to the compressed
//   sibling, and answers an unsatisfiable one with a bare 416; the whole file is small enough);
// - a file a publish replaced after the listing never goes out under the listed headers (see below);
// - the tree moved, removed or made unreadable after the listing: its files still go out, from the bytes the
//   build holds in memory or from a descriptor opened at listing (holdTree).
import { readdir, readFile, stat } from 'node:fs/promises';
import {
  closeSync,
  createReadStream,
  fstatSync,
  openSync,
  read,
  readdirSync,
  readFileSync,
  statSync,
  type ReadStream,
  type Stats,
} from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, relative, resolve as resolvePath } from 'node:path';
import { finished, Readable } from 'node:stream';
import sirv from 'sirv';
import { DataError, hashAhead, type LoadedBuild, sha256Of } from './build.ts';
import { previousDir, PRIVATE_PREFIX } from '../../contract/core/layout.ts';
import { HttpError } from '../../contract/core/problem.ts';
import { codingTag, etagOf, matchesEtag, PAGE_POLICY, pickCoding } from './payload.ts';
import { unmodifiedSince } from './http-date.ts';
import { setStampedHeaders } from './stamp.ts';
import { EXPLORER_PAGE, staticCacheOf } from '../../contract/core/layout.ts';

/** A file of the tree as listed: its URL path, strong tag, siblings, type and caching. */
interface Listed {
  path: string;
  tag: string;
  gz: boolean;
  br: boolean;
  type: string;
  cache: string;
}

/**
 * The type a file's name gives: JSON documents, the downloads (CSV, RFC 4180 §3 with its charset; GeoJSON,
 * RFC 7946 §12, whose JSON is UTF-8 by definition), the explorer's page, module scripts (RFC 9239) and
 * styles, all UTF-8 as the pipeline writes them, and the binary indexes (carriers' name index).
 */
const TYPES: readonly (readonly [string, string])[] = [
  ['.json', 'application/json; charset=utf-8'],
  ['.csv', 'text/csv; charset=utf-8'],
  ['.geojson', 'application/geo+json'],
  ['.html', 'text/html; charset=utf-8'],
  ['.js', 'text/javascript; charset=utf-8'],
  ['.css', 'text/css; charset=utf-8'],
];
const typeOf = (rel: string) => TYPES.find(([ext]) => rel.endsWith(ext))?.[1] ?? 'application/octet-stream';

/** Every file under `dir` (relative paths with `/`), skipping dot files as sirv does (`dotfiles: false`). */
function listFiles(dir: string, sub = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(dir, sub), { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const rel = sub ? `${sub}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listFiles(dir, rel));
    else if (entry.isFile()) out.push(rel);
  }
  return out;
}

/**
 * The build's files by URL path: the ones its checksums list, and manifest.json (which no checksum covers,
 * hashed here; checksums.json's hash is in the manifest). private/ is left out: its files are the routes'.
 */
/**
 * Files of the tree up to this size that the build's loading did not read are hashed when the tree is
 * listed, so a damaged report.json stops a start or a reload instead of going out under its checksum's
 * tag. Larger ones (binary indexes the service did not load) are checked by size only, as record stores are.
 */
const VERIFY_MAX_BYTES = 16 * 1024 * 1024;

/**
 * A tree's listing, the stats of its files and the bytes of those listTree may hash, gathered without
 * blocking the event loop (prefetchTree), for a reload; listTree then works from memory.
 */
export interface TreeSnapshot {
  listing: string[];
  stats: Map<string, Stats>;
  bytes: Map<string, Buffer>;
}

/** How many files a tree prefetch stats or reads at once. */
const PREFETCH_CONCURRENCY = 32;

async function listFilesAsync(dir: string, sub = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(join(dir, sub), { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const rel = sub ? `${sub}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listFilesAsync(dir, rel)));
    else if (entry.isFile()) out.push(rel);
  }
  return out;
}

/**
 * Lists `root`, stats every file and reads the ones listTree may hash (small ones outside the documents a
 * build load reads), all with asynchronous I/O. A file gone meanwhile is left to listTree to report.
 */
export async function prefetchTree(root: string, documents = /^api\/.*\.json(\.gz|\.br)?$/): Promise<TreeSnapshot> {
  const dir = resolvePath(root);
  const listing = await listFilesAsync(dir);
  const stats = new Map<string, Stats>();
  const bytes = new Map<string, Buffer>();
  const take = async (rel: string) => {
    const abs = join(dir, rel);
    try {
      const st = await stat(abs);
      stats.set(abs, st);
      if (!rel.startsWith(PRIVATE_PREFIX) && !documents.test(rel) && st.size <= VERIFY_MAX_BYTES)
        bytes.set(abs, hashAhead(await readFile(abs)));
    } catch {
      // listTree reports it
    }
  };
  for (let i = 0; i < listing.length; i += PREFETCH_CONCURRENCY)
    await Promise.all(listing.slice(i, i + PREFETCH_CONCURRENCY).map(take));
  return { listing, stats, bytes };
}

function listTree(
  dir: string,
  build: LoadedBuild,
  snapshot?: TreeSnapshot,
): { files: Map<string, Listed>; stats: Map<string, Stats> } {
  // `stats`, by absolute path (siblings too): size and modification time for the check on open.
  const files = new Map<string, Listed>();
  const stats = new Map<string, Stats>();
  const all = new Set(snapshot?.listing ?? listFiles(dir));
  const bytesOf = (abs: string) => snapshot?.bytes.get(abs) ?? readFileSync(abs);
  const sums: Record<string, string> = { ...build.checksums, 'checksums.json': build.manifest.checksums_sha256 };
  for (const rel of all) {
    let sum = sums[rel];
    if (sum === undefined && rel === 'manifest.json') sum = sha256Of(bytesOf(join(dir, rel)));
    if (sum === undefined || rel.startsWith(PRIVATE_PREFIX)) continue;
    const abs = join(dir, rel);
    const stat = snapshot?.stats.get(abs) ?? statSync(abs);
    stats.set(abs, stat);
    if (
      rel !== 'manifest.json' &&
      !build.verified.has(rel) &&
      stat.size <= VERIFY_MAX_BYTES &&
      sha256Of(bytesOf(abs)) !== sum
    ) {
      throw new DataError(`${abs} does not match checksums.json: the build is damaged; rebuild it`);
    }
    if ((rel.endsWith('.gz') || rel.endsWith('.br')) && all.has(rel.slice(0, -3))) continue;
    files.set(`/${rel}`, {
      path: `/${rel}`,
      tag: etagOf(sum),
      gz: all.has(`${rel}.gz`),
      br: all.has(`${rel}.br`),
      type: typeOf(rel),
      cache: staticCacheOf(`/${rel}`),
    });
  }
  return { files, stats };
}

/**
 * The listed file a URL path names, as sirv resolves it: the path, `/index`, then with `.json`. `/` names
 * the explorer's page; any other path ending in `/` names none (sirv would drop the slash): a route's path
 * is exact, and so is a file's, as on a static host.
 */
function resolve(files: ReadonlyMap<string, Listed>, path: string): Listed | undefined {
  let uri = path;
  if (uri.includes('%')) {
    try {
      uri = decodeURI(uri);
    } catch {
      // sirv keeps a malformed escape as it is, and finds no file for it.
    }
  }
  if (uri === '/') return files.get(`/${EXPLORER_PAGE}`);
  if (uri.endsWith('/')) return undefined;
  for (const candidate of [uri, `${uri}/index`, `${uri}.json`, `${uri}/index.json`]) {
    const file = candidate === '' ? undefined : files.get(candidate);
    if (file) return file;
  }
  return undefined;
}

/**
 * The handler for the tree of one build: `fail` gets the error for a path the tree does not have (404) or
 * a method it does not take (405). Made again on reload, as sirv lists the files when it is made.
 */
export function staticHandler(root: string, build: LoadedBuild, snapshot?: TreeSnapshot) {
  // sirv resolves its folder, and names the files it opens from there.
  const dir = resolvePath(root);
  const serve = sirv(dir, {
    extensions: ['json'],
    gzip: true,
    brotli: true,
    dotfiles: false,
    etag: true,
    // `pathname` is the listed file's path: the handler below names it for sirv.
    setHeaders: (res, pathname) => {
      res.setHeader('Cache-Control', staticCacheOf(pathname));
      // sirv says Vary for every file once compression is on; only a file with a coded sibling varies.
      if (plain.has(res)) res.removeHeader('Vary');
    },
  });
  // The responses sirv is sending a file without siblings, for setHeaders above.
  const plain = new WeakSet<ServerResponse>();
  const { files, stats } = listTree(dir, build, snapshot);
  const held = holdTree(dir, build, stats);
  const handler = (req: IncomingMessage & { path: string }, res: ServerResponse, fail: (err: HttpError) => void) => {
    const file = resolve(files, req.path);
    const notFound = () => {
      res.removeHeader('ETag');
      res.removeHeader('Content-Type');
      fail(new HttpError(404, 'not_found', `no resource at ${req.path}`));
    };
    // sirv is handed only listed files: whatever else the folder holds is not the build's.
    if (!file) return notFound();
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return fail(
        new HttpError(
          405,
          'method_not_allowed',
          `${req.method} is not allowed on ${req.path}; use GET, HEAD`,
          undefined,
          { Allow: 'GET, HEAD' },
        ),
      );
    }
    delete req.headers.range;
    // sirv takes the coding it is told: the one the weights pick, or none.
    const coding = pickCoding(req.headers['accept-encoding'], file.gz, file.br);
    if (coding) req.headers['accept-encoding'] = coding;
    else delete req.headers['accept-encoding'];
    const etag = codingTag(file.tag, coding);
    // The coding's own file: its modification time is the Last-Modified sirv sends.
    const modified = stats.get(join(dir, file.path.slice(1) + (coding === 'br' ? '.br' : coding ? '.gz' : '')));
    if (
      matchesEtag(req.headers['if-none-match'], etag) ||
      (modified !== undefined && unmodifiedSince(req.headers, modified.mtime.getTime()))
    ) {
      setStampedHeaders(res);
      const head: Record<string, string> = { ETag: etag, 'Cache-Control': file.cache };
      if (modified) head['Last-Modified'] = modified.mtime.toUTCString();
      if (file.gz || file.br) head.Vary = 'Accept-Encoding';
      res.writeHead(304, head);
      res.end();
      return;
    }
    // sirv's own check compares its weak tag byte for byte; ours is done. A header set before sirv
    // writes its head replaces sirv's value.
    delete req.headers['if-none-match'];
    delete req.headers['if-modified-since'];
    setStampedHeaders(res);
    res.setHeader('ETag', etag);
    res.setHeader('Content-Type', file.type);
    if (file.type.startsWith('text/html')) res.setHeader('Content-Security-Policy', PAGE_POLICY);
    if (!file.gz && !file.br) plain.add(res);
    // sirv finds the file by the request's path: `/` is named by its file's (the app's log keeps `/`).
    if (req.path !== file.path && req.path === '/') req.url = file.path;
    guardReplaced(res, dir, stats, held);
    serve(req, res, notFound);
  };
  /** True when the tree has a file at `path` (for OPTIONS, which the app answers). */
  const has = (path: string) => resolve(files, path) !== undefined;
  /** Lets go of the files held open, once the responses reading them are done. */
  const close = () => held.close();
  return Object.assign(handler, { has, close });
}

/** The bytes of a listed file, by absolute path, from the build's own memory or a descriptor held open. */
interface HeldTree {
  /** Sends the listed file at `abs` as the body of `res`; false when this tree holds no copy of it. */
  send(res: ServerResponse, abs: string): boolean;
  close(): void;
}

const API_DOCUMENT = /^(api\/.+)\.json(\.gz|\.br)?$/;

/**
 * What keeps a build's files servable when its folder moves, is removed or turns unreadable while it is
 * served: the API documents (and their codings) are in memory already (loadBuild); every other listed file
 * (indexes, report, the explorer: tens per tree) is opened here, once, when it is still the one listed.
 */
function holdTree(dir: string, build: LoadedBuild, stats: ReadonlyMap<string, Stats>): HeldTree {
  const inMemory = (abs: string): Buffer | undefined => {
    const m = API_DOCUMENT.exec(relative(dir, abs));
    const payload = m ? build.payloads.get(`/${m[1]}`) : undefined;
    if (!payload) return undefined;
    return m?.[2] === '.gz' ? payload.gz : m?.[2] === '.br' ? payload.br : payload.body;
  };
  const fds = new Map<string, number>();
  for (const [abs, listed] of stats) {
    if (inMemory(abs)) continue;
    let fd: number;
    try {
      fd = openSync(abs, 'r');
    } catch {
      continue;
    }
    // Replaced since the listing (a publish meanwhile): not this build's file; the previous tree has it.
    if (isListed(fstatSync(fd), listed.size, listed)) fds.set(abs, fd);
    else closeSync(fd);
  }
  // Descriptors are closed only once no response reads them: a number closed early could name another file.
  let reading = 0;
  let closing = false;
  const closeIfIdle = () => {
    if (!closing || reading > 0) return;
    for (const fd of fds.values()) closeSync(fd);
    fds.clear();
  };
  return {
    send(res, abs) {
      const bytes = inMemory(abs);
      if (bytes) {
        res.end(bytes);
        return true;
      }
      const fd = fds.get(abs);
      const listed = stats.get(abs);
      // A file changed in place since (no build does that; an edit by hand) is not the listed one any more.
      if (fd === undefined || !listed || !isListed(fstatSync(fd), listed.size, listed)) return false;
      reading++;
      const stream = positionalStream(fd, listed.size);
      finished(stream, () => {
        reading--;
        closeIfIdle();
      });
      stream.once('error', () => res.destroy());
      res.once('close', () => stream.destroy());
      stream.pipe(res);
      return true;
    },
    close() {
      closing = true;
      closeIfIdle();
    },
  };
}

const CHUNK = 64 * 1024;

/**
 * The first `size` bytes of an open file, read at their positions (several responses share the
 * descriptor). Unlike a file stream over a descriptor, destroying it never closes the descriptor, and it
 * ends only once no read of it is under way.
 */
function positionalStream(fd: number, size: number): Readable {
  let at = 0;
  let pending = false;
  let whenIdle: (() => void) | undefined;
  return new Readable({
    highWaterMark: CHUNK,
    read() {
      if (at >= size) return void this.push(null);
      const buf = Buffer.allocUnsafe(Math.min(CHUNK, size - at));
      pending = true;
      read(fd, buf, 0, buf.length, at, (err, bytes) => {
        pending = false;
        whenIdle?.();
        if (this.destroyed) return;
        if (err || bytes === 0) return void this.destroy(err ?? new Error('the file ended before its listed size'));
        at += bytes;
        this.push(buf.subarray(0, bytes));
      });
    },
    destroy(err, callback) {
      if (!pending) return callback(err);
      whenIdle = () => callback(err);
    },
  });
}

/**
 * sirv announces the size it listed when this tree was loaded, and the headers above come from the same
 * listing. A file replaced since (a publish that renamed a new tree in after the server's manifest check)
 * would go out under them: a short body leaves a keep-alive client waiting for the rest, a longer one
 * spills into the next response, and one of the same size is new bytes under the old ETag. The opened
 * file's size and modification time tell, before anything is sent; then the body comes from the tree the
 * headers were listed from, or the connection closes.
 */
function guardReplaced(res: ServerResponse, dir: string, stats: ReadonlyMap<string, Stats>, held: HeldTree): void {
  res.once('pipe', (src: NodeJS.ReadableStream) => {
    const stream = src as ReadStream;
    const announced = Number(res.getHeader('Content-Length'));
    const listed = stats.get(String(stream.path));
    // Nothing sent yet: the body comes from the copy this tree holds, else from the previous tree, or the
    // connection closes.
    const fallBack = () => {
      stream.unpipe(res);
      stream.destroy();
      if (!Number.isFinite(announced) || !listed) return void res.destroy();
      if (held.send(res, String(stream.path))) return;
      sendPrevious(res, join(previousDir(dir), relative(dir, String(stream.path))), announced, listed);
    };
    // The file gone (the tree moved or removed, or between a publish's two renames): the held copy, as long
    // as nothing was read yet; a read failing later can only close the connection.
    stream.once('error', () => (stream.bytesRead === 0 ? fallBack() : res.destroy()));
    stream.once('open', (fd: number) => {
      if (!listed || !Number.isFinite(announced) || !isListed(fstatSync(fd), announced, listed)) fallBack();
    });
  });
}

/**
 * Whether an opened file is the one listed: the size sirv announced, and the listed modification time (to
 * the millisecond, as sirv's own tags and copies that keep times have it).
 * A publish moves trees by renaming them, which keeps every file's modification time, so the listed file
 * still matches in the previous tree.
 */
function isListed(opened: Stats, size: number, listed: Stats): boolean {
  return opened.size === size && opened.size === listed.size && opened.mtime.getTime() === listed.mtime.getTime();
}

/**
 * The file a response's headers describe, after a publish replaced it: the publish moved the tree those
 * headers were listed from, whole, to `<service>.prev`, so the same file there, when it is still the one
 * listed, is the right body (headers and body of one build). Otherwise the connection is closed: a
 * client error at once, rather than a wait or a body that does not match its headers.
 */
function sendPrevious(res: ServerResponse, path: string, size: number, listed: Stats): void {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    res.destroy();
    return;
  }
  if (!isListed(fstatSync(fd), size, listed)) {
    closeSync(fd);
    res.destroy();
    return;
  }
  createReadStream(path, { fd })
    .once('error', () => res.destroy())
    .pipe(res);
}
