// A small zip reader for the archives upstreams publish (FMCSA's SMS downloads are zips of one text file):
// the central directory is read from the end of the file (PKWARE APPNOTE 6.3.10 §4.3.16, with the ZIP64 end
// record and locator of §4.3.14–4.3.15 and the ZIP64 extra field of §4.5.3), then each entry is streamed
// through node:zlib's raw inflate (method 8) or copied (method 0), its CRC-32 and size checked against the
// directory. Enough for publishers' archives; encryption, multi-disk archives and other methods are refused.
// Not yauzl: it does not check an entry's CRC-32, which is how a damaged download is caught here.
import { createReadStream } from 'node:fs';
import { open, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32, createInflateRaw } from 'node:zlib';

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIR = 0x06054b50;
const ZIP64_END = 0x06064b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EXTRA = 0x0001;
/** The end record is 22 bytes plus a comment of at most 65,535. */
const MAX_TAIL = 22 + 0xffff;
const MAX_CENTRAL_DIR = 64 << 20;

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  crc32: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

export class ZipError extends Error {
  override name = 'ZipError';
}

/** True when `head` (the first bytes of a file) starts a zip archive, empty ones included. */
export function isZipHeader(head: Uint8Array): boolean {
  if (head.length < 4) return false;
  const sig = Buffer.from(head.buffer, head.byteOffset, 4).readUInt32LE(0);
  return sig === LOCAL_HEADER || sig === END_OF_CENTRAL_DIR;
}

async function readAt(handle: Awaited<ReturnType<typeof open>>, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buf, 0, length, position);
  if (bytesRead !== length) throw new ZipError(`the archive ends early (wanted ${length} bytes at ${position})`);
  return buf;
}

function readUInt64(buf: Buffer, at: number): number {
  const v = buf.readBigUInt64LE(at);
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new ZipError('a ZIP64 size or offset is too large');
  return Number(v);
}

/** The central directory: every entry with its sizes, method and where its local header is. */
export async function readZipEntries(path: string): Promise<ZipEntry[]> {
  const handle = await open(path, 'r');
  try {
    const { size: fileSize } = await handle.stat();
    const tailLength = Math.min(fileSize, MAX_TAIL);
    if (tailLength < 22) throw new ZipError('not a zip archive (too short)');
    const tailStart = fileSize - tailLength;
    const tail = await readAt(handle, tailStart, tailLength);
    let eocd = -1;
    for (let i = tailLength - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === END_OF_CENTRAL_DIR && i + 22 + tail.readUInt16LE(i + 20) <= tailLength) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) throw new ZipError('not a zip archive (no end of central directory record)');
    if (tail.readUInt16LE(eocd + 4) !== 0 || tail.readUInt16LE(eocd + 6) !== 0)
      throw new ZipError('multi-disk archives are not supported');
    let count = tail.readUInt16LE(eocd + 10);
    let cdSize = tail.readUInt32LE(eocd + 12);
    let cdOffset = tail.readUInt32LE(eocd + 16);
    if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
      const locatorAt = tailStart + eocd - 20;
      const locator = locatorAt >= 0 ? await readAt(handle, locatorAt, 20) : undefined;
      if (!locator || locator.readUInt32LE(0) !== ZIP64_LOCATOR)
        throw new ZipError('ZIP64 end of central directory locator missing');
      const end = await readAt(handle, readUInt64(locator, 8), 56);
      if (end.readUInt32LE(0) !== ZIP64_END) throw new ZipError('ZIP64 end of central directory record missing');
      count = readUInt64(end, 32);
      cdSize = readUInt64(end, 40);
      cdOffset = readUInt64(end, 48);
    }
    if (cdSize > MAX_CENTRAL_DIR || cdOffset + cdSize > fileSize)
      throw new ZipError('the central directory lies outside the archive');
    const cd = await readAt(handle, cdOffset, cdSize);
    const entries: ZipEntry[] = [];
    let at = 0;
    for (let n = 0; n < count; n++) {
      if (at + 46 > cd.length || cd.readUInt32LE(at) !== CENTRAL_HEADER)
        throw new ZipError(`central directory entry ${n + 1} is damaged`);
      const flags = cd.readUInt16LE(at + 8);
      const nameLength = cd.readUInt16LE(at + 28);
      const extraLength = cd.readUInt16LE(at + 30);
      const commentLength = cd.readUInt16LE(at + 32);
      const nameBytes = cd.subarray(at + 46, at + 46 + nameLength);
      // Bit 11: the name is UTF-8; otherwise IBM 437, read here as Latin-1 (names only become file names).
      const name = nameBytes.toString(flags & 0x800 ? 'utf8' : 'latin1');
      let size = cd.readUInt32LE(at + 24);
      let compressedSize = cd.readUInt32LE(at + 20);
      let localHeaderOffset = cd.readUInt32LE(at + 42);
      const extra = cd.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength);
      for (let e = 0; e + 4 <= extra.length; ) {
        const id = extra.readUInt16LE(e);
        const len = extra.readUInt16LE(e + 2);
        if (id === ZIP64_EXTRA) {
          // Only the fields whose 32-bit value is 0xFFFFFFFF are present, in this order.
          let p = e + 4;
          const next = () => {
            if (p + 8 > e + 4 + len) throw new ZipError(`${name}: ZIP64 extra field too short`);
            const v = readUInt64(extra, p);
            p += 8;
            return v;
          };
          if (size === 0xffffffff) size = next();
          if (compressedSize === 0xffffffff) compressedSize = next();
          if (localHeaderOffset === 0xffffffff) localHeaderOffset = next();
        }
        e += 4 + len;
      }
      entries.push({
        name,
        method: cd.readUInt16LE(at + 10),
        flags,
        crc32: cd.readUInt32LE(at + 16),
        compressedSize,
        size,
        localHeaderOffset,
      });
      at += 46 + nameLength + extraLength + commentLength;
    }
    return entries;
  } finally {
    await handle.close();
  }
}

/** The file name an entry is written under: its base name with anything unusual replaced; undefined to skip it. */
export function toEntryFileName(name: string): string | undefined {
  if (name.endsWith('/') || name.startsWith('__MACOSX/')) return undefined;
  const base = basename(name.replaceAll('\\', '/'));
  if (base === '' || base.startsWith('.')) return undefined;
  return base.replace(/[^\w.\- ()]/g, '_');
}

/**
 * Writes every file entry of the archive at `zipPath` into `destDir` (flat: entries keep their base names
 * only, so no entry can write outside the folder), checking each entry's CRC-32 and size. Throws on
 * anything it cannot read; files already written stay for the caller to remove with the folder.
 */
export async function extractZip(zipPath: string, destDir: string): Promise<{ file: string; bytes: number }[]> {
  const entries = await readZipEntries(zipPath);
  const written: { file: string; bytes: number }[] = [];
  const seen = new Set<string>();
  const handle = await open(zipPath, 'r');
  try {
    for (const entry of entries) {
      const file = toEntryFileName(entry.name);
      if (file === undefined) continue;
      if (seen.has(file)) throw new ZipError(`two entries are both named ${file}`);
      seen.add(file);
      if (entry.flags & 0x1) throw new ZipError(`${entry.name} is encrypted`);
      if (entry.method !== 0 && entry.method !== 8)
        throw new ZipError(`${entry.name} uses compression method ${entry.method} (only stored and deflate are read)`);
      const local = await readAt(handle, entry.localHeaderOffset, 30);
      if (local.readUInt32LE(0) !== LOCAL_HEADER) throw new ZipError(`${entry.name}: local header missing`);
      const dataStart = entry.localHeaderOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
      let crc = 0;
      let bytes = 0;
      const check = new Transform({
        transform(chunk: Buffer, _enc, done) {
          bytes += chunk.length;
          if (bytes > entry.size)
            return done(new ZipError(`${entry.name} holds more than the ${entry.size} bytes its directory entry says`));
          crc = crc32(chunk, crc);
          done(null, chunk);
        },
      });
      const target = join(destDir, file);
      const stages: NodeJS.ReadWriteStream[] = entry.method === 8 ? [createInflateRaw(), check] : [check];
      if (entry.compressedSize === 0) {
        // Only an empty stored file has no data (an empty deflate stream is 2 bytes).
        await writeFile(target, '');
      } else {
        const source = createReadStream(zipPath, { start: dataStart, end: dataStart + entry.compressedSize - 1 });
        // Opened first and closed before going on, so a caller removing the folder on error races no open.
        const out = await open(target, 'w');
        try {
          await pipeline([source, ...stages, out.createWriteStream()]);
        } finally {
          await out.close();
        }
      }
      if (bytes !== entry.size)
        throw new ZipError(`${entry.name}: ${bytes} bytes where the directory says ${entry.size}`);
      if (crc >>> 0 !== entry.crc32 >>> 0)
        throw new ZipError(`${entry.name}: CRC-32 mismatch (the archive is damaged)`);
      written.push({ file, bytes });
    }
  } finally {
    await handle.close();
  }
  return written;
}
