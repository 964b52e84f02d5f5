// AND and popcount over two bitsets with WebAssembly 128-bit SIMD, about ten times JavaScript's speed on the
// 262 kB bitsets of 2.1 M carriers. The ~300-byte module is assembled below from the core specification's
// instruction encodings, so no toolchain or binary file is involved; without SIMD the caller ANDs in JS.

const leb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
};
/** Signed LEB128, as i32.const takes its operand. */
const sleb = (n: number): number[] => {
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
};
const section = (id: number, body: number[]) => [id, ...leb(body.length), ...body];
const name = (s: string) => [...leb(s.length), ...Buffer.from(s, 'utf8')];

// Opcodes (WebAssembly core specification, binary format, §5.4).
const LOCAL_GET = 0x20;
const LOCAL_SET = 0x21;
const I32_CONST = 0x41;
const I32_ADD = 0x6a;
const I32_SHL = 0x74;
const I32_GE_U = 0x4f;
const I32_LT_U = 0x49;
const SELECT = 0x1b;
const BLOCK = 0x02;
const LOOP = 0x03;
const BR = 0x0c;
const BR_IF = 0x0d;
const END = 0x0b;
const VOID = 0x40;
const I32 = 0x7f;
const V128 = 0x7b;
const SIMD = 0xfd;
const V128_LOAD = [SIMD, 0x00, 4, 0]; // align 2^4, offset 0
const V128_STORE = [SIMD, 0x0b, 4, 0];
const V128_CONST_ZERO = [SIMD, 0x0c, ...new Array<number>(16).fill(0)];
const V128_AND = [SIMD, 0x4e];
const I8X16_POPCNT = [SIMD, 0x62];
const I8X16_ADD = [SIMD, 0x6e];
const V128_ANY_TRUE = [SIMD, 0x53];
const I16X8_EXTADD_PAIRWISE_I8X16_U = [SIMD, 0x7d];
const I32X4_EXTADD_PAIRWISE_I16X8_U = [SIMD, 0x7f];
const I32X4_ADD = [SIMD, ...leb(0xae)];
const I32X4_EXTRACT_LANE = (lane: number) => [SIMD, 0x1b, lane];

// Parameters 0-3 ($dst, $a, $b, $words), then locals 4 $i, 5 $end, 6 $stop (i32) and 7 $acc, 8 $v,
// 9 $bytes (v128). The population count is summed per byte lane ($bytes) for up to 31 blocks (8 bits a
// lane a block, so at most 248) and only then widened into $acc: two instructions a block instead of four.
const [DST, A, B, WORDS, I, END_AT, STOP, ACC, V, BYTES] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
const SPAN = 31 * 16;
const body = [
  ...[2, 3, I32, 3, V128], // three i32 locals, three v128 locals
  ...[LOCAL_GET, WORDS, I32_CONST, 2, I32_SHL, LOCAL_SET, END_AT],
  ...V128_CONST_ZERO,
  ...[LOCAL_SET, ACC],
  ...[BLOCK, VOID, LOOP, VOID],
  ...[LOCAL_GET, I, LOCAL_GET, END_AT, I32_GE_U, BR_IF, 1],
  // $stop = min($i + SPAN, $end)
  ...[
    LOCAL_GET,
    I,
    I32_CONST,
    ...sleb(SPAN),
    I32_ADD,
    LOCAL_GET,
    END_AT,
    LOCAL_GET,
    I,
    I32_CONST,
    ...sleb(SPAN),
    I32_ADD,
    LOCAL_GET,
    END_AT,
    I32_LT_U,
    SELECT,
    LOCAL_SET,
    STOP,
  ],
  ...V128_CONST_ZERO,
  ...[LOCAL_SET, BYTES],
  ...[LOOP, VOID],
  ...[LOCAL_GET, A, LOCAL_GET, I, I32_ADD, ...V128_LOAD],
  ...[LOCAL_GET, B, LOCAL_GET, I, I32_ADD, ...V128_LOAD],
  ...V128_AND,
  ...[LOCAL_SET, V],
  ...[LOCAL_GET, DST, LOCAL_GET, I, I32_ADD, LOCAL_GET, V, ...V128_STORE],
  ...[LOCAL_GET, BYTES, LOCAL_GET, V, ...I8X16_POPCNT, ...I8X16_ADD, LOCAL_SET, BYTES],
  ...[LOCAL_GET, I, I32_CONST, 16, I32_ADD, LOCAL_SET, I],
  ...[LOCAL_GET, I, LOCAL_GET, STOP, I32_LT_U, BR_IF, 0, END],
  ...[
    LOCAL_GET,
    ACC,
    LOCAL_GET,
    BYTES,
    ...I16X8_EXTADD_PAIRWISE_I8X16_U,
    ...I32X4_EXTADD_PAIRWISE_I16X8_U,
    ...I32X4_ADD,
    LOCAL_SET,
    ACC,
  ],
  ...[BR, 0, END, END],
  ...[LOCAL_GET, ACC, ...I32X4_EXTRACT_LANE(0)],
  ...[LOCAL_GET, ACC, ...I32X4_EXTRACT_LANE(1), I32_ADD],
  ...[LOCAL_GET, ACC, ...I32X4_EXTRACT_LANE(2), I32_ADD],
  ...[LOCAL_GET, ACC, ...I32X4_EXTRACT_LANE(3), I32_ADD],
  END,
];

// A second function finds where the result has bits again, so reading the first matches of a sparse AND
// skips its empty stretches 16 bytes at a time instead of a word at a time in JavaScript:
//
//   (func $nextBlock (param $p i32) (param $end i32) (result i32)
//     the first 16-byte block at or after $p (up to $end) with a bit set: its address, else $end or more)
const [P, END_OF] = [0, 1];
const nextBlock = [
  0, // no locals
  ...[BLOCK, VOID, LOOP, VOID],
  ...[LOCAL_GET, P, LOCAL_GET, END_OF, I32_GE_U, BR_IF, 1],
  ...[LOCAL_GET, P, ...V128_LOAD, ...V128_ANY_TRUE, BR_IF, 1],
  ...[LOCAL_GET, P, I32_CONST, 16, I32_ADD, LOCAL_SET, P],
  ...[BR, 0, END, END],
  ...[LOCAL_GET, P],
  END,
];

/** The module's bytes: it imports its memory as env.memory and exports andCount and nextBlock. */
export const BITSET_KERNEL_WASM = Uint8Array.from([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
  ...section(1, [2, 0x60, 4, I32, I32, I32, I32, 1, I32, 0x60, 2, I32, I32, 1, I32]),
  ...section(2, [1, ...name('env'), ...name('memory'), 0x02, 0x00, ...leb(1)]),
  ...section(3, [2, 0, 1]),
  ...section(7, [2, ...name('andCount'), 0x00, 0, ...name('nextBlock'), 0x00, 1]),
  ...section(10, [2, ...leb(body.length), ...body, ...leb(nextBlock.length), ...nextBlock]),
]);

export interface BitsetKernel {
  /** Room for one bitset, 16-byte aligned: the AND's result, and where a call leaves it. */
  readonly result: Int32Array;
  /**
   * A zeroed bitset in the module's memory, which `and` and `andInto` read where it is; undefined once
   * all the slots the kernel was made with are given out (a bitset made elsewhere is copied in first).
   */
  alloc(): Int32Array | undefined;
  /** result = a & b (each `words` long, padded with zeros); returns the number of bits result sets. */
  and(a: Int32Array, b: Int32Array): number;
  /** result &= b; returns the number of bits result sets. */
  andInto(b: Int32Array): number;
  /**
   * The first word of result at or after word `from` (a multiple of 4) in a block of 4 words with a bit
   * set: that block's first word; result.length or more when there is none.
   */
  nextSet(from: number): number;
}

/** The part of the WebAssembly JS API used here (the project's TypeScript libs do not declare it). */
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer };
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}

/**
 * A kernel for bitsets of `words` 32-bit words with `slots` of them in its own memory (alloc), so an AND
 * reads them in place; undefined without WebAssembly SIMD. Pages are reserved at once but cost nothing
 * until written.
 */
export function createBitsetKernel(words: number, slots = 0): BitsetKernel | undefined {
  const WebAssembly = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
  if (!WebAssembly?.validate(BITSET_KERNEL_WASM)) return undefined;
  // Whole 16-byte blocks; the padding stays zero, so it never sets a bit.
  const padded = Math.ceil(words / 4) * 4;
  const bytes = padded * 4;
  const memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(((2 + slots) * bytes) / 65_536)) });
  const instance = new WebAssembly.Instance(new WebAssembly.Module(BITSET_KERNEL_WASM), { env: { memory } });
  const andCount = instance.exports.andCount as (dst: number, a: number, b: number, words: number) => number;
  const nextBlock = instance.exports.nextBlock as (p: number, end: number) => number;
  const buffer = memory.buffer;
  const result = new Int32Array(buffer, 0, padded);
  const other = new Int32Array(buffer, bytes, padded);
  let given = 0;
  /** Where `bits` is in the memory, or -1 when it is elsewhere. */
  const at = (bits: Int32Array) => (bits.buffer === buffer ? bits.byteOffset : -1);
  return {
    result: result.subarray(0, words),
    alloc() {
      if (given === slots) return undefined;
      return new Int32Array(buffer, (2 + given++) * bytes, words);
    },
    and(a, b) {
      let pa = at(a);
      let pb = at(b);
      if (pa < 0) {
        result.set(a);
        pa = 0;
      }
      if (pb < 0) {
        other.set(b);
        pb = bytes;
      }
      return andCount(0, pa, pb, padded);
    },
    andInto(b) {
      let pb = at(b);
      if (pb < 0) {
        other.set(b);
        pb = bytes;
      }
      return andCount(0, 0, pb, padded);
    },
    nextSet(from) {
      return nextBlock(from * 4, bytes) >>> 2;
    },
  };
}
