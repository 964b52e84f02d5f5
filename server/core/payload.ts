// Precomputed responses: body, compressed variants and a strong ETag, computed once (at build or at load),
// never per request. Hot API paths are answered from a Map of these (polka + Map costs ~13 % CPU over a
// bare node:http server; opening the file on every request costs ~5x: docs/reference/serving-anchors.md).
import { hash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as zlib from 'node:zlib';
import { setStampedHeaders, stampedHeaders } from './stamp.ts';

export interface Payload {
  body: Buffer;
  gz?: Buffer;
  br?: Buffer;
  /**
   * The codings are made when a request first asks for one (codedBody) and kept here: an answer made at
   * run time is compressed once per payload kept in a cache, and a one-off answer only in the coding asked.
   */
  compressible?: boolean;
  /** Strong validator of the identity body (RFC 9110 §8.8.3), quotes included. */
  etag: string;
  type: string;
}

export function etagOf(sha256hex: string): string {
  return `"${sha256hex.slice(0, 32)}"`;
}

/**
 * The strong ETag of the body that `identity` names, where identity is the data version and a canonical
 * query: two 32-bit FNV-1a hashes of it (64 bits, no call into C++, a fraction of a microsecond) and its
 * length. A validator only has to tell apart the bodies of one URL, which differ by data version (part of
 * the identity); SHA-256 would add nothing but time to every new search.
 */
export function identityTag(identity: string): string {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < identity.length; i++) {
    const c = identity.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15);
  }
  return `"${hex32(a)}${hex32(b)}${identity.length.toString(16)}"`;
}

/** Two hex digits per byte value. */
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** A 32-bit value as 8 hex digits: table reads cost a quarter of toString(16) and padStart. */
function hex32(x: number): string {
  return HEX[x >>> 24]! + HEX[(x >>> 16) & 255]! + HEX[(x >>> 8) & 255]! + HEX[x & 255]!;
}

/** Bodies up to this size go out as they are: about one packet, where a coding saves nothing worth its CPU. */
export const COMPRESS_MIN_BYTES = 1400;

/**
 * A payload made at run time (search results, dynamic documents); compressed where it pays, on the first
 * request that asks for a coding (codedBody). The ETag hashes the body, or `identity` when given: a short
 * string that names this exact body (for a response computed from the build and a canonical query, the
 * data version and the query), see identityTag.
 */
export function toPayload(
  body: string | Buffer,
  type = 'application/json',
  compress = true,
  identity?: string,
): Payload {
  const buf = typeof body === 'string' ? Buffer.from(body) : body;
  const payload: Payload = {
    body: buf,
    etag: identity === undefined ? etagOf(hash('sha256', buf, 'hex')) : identityTag(identity),
    type,
  };
  if (compress && buf.length > COMPRESS_MIN_BYTES) payload.compressible = true;
  return payload;
}

/**
 * The body in `coding`, made and kept on the payload the first time it is asked for. Brotli at quality 5
 * and gzip at level 6: about 0.1 ms for a 25 kB page of search results, a twentieth of its size.
 */
export function codedBody(p: Payload, coding: 'br' | 'gzip' | undefined): Buffer {
  if (coding === 'br') {
    p.br ??= zlib.brotliCompressSync(p.body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: p.body.length,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      },
    });
    return p.br;
  }
  if (coding === 'gzip') {
    p.gz ??= zlib.gzipSync(p.body, { level: 6 });
    return p.gz;
  }
  return p.body;
}

export function jsonPayload(doc: unknown): Payload {
  return toPayload(JSON.stringify(doc));
}

/** Picks br or gzip by their weights in Accept-Encoding (RFC 9110 §12.5.3); none when both weigh 0. */
export function pickEncoding(header: string | undefined, p: Payload): 'br' | 'gzip' | undefined {
  return p.compressible ? pickCoding(header, true, true) : pickCoding(header, p.gz !== undefined, p.br !== undefined);
}

/** The same for a body with a gzip and/or a br form (`gz`, `br`): the coding to send, if any. */
export function pickCoding(header: string | undefined, gz: boolean, br: boolean): 'br' | 'gzip' | undefined {
  if (!header || (!br && !gz)) return undefined;
  const q = codingQualities(header);
  // A coding named in the header has its own weight; `*` weighs every coding the header does not name
  // (RFC 9110 §12.5.3), so `gzip;q=0, *` refuses gzip. The higher weight wins; br on a tie.
  const weight = (name: string) => q.get(name) ?? q.get('*') ?? 0;
  const brWeight = br ? weight('br') : 0;
  const gzipWeight = gz ? Math.max(weight('gzip'), q.get('x-gzip') ?? 0) : 0;
  if (brWeight > 0 && brWeight >= gzipWeight) return 'br';
  return gzipWeight > 0 ? 'gzip' : undefined;
}

/**
 * Parsed headers by their text: clients send a handful of distinct Accept-Encoding values, each on every
 * request. Bounded: emptied when it holds more than that.
 */
const parsedCodings = new Map<string, Map<string, number>>();
const PARSED_CODINGS_MAX = 256;

/** Accept-Encoding's codings (lower case) with their weights: `q=` when given (0 to 1), else 1. */
export function codingQualities(header: string): ReadonlyMap<string, number> {
  let known = parsedCodings.get(header);
  if (!known) {
    if (parsedCodings.size >= PARSED_CODINGS_MAX) parsedCodings.clear();
    known = parseCodings(header);
    parsedCodings.set(header, known);
  }
  return known;
}

function parseCodings(header: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.split(';');
    const coding = name?.trim();
    if (!coding) continue;
    const given = params.map((s) => s.trim()).find((s) => s.startsWith('q='));
    const weight = given === undefined ? 1 : Number(given.slice(2));
    out.set(coding, Number.isFinite(weight) ? Math.min(Math.max(weight, 0), 1) : 0);
  }
  return out;
}

/**
 * The tag of a body's coded form: `"…-br"`, `"…-gz"`, or the tag itself. Each coding is a representation
 * of its own (RFC 9110 §8.8.3), so each has its own tag.
 */
export function codingTag(etag: string, coding: 'br' | 'gzip' | undefined): string {
  return coding === undefined ? etag : `${etag.slice(0, -1)}-${coding === 'br' ? 'br' : 'gz'}"`;
}

/**
 * If-None-Match uses the weak comparison (RFC 9110 §13.1.2): a tag matches whatever its `W/` prefix. `etag`
 * is the tag of the representation being sent (codingTag), so the identity body's tag never validates the
 * brotli body, nor the reverse: a cache holding one must not be told it holds the other.
 */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  for (let tag of header.split(',')) {
    tag = tag.trim();
    if (tag.startsWith('W/')) tag = tag.slice(2);
    if (tag === etag) return true;
  }
  return false;
}

/**
 * The Content-Security-Policy of an HTML page (docs, explorer): scripts, styles, images, fonts and fetches
 * from this origin only; no plugins, no <base>, no framing by another site, forms posted here only. Inline
 * styles are allowed because the renderers set styles from their own scripts; inline scripts are not.
 */
export const PAGE_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'self'; form-action 'self'";

export interface SendOptions {
  cacheControl: string;
  headers?: Record<string, string | number>;
  status?: number;
}

const contentTypes = new WeakMap<Payload, string>();

/** The Content-Type header of a payload: JSON gets its charset, once per payload rather than per request. */
const JSON_TYPE = 'application/json; charset=utf-8';

function contentTypeOf(p: Payload): string {
  // The common case without the map: records are sent as payloads made per request.
  if (p.type === 'application/json') return JSON_TYPE;
  let type = contentTypes.get(p);
  if (type === undefined) {
    type = p.type.includes('charset') || !p.type.startsWith('application/json') ? p.type : `${p.type}; charset=utf-8`;
    contentTypes.set(p, type);
  }
  return type;
}

/**
 * Writes the whole head with one writeHead call of a flat header list: Node then skips its per-header
 * bookkeeping (setHeader), which is a measurable share of a request that is otherwise one Map read.
 */
export function sendPayload(req: IncomingMessage, res: ServerResponse, p: Payload, options: SendOptions): void {
  const encoding = pickEncoding(req.headers['accept-encoding'], p);
  const etag = codingTag(p.etag, encoding);
  const head: (string | number)[] = ['ETag', etag, 'Cache-Control', options.cacheControl];
  const stamped = stampedHeaders(res);
  if (stamped !== undefined) for (let i = 0; i < stamped.length; i++) head.push(stamped[i]!);
  if (p.gz || p.br || p.compressible) head.push('Vary', 'Accept-Encoding');
  if (options.headers) for (const k in options.headers) head.push(k, options.headers[k]!);
  if (matchesEtag(req.headers['if-none-match'], etag)) {
    res.writeHead(304, head as unknown as string[]);
    res.end();
    return;
  }
  const body = codedBody(p, encoding);
  head.push('Content-Type', contentTypeOf(p), 'Content-Length', body.length);
  if (p.type.startsWith('text/html')) head.push('Content-Security-Policy', PAGE_POLICY);
  if (encoding) head.push('Content-Encoding', encoding);
  res.writeHead(options.status ?? 200, head as unknown as string[]);
  res.end(req.method === 'HEAD' ? undefined : body);
}

/**
 * An answer made for one request and never shared (signed-in writes and reads, `Cache-Control: no-store` or
 * the route's own): JSON with the stamped headers, no ETag, no compression. `doc` undefined sends no body (204).
 */
export function sendAnswer(
  res: ServerResponse,
  doc: unknown,
  options: { status?: number; cacheControl: string; headers?: Record<string, string> },
): void {
  const body = doc === undefined ? undefined : Buffer.from(JSON.stringify(doc));
  res.statusCode = options.status ?? 200;
  setStampedHeaders(res);
  for (const [k, v] of Object.entries(options.headers ?? {})) res.setHeader(k, v);
  if (body) res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', options.cacheControl);
  if (body) res.setHeader('Content-Length', body.length);
  res.end(body);
}
