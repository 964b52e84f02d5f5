// What the observation cache and the vintage archive share under STATE_DIR/economy/: series ids as file
// names, atomic writes, the check of stored observations, and the log lines both write.
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { MissingPoint, Observation } from '../../contract/economy/types.ts';

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

const optionalString = (x: unknown) => x === undefined || typeof x === 'string';

/**
 * Observations as the cache and the vintage archive store them: `{ date, value, status?, released? }`, a
 * date and a finite number each.
 */
export function isObservationList(x: unknown): x is Observation[] {
  return (
    Array.isArray(x) &&
    x.every(
      (o) =>
        typeof o === 'object' &&
        o !== null &&
        typeof (o as Observation).date === 'string' &&
        Number.isFinite((o as Observation).value) &&
        optionalString((o as Observation).status) &&
        optionalString((o as Observation).released),
    )
  );
}

/** The points stored without a value: `{ date, status, released? }`; absent (undefined) is none. */
export function isMissingList(x: unknown): x is MissingPoint[] | undefined {
  return (
    x === undefined ||
    (Array.isArray(x) &&
      x.every(
        (o) =>
          typeof o === 'object' &&
          o !== null &&
          typeof (o as MissingPoint).date === 'string' &&
          typeof (o as MissingPoint).status === 'string' &&
          optionalString((o as MissingPoint).released),
      ))
  );
}

/** What a copy or a snapshot keeps beside its observations, when it has any: the fields as stored. */
export interface SeriesExtras {
  missing?: MissingPoint[];
  released?: string;
}

/** The extras of a stored document, or undefined when they are not well formed. */
export function extrasOf(doc: { missing?: unknown; released?: unknown } | null | undefined): SeriesExtras | undefined {
  if (!doc) return {};
  if (!isMissingList(doc.missing) || !optionalString(doc.released)) return undefined;
  return {
    ...(doc.missing !== undefined && doc.missing.length > 0 && { missing: doc.missing }),
    ...(doc.released !== undefined && { released: doc.released as string }),
  };
}

/** The extras of `x` to store, or null when it has none (a PostgreSQL column, or fields left out of a file). */
export function toStoredExtras(x: SeriesExtras): SeriesExtras | null {
  const out = extrasOf(x);
  return out && (out.missing || out.released !== undefined) ? out : null;
}
