// Progress on stderr for long work: stage names, counters and elapsed time, throttled so a 2-million-row
// file does not print 2 million lines. Output is for people; nothing parses it.
export interface Progress {
  stage(name: string): void;
  tick(message: string): void;
  info(message: string): void;
  elapsedMs(): number;
}

export function createProgress(
  label: string,
  write: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
  now: () => number = () => performance.now(),
  intervalMs = 1000,
): Progress {
  const start = now();
  let last = -Infinity;
  const stamp = () => `${((now() - start) / 1000).toFixed(1)}s`;
  return {
    stage(name) {
      write(`[${label}] ${stamp()} ${name}`);
      last = now();
    },
    tick(message) {
      const t = now();
      if (t - last < intervalMs) return;
      last = t;
      write(`[${label}] ${stamp()}   ${message}`);
    },
    info(message) {
      write(`[${label}] ${stamp()}   ${message}`);
    },
    elapsedMs: () => now() - start,
  };
}

export const silentProgress: Progress = {
  stage() {},
  tick() {},
  info() {},
  elapsedMs: () => 0,
};

/** A plain text table (for build summaries and bench reports). */
export function formatTable(rows: readonly (readonly (string | number)[])[]): string {
  const cells = rows.map((r) => r.map(String));
  const widths: number[] = [];
  for (const r of cells) {
    r.forEach((c, i) => {
      widths[i] = Math.max(widths[i] ?? 0, c.length);
    });
  }
  return cells
    .map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  '))
    .join('\n');
}
