// Reads a published record store (contract/core/record-store.ts) from first key to last, in buffered pieces,
// so a build can walk the previous build's millions of records beside its own without holding them.
import { open, readFile } from 'node:fs/promises';
import { offsetsStart, RECORD_STORE_MAGIC } from '../../contract/core/record-store.ts';

const CHUNK = 4 << 20;

export interface RecordCursor {
  /** The next record in key order, or undefined after the last. */
  next(): Promise<{ key: number; body: Buffer } | undefined>;
  close(): Promise<void>;
}

export async function openRecordCursor(path: string): Promise<RecordCursor> {
  const idx = await readFile(`${path}.idx`);
  if (idx.length < 16 || idx.toString('latin1', 0, 8) !== RECORD_STORE_MAGIC)
    throw new Error(`${path}.idx is not a record store index`);
  const count = idx.readUInt32LE(8);
  const start = offsetsStart(count);
  if (idx.length !== start + (count + 1) * 8) throw new Error(`${path}.idx has the wrong length for ${count} records`);
  const file = await open(`${path}.dat`, 'r');
  let buf = Buffer.alloc(0);
  let bufAt = 0;
  let i = 0;
  return {
    async next() {
      if (i >= count) return undefined;
      const key = idx.readUInt32LE(16 + i * 4);
      const from = idx.readDoubleLE(start + i * 8);
      const to = idx.readDoubleLE(start + (i + 1) * 8);
      if (!(to >= from)) throw new Error(`${path}.idx: record ${i} ends before it starts`);
      if (from < bufAt || to > bufAt + buf.length) {
        const size = Math.max(CHUNK, to - from);
        buf = Buffer.alloc(size);
        const { bytesRead } = await file.read(buf, 0, size, from);
        buf = buf.subarray(0, bytesRead);
        bufAt = from;
        if (to > bufAt + buf.length) throw new Error(`${path}.dat ends inside record ${i}`);
      }
      i++;
      return { key, body: buf.subarray(from - bufAt, to - bufAt) };
    },
    close: () => file.close(),
  };
}
