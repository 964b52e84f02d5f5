// The bodies of a listed tree's files, kept the build's for as long as it is served: the API documents
// from the build's memory, every other file (indexes, report, the explorer: tens per tree) from a
// descriptor opened once at listing. A publish renames a new tree in, a tree moves away or turns
// unreadable: the held copy is still the listed file. Only a file changed in place (an edit by hand) is
// looked for again, on disk and then in the tree a publish moved to `<service>.prev`; the source is
// chosen before the head goes out, so the listed headers never go out over other bytes.
import { closeSync, createReadStream, fstatSync, openSync, read, readSync, type Stats } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join, relative } from 'node:path';
import { finished, Readable } from 'node:stream';
import type { LoadedBuild } from './build.ts';
import { previousDir } from '../../contract/core/layout.ts';

/** A listed file's bytes, ready to go: sent as a response's body, or let go (a HEAD). */
export interface Body {
  send(res: ServerResponse): void;
  drop(): void;
}

export interface HeldTree {
  /** The listed file at `abs`, from this tree's copy or the previous tree's; undefined when neither is. */
  open(abs: string): Body | undefined;
  /** Lets go of the descriptors once no response reads them (a number closed early could name another file). */
  close(): void;
}

const API_DOCUMENT = /^(api\/.+)\.json(\.gz|\.br)?$/;

export function holdTree(dir: string, build: LoadedBuild, stats: ReadonlyMap<string, Stats>): HeldTree {
  const inMemory = (abs: string): Buffer | undefined => {
    const m = API_DOCUMENT.exec(relative(dir, abs));
    const payload = m ? build.payloads.get(`/${m[1]}`) : undefined;
    if (!payload) return undefined;
    return m?.[2] === '.gz' ? payload.gz : m?.[2] === '.br' ? payload.br : payload.body;
  };
  const fds = new Map<string, number>();
  for (const [abs, listed] of stats) {
    if (inMemory(abs)) continue;
    const fd = openListed(abs, listed);
    if (fd !== undefined) fds.set(abs, fd);
  }
  let reading = 0;
  let closing = false;
  const closeIfIdle = () => {
    if (!closing || reading > 0) return;
    for (const fd of fds.values()) closeSync(fd);
    fds.clear();
  };
  const streamed = (fd: number, size: number): Body => ({
    send(res) {
      reading++;
      const stream = positionalStream(fd, size);
      finished(stream, () => {
        reading--;
        closeIfIdle();
      });
      pipeTo(stream, res);
    },
    drop: () => {},
  });
  return {
    open(abs) {
      const listed = stats.get(abs);
      if (!listed) return undefined;
      const bytes = inMemory(abs);
      if (bytes?.length === listed.size) return whole(bytes);
      const fd = fds.get(abs);
      if (fd !== undefined && isListed(fstatSync(fd), listed)) {
        if (listed.size > READ_AT_ONCE_MAX) return streamed(fd, listed.size);
        // One read from the page cache: far cheaper than a stream's reads through the thread pool.
        const copy = readWhole(fd, listed.size);
        if (copy) return whole(copy);
      }
      // Changed in place since the listing: the same file on disk (put back), else the previous tree's.
      for (const path of [abs, join(previousDir(dir), relative(dir, abs))]) {
        const found = openListed(path, listed);
        if (found !== undefined)
          return { send: (res) => pipeTo(createReadStream(path, { fd: found }), res), drop: () => closeSync(found) };
      }
      return undefined;
    },
    close() {
      closing = true;
      closeIfIdle();
    },
  };
}

/** A body already in memory. */
const whole = (bytes: Buffer): Body => ({ send: (res) => void res.end(bytes), drop: () => {} });

/** The first `size` bytes of an open file, read at once; undefined when they are not all there. */
function readWhole(fd: number, size: number): Buffer | undefined {
  const buf = Buffer.allocUnsafe(size);
  try {
    return readSync(fd, buf, 0, size, 0) === size ? buf : undefined;
  } catch {
    return undefined;
  }
}

/** A response's body from a stream; a read failing midway can only close the connection. */
function pipeTo(stream: Readable, res: ServerResponse): void {
  stream.once('error', () => res.destroy());
  res.once('close', () => stream.destroy());
  stream.pipe(res);
}

/** A descriptor of the file at `path` when it is the one listed, else undefined. */
function openListed(path: string, listed: Stats): number | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  if (isListed(fstatSync(fd), listed)) return fd;
  closeSync(fd);
  return undefined;
}

/**
 * Whether an opened file is the one listed: its size and modification time (to the millisecond). A publish
 * moves trees by renaming them, which keeps both, so the listed file still matches in the previous tree.
 */
function isListed(opened: Stats, listed: Stats): boolean {
  return opened.size === listed.size && opened.mtime.getTime() === listed.mtime.getTime();
}

const CHUNK = 64 * 1024;

/**
 * Files up to this size (the build's checksums.json, reports and indexes of a few hundred kB) are read in
 * one positioned read on the event loop, as the record store reads its pages; larger ones are streamed.
 */
const READ_AT_ONCE_MAX = 1024 * 1024;

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
