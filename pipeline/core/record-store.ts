// Writes a record store (its format: contract/core/record-store.ts) through the sink.
import { offsetsStart, RECORD_STORE_MAGIC } from '../../contract/core/record-store.ts';
import type { Sink, SinkStream } from './sink.ts';

export interface RecordStoreWriter {
  /** Adds a record; keys must come in strictly ascending order. */
  add(key: number, body: Uint8Array): Promise<void>;
  readonly count: number;
  close(): Promise<void>;
}

export async function openRecordStoreWriter(sink: Sink, relPath: string): Promise<RecordStoreWriter> {
  const data: SinkStream = await sink.openStream(`${relPath}.dat`);
  let keys = new Uint32Array(1024);
  let offsets = new Float64Array(1025);
  let count = 0;
  let last = -1;
  return {
    get count() {
      return count;
    },
    async add(key, body) {
      if (!Number.isInteger(key) || key < 0 || key > 0xffffffff)
        throw new Error(`record key ${key} is not a 32-bit unsigned integer`);
      if (key <= last) throw new Error(`record keys must ascend: ${key} after ${last}`);
      last = key;
      if (count === keys.length) {
        const k = new Uint32Array(keys.length * 2);
        k.set(keys);
        keys = k;
        const o = new Float64Array(keys.length + 1);
        o.set(offsets);
        offsets = o;
      }
      keys[count] = key;
      offsets[count] = data.bytes;
      count++;
      await data.write(body);
    },
    async close() {
      offsets[count] = data.bytes;
      await data.close();
      const start = offsetsStart(count);
      const idx = Buffer.alloc(start + (count + 1) * 8);
      idx.write(RECORD_STORE_MAGIC, 0, 'latin1');
      idx.writeUInt32LE(count, 8);
      Buffer.from(keys.buffer, 0, count * 4).copy(idx, 16);
      Buffer.from(offsets.buffer, 0, (count + 1) * 8).copy(idx, start);
      const out = await sink.openStream(`${relPath}.idx`);
      await out.write(idx);
      await out.close();
    },
  };
}
