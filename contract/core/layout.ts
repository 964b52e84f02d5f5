// Where things are in a build: the folders a publish uses, the files every tree has, and the URL paths and
// cache policies both the build's static files and the server's answers follow.
import { join } from 'node:path';
import type { Manifest } from './manifest.ts';

/**
 * The build data format. The pipeline writes it into every manifest; the server loads only builds of this
 * format, so a change in what a tree holds or how its files are laid out raises it and asks for a rebuild.
 * 2: the carriers name index holds each carrier's state (names.states, names.rank-states) for search's
 * state filter, and carrier profiles say which SMS inputs the build lacked (data_gaps).
 */
export const DATA_FORMAT = 2;

/** Where a publish moves the build it replaces, whole, until the next publish: `<service>.prev`. */
export function previousDir(live: string): string {
  return `${live}.prev`;
}

/** Where a build's private files go: `<service>.private/`, one folder per set of files. */
export function privateRoot(live: string): string {
  return `${live}.private`;
}

/** The private folder a manifest names (by `private_checksums_sha256`), or undefined for a build with none. */
export function privateDirOf(live: string, manifest: Pick<Manifest, 'private_checksums_sha256'>): string | undefined {
  const key = manifest.private_checksums_sha256;
  return key === undefined ? undefined : join(privateRoot(live), key.slice(0, 16));
}

/** The part of a build that is never published with its tree (signed-in data: moved beside the tree at publish). */
export const PRIVATE_PREFIX = 'private/';

/** Every tree's error document: the server's 404 problem body (contract/core/problem.ts). */
export const NOT_FOUND_FILE = '404.json';
/** GET /healthz's answer for the build. */
export const HEALTH_FILE = 'healthz.json';

/** The human API reference of every service, rendered in the browser from its OpenAPI document. */
export const DOCS_PATH = '/docs';
/** The reference renderer's browser bundle, served by the service itself (no CDN at run time). */
export const DOCS_SCRIPT_PATH = '/docs/scalar.js';
/** Where a build's tree holds that bundle (copied from vendor/scalar, with its .gz/.br siblings). */
export const DOCS_SCRIPT_FILE = DOCS_SCRIPT_PATH.slice(1);
/** Data responses and the static tree's files (docs/contracts/common.md, "Caching and static hosting"). */
export const PUBLIC_CACHE = 'public, max-age=300';
/** Signed-in and premium responses. */
export const NO_STORE = 'no-store';

/** Where a build writes the document for its URL path: `/api/openapi` → `api/openapi.json`. */
export function toDocumentFile(urlPath: string): string {
  const rel = urlPath.replace(/^\/+/, '');
  return rel.endsWith('.json') ? rel : `${rel}.json`;
}

/** The build payload that answers a document's URL path (server/core/build.ts keys: no `.json`). */
export function toPayloadPath(urlPath: string): string {
  return `/${toDocumentFile(urlPath).slice(0, -'.json'.length)}`;
}

/**
 * The explorer (docs/contracts/explorer.md): its page at the root of every tree, answered at `/`, and its
 * scripts and styles under `assets/`, each named `<name>-<hash>.<ext>` after its content, so a new build of
 * them is a new URL and the old one can be cached for good.
 */
export const EXPLORER_PAGE = 'index.html';
export const ASSETS_DIR = 'assets';
/** A file whose name carries its content hash: cached for a year and never asked for again. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/**
 * An HTML page of the tree: asked again on every use (a 304 while unchanged), so a browser never keeps a
 * page that names assets a newer build no longer has.
 */
export const PAGE_CACHE = 'public, no-cache';

/** esbuild's `[hash]`: 8 characters of base32 (A–Z, 2–7). */
const HASHED_ASSET = new RegExp(`^/?${ASSETS_DIR}/[A-Za-z0-9_.-]+-[A-Z2-7]{8}\\.(js|css)$`);

/** True for a hashed explorer asset (`/assets/explorer-ABCD2345.js`), by URL path or tree path. */
export function isHashedAsset(path: string): boolean {
  return HASHED_ASSET.test(path);
}

/** The Cache-Control of a file of the static tree, by its URL path: hashed assets, pages, everything else. */
export function staticCacheOf(path: string): string {
  if (isHashedAsset(path)) return IMMUTABLE_CACHE;
  return path.endsWith('.html') ? PAGE_CACHE : PUBLIC_CACHE;
}
