// The vintage archive published as static files (docs/contracts/economy.md, "Cache and vintages"): the
// snapshots the server's pulls wrote under STATE_DIR, as of the build, at the paths the routes answer. A damaged
// snapshot is left out and reported: the archive is runtime state and must not stop the night's build.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isValidIsoDate } from '../../contract/core/dates.ts';
import type { SourceFile } from '../../contract/core/manifest.ts';
import type { SchemaRegistry } from '../../contract/core/schemas.ts';
import type { Sink } from '../core/sink.ts';
import { toPlainPoints } from '../../contract/economy/points.ts';
import type { Observation, RegistryEntry } from '../../contract/economy/types.ts';
import { FREQUENCY_CODE, OBSERVATIONS_LIMIT } from '../../contract/economy/api.ts';
import type { ObservationsResponse } from '../../contract/economy/types.ts';
import { VINTAGES_PROVENANCE } from './provenance.ts';

const SNAPSHOT_FILE = /^(\d{4}-\d{2}-\d{2})\.json$/;

/** The document of /api/observations?series=&vintage= for the whole series (cached: a snapshot needs no pull). */
export interface SnapshotDocument extends ObservationsResponse {
  cached: true;
}

export interface VintageIssue {
  id: string;
  kind: 'unreadable_snapshot';
  message: string;
}

export interface PublishedVintages {
  /** Snapshots published. */
  snapshots: number;
  issues: VintageIssue[];
  /** The archive as one source of the manifest: its hash is part of the data version. */
  source: SourceFile;
  /** Each series' newest snapshot published, for the change record. */
  latest: Map<string, SnapshotDocument>;
}

/** Snapshot days in a series' folder, ascending; none when it has no folder. */
async function daysOf(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return names
    .flatMap((n) => SNAPSHOT_FILE.exec(n)?.[1] ?? [])
    .filter(isValidIsoDate)
    .sort();
}

/**
 * Pure: the published document of one archived snapshot (as server/economy/vintages.ts writes it), or why
 * it is not one, worded to follow "the snapshot of <day>".
 */
export function toSnapshotDocument(
  text: string,
  entry: Pick<RegistryEntry, 'id' | 'frequency'>,
  day: string,
  registry: SchemaRegistry,
): SnapshotDocument | string {
  const series = entry.id;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return `is not JSON (${(err as Error).message})`;
  }
  const s = raw as { series?: unknown; vintage?: unknown; asOf?: unknown; source?: unknown; observations?: unknown };
  if (typeof raw !== 'object' || raw === null) return 'is not a snapshot object';
  if (s.series !== series) return `names the series ${JSON.stringify(s.series)}, not ${series}`;
  if (s.vintage !== day) return `names the vintage ${JSON.stringify(s.vintage)}, not the day of its file name`;
  const count = Array.isArray(s.observations) ? s.observations.length : 0;
  // The server's answer to ?series=&vintage= with no other parameter, key for key: the points without their
  // release times, which only real-time answers carry.
  const observations = Array.isArray(s.observations) ? toPlainPoints(s.observations as Observation[]) : s.observations;
  const doc = {
    ...{ series, observations, source: s.source, cached: true, asOf: s.asOf },
    ...{ units: 'lin', frequency: FREQUENCY_CODE[entry.frequency], count, limit: OBSERVATIONS_LIMIT, offset: 0 },
  };
  const validate = registry.get('economy/observations');
  if (!validate(doc))
    return `is not a snapshot: ${validate.errors?.[0]?.instancePath || '/'} ${validate.errors?.[0]?.message ?? ''}`.trim();
  return doc as SnapshotDocument;
}

/** Writes the archive `dir` (STATE_DIR/economy/vintages) of the registry's series into the build. */
export async function publishVintages(
  sink: Sink,
  dir: string,
  entries: readonly RegistryEntry[],
  registry: SchemaRegistry,
  onSeries?: (id: string, n: number) => void,
): Promise<PublishedVintages> {
  const hash = createHash('sha256');
  const issues: VintageIssue[] = [];
  let snapshots = 0;
  let bytes = 0;
  const latest = new Map<string, SnapshotDocument>();
  for (const entry of [...entries].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    const id = entry.id;
    const published: string[] = [];
    for (const day of await daysOf(join(dir, id))) {
      const file = join(dir, id, `${day}.json`);
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (err) {
        issues.push({
          id,
          kind: 'unreadable_snapshot',
          message: `${id}: the snapshot of ${day} cannot be read (${(err as Error).message}); not published`,
        });
        continue;
      }
      const doc = toSnapshotDocument(text, entry, day, registry);
      if (typeof doc === 'string') {
        issues.push({
          id,
          kind: 'unreadable_snapshot',
          message: `${id}: the snapshot of ${day} ${doc}; not published`,
        });
        continue;
      }
      await sink.writeJson(`api/vintages/${id}/${day}.json`, doc, 'economy/observations');
      hash.update(`${id}/${day}\n`).update(text);
      bytes += Buffer.byteLength(text);
      published.push(day);
      latest.set(id, doc);
    }
    await sink.writeJson(`api/vintages/${id}.json`, { series: id, snapshots: published }, 'economy/vintages');
    snapshots += published.length;
    onSeries?.(id, published.length);
  }
  return {
    snapshots,
    issues,
    latest,
    source: {
      file: 'STATE_DIR/economy/vintages',
      kind: 'vintages',
      rows: snapshots,
      bytes,
      sha256: hash.digest('hex'),
      url: "state:economy/vintages (the server's daily snapshots)",
      ...VINTAGES_PROVENANCE,
    },
  };
}
