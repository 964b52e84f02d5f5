// Lines kept on disk by a numeric key, read back in ascending key order: for what a build reads in one order
// (an input file's) and writes in another (its records', by key), at a size that must not sit in memory.
// Keys fall into buckets of 2^16 consecutive keys, each a file appended to from a buffer; reading walks the
// buckets in order and holds one in memory.
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BUCKET_BITS = 16;
const FLUSH_AT = 1 << 18;
/** Characters buffered over every bucket before all are written out: keys spread thin cannot fill memory. */
const BUFFERED_MAX = 1 << 25;

export class KeyedSpill {
  private dir: string | undefined;
  private readonly buffers = new Map<number, string>();
  private readonly written = new Set<number>();
  private loaded = -1;
  private current = new Map<number, string[]>();
  private last = -1;
  private lines = 0;
  private buffered = 0;

  /** `prefix`: the temporary folder's name, so a sweep can tell a dead build's folder (`<prefix><pid>-`). */
  constructor(private readonly prefix: string) {}

  get size(): number {
    return this.lines;
  }

  /** Adds a line (no line break in it) under `key`, a non-negative integer. */
  add(key: number, line: string): void {
    const b = key >>> BUCKET_BITS;
    const entry = `${key}\t${line}\n`;
    const buffered = `${this.buffers.get(b) ?? ''}${entry}`;
    this.lines++;
    this.buffered += entry.length;
    if (buffered.length >= FLUSH_AT) {
      this.flush(b, buffered);
      this.buffers.delete(b);
      this.buffered -= buffered.length;
    } else this.buffers.set(b, buffered);
    if (this.buffered >= BUFFERED_MAX) this.close();
  }

  private flush(b: number, text: string): void {
    this.dir ??= mkdtempSync(join(tmpdir(), `${this.prefix}${process.pid}-`));
    appendFileSync(join(this.dir, `${b}.tsv`), text);
    this.written.add(b);
  }

  /** Ends the writing: every buffer to its file. */
  close(): void {
    for (const [b, text] of this.buffers) this.flush(b, text);
    this.buffers.clear();
    this.buffered = 0;
  }

  /**
   * The lines under `key`, in the order they were added, or undefined. Keys are asked in ascending order;
   * each bucket is read once, when its first key is asked.
   */
  async linesOf(key: number): Promise<string[] | undefined> {
    if (key <= this.last) throw new Error(`lines asked out of order: key ${key} after ${this.last}`);
    this.last = key;
    const b = key >>> BUCKET_BITS;
    if (b !== this.loaded) {
      this.loaded = b;
      this.current = new Map();
      if (this.dir && this.written.has(b)) {
        const text = await readFile(join(this.dir, `${b}.tsv`), 'utf8');
        let start = 0;
        while (start < text.length) {
          const tab = text.indexOf('\t', start);
          const end = text.indexOf('\n', tab);
          const k = Number(text.slice(start, tab));
          const line = text.slice(tab + 1, end);
          const list = this.current.get(k);
          if (list) list.push(line);
          else this.current.set(k, [line]);
          start = end + 1;
        }
      }
    }
    const found = this.current.get(key);
    this.current.delete(key);
    return found;
  }

  /** Removes the folder; safe to call twice. */
  dispose(): void {
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
    this.buffers.clear();
    this.current = new Map();
  }
}
