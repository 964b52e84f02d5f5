// `npm run bench -- --only changes` (carriers): the change record at scale. Twelve monthly editions of the
// carriers demo are built one over the other, as the nightly job would, each in a child process for its peak
// RSS. Month 2 is also built into an empty folder: the same build without a comparison, so the ratio is the
// comparison's cost. After each month, the bytes the history holds; the twelve-build tree is then the one
// the lookup rows serve, so `carrier/:id` answers profiles with a trend of twelve builds.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { privateDirOf } from '../contract/core/layout.ts';
import type { Manifest } from '../contract/core/manifest.ts';
import { formatTable, type Progress } from '../pipeline/core/progress.ts';
import type { BuildJob } from './protocol.ts';
import type { BuildFigures } from './report.ts';

/** The months built one over the other: the history the issue asks about is twelve monthly builds. */
export const MONTHS = 12;
/** At most this much longer with the comparison than without it. */
export const MAX_COMPARISON_RATIO = 1.25;
/** Peak RSS of the build with the comparison. */
export const MAX_PEAK_RSS_MB = 4096;

export interface HistoryBytes {
  month: number;
  /** changes/ in the public tree: index, feeds. */
  publicBytes: number;
  /** changes/ in the build's private folder: pages, notable indexes, the carriers' store, trend snapshots. */
  privateBytes: number;
  /** The whole build: tree and private folder. */
  buildBytes: number;
}

export interface ChangesFigures {
  scale: number;
  months: number;
  fresh: BuildFigures & { wallMs: number; peakRssMb: number };
  compared: BuildFigures & { wallMs: number; peakRssMb: number };
  ratio: number;
  history: HistoryBytes[];
}

type RunBuildJob = (
  job: BuildJob,
  label: string,
  progress: Progress,
  extra?: { scale?: number },
) => Promise<BuildFigures>;

/** Bytes of every file under `dir` (0 when it is missing); a file linked from the build before counts here too. */
function bytesUnder(dir: string): number {
  let total = 0;
  try {
    for (const e of readdirSync(dir, { recursive: true, withFileTypes: true }))
      if (e.isFile()) total += statSync(join(e.parentPath, e.name)).size;
  } catch {
    return 0;
  }
  return total;
}

function historyBytes(outDir: string, month: number): HistoryBytes {
  const live = join(outDir, 'carriers');
  const manifest = JSON.parse(readFileSync(join(live, 'manifest.json'), 'utf8')) as Manifest;
  const privateDir = privateDirOf(live, manifest);
  if (!privateDir) throw new Error('the carriers build has no private folder');
  return {
    month,
    publicBytes: bytesUnder(join(live, 'changes')),
    privateBytes: bytesUnder(join(privateDir, 'changes')),
    buildBytes: bytesUnder(live) + bytesUnder(privateDir),
  };
}

const timed = (b: BuildFigures) => {
  if ('skipped' in b) throw new Error(`${b.label} was skipped`);
  return b;
};

/**
 * Builds MONTHS editions of the carriers demo at `scale` into one folder; returns the figures and that folder,
 * whose last build the lookups then serve.
 */
export async function buildMonths(
  work: string,
  scale: number,
  run: RunBuildJob,
  progress: Progress,
): Promise<{ builds: BuildFigures[]; outDir: string; figures: ChangesFigures }> {
  const builds: BuildFigures[] = [];
  const input = join(work, 'month-input');
  const outDir = join(work, 'months');
  const history: HistoryBytes[] = [];
  let fresh: ChangesFigures['fresh'] | undefined;
  let compared: ChangesFigures['compared'] | undefined;
  for (let month = 1; month <= MONTHS; month++) {
    await rm(input, { recursive: true, force: true });
    await run(
      { mode: 'demo', service: 'carriers', dir: input, scale, edition: month },
      `carriers x${scale} month ${month} inputs`,
      progress,
    );
    if (month === 2) {
      const empty = join(work, 'month-2-alone');
      fresh = timed(
        await run(
          { mode: 'build', service: 'carriers', input, outDir: empty },
          `carriers x${scale} month 2, into an empty folder (no comparison)`,
          progress,
          { scale },
        ),
      ) as ChangesFigures['fresh'];
      builds.push(fresh);
      await rm(empty, { recursive: true, force: true });
    }
    const built = timed(
      await run(
        { mode: 'build', service: 'carriers', input, outDir },
        `carriers x${scale} month ${month}${month > 1 ? ` over month ${month - 1}` : ''}`,
        progress,
        { scale },
      ),
    ) as ChangesFigures['compared'];
    if (month === 2) compared = built;
    if (month <= 2 || month === MONTHS) builds.push(built);
    const bytes = historyBytes(outDir, month);
    history.push(bytes);
    progress.info(
      `month ${month}: history ${(bytes.privateBytes / 1e6).toFixed(1)} MB private, ${(bytes.publicBytes / 1e3).toFixed(0)} kB public, build ${(bytes.buildBytes / 1e6).toFixed(0)} MB`,
    );
  }
  await rm(input, { recursive: true, force: true });
  if (!fresh || !compared) throw new Error('month 2 was not built');
  return {
    builds,
    outDir,
    figures: { scale, months: MONTHS, fresh, compared, ratio: compared.wallMs / fresh.wallMs, history },
  };
}

const mb = (bytes: number) => (bytes / 1e6).toFixed(1);

export function formatChanges(f: ChangesFigures): string {
  const ratioMet = f.ratio <= MAX_COMPARISON_RATIO;
  const rssMet = f.compared.peakRssMb < MAX_PEAK_RSS_MB;
  const last = f.history.at(-1)!;
  const rows: (string | number)[][] = [
    ['row', 'figure', 'target', 'result'],
    [
      'month 2 over month 1 / into an empty folder (wall)',
      `${(f.compared.wallMs / 1000).toFixed(1)} s / ${(f.fresh.wallMs / 1000).toFixed(1)} s = ${f.ratio.toFixed(2)}x`,
      `<= ${MAX_COMPARISON_RATIO}x`,
      ratioMet ? 'met' : 'NOT met',
    ],
    [
      'peak RSS, month 2 over month 1 (empty folder)',
      `${f.compared.peakRssMb.toFixed(0)} MB (${f.fresh.peakRssMb.toFixed(0)} MB)`,
      `< ${MAX_PEAK_RSS_MB} MB`,
      rssMet ? 'met' : 'NOT met',
    ],
    [
      `history after ${f.months} monthly builds`,
      `${mb(last.privateBytes + last.publicBytes)} MB (${mb(last.privateBytes)} MB private, ${mb(last.publicBytes)} MB public) of a ${mb(last.buildBytes)} MB build`,
      'reported',
      '',
    ],
  ];
  const growth: (string | number)[][] = [['month', 'history MB (private + public)', 'build MB']];
  for (const h of f.history) growth.push([h.month, mb(h.privateBytes + h.publicBytes), mb(h.buildBytes)]);
  return [
    `carriers x${f.scale} (${(f.scale * 3000).toLocaleString('en-US')} carriers in month 1), ${f.months} monthly editions built one over the other:`,
    formatTable(rows),
    '',
    formatTable(growth),
  ].join('\n');
}
