// What the observation cache and the vintage archive share under STATE_DIR/economy/: series ids as file
// names, atomic writes, the check of stored observations, and the log lines both write.
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Observation } from '../../contract/economy/types.ts';

export interface CacheLogLine {
  event:
    | 'upstream_pull_failed'
    | 'cache_file_unreadable'
    | 'cache_write_failed'
    | 'vintage_write_failed'
    | 'vintage_unreadable'
    | 'cache_copy_unreadable'
    | 'pull_lease_lost';
  series: string;
  error: string;
  [key: string]: unknown;
}

export const stderrLog = (line: CacheLogLine) =>
  process.stderr.write(`${JSON.stringify({ service: 'economy', ...line })}\n`);

/**
 * Writes `data` to `path` through a temporary file in the same folder and a rename, which POSIX makes
 * atomic: a reader sees the old file or the new one, never a mix, and a crash leaves at most a stray
 * `.tmp-*` file that nothing reads.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`;
  try {
    await writeFile(tmp, data);
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/** Series ids are file names here: only the registry's alphabet (upper case, digits, underscore). */
export function assertSeriesId(id: string): void {
  if (!/^[A-Z0-9_]{1,100}$/.test(id))
    throw new Error(`series id ${JSON.stringify(id)} is not upper case letters, digits and underscores`);
}

/** Observations as the cache and the vintage archive store them: `{ date, value }`, a date and a finite number each. */
export function isObservationList(x: unknown): x is Observation[] {
  return (
    Array.isArray(x) &&
    x.every(
      (o) =>
        typeof o === 'object' &&
        o !== null &&
        typeof (o as Observation).date === 'string' &&
        Number.isFinite((o as Observation).value),
    )
  );
}
