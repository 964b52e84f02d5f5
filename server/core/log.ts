// The request log: one JSON line per request on stdout (docs/contracts/common.md), written by pino to a
// destination that gathers lines and writes them in a few system calls, not one a request.
import pino from 'pino';

export interface LogLine {
  method: string;
  path: string;
  status: number;
  ms: number;
  service: string;
}

/** Bytes gathered before a write; a quiet server still writes within FLUSH_MS. */
const MIN_WRITE = 4096;
const FLUSH_MS = 1000;

/** pino's destination in buffer mode, which takes Buffers (sonic-boom's types know only its text mode). */
type BufferDestination = Omit<ReturnType<typeof pino.destination>, 'write'> & { write(chunk: Buffer): boolean };

let destination: BufferDestination | undefined;

function open(): BufferDestination {
  // Written synchronously once 4 KB are gathered: handing a write to libuv's thread pool costs several
  // times the write itself. Buffer mode: text mode joins the gathered lines into one string on every line.
  // Both measured in bench/HISTORY.md (the request log's cost).
  const dest = pino.destination({
    dest: 1,
    sync: true,
    minLength: MIN_WRITE,
    periodicFlush: FLUSH_MS,
    contentMode: 'buffer',
  }) as unknown as BufferDestination;
  destination = dest;
  // What is gathered at any exit; main.ts also writes it out on SIGTERM and SIGINT before exiting.
  process.once('exit', flushRequestLog);
  return dest;
}

/** Printable ASCII but `"` and backslash: its JSON string literal is the text in quotes. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const quote = (s: string) => (PLAIN.test(s) ? `"${s}"` : JSON.stringify(s));

/**
 * createApp's default log, and npm start's: pino's line (its `level` 30 and `time`, then the contract's keys),
 * written out by hand for a record whose keys are fixed, where building an object for pino to serialize cost
 * most of the log's time (bench/HISTORY.md). The destination is made on the first line, so LOG=off makes none.
 */
export function requestLog(line: LogLine): void {
  destination ??= open();
  destination.write(Buffer.from(toLogText(line, Date.now())));
}

/** One line of the log, as pino writes it: `level` 30 (info), `time` in ms, then the contract's keys. */
export function toLogText({ method, path, status, ms, service }: LogLine, time: number): string {
  return `{"level":30,"time":${time},"method":${quote(method)},"path":${quote(path)},"status":${status},"ms":${ms},"service":${quote(service)}}\n`;
}

/** Writes the lines still gathered, synchronously: on a clean stop no line is lost. */
export function flushRequestLog(): void {
  destination?.flushSync();
}
