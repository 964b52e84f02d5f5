// Reads a record store (contract/core/record-store.ts): the index in typed arrays at start-up (12 bytes a
// record), each lookup a binary search and one positioned read, so records never enter the heap and start-up
// does not grow with them. preload() reads a small, busy store into memory in the background.
import { closeSync, fstatSync, openSync, read, readSync } from 'node:fs';
import { promisify } from 'node:util';
import { offsetsStart, RECORD_STORE_MAGIC } from '../../contract/core/record-store.ts';
import { f64View, u32View } from './typed-view.ts';
import { indexOfSorted } from '../../contract/core/sorted.ts';
import { DataError, type LoadedBuild } from './build.ts';

const readAsync = promisify(read);
/** Bytes per background read of preload(): large enough to be quick, small enough to share the disk. */
const PRELOAD_CHUNK = 16 * 1024 * 1024;
/** log2 of the page size read() keeps track of: the system's page (4 KiB on x86-64 and most arm64 Linux). */
const PAGE_SHIFT = 12;

/** When read() takes the thread pool (tests set their own). */
export interface ReadTiming {
  /**
   * A synchronous read of pages not read before that takes longer than this went to the disk, most likely
   * (from the page cache, a few kilobytes take microseconds); default 0.2 ms.
   */
  slowReadMs: number;
  /**
   * How many of the last 8 synchronous reads of pages not read before must have been slow to send such
   * reads to the pool; default 3. One is not enough: on a busy machine a read of the page cache is now and
   * then slow too, because the system gave the CPU to another thread meanwhile (2 to 5 of 60,000 under
   * the bench's cold-profile load, with every page cached). A disk makes most reads of new pages slow.
   */
  slowReads: number;
  /** For how long after that the reads of pages not read before go to the thread pool; default 10 s. */
  pooledForMs: number;
}

const READ_TIMING: ReadTiming = { slowReadMs: 0.2, slowReads: 3, pooledForMs: 10_000 };

/** A record the data file no longer holds whole (it was cut short after the store was opened). */
function shortRead(start: number, bytesRead: number): DataError {
  return new DataError(`a record store ended inside a record at byte ${start + bytesRead}: the build is damaged`);
}

/**
 * The history of the last 8 synchronous reads of new pages (a bit each, 1 for a slow one, newest lowest)
 * after one more, and whether `slowReads` of them were slow: then reads go to the pool, and the history
 * starts again.
 */
export function nextReadHistory(
  history: number,
  slow: boolean,
  slowReads: number,
): { history: number; toPool: boolean } {
  const next = ((history << 1) | (slow ? 1 : 0)) & 0xff;
  let slowOnes = 0;
  for (let bits = next; bits !== 0; bits &= bits - 1) slowOnes++;
  return slowOnes >= slowReads ? { history: 0, toPool: true } : { history: next, toPool: false };
}

/** Marks pages `first` to `last` as read in a bitset of pages. */
function markRead(pages: Int32Array, first: number, last: number): void {
  for (let p = first; p <= last; p++) pages[p >>> 5]! |= 1 << (p & 31);
}

export class RecordStore {
  /** The whole data file, once preload() has read it. */
  private data: Buffer | undefined;
  private closed = false;
  /** A bit per page of the data file that read() has read: made on its first use (N / 32 KiB bytes). */
  private readPages: Int32Array | undefined;
  /**
   * Reads on the thread pool not done yet: close() leaves the file open until they are, so a read never
   * meets a descriptor number that the process has given to another file meanwhile.
   */
  private inFlight = 0;
  /** joinAt()'s early reads of its records' bytes, kept so that they are not optimized away. */
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: a sink for joinAt()'s early reads, never read
  private touched = 0;
  /** Until when (performance.now()) reads of pages not read before go to the thread pool. */
  private pooledUntil = 0;
  /** A bit for each of the last 8 synchronous reads of pages not read before: 1 for a slow one, newest lowest. */
  private lastReads = 0;
  private timing: ReadTiming = READ_TIMING;

  private constructor(
    private fd: number,
    private readonly index: Buffer,
    private readonly keys: Uint32Array,
    private readonly offsets: Float64Array,
    /** False for a store over a descriptor lent by another thread (release()): close() leaves it open. */
    private readonly ownsFd: boolean,
  ) {}

  /**
   * The index is verified against checksums.json; the data file (gigabytes at full scale) is checked by size
   * only, so start-up stays fast; the build that wrote it hashed it.
   */
  static open(build: LoadedBuild, relPath: string, timing?: Partial<ReadTiming>): RecordStore {
    const idx = build.readBuffer(`${relPath}.idx`);
    const path = build.pathOf(`${relPath}.dat`);
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch {
      throw new DataError(`${path} is missing: the build is incomplete`);
    }
    try {
      const store = RecordStore.over({ fd, index: idx }, relPath, true, path);
      if (timing) store.timing = { ...READ_TIMING, ...timing };
      return store;
    } catch (err) {
      closeSync(fd);
      throw err;
    }
  }

  /**
   * A store over an index already verified and an open data file: one that release() gave up, in the thread
   * it was handed to. `owned` false: the descriptor stays open when this store closes (its lender closes it).
   */
  static over(parts: { fd: number; index: Buffer }, name: string, owned = true, dataPath = `${name}.dat`): RecordStore {
    const idx = parts.index;
    if (idx.length < 16 || idx.toString('latin1', 0, 8) !== RECORD_STORE_MAGIC)
      throw new DataError(`${name}.idx is not a record store index`);
    const count = idx.readUInt32LE(8);
    const start = offsetsStart(count);
    if (idx.length !== start + (count + 1) * 8)
      throw new DataError(`${name}.idx has the wrong size for ${count} records`);
    const keys = u32View(idx, 16, count);
    const offsets = f64View(idx, start, count + 1);
    if (fstatSync(parts.fd).size !== offsets[count])
      throw new DataError(`${dataPath} has the wrong size: the build is damaged`);
    return new RecordStore(parts.fd, idx, keys, offsets, owned);
  }

  /**
   * Gives up the store for another thread to open with over(): its index and its open data file, which the
   * caller now closes. This store can no longer be read.
   */
  release(): { fd: number; index: Buffer } {
    if (this.closed) throw new Error('a closed record store cannot be released');
    if (this.inFlight > 0) throw new Error('a record store cannot be released while it reads');
    this.closed = true;
    const fd = this.fd;
    this.fd = -1;
    this.data = undefined;
    return { fd, index: this.index };
  }

  get count(): number {
    return this.keys.length;
  }

  /** Position of `key` in the index, or -1. */
  indexOf(key: number): number {
    return indexOfSorted(this.keys, key);
  }

  /** True once preload() has read the data file: get() no longer touches the disk. */
  get inMemory(): boolean {
    return this.data !== undefined;
  }

  /**
   * Reads the data file into memory in chunks on the thread pool, so the event loop keeps serving (from
   * the disk) meanwhile. Does nothing for a file over `maxBytes`. Resolves true once lookups use memory.
   */
  async preload(maxBytes: number): Promise<boolean> {
    const size = this.offsets[this.keys.length]!;
    if (this.data || size > maxBytes) return this.data !== undefined;
    const buf = Buffer.allocUnsafeSlow(size);
    for (let at = 0; at < size; ) {
      if (this.closed) return false;
      const bytesRead = await this.readPooled(buf, at, Math.min(PRELOAD_CHUNK, size - at), at);
      if (bytesRead === 0) throw new DataError(`a record store ended at byte ${at} of ${size}: the build is damaged`);
      at += bytesRead;
    }
    if (this.closed) return false;
    this.data = buf;
    return true;
  }

  /**
   * The record of `key`, as get() gives it, without holding up the event loop on the disk for more than one
   * read in a while: a record on pages this store has read is read at once; on a page it has not read, at
   * once too, unless such reads were slow lately (ReadTiming): then on the thread pool. A read of a closed
   * store is rejected; one under way when the store is closed is done first. Never throws: a failed read
   * is a rejected promise.
   *
   * At once while reads hit the page cache (microseconds, less than the thread pool's round trip); once three of
   * the last eight reads of new pages were slow (the disk: 2.1 M profiles are 6.4 GB), reads of new pages go to
   * the thread pool for a while, so one disk read never holds up every request.
   */
  read(key: number): Promise<Buffer | undefined> {
    const i = this.indexOf(key);
    if (i < 0) return Promise.resolve(undefined);
    const start = this.offsets[i]!;
    const length = this.offsets[i + 1]! - start;
    if (this.data) return Promise.resolve(this.data.subarray(start, start + length));
    if (this.closed) return Promise.reject(new Error('the record store is closed'));
    let pages = this.readPages;
    if (pages === undefined) {
      pages = new Int32Array(Math.ceil((this.offsets[this.keys.length]! + 1) / 2 ** (PAGE_SHIFT + 5)));
      this.readPages = pages;
    }
    // Page numbers stay below 2^31 for files under 8 TiB: the bitwise operators below are exact.
    const first = Math.floor(start / 2 ** PAGE_SHIFT);
    const last = Math.floor((start + Math.max(length, 1) - 1) / 2 ** PAGE_SHIFT);
    let known = true;
    for (let p = first; p <= last && known; p++) known = ((pages[p >>> 5]! >>> (p & 31)) & 1) === 1;
    const buf = Buffer.allocUnsafe(length);
    const now = known ? 0 : performance.now();
    if (known || now >= this.pooledUntil) {
      let bytesRead: number;
      try {
        bytesRead = readSync(this.fd, buf, 0, length, start);
      } catch (err) {
        return Promise.reject(err);
      }
      if (bytesRead !== length) return Promise.reject(shortRead(start, bytesRead));
      if (!known) {
        const done = performance.now();
        this.countRead(done, done - now > this.timing.slowReadMs);
        markRead(pages, first, last);
      }
      return Promise.resolve(buf);
    }
    return this.readPooled(buf, 0, length, start).then((bytesRead) => {
      if (bytesRead !== length) throw shortRead(start, bytesRead);
      markRead(pages, first, last);
      return buf;
    });
  }

  /** Counts a synchronous read of new pages that ended at `done`; see ReadTiming.slowReads. */
  private countRead(done: number, slow: boolean): void {
    const next = nextReadHistory(this.lastReads, slow, this.timing.slowReads);
    this.lastReads = next.history;
    if (next.toPool) this.pooledUntil = done + this.timing.pooledForMs;
  }

  /** A positioned read on the thread pool, counted in `inFlight`; the number of bytes read. */
  private async readPooled(buf: Buffer, at: number, length: number, position: number): Promise<number> {
    this.inFlight++;
    try {
      return (await readAsync(this.fd, buf, at, length, position)).bytesRead;
    } finally {
      this.inFlight--;
      if (this.closed) this.closeFileIfIdle();
    }
  }

  get(key: number): Buffer | undefined {
    const i = this.indexOf(key);
    if (i < 0) return undefined;
    const start = this.offsets[i]!;
    const length = this.offsets[i + 1]! - start;
    if (this.data) return this.data.subarray(start, start + length);
    const buf = Buffer.allocUnsafe(length);
    const bytesRead = readSync(this.fd, buf, 0, length, start);
    if (bytesRead !== length) throw shortRead(start, bytesRead);
    return buf;
  }

  /**
   * `head`, then the records at `positions` (positions in key order, 0 ≤ p < count) separated by commas,
   * then `tail`, as one Buffer: each record's bytes are copied once, straight from memory or the disk,
   * with no string or Buffer made per record. The join of JSON records as a JSON array.
   */
  joinAt(positions: ArrayLike<number>, head: string, tail: string): Buffer {
    const offsets = this.offsets;
    const data = this.data;
    const headLength = Buffer.byteLength(head);
    let total = headLength + Buffer.byteLength(tail) + Math.max(0, positions.length - 1);
    // In memory, each record's first, middle and last bytes are read here, before any is copied: the records
    // lie at random in hundreds of megabytes, and these reads do not wait for each other, so their cache and
    // TLB misses overlap, where each copy waited for its own. At 2.1 M carriers (260 MB of search records)
    // this took a join of 21 records from 11 to 5.5 us.
    let touched = 0;
    for (let k = 0; k < positions.length; k++) {
      const p = positions[k]!;
      if (!(p >= 0 && p < this.keys.length)) throw new RangeError(`no record at position ${p} of ${this.keys.length}`);
      const start = offsets[p]!;
      const end = offsets[p + 1]!;
      total += end - start;
      if (data && end > start) touched |= data[start]! | data[start + ((end - start) >>> 1)]! | data[end - 1]!;
    }
    this.touched = touched;
    const out = Buffer.allocUnsafe(total);
    let at = out.write(head, 0, 'utf8');
    for (let k = 0; k < positions.length; k++) {
      if (k > 0) out[at++] = 0x2c; // ,
      const p = positions[k]!;
      const start = offsets[p]!;
      const end = offsets[p + 1]!;
      if (data) {
        data.copy(out, at, start, end);
        at += end - start;
      } else {
        const bytesRead = readSync(this.fd, out, at, end - start, start);
        if (bytesRead !== end - start) throw shortRead(start, bytesRead);
        at += end - start;
      }
    }
    out.write(tail, at, 'utf8');
    return out;
  }

  /** Closes the data file, once the reads under way on the thread pool are done. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.closeFileIfIdle();
  }

  private closeFileIfIdle(): void {
    if (this.inFlight > 0 || this.fd < 0) return;
    if (this.ownsFd) closeSync(this.fd);
    this.fd = -1;
  }
}
