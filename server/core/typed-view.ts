// Typed arrays over the bytes of a file read at start-up (little-endian, as the pipeline writes them, and as
// every machine Node runs on stores them). A view shares the Buffer's memory instead of copying it: tens of
// megabytes per index at full scale, read once. A Buffer whose offset is not a multiple of the element size
// (never the case for readFileSync's, which start at 0) is copied so the array is aligned.

export function u32View(buf: Buffer, byteStart = 0, length = (buf.length - byteStart) >>> 2): Uint32Array {
  const at = buf.byteOffset + byteStart;
  if (at % 4 === 0) return new Uint32Array(buf.buffer, at, length);
  const out = new Uint32Array(length);
  Buffer.from(out.buffer).set(buf.subarray(byteStart, byteStart + length * 4));
  return out;
}

export function f64View(buf: Buffer, byteStart: number, length: number): Float64Array {
  const at = buf.byteOffset + byteStart;
  if (at % 8 === 0) return new Float64Array(buf.buffer, at, length);
  const out = new Float64Array(length);
  Buffer.from(out.buffer).set(buf.subarray(byteStart, byteStart + length * 8));
  return out;
}
