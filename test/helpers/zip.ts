// Writes small zip archives for tests (PKWARE APPNOTE 6.3.10): stored or deflated entries, optionally in the
// ZIP64 form (sizes and offsets in ZIP64 extra fields, a ZIP64 end record and locator), the way large
// publisher archives are written.
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipInput {
  name: string;
  data: Buffer | string;
  /** 0 stored, 8 deflate (default). */
  method?: 0 | 8;
  /** General purpose flags to add (0x1: encrypted). */
  flags?: number;
}

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
}
function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
}
function u64(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
}

export function toZip(inputs: readonly ZipInput[], options: { zip64?: boolean } = {}): Buffer {
  const zip64 = options.zip64 ?? false;
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const input of inputs) {
    const data = Buffer.isBuffer(input.data) ? input.data : Buffer.from(input.data, 'utf8');
    const method = input.method ?? 8;
    const body = method === 8 ? deflateRawSync(data) : data;
    const name = Buffer.from(input.name, 'utf8');
    const flags = 0x800 | (input.flags ?? 0);
    const crc = crc32(data);
    const size32 = zip64 ? 0xffffffff : data.length;
    const comp32 = zip64 ? 0xffffffff : body.length;
    const localExtra = zip64
      ? Buffer.concat([u16(0x0001), u16(16), u64(data.length), u64(body.length)])
      : Buffer.alloc(0);
    const local = Buffer.concat([
      u32(0x04034b50),
      u16(zip64 ? 45 : 20),
      u16(flags),
      u16(method),
      u16(0),
      u16(0x21),
      u32(crc),
      u32(comp32),
      u32(size32),
      u16(name.length),
      u16(localExtra.length),
      name,
      localExtra,
      body,
    ]);
    const centralExtra = zip64
      ? Buffer.concat([u16(0x0001), u16(24), u64(data.length), u64(body.length), u64(offset)])
      : Buffer.alloc(0);
    centrals.push(
      Buffer.concat([
        u32(0x02014b50),
        u16(45),
        u16(zip64 ? 45 : 20),
        u16(flags),
        u16(method),
        u16(0),
        u16(0x21),
        u32(crc),
        u32(comp32),
        u32(size32),
        u16(name.length),
        u16(centralExtra.length),
        u16(0),
        u16(0),
        u16(0),
        u32(0),
        u32(zip64 ? 0xffffffff : offset),
        name,
        centralExtra,
      ]),
    );
    locals.push(local);
    offset += local.length;
  }
  const cd = Buffer.concat(centrals);
  const parts = [...locals, cd];
  if (zip64) {
    const endAt = offset + cd.length;
    parts.push(
      Buffer.concat([
        u32(0x06064b50),
        u64(44),
        u16(45),
        u16(45),
        u32(0),
        u32(0),
        u64(inputs.length),
        u64(inputs.length),
        u64(cd.length),
        u64(offset),
      ]),
    );
    parts.push(Buffer.concat([u32(0x07064b50), u32(0), u64(endAt), u32(1)]));
    parts.push(
      Buffer.concat([
        u32(0x06054b50),
        u16(0),
        u16(0),
        u16(0xffff),
        u16(0xffff),
        u32(0xffffffff),
        u32(0xffffffff),
        u16(0),
      ]),
    );
  } else {
    parts.push(
      Buffer.concat([
        u32(0x06054b50),
        u16(0),
        u16(0),
        u16(inputs.length),
        u16(inputs.length),
        u32(cd.length),
        u32(offset),
        u16(0),
      ]),
    );
  }
  return Buffer.concat(parts);
}
