// `/api/updates` (docs/contracts/economy.md, "As of any date"; FRED's series/updates): the series whose latest
// change in the vintage archive came after a time. Each series' snapshots are read newest first, two at a
// time, only as far back as that time: a recent `since` reads a snapshot or two per series.
import { DAY_MS } from '../../contract/core/dates.ts';
import type { Observation, RegistryEntry } from '../../contract/economy/types.ts';
import type { SeriesUpdateParameters } from '../../contract/types/economy/updates-query.ts';
import { parseQuery, type RawQuery } from '../core/params.ts';
import type { ServiceState } from '../core/service.ts';
import type { ObservationRouteDeps } from './observations.ts';
import type { SeriesUpdates } from '../../contract/types/economy/updates.ts';
import type { VintageArchive, VintageSnapshot } from './vintages.ts';

export type SeriesUpdate = SeriesUpdates['results'][number];

/** What a snapshot changed from the one before it (none: every value it has is added). */
export function toChange(
  before: Pick<VintageSnapshot, 'observations'> | undefined,
  after: Pick<VintageSnapshot, 'observations'>,
): { added: number; revised: number } {
  const old = new Map((before?.observations ?? ([] as Observation[])).map((o) => [o.date, o.value]));
  let added = 0;
  let revised = 0;
  for (const o of after.observations) {
    const v = old.get(o.date);
    if (v === undefined) added++;
    else if (v !== o.value) revised++;
  }
  return { added, revised };
}

/** The series' latest change after `since` (epoch ms), or undefined when it has none. */
export async function latestChange(
  archive: Pick<VintageArchive, 'list' | 'read'>,
  entry: Pick<RegistryEntry, 'id' | 'title'>,
  since: number,
): Promise<SeriesUpdate | undefined> {
  const days = await archive.list(entry.id);
  const sinceDay = new Date(since).toISOString().slice(0, 10);
  let after: VintageSnapshot | undefined;
  for (let k = days.length - 1; k >= 0 && days[k]! >= sinceDay; k--) {
    after ??= await archive.read(entry.id, days[k]!);
    if (!after || Date.parse(after.asOf) <= since) return undefined;
    const before = k > 0 ? await archive.read(entry.id, days[k - 1]!) : undefined;
    const { added, revised } = toChange(before, after);
    if (added + revised > 0) return { id: entry.id, title: entry.title, updated_at: after.asOf, added, revised };
    after = before;
  }
  return undefined;
}

/** Every series' latest change after `since`, newest first (ties by id). */
export async function findUpdates(
  archive: Pick<VintageArchive, 'list' | 'read'>,
  entries: Iterable<RegistryEntry>,
  since: number,
): Promise<SeriesUpdate[]> {
  const found = await Promise.all([...entries].map((e) => latestChange(archive, e, since)));
  return found
    .filter((u) => u !== undefined)
    .sort((a, b) =>
      a.updated_at !== b.updated_at ? (a.updated_at < b.updated_at ? 1 : -1) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
    );
}

/** The days /api/updates looks back when `since` is not given. */
export const DEFAULT_UPDATES_DAYS = 7;

/** The document of /api/updates (and MCP get_series_updates) for a query. */
export async function answerUpdates<D>(
  deps: ObservationRouteDeps<D>,
  s: ServiceState<D>,
  query: RawQuery,
): Promise<SeriesUpdates> {
  const q = parseQuery<SeriesUpdateParameters>(query, 'economy/updates-query');
  const since = q.since !== undefined ? Date.parse(q.since) : deps.now().getTime() - DEFAULT_UPDATES_DAYS * DAY_MS;
  const results = await findUpdates(deps.stores(s).vintages, deps.entries(s), since);
  return { since: new Date(since).toISOString(), results };
}
