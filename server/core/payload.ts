// Precomputed responses: body, compressed variants and a strong ETag, computed once (at build or at load),
// never per request. Hot API paths are answered from a Map of these (polka + Map costs ~13 % CPU over a
// bare node:http server; sirv opens the file on every request and costs ~5x: shared/reference/serving-anchors.md).
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as zlib from 'node:zlib';

export interface Payload {
  body: Buffer;
  gz?: Buffer;
  br?: Buffer;
  /** Strong validator of the identity body (RFC 9110 §8.8.3), quotes included. */
  etag: string;
  type: string;
}

export function etagOf(sha256hex: string): string {
  return `"${sha256hex.slice(0, 32)}"`;
}

/** A payload made at run time (search results, dynamic documents); compressed only where it pays. */
export function toPayload(body: string | Buffer, type = 'application/json', compress = true): Payload {
  const buf = typeof body === 'string' ? Buffer.from(body) : body;
  const payload: Payload = { body: buf, etag: etagOf(createHash('sha256').update(buf).digest('hex')), type };
  if (compress && buf.length > 1400) {
    payload.gz = zlib.gzipSync(buf, { level: 6 });
    payload.br = zlib.brotliCompressSync(buf, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } });
  }
  return payload;
}

export function jsonPayload(doc: unknown): Payload {
  return toPayload(JSON.stringify(doc));
}

/** Picks br, then gzip, from Accept-Encoding, honouring `q=0` (RFC 9110 §12.5.3). */
export function pickEncoding(header: string | undefined, p: Payload): 'br' | 'gzip' | undefined {
  if (!header || (!p.br && !p.gz)) return undefined;
  const accepted = new Set<string>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((s) => s.trim()).find((s) => s.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name.trim());
  }
  if (p.br && accepted.has('br')) return 'br';
  if (p.gz && (accepted.has('gzip') || accepted.has('*'))) return 'gzip';
  return undefined;
}

/**
 * If-None-Match uses the weak comparison (RFC 9110 §13.1.2): a tag matches whatever its `W/` prefix, and
 * the per-encoding tags (`"…-br"`) match their identity tag.
 */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const base = etag.slice(1, -1);
  for (let tag of header.split(',')) {
    tag = tag.trim();
    if (tag.startsWith('W/')) tag = tag.slice(2);
    if (!tag.startsWith('"') || !tag.endsWith('"') || tag.length < 2) continue;
    let value = tag.slice(1, -1);
    if (value.endsWith('-br')) value = value.slice(0, -3);
    else if (value.endsWith('-gz')) value = value.slice(0, -3);
    if (value === base) return true;
  }
  return false;
}

export interface SendOptions {
  cacheControl: string;
  headers?: Record<string, string | number>;
  status?: number;
}

export function sendPayload(req: IncomingMessage, res: ServerResponse, p: Payload, options: SendOptions): void {
  const encoding = pickEncoding(req.headers['accept-encoding'], p);
  const etag = encoding === 'br' ? `${p.etag.slice(0, -1)}-br"` : encoding === 'gzip' ? `${p.etag.slice(0, -1)}-gz"` : p.etag;
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Control', options.cacheControl);
  if (p.gz || p.br) res.setHeader('Vary', 'Accept-Encoding');
  if (options.headers) for (const [k, v] of Object.entries(options.headers)) res.setHeader(k, v);
  if (matchesEtag(req.headers['if-none-match'], p.etag)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  const body = encoding === 'br' ? p.br! : encoding === 'gzip' ? p.gz! : p.body;
  res.statusCode = options.status ?? 200;
  res.setHeader('Content-Type', p.type.includes('charset') || !p.type.startsWith('application/json') ? p.type : `${p.type}; charset=utf-8`);
  if (encoding) res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', body.length);
  res.end(req.method === 'HEAD' ? undefined : body);
}
