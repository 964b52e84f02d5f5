/**
 * The one CSV reader every pipeline uses: raw bytes → decoded text → RFC 4180 records → rows keyed by column
 * spec, plus a report (size, sha256, encoding, counts, issues). One streaming pass; memory stays bounded by the
 * read chunk plus one record, so multi-GB upstream files (FMCSA census, ~2M rows) stream.
 */
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import Papa from 'papaparse';

export type TextEncodingName = 'utf-8' | 'windows-1252';
export interface ColumnSpec {
  key: string;
  names: string[];
  required?: boolean;
}
export interface CsvIssue {
  record: number;
  kind: 'malformed' | 'undecodable';
  message: string;
}
export interface CsvReport {
  file: string;
  bytes: number;
  /** Hex sha256 of the raw bytes, BOM included. */
  sha256: string;
  encoding: TextEncodingName;
  /** A UTF-8 BOM was present; it is stripped from the header. */
  bom: boolean;
  header: string[];
  columns: Record<string, number>;
  unmatched: string[];
  /** rows + malformed. Record numbers also count blank records, so a number still locates its record. */
  records: number;
  rows: number;
  malformed: number;
  blank: number;
  /** Bytes replaced by U+FFFD. */
  undecodableBytes: number;
  /** At most 1000 kept; the counts above are exact. */
  issues: CsvIssue[];
}
export interface CsvProgress {
  bytesRead: number;
  bytes: number;
  rows: number;
}
export type RecordHandler = (fields: string[], error: string | undefined) => void;

/** Build-stopping problems: unreadable or empty file, no header, missing required column. */
export class CsvError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CsvError';
  }
}

const MAX_ISSUES = 1000;
const PROGRESS_INTERVAL_MS = 250;
/** Longest record accepted before it is taken for an unterminated quoted field (see createRecordParser). */
export const MAX_RECORD_CHARS = 4 * 1024 * 1024;
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const EMPTY = Buffer.alloc(0);

/**
 * WHATWG Encoding, index-windows-1252, bytes 0x80–0x9F: the only range where it differs from ISO-8859-1.
 * Mapped here because Node ≥ 20.18.3 decodes 'windows-1252' as Latin-1 (nodejs/node#60888, #56542).
 * The index maps 0x81, 0x8D, 0x8F, 0x90 and 0x9D to C1 controls; Microsoft's cp1252 leaves them unassigned.
 * An invisible C1 control inside a name would pass silently into every output, so they become U+FFFD and are
 * counted as undecodable instead: the report then shows the file is probably not cp1252 at all.
 */
const CP1252_80_9F =
  '\u20ac\ufffd\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\ufffd\u017d\ufffd' +
  '\ufffd\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\ufffd\u017e\u0178';

/** Unicode NFKD, combining marks stripped, lower case, each run of non-letters/digits one space, trimmed. */
export function normalizeHeader(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * Claims, for each spec in order, the first unclaimed column whose header matches one of its names. Federal
 * bilingual headers read "English / Français" and the French half gets reworded between vintages (ECCC GHGRP
 * "… / Émissions totales (tonnes éq. CO2) - excl. CO2bio"), so the part before the first " / " also matches.
 */
export function matchColumns(
  header: string[],
  specs: ColumnSpec[],
): { columns: Record<string, number>; missing: string[]; unmatched: string[]; repeated: string[] } {
  const full = header.map(normalizeHeader);
  const english = header.map((h) => {
    const slash = h.indexOf(' / ');
    return slash === -1 ? undefined : normalizeHeader(h.slice(0, slash));
  });
  const claimed = new Set<number>();
  const columns: Record<string, number> = {};
  const missing: string[] = [];
  // Headers of columns taken that a column left unread repeats: which one holds the data cannot be told.
  const repeated: string[] = [];
  for (const spec of specs) {
    const names = new Set(spec.names.map(normalizeHeader).filter((n) => n !== ''));
    const index = full.findIndex((h, i) => {
      const e = english[i];
      return !claimed.has(i) && (names.has(h) || (e !== undefined && names.has(e)));
    });
    if (index === -1) {
      if (spec.required === true) missing.push(spec.key);
      continue;
    }
    claimed.add(index);
    columns[spec.key] = index;
  }
  for (const index of claimed) {
    if (full.some((h, i) => !claimed.has(i) && h === full[index])) repeated.push(header[index]!);
  }
  return { columns, missing, unmatched: header.filter((_, i) => !claimed.has(i)), repeated };
}

/**
 * Length of the UTF-8 sequence at buf[i] per the WHATWG Encoding UTF-8 decoder (§8.1.1): > 0 valid length;
 * -n an invalid maximal subpart of n bytes (one U+FFFD); 0 a valid prefix cut off by the end of buf.
 */
function scanUtf8(buf: Uint8Array, i: number): number {
  const lead = buf[i]!;
  if (lead < 0x80) return 1;
  let need: number;
  let lower = 0x80;
  let upper = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) need = 1;
  else if (lead >= 0xe0 && lead <= 0xef) {
    need = 2;
    if (lead === 0xe0) lower = 0xa0; // overlong
    if (lead === 0xed) upper = 0x9f; // surrogates
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    need = 3;
    if (lead === 0xf0) lower = 0x90; // overlong
    if (lead === 0xf4) upper = 0x8f; // above U+10FFFF
  } else return -1;
  for (let k = 1; k <= need; k++) {
    const b = buf[i + k];
    if (b === undefined) return 0;
    if (b < lower || b > upper) return -k;
    lower = 0x80;
    upper = 0xbf;
  }
  return need + 1;
}

/** Index just past the last complete sequence: a sequence cut by the chunk boundary waits for the next chunk. */
function completeUtf8End(buf: Uint8Array): number {
  for (let p = buf.length - 1; p >= 0 && p >= buf.length - 3; p--) {
    const b = buf[p]!;
    if (b < 0x80) break;
    if (b >= 0xc0) return scanUtf8(buf, p) === 0 ? p : buf.length;
  }
  return buf.length;
}

/**
 * Streaming decoder that detects the encoding in the same pass: a UTF-8 BOM means UTF-8 (BOM stripped);
 * otherwise undecided while bytes are ASCII, then UTF-8 if the first non-ASCII byte starts a valid UTF-8
 * sequence, else windows-1252. Never re-reads; carries at most 3 bytes between chunks.
 */
export function createDecoder(): {
  write(chunk: Buffer): string;
  end(): string;
  readonly encoding: TextEncodingName;
  readonly bom: boolean;
  readonly undecodableBytes: number;
} {
  // ignoreBOM: the leading BOM is handled below; a U+FEFF anywhere else is content.
  const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let encoding: TextEncodingName | undefined;
  let bom = false;
  let bomChecked = false;
  let undecodableBytes = 0;
  let carry: Buffer = EMPTY;

  function repairUtf8(buf: Buffer): string {
    let out = '';
    let start = 0;
    for (let i = 0; i < buf.length; ) {
      const n = scanUtf8(buf, i);
      if (n > 0) {
        i += n;
        continue;
      }
      // Only called on complete input, so a cut-off prefix is a truncated sequence at end of file.
      const bad = n === 0 ? buf.length - i : -n;
      out += `${buf.toString('utf8', start, i)}\ufffd`;
      undecodableBytes += bad;
      i += bad;
      start = i;
    }
    return out + buf.toString('utf8', start);
  }

  function decodeUtf8(buf: Buffer, final: boolean): string {
    const end = final ? buf.length : completeUtf8End(buf);
    if (end < buf.length) carry = Buffer.from(buf.subarray(end));
    const body = buf.subarray(0, end);
    try {
      return strict.decode(body);
    } catch {
      return repairUtf8(body);
    }
  }

  function decodeCp1252(buf: Buffer): string {
    return buf.toString('latin1').replace(/[\x80-\x9f]/g, (c) => {
      const mapped = CP1252_80_9F[c.charCodeAt(0) - 0x80]!;
      if (mapped === '\ufffd') undecodableBytes++;
      return mapped;
    });
  }

  function decode(chunk: Buffer, final: boolean): string {
    let buf = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    carry = EMPTY;
    if (!bomChecked) {
      if (!final && buf.length < UTF8_BOM.length && UTF8_BOM.subarray(0, buf.length).equals(buf)) {
        carry = Buffer.from(buf);
        return '';
      }
      bomChecked = true;
      if (buf.subarray(0, UTF8_BOM.length).equals(UTF8_BOM)) {
        bom = true;
        encoding = 'utf-8';
        buf = buf.subarray(UTF8_BOM.length);
      }
    }
    if (encoding === undefined) {
      if (isAscii(buf)) return buf.toString('latin1');
      const first = buf.findIndex((b) => b >= 0x80);
      const n = scanUtf8(buf, first);
      if (n === 0 && !final) {
        carry = Buffer.from(buf.subarray(first));
        return buf.toString('latin1', 0, first);
      }
      encoding = n > 0 ? 'utf-8' : 'windows-1252';
    }
    return encoding === 'utf-8' ? decodeUtf8(buf, final) : decodeCp1252(buf);
  }

  return {
    write: (chunk) => decode(chunk, false),
    end: () => decode(EMPTY, true),
    get encoding() {
      return encoding ?? 'utf-8';
    },
    get bom() {
      return bom;
    },
    get undecodableBytes() {
      return undecodableBytes;
    },
  };
}

/**
 * Incremental RFC 4180 record splitter on papaparse's core parser: text in any pieces, whole records out.
 * Newline pinned to LF with one trailing CR trimmed, so CRLF and LF files parse alike (a quoted last field
 * ending in a bare CR loses it). A record over maxRecordChars (a stray quote, RFC 4180 §2.6) becomes an error
 * record and reading resumes at the line after its start, so memory stays bounded.
 */
export function createRecordParser(
  onRecord: RecordHandler,
  maxRecordChars = MAX_RECORD_CHARS,
): { write(text: string): void; end(): void } {
  const parser = new Papa.Parser({ delimiter: ',', newline: '\n', quoteChar: '"' });
  // Papaparse's fast mode splits on delimiters without a quote state machine, several times faster; it is
  // only right for text without quotes, so it is chosen per chunk (FMCSA's SMS files quote almost nothing).
  const fastParser = new Papa.Parser({ delimiter: ',', newline: '\n', quoteChar: '"', fastMode: true });
  let pending = '';
  let skippingLine = false;

  function parse(final: boolean): void {
    const quoted = pending.includes('"');
    if (quoted) {
      const fast = splitAllQuoted(pending, final);
      if (fast) {
        pending = fast.rest;
        for (const fields of fast.records) onRecord(fields, undefined);
        return;
      }
    }
    const result = (quoted ? parser : fastParser).parse(pending, 0, !final) as Papa.ParseResult<string[]>;
    const records = result.data;
    const errors = new Map<number, string>();
    for (const e of result.errors) {
      // An error on the unfinished last record is found again once the record is complete.
      if (e.row !== undefined && e.row < records.length && !errors.has(e.row)) errors.set(e.row, e.message);
    }
    pending = final ? '' : pending.slice(result.meta.cursor);
    records.forEach((fields, i) => {
      const last = fields[fields.length - 1];
      if (last?.endsWith('\r')) fields[fields.length - 1] = last.slice(0, -1);
      onRecord(fields, errors.get(i));
    });
  }

  return {
    write(text) {
      if (skippingLine) {
        const newline = text.indexOf('\n');
        if (newline === -1) return;
        text = text.slice(newline + 1);
        skippingLine = false;
      }
      pending += text;
      if (text.includes('\n')) parse(false);
      while (pending.length > maxRecordChars) {
        onRecord([], `record longer than ${maxRecordChars} characters (unterminated quoted field?)`);
        const newline = pending.indexOf('\n');
        skippingLine = newline === -1;
        pending = skippingLine ? '' : pending.slice(newline + 1);
        if (!skippingLine) parse(false);
      }
    },
    end() {
      // Complete records first, so a final line end does not yield an empty last record.
      if (pending !== '') parse(false);
      if (pending !== '') parse(true);
    },
  };
}

/**
 * FMCSA's census txt quotes every field (`"123","ACME","","A"`), which sends papaparse down its slow
 * quote-aware path. When every complete line of a chunk has that shape (starts and ends with a quote, and
 * splitting its inside on `","` leaves no quote in any field), the split is exactly the RFC 4180 parse;
 * any other line (an escaped quote, a quoted line break, minimal quoting) sends the whole chunk to
 * papaparse instead.
 */
function splitAllQuoted(text: string, final: boolean): { records: string[][]; rest: string } | undefined {
  const lines = text.split('\n');
  const rest = final ? '' : lines.pop()!;
  if (final && lines[lines.length - 1] === '') lines.pop();
  const records: string[][] = [];
  for (let line of lines) {
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line === '') {
      records.push(['']);
      continue;
    }
    if (line.length < 2 || line.charCodeAt(0) !== 34 || line.charCodeAt(line.length - 1) !== 34) return undefined;
    const fields = line.slice(1, -1).split('","');
    for (const f of fields) if (f.includes('"')) return undefined;
    records.push(fields);
  }
  return { records, rest };
}

const isBlank = (fields: string[]): boolean => fields.every((f) => f === '');

const emptyFileError = (path: string): CsvError => new CsvError(`${path}: empty file, no header row`);

function assertHeader(path: string, fields: string[] | undefined): asserts fields is string[] {
  if (fields === undefined) throw emptyFileError(path);
  if (isBlank(fields)) throw new CsvError(`${path}: first record is empty, no header row`);
}

async function openFile(path: string): Promise<{ handle: FileHandle; size: number }> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, 'r');
    const stats = await handle.stat();
    if (!stats.isFile()) throw new Error('not a regular file');
    return { handle, size: stats.size };
  } catch (err) {
    await handle?.close();
    throw new CsvError(`${path}: cannot read: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** One pass over the file: hash and count raw bytes, decode, split records; afterChunk returns false to stop. */
async function scanFile(
  path: string,
  onRecord: RecordHandler,
  afterChunk: (bytesRead: number, size: number) => boolean,
): Promise<{
  bytes: number;
  sha256: string;
  encoding: TextEncodingName;
  bom: boolean;
  undecodableBytes: number;
  endsWithLineEnd: boolean;
}> {
  const { handle, size } = await openFile(path);
  const hash = createHash('sha256');
  const decoder = createDecoder();
  const parser = createRecordParser(onRecord);
  let bytes = 0;
  let stopped = false;
  let last = 0;
  const feed = (text: string) => {
    if (text !== '') last = text.charCodeAt(text.length - 1);
    parser.write(text);
  };
  // Async iteration pulls one chunk at a time, so a slow consumer pauses the file stream (backpressure).
  for await (const chunk of handle.createReadStream() as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    hash.update(chunk);
    feed(decoder.write(chunk));
    if (afterChunk(bytes, size) === false) {
      stopped = true;
      break;
    }
  }
  if (!stopped) {
    feed(decoder.end());
    parser.end();
  }
  const { encoding, bom, undecodableBytes } = decoder;
  return {
    bytes,
    sha256: hash.digest('hex'),
    encoding,
    bom,
    undecodableBytes,
    endsWithLineEnd: last === 10 || last === 13,
  };
}

/** The header fields, reading only as far as the header's end; encoding is as detected from the bytes read. */
export async function readHeader(
  path: string,
): Promise<{ encoding: TextEncodingName; bom: boolean; fields: string[] }> {
  let first: string[] | undefined;
  const scan = await scanFile(
    path,
    (fields) => {
      first ??= fields;
    },
    () => first === undefined,
  );
  assertHeader(path, first);
  return { encoding: scan.encoding, bom: scan.bom, fields: first };
}

/**
 * Streams `path` and calls onRow for every well-formed, non-blank data record with one entry per matched spec
 * (raw field text). Throws CsvError only for build-stopping problems; bad records are counted and reported.
 */
export async function readCsv(
  path: string,
  specs: ColumnSpec[],
  onRow: (row: Record<string, string>, record: number) => void,
  options: { onProgress?: (p: CsvProgress) => void } = {},
): Promise<CsvReport> {
  const { onProgress } = options;
  let head: { fields: string[]; match: ReturnType<typeof matchColumns>; entries: [string, number][] } | undefined;
  let record = 0;
  let rows = 0;
  let malformed = 0;
  let blank = 0;
  /** The last record, when it was malformed. */
  let lastBad: { record: number; message: string } | undefined;
  const issues: CsvIssue[] = [];
  let lastProgress = Date.now();

  const onRecord: RecordHandler = (fields, error) => {
    if (head === undefined) {
      assertHeader(path, fields);
      const match = matchColumns(fields, specs);
      if (match.missing.length > 0) {
        const names = match.missing.map((key) => JSON.stringify(specs.find((s) => s.key === key)?.names[0] ?? key));
        throw new CsvError(
          `${path}: missing required column${names.length > 1 ? 's' : ''} ${names.join(', ')}` +
            ` (header: ${fields.map((h) => JSON.stringify(h)).join(', ')})`,
        );
      }
      if (match.repeated.length > 0) {
        throw new CsvError(
          `${path}: the header has ${match.repeated.map((h) => JSON.stringify(h)).join(', ')} more than once, so which column holds the data cannot be told` +
            ` (header: ${fields.map((h) => JSON.stringify(h)).join(', ')})`,
        );
      }
      head = { fields, match, entries: Object.entries(match.columns) };
      return;
    }
    const { fields: header, entries } = head;
    record++;
    if (error === undefined && isBlank(fields)) {
      blank++;
      return;
    }
    lastBad = undefined;
    if (error !== undefined || fields.length !== header.length) {
      malformed++;
      const message = error ?? `expected ${header.length} fields, found ${fields.length}`;
      if (issues.length < MAX_ISSUES) issues.push({ record, kind: 'malformed', message });
      lastBad = { record, message };
      return;
    }
    const row: Record<string, string> = {};
    for (const [key, index] of entries) row[key] = fields[index]!; // in range: fields.length === header.length
    rows++;
    onRow(row, record);
  };

  const scan = await scanFile(path, onRecord, (bytesRead, bytes) => {
    const now = Date.now();
    if (onProgress === undefined || now - lastProgress < PROGRESS_INTERVAL_MS) return true;
    lastProgress = now;
    onProgress({ bytesRead, bytes, rows });
    return true;
  });
  if (head === undefined) throw emptyFileError(path);
  // A download cut short ends inside a record: the last record is malformed and no line end follows it.
  // That is a damaged file rather than a bad row, and a build from it would silently lose what was cut off.
  if (lastBad !== undefined && lastBad.record === record && !scan.endsWithLineEnd) {
    throw new CsvError(
      `${path}: ends in the middle of record ${lastBad.record} (${lastBad.message}): the file looks truncated; download it again`,
    );
  }
  const { fields: header, match } = head;
  onProgress?.({ bytesRead: scan.bytes, bytes: scan.bytes, rows });

  if (scan.undecodableBytes > 0) {
    issues.unshift({
      record: 0,
      kind: 'undecodable',
      message: `${scan.undecodableBytes} byte(s) invalid in ${scan.encoding}, replaced by U+FFFD`,
    });
    issues.length = Math.min(issues.length, MAX_ISSUES);
  }
  return {
    file: path,
    bytes: scan.bytes,
    sha256: scan.sha256,
    encoding: scan.encoding,
    bom: scan.bom,
    header,
    columns: match.columns,
    unmatched: match.unmatched,
    records: rows + malformed,
    rows,
    malformed,
    blank,
    undecodableBytes: scan.undecodableBytes,
    issues,
  };
}
