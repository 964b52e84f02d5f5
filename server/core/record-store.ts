// Reads a record store (pipeline/core/record-store.ts): the index is loaded into typed arrays at start-up
// (12 bytes a record), each lookup is a binary search plus one positioned read of the data file, so the
// records never enter the JS heap and start-up does not grow with their size. A store small enough and
// read often enough (many records per request) can be read into memory in the background after start-up
// with preload(): lookups then slice a Buffer instead of making a system call each.
import { closeSync, fstatSync, openSync, read, readSync } from 'node:fs';
import { promisify } from 'node:util';
import { offsetsStart, RECORD_STORE_MAGIC } from '../../pipeline/core/record-store.ts';
import { f64View, u32View } from './typed-view.ts';
import { indexOfSorted } from '../../pipeline/core/sorted.ts';
import { DataError, type LoadedBuild } from './build.ts';

const readAsync = promisify(read);
/** Bytes per background read of preload(): large enough to be quick, small enough to share the disk. */
const PRELOAD_CHUNK = 16 * 1024 * 1024;

export class RecordStore {
  /** The whole data file, once preload() has read it. */
  private data: Buffer | undefined;
  private closed = false;

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
  static open(build: LoadedBuild, relPath: string): RecordStore {
    const idx = build.readBuffer(`${relPath}.idx`);
    const path = build.pathOf(`${relPath}.dat`);
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch {
      throw new DataError(`${path} is missing: the build is incomplete`);
    }
    try {
      return RecordStore.over({ fd, index: idx }, relPath, true, path);
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
    if (idx.length < 16 || idx.toString('latin1', 0, 8) !== RECORD_STORE_MAGIC) throw new DataError(`${name}.idx is not a record store index`);
    const count = idx.readUInt32LE(8);
    const start = offsetsStart(count);
    if (idx.length !== start + (count + 1) * 8) throw new DataError(`${name}.idx has the wrong size for ${count} records`);
    const keys = u32View(idx, 16, count);
    const offsets = f64View(idx, start, count + 1);
    if (fstatSync(parts.fd).size !== offsets[count]) throw new DataError(`${dataPath} has the wrong size: the build is damaged`);
    return new RecordStore(parts.fd, idx, keys, offsets, owned);
  }

  /**
   * Gives up the store for another thread to open with over(): its index and its open data file, which the
   * caller now closes. This store can no longer be read.
   */
  release(): { fd: number; index: Buffer } {
    if (this.closed) throw new Error('a closed record store cannot be released');
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
      const { bytesRead } = await readAsync(this.fd, buf, at, Math.min(PRELOAD_CHUNK, size - at), at);
      if (bytesRead === 0) throw new DataError(`a record store ended at byte ${at} of ${size}: the build is damaged`);
      at += bytesRead;
    }
    if (this.closed) return false;
    this.data = buf;
    return true;
  }

  get(key: number): Buffer | undefined {
    const i = this.indexOf(key);
    if (i < 0) return undefined;
    const start = this.offsets[i]!;
    const length = this.offsets[i + 1]! - start;
    if (this.data) return this.data.subarray(start, start + length);
    const buf = Buffer.allocUnsafe(length);
    readSync(this.fd, buf, 0, length, start);
    return buf;
  }

  /**
   * `head`, then the records at `positions` (positions in key order, 0 ≤ p < count) separated by commas,
   * then `tail`, as one Buffer: each record's bytes are copied once, straight from memory or the disk,
   * with no string or Buffer made per record. The join of JSON records as a JSON array.
   */
  joinAt(positions: ArrayLike<number>, head: string, tail: string): Buffer {
    const offsets = this.offsets;
    const headLength = Buffer.byteLength(head);
    let total = headLength + Buffer.byteLength(tail) + Math.max(0, positions.length - 1);
    for (let k = 0; k < positions.length; k++) {
      const p = positions[k]!;
      if (!(p >= 0 && p < this.keys.length)) throw new RangeError(`no record at position ${p} of ${this.keys.length}`);
      total += offsets[p + 1]! - offsets[p]!;
    }
    const out = Buffer.allocUnsafe(total);
    let at = out.write(head, 0, 'utf8');
    const data = this.data;
    for (let k = 0; k < positions.length; k++) {
      if (k > 0) out[at++] = 0x2c; // ,
      const p = positions[k]!;
      const start = offsets[p]!;
      const end = offsets[p + 1]!;
      if (data) {
        data.copy(out, at, start, end);
        at += end - start;
      } else {
        readSync(this.fd, out, at, end - start, start);
        at += end - start;
      }
    }
    out.write(tail, at, 'utf8');
    return out;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsFd) closeSync(this.fd);
  }
}
