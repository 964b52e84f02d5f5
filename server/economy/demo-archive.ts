// A demo build's published archive (its `api/vintages/` files, the demo editions' snapshots) seen through the
// server's demo archive under STATE_DIR: before a series' days are first listed or read, the published days
// the archive lacks are copied into it (never over a day it has), so that on a fresh demo start the data as
// known on a past day, real-time periods and first releases have days to read, as a real server's archive
// has after its nights. Only for demo builds; done per series on first use, inside the request that needs it.
import type { RegistryEntry } from '../../contract/economy/types.ts';
import type { LoadedBuild } from '../core/build.ts';
import type { VintageArchive } from './vintages.ts';

interface PublishedSnapshot {
  asOf: string;
  source: string;
  observations: { date: string; value: number; status?: string }[];
}

/** Copies the series' published days that `archive` lacks into it; how many were copied. */
export async function seedSeries(
  build: Pick<LoadedBuild, 'has' | 'readJson'>,
  id: string,
  archive: Pick<VintageArchive, 'list' | 'write'>,
): Promise<number> {
  const listed = `api/vintages/${id}.json`;
  if (!build.has(listed)) return 0;
  const have = new Set(await archive.list(id));
  let copied = 0;
  for (const day of build.readJson<{ snapshots: string[] }>(listed).snapshots) {
    if (have.has(day)) continue;
    const doc = build.readJson<PublishedSnapshot>(`api/vintages/${id}/${day}.json`);
    await archive.write({ series: id, asOf: doc.asOf, source: doc.source, observations: doc.observations });
    copied++;
  }
  return copied;
}

/** `archive` with each registry series seeded from `build` before its first listing or read. */
export function seededArchive(
  archive: VintageArchive,
  build: Pick<LoadedBuild, 'has' | 'readJson'>,
  entries: ReadonlyMap<string, RegistryEntry>,
): VintageArchive {
  const seeded = new Map<string, Promise<unknown>>();
  const done = new Set<string>();
  const seed = (series: string) => {
    if (!entries.has(series)) return Promise.resolve();
    let p = seeded.get(series);
    if (!p) {
      p = seedSeries(build, series, archive).then(
        () => done.add(series),
        (err: unknown) => {
          seeded.delete(series);
          throw err;
        },
      );
      seeded.set(series, p);
    }
    return p;
  };
  return {
    write: (snapshot) => archive.write(snapshot),
    async list(series) {
      await seed(series);
      return archive.list(series);
    },
    async read(series, vintage, options) {
      await seed(series);
      return archive.read(series, vintage, options);
    },
    ...(archive.peekList && {
      peekList: (series: string) => (done.has(series) ? archive.peekList!(series) : undefined),
    }),
  };
}
