// The static tree (dist-data/<service>/, as a CDN serves it) for the files no route answers: only the files
// checksums.json lists (never private/, never a stray file), each coding's strong ETag, conditional GET, the
// cache rule of its path, and the body held since the listing (held-tree.ts), whatever happened to the folder
// since (docs/http.md, "Caching, compression and conditional requests").
import { readdir, readFile, stat } from 'node:fs/promises';
import { readdirSync, readFileSync, statSync, type Stats } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, resolve as resolvePath } from 'node:path';
import { DataError, hashAhead, type LoadedBuild, sha256Of } from './build.ts';
import { holdTree } from './held-tree.ts';
import { EXPLORER_PAGE, PRIVATE_PREFIX, staticCacheOf } from '../../contract/core/layout.ts';
import { HttpError } from '../../contract/core/problem.ts';
import { codingTag, etagOf, matchesEtag, PAGE_POLICY, pickCoding } from './payload.ts';
import { unmodifiedSince } from './http-date.ts';
import { setStampedHeaders } from './stamp.ts';

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
 * styles, all UTF-8 as the pipeline writes them, the change record's feeds (RFC 4287, JSON Feed 1.1), the
 * SQLite database (IANA's application/vnd.sqlite3), and the binary indexes (carriers' name index).
 */
const TYPES: readonly (readonly [string, string])[] = [
  ['/feed.json', 'application/feed+json'],
  ['.atom', 'application/atom+xml'],
  ['.json', 'application/json; charset=utf-8'],
  ['.csv', 'text/csv; charset=utf-8'],
  ['.geojson', 'application/geo+json'],
  ['.sqlite', 'application/vnd.sqlite3'],
  ['.html', 'text/html; charset=utf-8'],
  ['.js', 'text/javascript; charset=utf-8'],
  ['.css', 'text/css; charset=utf-8'],
];
const typeOf = (rel: string) => TYPES.find(([ext]) => rel.endsWith(ext))?.[1] ?? 'application/octet-stream';

/** Every file under `dir` (relative paths with `/`), dot files left out as a static host does. */
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

/**
 * The build's files by URL path: the ones its checksums list, and manifest.json (which no checksum covers,
 * hashed here; checksums.json's hash is in the manifest). private/ is left out: its files are the routes'.
 */
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
    // A coding is the build's when the checksums list it too; a stray one beside the file is not sent.
    const coded = (suffix: string) => all.has(rel + suffix) && sums[rel + suffix] !== undefined;
    files.set(`/${rel}`, {
      path: `/${rel}`,
      tag: etagOf(sum),
      gz: coded('.gz'),
      br: coded('.br'),
      type: typeOf(rel),
      cache: staticCacheOf(`/${rel}`),
    });
  }
  return { files, stats };
}

/**
 * The listed file a URL path names: the path, `/index`, then with `.json`. `/` names the explorer's page;
 * any other path ending in `/` names none: a route's path is exact, and so is a file's, as on a static host.
 */
function resolve(files: ReadonlyMap<string, Listed>, path: string): Listed | undefined {
  let uri = path;
  if (uri.includes('%')) {
    try {
      uri = decodeURI(uri);
    } catch {
      // A malformed escape is kept as it is, and names no file.
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

/** The file a coding of a listed file is, by its suffix. */
const SUFFIX = { br: '.br', gzip: '.gz' } as const;

/**
 * The handler for the tree of one build: `fail` gets the error for a path the tree does not have (404) or
 * a method it does not take (405). Made again on reload, with the new tree's listing.
 */
export function staticHandler(root: string, build: LoadedBuild, snapshot?: TreeSnapshot) {
  const dir = resolvePath(root);
  const { files, stats } = listTree(dir, build, snapshot);
  const held = holdTree(dir, build, stats);
  const handler = (req: IncomingMessage & { path: string }, res: ServerResponse, fail: (err: HttpError) => void) => {
    const file = resolve(files, req.path);
    if (!file) return fail(new HttpError(404, 'not_found', `no resource at ${req.path}`));
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      const detail = `${req.method} is not allowed on ${req.path}; use GET, HEAD`;
      return fail(new HttpError(405, 'method_not_allowed', detail, undefined, { Allow: 'GET, HEAD' }));
    }
    const coding = pickCoding(req.headers['accept-encoding'], file.gz, file.br);
    const abs = join(dir, file.path.slice(1) + (coding ? SUFFIX[coding] : ''));
    // Listed with its file: listTree stats every coding it lists.
    const listed = stats.get(abs) as Stats;
    const etag = codingTag(file.tag, coding);
    const head: Record<string, string | number> = {
      ETag: etag,
      'Cache-Control': file.cache,
      'Last-Modified': listed.mtime.toUTCString(),
    };
    if (file.gz || file.br) head.Vary = 'Accept-Encoding';
    setStampedHeaders(res);
    if (matchesEtag(req.headers['if-none-match'], etag) || unmodifiedSince(req.headers, listed.mtime.getTime())) {
      res.writeHead(304, head);
      res.end();
      return;
    }
    const body = held.open(abs);
    if (!body) return void res.destroy();
    head['Content-Type'] = file.type;
    head['Content-Length'] = listed.size;
    if (coding) head['Content-Encoding'] = coding;
    if (file.type.startsWith('text/html')) head['Content-Security-Policy'] = PAGE_POLICY;
    res.writeHead(200, head);
    if (req.method === 'HEAD') {
      body.drop();
      res.end();
    } else body.send(res);
  };
  /** True when the tree has a file at `path` (for OPTIONS, which the app answers). */
  const has = (path: string) => resolve(files, path) !== undefined;
  /** Lets go of the files held open, once the responses reading them are done. */
  const close = () => held.close();
  return Object.assign(handler, { has, close });
}
