// The request log: one JSON line per request on stdout (shared/contracts/common.md), written by pino to a
// destination that gathers lines and writes them in a few system calls, not one a request.
import pino, { type Logger } from 'pino';

export interface LogLine {
  method: string;
  path: string;
  status: number;
  ms: number;
  service: string;
  [key: string]: unknown;
}

/** Bytes gathered before a write; a quiet server still writes within FLUSH_MS. */
const MIN_WRITE = 4096;
const FLUSH_MS = 1000;

/** pino's destination in buffer mode, which takes Buffers (sonic-boom's types know only its text mode). */
type BufferDestination = Omit<ReturnType<typeof pino.destination>, 'write'> & { write(chunk: Buffer): boolean };

let destination: BufferDestination | undefined;
let logger: Logger | undefined;

function open(): Logger {
  // Written synchronously once 4 KB are gathered: handing a write to libuv's thread pool costs several
  // times the write itself. Buffer mode: text mode joins the gathered lines into one string on every line.
  // Both measured in bench/README.md (the request log's cost).
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
  // base: null keeps pid and hostname out: a line holds the contract's keys, pino's level and time.
  return pino({ base: null }, { write: (line: string) => dest.write(Buffer.from(line)) });
}

/** createApp's default log, and npm start's; the destination is made on the first line, so LOG=off makes none. */
export function requestLog(line: LogLine): void {
  if (!logger) logger = open();
  logger.info(line);
}

/** Writes the lines still gathered, synchronously: on a clean stop no line is lost. */
export function flushRequestLog(): void {
  destination?.flushSync();
}
