// The hashes both halves use: SHA-256 for checksums and versions, FNV-1a (http://www.isthe.com/chongo/tech/comp/fnv/)
// where a fast 32-bit spread is enough, and a 64-bit fingerprint for sets of millions of strings and for tags.
import { createHash } from 'node:crypto';

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** 32-bit FNV-1a of a string's UTF-16 code units (the same as of its bytes for ASCII). */
export function fnv1a(s: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h >>> 0;
}

/** 32-bit FNV-1a of a string's UTF-8 bytes: a hash stored in a build file, so any reader can recompute it. */
export function fnv1aUtf8(s: string): number {
  let h = FNV_OFFSET;
  for (const byte of Buffer.from(s, 'utf8')) h = Math.imul(h ^ byte, FNV_PRIME);
  return h >>> 0;
}

/**
 * A 64-bit fingerprint of a string's UTF-16 code units, as two independent 32-bit hashes (FNV-1a, and a
 * multiply-xorshift mix) written into `out[0]` and `out[1]`, so a hot loop allocates nothing.
 */
export function fingerprint64(s: string, out: Uint32Array): void {
  let a = FNV_OFFSET;
  let b = 0x9747b28c;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, FNV_PRIME);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  b = Math.imul(b ^ (b >>> 13), 0xc2b2ae35);
  out[0] = a >>> 0;
  out[1] = (b ^ (b >>> 16)) >>> 0;
}
