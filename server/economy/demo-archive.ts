// A demo build's published archive (its `api/vintages/` files, the demo editions' snapshots) copied into the
// demo archive under STATE_DIR when a series has none there yet, so that on a fresh demo start the data as
// known on a past day, real-time periods and first releases have days to read, as a real server's archive
// has after its nights. Only for demo builds, and never over a day the archive has.
import type { RegistryEntry } from '../../contract/economy/types.ts';
import type { LoadedBuild } from '../core/build.ts';
import type { VintageArchive } from './vintages.ts';

interface PublishedSnapshot {
  series: string;
  asOf: string;
  source: string;
  observations: { date: string; value: number; status?: string }[];
}

/** Copies each series' published days into `archive` where it has none; how many days were copied. */
export async function seedDemoArchive(
  build: Pick<LoadedBuild, 'has' | 'readJson'>,
  entries: Iterable<RegistryEntry>,
  archive: Pick<VintageArchive, 'list' | 'write'>,
): Promise<number> {
  let copied = 0;
  for (const entry of entries) {
    const listed = `api/vintages/${entry.id}.json`;
    if (!build.has(listed) || (await archive.list(entry.id)).length > 0) continue;
    for (const day of build.readJson<{ snapshots: string[] }>(listed).snapshots) {
      const doc = build.readJson<PublishedSnapshot>(`api/vintages/${entry.id}/${day}.json`);
      await archive.write({ series: entry.id, asOf: doc.asOf, source: doc.source, observations: doc.observations });
      copied++;
    }
  }
  return copied;
}
