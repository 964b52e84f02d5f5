// What changed per series since the published build (docs/contracts/changes.md, "What is compared"): the
// registry's metadata (each field of the series' detail document), and, where both builds published a snapshot
// of the series (the nightly job's builds), its observations, keyed by date (`/observations/2024-03-01`).
import { join } from 'node:path';
import { type Field, pointerToken } from '../../contract/core/changes.ts';
import type { SeriesDetail } from '../../contract/types/economy/series-detail.ts';
import {
  type ComparedBuild,
  compareEntities,
  type EntityView,
  notCompared,
  publishedVersion,
} from '../core/changes.ts';
import type { SinkEffects } from '../core/sink.ts';

type Observation = { date: string; value: number | null };

/** The pointers a series is compared on: every field of its detail, and its observations when given. */
export function seriesView(detail: SeriesDetail, observations?: readonly Observation[]): Map<string, unknown> {
  const view = new Map<string, unknown>(Object.entries(detail).map(([k, v]) => [`/${pointerToken(k)}`, v]));
  for (const o of observations ?? []) view.set(`/observations/${pointerToken(o.date)}`, o.value);
  return view;
}

/** A value revised, observations added or withdrawn, the registry's description of the series changed. */
export function seriesNotable(fields: readonly Field[]): string[] {
  const notable = new Set<string>();
  for (const f of fields) {
    if (!f.path.startsWith('/observations/')) notable.add('metadata_changed');
    else if (f.from === null) notable.add('observations_added');
    else if (f.to === null) notable.add('observations_withdrawn');
    else notable.add('value_revised');
  }
  return [...notable].sort();
}

async function readJson<T>(effects: SinkEffects, path: string): Promise<T | undefined> {
  const body = await effects.readFile(path);
  return body === undefined ? undefined : (JSON.parse(body.toString('utf8')) as T);
}

/**
 * Compares the series `details` (and each one's newest snapshot in `latest`, when the build publishes the
 * vintage archive) with the published tree at `live`.
 */
export async function compareSeries(
  live: string,
  details: readonly SeriesDetail[],
  latest: ReadonlyMap<string, { observations: readonly Observation[] }> | undefined,
  effects: SinkEffects,
): Promise<ComparedBuild> {
  const before = new Map<string, EntityView>();
  const compared = new Set<string>();
  let previous: string | null;
  try {
    previous = await publishedVersion(live, effects);
    if (previous === null) return { previous: null, changes: [], warnings: [] };
    const dir = join(live, 'api', 'series');
    for (const name of await effects.list(dir)) {
      if (!name.endsWith('.json')) continue;
      const doc = await readJson<SeriesDetail>(effects, join(dir, name));
      if (!doc || typeof doc.id !== 'string' || typeof doc.title !== 'string')
        throw new Error(`${name} is not a series`);
      let observations: Observation[] | undefined;
      if (latest?.has(doc.id)) {
        const list = await readJson<{ snapshots: string[] }>(effects, join(live, 'api', 'vintages', `${doc.id}.json`));
        const day = list?.snapshots.at(-1);
        if (day !== undefined) {
          const snap = await readJson<{ observations: Observation[] }>(
            effects,
            join(live, 'api', 'vintages', doc.id, `${day}.json`),
          );
          if (!snap || !Array.isArray(snap.observations)) throw new Error(`the snapshot ${doc.id}/${day} is not one`);
          observations = snap.observations;
          compared.add(doc.id);
        }
      }
      before.set(doc.id, { name: doc.title, view: seriesView(doc, observations) });
    }
  } catch (err) {
    return {
      previous: null,
      changes: [],
      warnings: [notCompared(err)],
    };
  }
  // Observations are compared where both builds have a snapshot: a first archive is not every value "added".
  const after = new Map(
    details.map((d) => [
      d.id,
      { name: d.title, view: seriesView(d, compared.has(d.id) ? latest?.get(d.id)?.observations : undefined) },
    ]),
  );
  return { previous, changes: compareEntities(before, after, { notable: seriesNotable }), warnings: [] };
}
