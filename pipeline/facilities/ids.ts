// Stable spine ids (docs/contracts/facilities.md): a facility keeps its `ONF-` id as long as one of its
// source ids still exists; new facilities get the next free number; an id is never given to another
// facility. The map of every source id ever seen is carried from build to build in `ids.json`.
import { toSpineId } from '../../contract/facilities/ids.ts';
import type { Component } from './link.ts';

export interface IdMap {
  /** The next number to hand out: above every id ever issued, retired ones included. */
  next: number;
  /** `ontario:1001` / `federal:G10001` → the spine id that source id last belonged to. */
  sources: Record<string, string>;
}

export interface IdAssignment {
  ids: string[];
  map: IdMap;
  carried: number;
  issued: string[];
  retired: string[];
}

export const EMPTY_ID_MAP: IdMap = { next: 1, sources: {} };

const numberOf = (id: string) => Number(id.slice(4));

const sourceKeys = (c: Component) => [
  ...c.ontario.map((id) => `ontario:${id}`),
  ...c.federal.map((id) => `federal:${id}`),
];

/**
 * Components must come in a deterministic order (link.ts sorts them). Where a facility's source ids carry
 * several old ids (two facilities merged), it keeps the lowest; where two facilities claim one old id (a
 * facility split), the first in order keeps it and the other gets a new one.
 */
export function assignSpineIds(components: readonly Component[], previous: IdMap = EMPTY_ID_MAP): IdAssignment {
  const used = new Set<string>();
  const ids: (string | undefined)[] = components.map((c) => {
    const candidates = [
      ...new Set(
        sourceKeys(c)
          .map((k) => previous.sources[k])
          .filter((x): x is string => !!x),
      ),
    ].sort();
    const keep = candidates.find((id) => !used.has(id));
    if (keep) used.add(keep);
    return keep;
  });
  const carried = ids.filter(Boolean).length;
  let next = Math.max(previous.next, ...Object.values(previous.sources).map((id) => numberOf(id) + 1), 1);
  const issued: string[] = [];
  const final = ids.map((id) => {
    if (id) return id;
    const fresh = toSpineId(next++);
    issued.push(fresh);
    return fresh;
  });
  const sources: Record<string, string> = { ...previous.sources };
  components.forEach((c, i) => {
    for (const key of sourceKeys(c)) sources[key] = final[i]!;
  });
  const live = new Set(final);
  const retired = [...new Set(Object.values(previous.sources))].filter((id) => !live.has(id)).sort();
  const sorted = Object.fromEntries(Object.entries(sources).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { ids: final, map: { next, sources: sorted }, carried, issued, retired };
}
