// The skeleton every build runs: open the sink (taking the lock) before any input is read, run the service's
// stages, and abort the sink when one fails. The input stages that facilities and carriers share (scan and
// recognize a folder, read each file into typed rows, account for every row) live here too.
import type { Provenance } from '../../contract/core/licences.ts';
import type { SourceFile } from '../../contract/core/manifest.ts';
import { formatCount } from '../../contract/core/values.ts';
import { type ColumnSpec, type CsvReport, readCsv } from './csv.ts';
import {
  assertAllRecognized,
  describeIgnored,
  ignoreCopies,
  type InputScan,
  type RecognizedFile,
  scanInputs,
} from './inputs.ts';
import type { Normalized, RowIssue } from './issues.ts';
import { silentProgress, type Progress } from './progress.ts';
import type { ShrinkRule } from './shrink.ts';
import { fileEffects, openSink, type Sink, type SinkEffects } from './sink.ts';

/** The file `npm run demo` writes into an input folder: every build made from that folder is labelled demo. */
export const DEMO_MARKER = '.shardline-demo.json';

/** What every build takes besides its inputs. */
export interface BuildConfig {
  outDir: string;
  /** Publish even a build that shrinks past the guard (pipeline/core/shrink.ts): `--accept-shrink`. */
  acceptShrink?: boolean;
  progress?: Progress;
  effects?: SinkEffects;
  now?: () => Date;
  /** Where the tree is served (PUBLIC_URL_<SERVICE>), for the change feeds' links; the local server by default. */
  publicUrl?: string;
}

export interface BuildContext {
  sink: Sink;
  progress: Progress;
  effects: SinkEffects;
  now: () => Date;
}

/** Runs `stages` with an open sink; a stage that throws leaves nothing published and no temporary folder. */
export async function runBuild<R>(
  service: string,
  config: BuildConfig,
  shrink: ShrinkRule[],
  stages: (ctx: BuildContext) => Promise<R>,
): Promise<R> {
  const effects = config.effects ?? fileEffects;
  const sink = await openSink({ service, outDir: config.outDir, effects, shrink, acceptShrink: config.acceptShrink });
  try {
    return await stages({
      sink,
      progress: config.progress ?? silentProgress,
      effects,
      now: config.now ?? (() => new Date()),
    });
  } catch (err) {
    await sink.abort();
    throw err;
  }
}

/** One kind of upstream file: how it is recognized, named in messages, and credited in the manifest. */
export interface InputKind {
  columns: ColumnSpec[];
  label: string;
  url: string;
}

/** An input the build cannot do without, and how its absence is explained. */
export interface RequiredInput<K extends string> {
  kinds: readonly K[];
  /** `no ${what} found in DIR (${hint})`. */
  what: string;
  hint: string;
}

/**
 * Recognizes the input folder: with `strict` every file must be an input; copies of a file of `once` kinds
 * are read once; a required input missing stops the build, naming the files that were not taken.
 */
export async function scanBuildInputs<K extends string>(
  input: string,
  kinds: readonly K[],
  inputs: Record<K, InputKind>,
  options: { strict?: boolean; once?: readonly K[]; required: RequiredInput<K>[]; progress: Progress },
): Promise<InputScan<K> & { files(kind: K): RecognizedFile<K>[] }> {
  options.progress.stage(`scanning ${input}`);
  const scan = await scanInputs(
    input,
    kinds.map((kind) => ({ kind, columns: inputs[kind].columns })),
  );
  if (options.strict) assertAllRecognized(scan);
  if (options.once) await ignoreCopies(scan, options.once);
  const files = (kind: K) => scan.recognized.filter((f) => f.kind === kind);
  for (const r of options.required)
    if (r.kinds.every((k) => files(k).length === 0))
      throw new Error(`no ${r.what} found in ${input} (${r.hint})${describeIgnored(scan)}`);
  for (const i of scan.ignored) options.progress.info(`ignored ${i.file}: ${i.reason}`);
  return { ...scan, files };
}

/** The error of a required input that was read and gave no usable row: a failed download. */
export function noUsableRows(label: string, files: readonly RecognizedFile<string>[], row = 'row'): Error {
  return new Error(
    `${label} (${files.map((f) => f.file).join(', ')}) have no usable ${row}: a file is empty, cut short or damaged`,
  );
}

/** What every service's report says of one input file. */
export interface InputAccount<K extends string = string> {
  file: string;
  kind: K;
  encoding: string;
  rows: number;
  used: number;
  dropped: Record<string, number>;
}

/** What the row stage makes of one typed row: used, or the reason it was dropped. */
export type RowUse = 'used' | (string & {});

export type Normalizer<T> = (raw: Record<string, string>, file: string, record: number) => Normalized<T>;

/** How a service reports its inputs: its account of a file and the encoding its manifest shows. */
export interface InputReport<K extends string, A extends InputAccount<K>> {
  inputs: Record<K, InputKind>;
  provenance: Record<K, Provenance>;
  toAccount(account: InputAccount<K>, report: CsvReport): A;
  toEncoding(report: CsvReport): string;
  /** Issues past this many are counted, not listed. */
  maxIssues?: number;
}

/** Reads input files into typed rows and keeps the build's account of them: issues, sources, per-file counts. */
export class InputLedger<K extends string, A extends InputAccount<K>> {
  readonly issues: RowIssue[] = [];
  readonly issueCounts: Record<string, number> = {};
  readonly sources: SourceFile[] = [];
  readonly accounts: A[] = [];

  constructor(
    private readonly spec: InputReport<K, A>,
    private readonly progress: Progress,
  ) {}

  /** Counts an issue; it is listed while fewer than `maxIssues` are. */
  note(i: RowIssue): void {
    this.issueCounts[i.kind] = (this.issueCounts[i.kind] ?? 0) + 1;
    if (this.issues.length < (this.spec.maxIssues ?? Number.POSITIVE_INFINITY)) this.issues.push(i);
  }

  /** Reads one file, handing each typed row to `use`, which says whether it was used or why not. */
  async read<T>(f: RecognizedFile<K>, normalize: Normalizer<T>, use: (row: T) => RowUse): Promise<void> {
    const kind = this.spec.inputs[f.kind];
    this.progress.stage(`reading ${f.file} (${kind.label})`);
    const dropped: Record<string, number> = {};
    let used = 0;
    const report = await readCsv(
      f.path,
      kind.columns,
      (raw, record) => {
        const out = normalize(raw, f.file, record);
        for (const i of out.issues) {
          this.note(i);
          if (i.dropped) dropped[i.kind] = (dropped[i.kind] ?? 0) + 1;
        }
        if (!out.row) return;
        const r = use(out.row);
        if (r === 'used') used++;
        else dropped[r] = (dropped[r] ?? 0) + 1;
      },
      {
        onProgress: (p) =>
          this.progress.tick(
            `${f.file}: ${formatCount(p.rows)} rows, ${Math.round((p.bytesRead / Math.max(p.bytes, 1)) * 100)}%`,
          ),
      },
    );
    for (const i of report.issues)
      this.note({ file: f.file, record: i.record, kind: i.kind, message: i.message, dropped: i.kind === 'malformed' });
    // The report lists the first malformed records only; the count is all of them.
    if (report.malformed) dropped.malformed = report.malformed;
    this.sources.push({
      file: f.file,
      kind: f.kind,
      rows: report.records,
      bytes: report.bytes,
      sha256: report.sha256,
      encoding: this.spec.toEncoding(report),
      url: kind.url,
      ...this.spec.provenance[f.kind],
    });
    this.accounts.push(
      this.spec.toAccount(
        { file: f.file, kind: f.kind, encoding: report.encoding, rows: report.records, used, dropped },
        report,
      ),
    );
  }
}
