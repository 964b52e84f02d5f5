// Carrier search on a thread of its own: an uncached search costs as much CPU as the request itself, and on the
// event loop it held up every other request; here it uses the second core and the loop only parses, caches and
// answers. The main thread verifies the index as at any load, then transfers its memory and lends its files.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import type { LoadedBuild } from '../core/build.ts';
import { RecordStore } from '../core/record-store.ts';
import { NAME_INDEX, toNameKey, toStateKey } from '../../contract/carriers/name-index.ts';
import { NameIndex } from './search.ts';
import { DOCKETS, SEARCH_RECORDS } from '../../contract/carriers/layout.ts';
import { parseDocket, toDocketKey } from '../../contract/carriers/dockets.ts';

/** The files of the name index (pipeline/carriers/name-index.ts): every file of the build named so. */
const NAME_INDEX_PREFIX = 'index/names.';

/**
 * The search records (about 125 bytes a carrier, 260 MB at 2.1 M) are read into memory after start-up when
 * they are at most this size: a search answers up to 100 of them, and a positioned read each was most of
 * an uncached search's time. Larger stores stay on disk (and in the system's page cache).
 */
export const SEARCH_RECORDS_IN_MEMORY = 512 * 1024 * 1024;

/**
 * `123456`, `USDOT 123456`, `DOT#123456`, `US DOT # 123456`: a carrier number look-up (contract, "Search").
 * 1–8 digits, as carrier ids are. Each run of spaces is followed by a token that is not a space, so a long
 * run is read once (`dot\s*#?\s*` tried every split of it: quadratic).
 */
export const CARRIER_NUMBER = /^\s*(?:(?:u\.?\s*s\.?\s*)?dot\s*)?(?:#\s*)?(\d{1,8})\s*$/i;

export interface SearchData {
  names: NameIndex;
  results: RecordStore;
  /** Docket → carriers; undefined in a build without L&I inputs (or made before them). */
  dockets?: RecordStore;
}

/** What a search asks besides `q`: the page (`limit` results from `offset`) and the state, if any. */
export interface SearchPage {
  limit: number;
  offset: number;
  /** Two letters, any case (toStateKey); undefined: every state. */
  state?: string;
}

interface StoredResult {
  legal_name: string;
  dba_name: string | null;
  state: string | null;
}

/** GET /api/search's body, also the search_carrier tool's result. */
export function searchBody(data: SearchData, q: string, page: SearchPage): Buffer {
  const { limit, offset } = page;
  const state = page.state === undefined ? undefined : toStateKey(page.state);
  const stored = (dot: number) => JSON.parse(data.results.get(dot)!.toString('utf8')) as StoredResult;
  const number = CARRIER_NUMBER.exec(q);
  const docket = number ? undefined : parseDocket(q);
  let total: number;
  let records: number[];
  if (docket) {
    // Every carrier that held the docket, the current holder first: found ones only, in the state if asked.
    const held = data.dockets?.get(toDocketKey(docket));
    const dots = held ? (JSON.parse(held.toString('utf8')) as number[]) : [];
    const found = dots.filter(
      (dot) =>
        data.results.indexOf(dot) >= 0 &&
        (state === undefined || (state !== null && toStateKey(stored(dot).state) === state)),
    );
    total = found.length;
    records = found.slice(offset, offset + limit).map((dot) => data.results.indexOf(dot));
  } else if (number) {
    const dot = Number(number[1]);
    const at = data.results.indexOf(dot);
    const found = at >= 0 && (state === undefined || (state !== null && toStateKey(stored(dot).state) === state));
    total = found ? 1 : 0;
    records = found && offset === 0 ? [at] : [];
  } else {
    const isWholeName = (dot: number, key: string) => {
      const r = stored(dot);
      return toNameKey(r.legal_name) === key || (r.dba_name !== null && toNameKey(r.dba_name) === key);
    };
    const hit =
      state === null ? { total: 0, records: [] } : data.names.search(q, limit, isWholeName, { offset, state });
    total = hit.total;
    records = hit.records;
  }
  // The stored results are complete JSON objects: the response is their bytes, joined.
  const head = `{"query":${JSON.stringify(q)},"total":${total},"limit":${limit},"offset":${offset},"results":[`;
  return data.results.joinAt(records, head, ']}');
}

/**
 * What the thread is given: the index files' bytes by path, the open files of those it reads only when a
 * search needs them (LAZY_FILES), and the record store's index and open file.
 */
interface Handover {
  files: Record<string, Uint8Array>;
  lazy: Record<string, number>;
  results: { fd: number; index: Uint8Array };
  dockets?: { fd: number; index: Uint8Array };
}

/**
 * Index files the thread reads from disk at the first search that needs them, not at start: the ranks'
 * states (2 MB at 2.1 M carriers) wait for the first search with a state. They are verified at load like
 * every other file, and the thread is lent an open file, so a later publish that moves the build away
 * cannot pull them from under it.
 */
const LAZY_FILES: ReadonlySet<string> = new Set([NAME_INDEX.rankStates]);

/** The whole of an open file, from its first byte. */
function readWhole(fd: number): Buffer {
  const buf = Buffer.allocUnsafe(fstatSync(fd).size);
  for (let at = 0; at < buf.length; ) {
    const n = readSync(fd, buf, at, buf.length - at, at);
    if (n === 0) throw new Error(`a lent index file ended after ${at} of ${buf.length} bytes`);
    at += n;
  }
  return buf;
}

interface Job {
  id: number;
  q: string;
  page: SearchPage;
}

type Reply = { id: number; body: Uint8Array } | { id: number; error: string };

/**
 * The thread sends the bodies it has made when its batch is done, or sooner, after a search that ends at
 * least this long after the first unsent body was made: one message for several searches (a message costs
 * each side a few microseconds, about a tenth of a search), at the price of a short wait for the first.
 */
const REPLY_EVERY_MS = 0.25;

/** `buf`'s bytes in an ArrayBuffer of their own, which can be transferred (a small Buffer shares Node's pool). */
function ownBytes(buf: Buffer): Uint8Array {
  return buf.byteOffset === 0 && buf.byteLength === buf.buffer.byteLength
    ? new Uint8Array(buf.buffer, 0, buf.byteLength)
    : new Uint8Array(buf);
}

/** The thread's side: builds the index over what it was handed, then answers each batch of queries. */
export function serveSearches(): void {
  const port = parentPort;
  if (!port) throw new Error('serveSearches runs on a worker thread');
  const given = workerData as Handover;
  const files = new Map(
    Object.entries(given.files).map(([path, bytes]) => [
      path,
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    ]),
  );
  const names = new NameIndex({
    checksums: Object.fromEntries([...files.keys(), ...Object.keys(given.lazy)].map((path) => [path, ''])),
    readBuffer(path) {
      let buf = files.get(path);
      const fd = given.lazy[path];
      if (!buf && fd !== undefined) {
        // Once: the index keeps what it read. The file stays open until the thread ends (its owner closes it).
        buf = readWhole(fd);
        files.set(path, buf);
      }
      if (!buf) throw new Error(`${path} was not handed to the search thread`);
      return buf;
    },
  });
  const { fd, index } = given.results;
  const results = RecordStore.over(
    { fd, index: Buffer.from(index.buffer, index.byteOffset, index.byteLength) },
    SEARCH_RECORDS,
    false,
  );
  // In the background: until it is done, searches read their records from the disk.
  results
    .preload(SEARCH_RECORDS_IN_MEMORY)
    .catch((err: Error) => process.stderr.write(`[carriers] search records stay on disk: ${err.message}\n`));
  const dockets = given.dockets
    ? RecordStore.over(
        {
          fd: given.dockets.fd,
          index: Buffer.from(
            given.dockets.index.buffer,
            given.dockets.index.byteOffset,
            given.dockets.index.byteLength,
          ),
        },
        DOCKETS,
        false,
      )
    : undefined;
  const data: SearchData = { names, results, ...(dockets ? { dockets } : {}) };
  port.on('message', (jobs: Job[]) => {
    let replies: Reply[] = [];
    let transfer: ArrayBuffer[] = [];
    let since = performance.now();
    for (const job of jobs) {
      try {
        const body = ownBytes(searchBody(data, job.q, job.page));
        replies.push({ id: job.id, body });
        transfer.push(body.buffer as ArrayBuffer);
      } catch (err) {
        replies.push({ id: job.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
      }
      const now = performance.now();
      if (now - since >= REPLY_EVERY_MS) {
        port.postMessage(replies, transfer);
        replies = [];
        transfer = [];
        since = now;
      }
    }
    if (replies.length > 0) port.postMessage(replies, transfer);
  });
}

/**
 * What the thread runs: this module, or in the compiled server (server/start.mjs) the module compiled from
 * it beside the server's. From the TypeScript sources (tests, `npm run keys`) the thread loads them through
 * tsx's API: a worker does not take the loader the main thread was started with.
 */
function threadCode(): { code: string; entry: string; tsx?: string } {
  const self = import.meta.url;
  if (!self.endsWith('.ts')) {
    const entry = new URL('search-thread.mjs', self).href;
    return { entry, code: 'import(require("node:worker_threads").workerData.entry).then((m) => m.serveSearches())' };
  }
  // tsx's ES module API (its CommonJS one cannot load ES modules in a worker).
  const tsx = `file://${createRequire(self)
    .resolve('tsx/esm/api')
    .replace(/\.cjs$/, '.mjs')}`;
  return {
    entry: self,
    tsx,
    code: 'const { workerData: w } = require("node:worker_threads"); import(w.tsx).then((t) => t.tsImport(w.entry, w.entry)).then((m) => m.serveSearches())',
  };
}

/** An error the search thread reported: its stack, as the thread gave it. */
export class SearchThreadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SearchThreadError';
  }
}

/**
 * The main thread's side: one search thread over one build. `body()` answers as searchBody() would. A thread
 * that stops (a crash) fails the searches it had, and the next search starts another. close() ends the
 * thread once its searches are answered (a reload's old data, or the server closing).
 */
export class SearchThread {
  private worker: { thread: Worker; ids: Set<number> } | undefined;
  private readonly pending = new Map<number, { resolve: (body: Buffer) => void; reject: (err: Error) => void }>();
  private batch: Job[] = [];
  private nextId = 0;
  private closing = false;

  /** Starts the thread at once, so that its index is built before the first search. */
  constructor(private readonly build: LoadedBuild) {
    this.worker = this.start();
  }

  private start(): { thread: Worker; ids: Set<number> } {
    const files: Record<string, Uint8Array> = {};
    const lazy: Record<string, number> = {};
    const transfer: ArrayBuffer[] = [];
    const closeLazy = () => {
      for (const fd of Object.values(lazy)) closeSync(fd);
    };
    for (const path of Object.keys(this.build.checksums)) {
      if (!path.startsWith(NAME_INDEX_PREFIX)) continue;
      if (LAZY_FILES.has(path)) {
        // Read and verified here all the same, so a damaged build is refused at load.
        this.build.readBuffer(path);
        lazy[path] = openSync(this.build.pathOf(path), 'r');
        continue;
      }
      const bytes = ownBytes(this.build.readBuffer(path));
      files[path] = bytes;
      transfer.push(bytes.buffer as ArrayBuffer);
    }
    let lent: ReturnType<RecordStore['release']>;
    try {
      lent = RecordStore.open(this.build, SEARCH_RECORDS).release();
    } catch (err) {
      closeLazy();
      throw err;
    }
    const index = ownBytes(lent.index);
    transfer.push(index.buffer as ArrayBuffer);
    let docketsLent: ReturnType<RecordStore['release']> | undefined;
    try {
      if (this.build.has(`${DOCKETS}.idx`)) docketsLent = RecordStore.open(this.build, DOCKETS).release();
    } catch (err) {
      closeSync(lent.fd);
      closeLazy();
      throw err;
    }
    const dockets = docketsLent && { fd: docketsLent.fd, index: ownBytes(docketsLent.index) };
    if (dockets) transfer.push(dockets.index.buffer as ArrayBuffer);
    const closeLent = () => {
      closeSync(lent.fd);
      if (docketsLent) closeSync(docketsLent.fd);
    };
    const { code, entry, tsx } = threadCode();
    const handover: Handover & { entry: string; tsx?: string } = {
      files,
      lazy,
      results: { fd: lent.fd, index },
      ...(dockets ? { dockets } : {}),
      entry,
      tsx,
    };
    let thread: Worker;
    try {
      thread = new Worker(code, { eval: true, workerData: handover, transferList: transfer });
    } catch (err) {
      closeLent();
      closeLazy();
      throw err;
    }
    // The searches sent to this thread and not answered yet.
    const ids = new Set<number>();
    const worker = { thread, ids };
    // The thread never keeps the process running: the server's sockets do while it has searches to answer.
    thread.unref();
    thread.on('message', (replies: Reply[]) => {
      for (const reply of replies) {
        const waiting = this.pending.get(reply.id);
        if (!waiting) continue;
        this.pending.delete(reply.id);
        ids.delete(reply.id);
        if ('body' in reply)
          waiting.resolve(Buffer.from(reply.body.buffer, reply.body.byteOffset, reply.body.byteLength));
        else waiting.reject(new SearchThreadError(reply.error));
      }
      if (this.closing) this.stopIfIdle();
    });
    // 'error' (an uncaught exception in the thread) is followed by 'exit'.
    thread.on('error', (err) =>
      process.stderr.write(`[carriers] the search thread failed: ${err.stack ?? err.message}\n`),
    );
    thread.on('exit', () => {
      closeLent();
      closeLazy();
      if (this.worker === worker) this.worker = undefined;
      const stopped = new SearchThreadError('the search thread stopped before it answered');
      for (const id of ids) {
        this.pending.get(id)?.reject(stopped);
        this.pending.delete(id);
      }
    });
    return worker;
  }

  /** True while a thread is running (or starting). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /** The body of GET /api/search for `q` and `page`, made on the search thread. */
  body(q: string, page: SearchPage): Promise<Buffer> {
    // A thread that stopped (a crash, or close() with a request that outlived its data) is started again.
    this.worker ??= this.start();
    const id = this.nextId++;
    if (this.batch.length === 0) setImmediate(() => this.flush());
    this.batch.push({ id, q, page });
    this.worker.ids.add(id);
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  private flush(): void {
    const jobs = this.batch;
    this.batch = [];
    // The thread these were given to is the current one: a thread is only replaced once it has stopped
    // (its exit failed them) or after close() with nothing pending.
    if (jobs.length > 0) this.worker?.thread.postMessage(jobs);
  }

  private stopIfIdle(): void {
    if (!this.worker || this.worker.ids.size > 0 || this.batch.length > 0) return;
    // Ending a thread that already stopped is nothing to report.
    this.worker.thread.terminate().catch(() => undefined);
    this.worker = undefined;
  }

  /** Ends the thread once every search it has is answered. */
  close(): void {
    this.closing = true;
    this.stopIfIdle();
  }
}
