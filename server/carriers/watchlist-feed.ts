// A watchlist's changes, read from the served build's change record: each listed carrier's history (one
// record of the carriers' history store), merged oldest build first and by carrier within a build. The
// routes page it by cursor; a delivery takes one build's.
import { encodeCursor, type FeedPosition, WHOLE_BUILD, decodeCursor } from '../../contract/carriers/watchlists.ts';
import { buildName, type ChangeEntry } from '../../contract/core/changes.ts';
import { HttpError, invalidParameters } from '../../contract/core/problem.ts';
import type { DatedChange } from '../core/changes.ts';
import type { CarrierChanges } from './changes.ts';

const baseOf = buildName;
const keyOf = (b: Pick<ChangeEntry, 'data_version' | 'built_at'>) => `${b.data_version}\0${b.built_at}`;

/** The position past the newest build served: a new list's cursor, and a feed caught up. */
export function newestPosition(history: CarrierChanges): FeedPosition | undefined {
  const newest = history.builds.at(-1);
  return newest && { build: baseOf(newest), built_at: newest.built_at, carrier: WHOLE_BUILD };
}

/** `newestPosition` as a cursor; before any build (a tree without a record), a cursor before everything. */
export function newestCursor(history: CarrierChanges): string {
  return encodeCursor(newestPosition(history) ?? { build: 'none', built_at: new Date(0).toISOString(), carrier: 0 });
}

/**
 * Where `cursor` is in the history: the index of its build (-1: before every build kept) and its carrier.
 * 400 for a cursor this service did not write, 410 for one older than the kept history; a cursor of a build
 * newer than the one served (another server has it already) is past everything here.
 */
function locate(history: CarrierChanges, cursor: string): { build: number; carrier: number } {
  const p = decodeCursor(cursor);
  if (!p) throw invalidParameters([{ parameter: 'cursor', message: 'is not a cursor of this list’s feed' }]);
  const { builds } = history;
  const i = builds.findIndex((b) => baseOf(b) === p.build && b.built_at === p.built_at);
  if (i >= 0) return { build: i, carrier: p.carrier };
  const newest = builds.at(-1);
  if (!newest || p.built_at >= newest.built_at) return { build: builds.length - 1, carrier: WHOLE_BUILD };
  if (p.built_at < builds[0]!.built_at)
    throw new HttpError(
      410,
      'history_expired',
      `the cursor is older than the kept change history, which starts at ${builds[0]!.built_at}`,
    );
  throw invalidParameters([{ parameter: 'cursor', message: 'names no build of the change history' }]);
}

/** Each change to the listed carriers in the builds `keep` accepts, oldest build first, then by carrier. */
async function collect(
  history: CarrierChanges,
  carriers: readonly number[],
  keep: (build: number, carrier: number) => boolean,
): Promise<{ build: number; carrier: number; change: DatedChange }[]> {
  const index = new Map(history.builds.map((b, i) => [keyOf(b), i]));
  const found: { build: number; carrier: number; change: DatedChange }[] = [];
  for (const carrier of carriers)
    for (const change of (await history.ofEntity(String(carrier))) ?? []) {
      const build = index.get(keyOf(change));
      if (build !== undefined && keep(build, carrier)) found.push({ build, carrier, change });
    }
  return found.sort((a, b) => a.build - b.build || a.carrier - b.carrier);
}

/** A page of the list's changes after `cursor`, and the cursor of what follows. */
export async function watchlistChanges(
  history: CarrierChanges,
  carriers: readonly number[],
  cursor: string,
  limit: number,
): Promise<{ results: DatedChange[]; next_cursor: string }> {
  const at = locate(history, cursor);
  const last = history.builds.length - 1;
  if (at.build === last && at.carrier === WHOLE_BUILD) return { results: [], next_cursor: newestCursor(history) };
  const found = await collect(
    history,
    carriers,
    (build, carrier) => build > at.build || (build === at.build && carrier > at.carrier),
  );
  const page = found.slice(0, limit);
  const end = page.at(-1);
  const next_cursor =
    found.length > limit && end
      ? encodeCursor({
          build: baseOf(history.builds[end.build]!),
          built_at: history.builds[end.build]!.built_at,
          carrier: end.carrier,
        })
      : newestCursor(history);
  return { results: page.map((f) => f.change), next_cursor };
}

/** The changes of one build (its href) to the listed carriers, by carrier: a delivery's body. */
export async function buildChanges(
  history: CarrierChanges,
  carriers: readonly number[],
  href: string,
): Promise<DatedChange[]> {
  const build = history.builds.findIndex((b) => b.href === href);
  if (build < 0) return [];
  return (await collect(history, carriers, (b) => b === build)).map((f) => f.change);
}
