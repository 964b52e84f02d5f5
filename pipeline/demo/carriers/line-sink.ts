import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Rows are encoded straight into 1 MB buffers and handed to the stream when one fills: strings die young (no
 * list of pending lines survives into the old generation), and each write is one large syscall.
 */
const CHUNK_BYTES = 1 << 20;
/** No row comes near this; a UTF-8 character is at most 3 bytes per UTF-16 unit. */
const MAX_LINE_CHARS = 16 * 1024;

export class LineSink {
  private buf = Buffer.allocUnsafe(CHUNK_BYTES);
  private pos = 0;
  private ready: Buffer[] = [];
  private error: Error | undefined;
  rows = 0;

  constructor(
    readonly path: string,
    private readonly stream: WriteStream,
  ) {
    stream.on('error', (e) => (this.error ??= e));
  }

  static async open(path: string, header: string): Promise<LineSink> {
    await mkdir(dirname(path), { recursive: true });
    const sink = new LineSink(path, createWriteStream(path));
    sink.append(header);
    return sink;
  }

  /** Appends one row (its line end included). */
  push(line: string): void {
    this.append(line);
    this.rows++;
  }

  private append(text: string): void {
    if (text.length > MAX_LINE_CHARS) throw new Error(`demo: a ${text.length}-character row for ${this.path}`);
    if (CHUNK_BYTES - this.pos < text.length * 3) {
      this.ready.push(this.buf.subarray(0, this.pos));
      this.buf = Buffer.allocUnsafe(CHUNK_BYTES);
      this.pos = 0;
    }
    this.pos += this.buf.write(text, this.pos, 'utf8');
  }

  /** At least one full chunk waits for the stream. */
  get full(): boolean {
    return this.ready.length > 0;
  }

  async flush(): Promise<void> {
    for (const chunk of this.ready.splice(0)) {
      if (this.error) throw this.error;
      if (!this.stream.write(chunk)) {
        if (this.error) throw this.error;
        await once(this.stream, 'drain');
      }
    }
  }

  async close(): Promise<void> {
    if (this.pos > 0) this.ready.push(this.buf.subarray(0, this.pos));
    this.pos = 0;
    await this.flush();
    this.stream.end();
    if (!this.stream.writableFinished) await once(this.stream, 'finish');
    if (this.error) throw this.error;
  }

  destroy(): void {
    this.stream.destroy();
  }
}
