// What changed per facility since the published build (docs/contracts/changes.md, "What is compared"): a spine
// id added or retired, tier, program presence, names, each program's figure for each year (a revised past year
// is a change), coordinates, NAICS and flags. Figures are keyed by year in the pointers (`/series/2019/ontario`).
import { join } from 'node:path';
import { type Field, pointerToken } from '../../contract/core/changes.ts';
import {
  type ComparedBuild,
  compareEntities,
  type EntityView,
  notCompared,
  publishedVersion,
} from '../core/changes.ts';
import type { FacilityRecord } from '../../contract/types/facilities/record.ts';
import type { SinkEffects } from '../core/sink.ts';

type Compared = Pick<
  FacilityRecord,
  'spine_id' | 'name' | 'tier' | 'program' | 'city' | 'names' | 'naics' | 'series' | 'coordinates' | 'flags'
>;

/** The pointers a facility is compared on, each with its value. */
export function facilityView(r: Compared): Map<string, unknown> {
  const view = new Map<string, unknown>([
    ['/name', r.name],
    ['/tier', r.tier],
    ['/program', r.program],
    ['/city', r.city],
    ['/names/ontario', r.names.ontario],
    ['/names/federal', r.names.federal],
    ['/naics', r.naics],
    ['/coordinates', r.coordinates && { latitude: r.coordinates.latitude, longitude: r.coordinates.longitude }],
    ['/flags/methane', r.flags.methane],
    ['/flags/anomaly', r.flags.anomaly],
  ]);
  for (const s of r.series) {
    if (s.ontario !== null) view.set(`/series/${pointerToken(s.year)}/ontario`, s.ontario);
    if (s.federal !== null) view.set(`/series/${pointerToken(s.year)}/federal`, s.federal);
  }
  return view;
}

/** The changes a person acts on: a tier or program that moved, a past figure revised, a name or place changed. */
export function facilityNotable(fields: readonly Field[]): string[] {
  const notable = new Set<string>();
  for (const f of fields) {
    if (f.path === '/tier') notable.add('tier_changed');
    else if (f.path === '/program') notable.add('program_changed');
    else if (f.path === '/name') notable.add('name_changed');
    else if (f.path === '/coordinates') notable.add('moved');
    else if (f.path.startsWith('/series/') && f.from !== null && f.to !== null) notable.add('total_revised');
    else if (f.path.startsWith('/flags/') && f.to === true) notable.add(`${f.path.slice('/flags/'.length)}_flagged`);
  }
  return [...notable].sort();
}

/** Compares `records` with the facilities of the published tree at `live`. */
export async function compareWithPublished(
  live: string,
  records: readonly Compared[],
  effects: SinkEffects,
): Promise<ComparedBuild> {
  const before = new Map<string, EntityView>();
  let previous: string | null;
  try {
    previous = await publishedVersion(live, effects);
    if (previous === null) return { previous: null, changes: [], warnings: [] };
    const dir = join(live, 'api', 'v1', 'facility');
    for (const name of await effects.list(dir)) {
      if (!name.endsWith('.json')) continue;
      const body = await effects.readFile(join(dir, name));
      if (!body) throw new Error(`${name} vanished`);
      const doc = JSON.parse(body.toString('utf8')) as Compared;
      if (typeof doc.spine_id !== 'string' || !Array.isArray(doc.series)) throw new Error(`${name} is not a facility`);
      before.set(doc.spine_id, { name: doc.name, view: facilityView(doc) });
    }
  } catch (err) {
    return {
      previous: null,
      changes: [],
      warnings: [notCompared(err)],
    };
  }
  const after = new Map(records.map((r) => [r.spine_id, { name: r.name, view: facilityView(r) }]));
  return { previous, changes: compareEntities(before, after, { notable: facilityNotable }), warnings: [] };
}
