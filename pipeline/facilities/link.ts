// Linking (docs/contracts/facilities.md, "Identity rules"): Ontario and federal ids sharing a normalized
// (name, city) in any year are one facility, chains followed; near-misses are found and rejected on purpose.
import { maxSimilarity, normalizeCity, normalizeName, similarity } from '../../contract/facilities/normalize-names.ts';
import type { FederalRow, OntarioRow } from './rows.ts';

export const SIMILAR_NAME_THRESHOLD = 0.85;

export interface LinkEvidence {
  name: string;
  city: string;
  ontario: string[];
  federal: string[];
}

export interface Component {
  ontario: string[];
  federal: string[];
  /** The (normalized name, city) pairs that joined the ids; empty for a single-program facility. */
  evidence: LinkEvidence[];
}

export type NearMissKind = 'same_name_other_city' | 'similar_name_same_city';

export interface NearMiss {
  kind: NearMissKind;
  ontario_id: string;
  federal_id: string;
  ontario_name: string;
  federal_name: string;
  ontario_city: string;
  federal_city: string;
  similarity: number;
  reason: string;
}

/** A link the identity rule allows but the guard above refuses. */
export interface RefusedLink {
  ontario_id: string;
  federal_id: string;
  name: string;
  city: string;
  reason: string;
}

export interface LinkResult {
  components: Component[];
  nearMisses: NearMiss[];
  refused: RefusedLink[];
  /** Ontario ids with at least one row that has both a name and a city. */
  linkableOntario: number;
  /** Ontario ids whose normalized name equals some federal name, in any city. */
  nameMatchedOntario: number;
  anchoredOntario: number;
}

interface Pair {
  name: string;
  city: string;
  rawName: string;
  rawCity: string;
  /** The years the id reported under this pair. */
  years: Set<number>;
}

const byNumber = (a: string, b: string) =>
  a.replace(/\D/g, '').length - b.replace(/\D/g, '').length || (a < b ? -1 : a > b ? 1 : 0);

/** Distinct normalized (name, city) pairs per id with their years, keeping the first raw spelling for reports. */
function pairsById(
  rows: readonly { id: string; year: number; name: string; city: string | null }[],
): Map<string, Map<string, Pair>> {
  const out = new Map<string, Map<string, Pair>>();
  for (const r of rows) {
    let pairs = out.get(r.id);
    if (!pairs) {
      pairs = new Map();
      out.set(r.id, pairs);
    }
    const name = normalizeName(r.name);
    const city = r.city ? normalizeCity(r.city) : '';
    if (!name || !city) continue;
    const key = `${name}\u0000${city}`;
    let pair = pairs.get(key);
    if (!pair) {
      pair = { name, city, rawName: r.name, rawCity: r.city ?? '', years: new Set() };
      pairs.set(key, pair);
    }
    pair.years.add(r.year);
  }
  return out;
}

/** The years each id reported in, any name. */
function yearsById(rows: readonly { id: string; year: number }[]): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  for (const r of rows) (out.get(r.id) ?? out.set(r.id, new Set()).get(r.id)!).add(r.year);
  return out;
}

/** The first year in which two or more of `ids` reported, or undefined. */
function sharedYear(ids: Iterable<string>, years: Map<string, Set<number>>): number | undefined {
  const seen = new Set<number>();
  let first: number | undefined;
  for (const id of ids) {
    for (const y of years.get(id) ?? []) {
      if (!seen.has(y)) seen.add(y);
      else if (first === undefined || y < first) first = y;
    }
  }
  return first;
}

/** Years between the closest uses of a pair by two ids: 0 when both used it in one year. */
function gapBetween(a: ReadonlySet<number>, b: ReadonlySet<number>): number {
  let gap = Infinity;
  for (const x of a) for (const y of b) gap = Math.min(gap, Math.abs(x - y));
  return gap;
}

class UnionFind {
  private parent = new Map<string, string>();
  add(x: string) {
    if (!this.parent.has(x)) this.parent.set(x, x);
  }
  find(x: string): string {
    let root = x;
    while (this.parent.get(root) !== root) root = this.parent.get(root)!;
    while (x !== root) {
      const next = this.parent.get(x)!;
      this.parent.set(x, root);
      x = next;
    }
    return root;
  }
  union(a: string, b: string) {
    const ra = this.find(a);
    const rb = this.find(b);
    // biome-ignore lint/complexity/useMathMinMax: ids are strings, ordered as strings
    if (ra !== rb) this.parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
  }
}

/**
 * One guard on the chains: a record never holds two Ontario ids reporting in one year together with two federal ids
 * reporting in one year (each program may split a site the other reports as one, not both at once; such a group is
 * two facilities chained through a name one used in other years). Links whose pair is closest in time go first;
 * a refused link is in the report with its reason.
 */
export function linkFacilities(ontarioRows: readonly OntarioRow[], federalRows: readonly FederalRow[]): LinkResult {
  const ontario = pairsById(ontarioRows);
  const federal = pairsById(federalRows);
  const years = new Map([
    ...[...yearsById(ontarioRows)].map(([id, y]) => [`o:${id}`, y] as const),
    ...[...yearsById(federalRows)].map(([id, y]) => [`f:${id}`, y] as const),
  ]);
  const uf = new UnionFind();
  // The members of each group by its root, to check the guard before a union.
  const members = new Map<string, { ontario: string[]; federal: string[] }>();
  for (const id of ontario.keys()) {
    uf.add(`o:${id}`);
    members.set(`o:${id}`, { ontario: [`o:${id}`], federal: [] });
  }
  for (const id of federal.keys()) {
    uf.add(`f:${id}`);
    members.set(`f:${id}`, { ontario: [], federal: [`f:${id}`] });
  }

  const byKey = new Map<string, { name: string; city: string; on: Set<string>; fed: Set<string> }>();
  const collect = (ids: Map<string, Map<string, Pair>>, side: 'on' | 'fed') => {
    for (const [id, pairs] of ids) {
      for (const [key, p] of pairs) {
        let e = byKey.get(key);
        if (!e) {
          e = { name: p.name, city: p.city, on: new Set(), fed: new Set() };
          byKey.set(key, e);
        }
        e[side].add(id);
      }
    }
  };
  collect(ontario, 'on');
  collect(federal, 'fed');

  // Every (Ontario id, federal id) pair the rule links, those whose pair the two used closest in time first
  // (0 years apart: both in one year), then by name and city, then by id: the order decides which link the
  // guard refuses.
  const links: { o: string; f: string; key: string; gap: number }[] = [];
  for (const [key, e] of byKey) {
    if (e.on.size === 0 || e.fed.size === 0) continue;
    for (const o of e.on)
      for (const f of e.fed)
        links.push({ o, f, key, gap: gapBetween(ontario.get(o)!.get(key)!.years, federal.get(f)!.get(key)!.years) });
  }
  links.sort(
    (a, b) => a.gap - b.gap || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) || byNumber(a.o, b.o) || byNumber(a.f, b.f),
  );

  const refused: RefusedLink[] = [];
  for (const link of links) {
    const ra = uf.find(`o:${link.o}`);
    const rb = uf.find(`f:${link.f}`);
    if (ra === rb) continue;
    const a = members.get(ra)!;
    const b = members.get(rb)!;
    const onIds = [...a.ontario, ...b.ontario];
    const fedIds = [...a.federal, ...b.federal];
    const onYear = sharedYear(onIds, years);
    const fedYear = onYear === undefined ? undefined : sharedYear(fedIds, years);
    if (onYear !== undefined && fedYear !== undefined) {
      const e = byKey.get(link.key)!;
      const list = (ids: string[]) =>
        ids
          .map((x) => x.slice(2))
          .sort(byNumber)
          .join(', ');
      refused.push({
        ontario_id: link.o,
        federal_id: link.f,
        name: e.name,
        city: e.city,
        reason: `the link would put Ontario ids ${list(onIds)} (both reporting in ${onYear}) with federal ids ${list(fedIds)} (both reporting in ${fedYear}) in one facility`,
      });
      continue;
    }
    uf.union(ra, rb);
    const root = uf.find(ra);
    members.delete(ra);
    members.delete(rb);
    members.set(root, { ontario: onIds, federal: fedIds });
  }

  const groups = new Map<string, Component>();
  const groupOf = (node: string) => {
    const root = uf.find(node);
    let g = groups.get(root);
    if (!g) {
      g = { ontario: [], federal: [], evidence: [] };
      groups.set(root, g);
    }
    return g;
  };
  for (const id of ontario.keys()) groupOf(`o:${id}`).ontario.push(id);
  for (const id of federal.keys()) groupOf(`f:${id}`).federal.push(id);
  // Each pair is evidence in the groups holding ids of both programs that use it.
  for (const e of byKey.values()) {
    if (e.on.size === 0 || e.fed.size === 0) continue;
    const byRoot = new Map<string, LinkEvidence>();
    const entry = (node: string) => {
      const root = uf.find(node);
      return byRoot.get(root) ?? byRoot.set(root, { name: e.name, city: e.city, ontario: [], federal: [] }).get(root)!;
    };
    for (const id of e.on) entry(`o:${id}`).ontario.push(id);
    for (const id of e.fed) entry(`f:${id}`).federal.push(id);
    for (const [root, ev] of byRoot) {
      if (ev.ontario.length === 0 || ev.federal.length === 0) continue;
      ev.ontario.sort(byNumber);
      ev.federal.sort(byNumber);
      groups.get(root)!.evidence.push(ev);
    }
  }
  const components = [...groups.values()];
  for (const c of components) {
    c.ontario.sort(byNumber);
    c.federal.sort(byNumber);
    c.evidence.sort((a, b) => (a.name + a.city < b.name + b.city ? -1 : 1));
  }
  components.sort(compareComponents);
  refused.sort((a, b) => byNumber(a.ontario_id, b.ontario_id) || byNumber(a.federal_id, b.federal_id));

  const nearMisses = findNearMisses(ontario, federal, (o, f) => uf.find(`o:${o}`) === uf.find(`f:${f}`));
  const federalNames = new Set([...federal.values()].flatMap((pairs) => [...pairs.values()].map((p) => p.name)));
  let linkable = 0;
  let nameMatched = 0;
  let anchored = 0;
  for (const [id, pairs] of ontario) {
    if (pairs.size === 0) continue;
    linkable++;
    if ([...pairs.values()].some((p) => federalNames.has(p.name))) nameMatched++;
    if (groupOf(`o:${id}`).federal.length > 0) anchored++;
  }
  return {
    components,
    nearMisses,
    refused,
    linkableOntario: linkable,
    nameMatchedOntario: nameMatched,
    anchoredOntario: anchored,
  };
}

/** First-build order of spine ids: by lowest Ontario id (numerically), then lowest federal id. */
export function compareComponents(a: Component, b: Component): number {
  const ka = a.ontario[0];
  const kb = b.ontario[0];
  if (ka !== undefined && kb !== undefined && ka !== kb) return byNumber(ka, kb);
  if (ka === undefined && kb !== undefined) return 1;
  if (kb === undefined && ka !== undefined) return -1;
  const fa = a.federal[0] ?? '';
  const fb = b.federal[0] ?? '';
  return fa === fb ? 0 : byNumber(fa, fb);
}

function toNearMiss(
  kind: NearMissKind,
  oid: string,
  o: Pair,
  fid: string,
  f: Pair,
  similarity: number,
  reason: string,
): NearMiss {
  return {
    kind,
    ontario_id: oid,
    federal_id: fid,
    ontario_name: o.rawName,
    federal_name: f.rawName,
    ontario_city: o.rawCity,
    federal_city: f.rawCity,
    similarity,
    reason,
  };
}

function findNearMisses(
  ontario: Map<string, Map<string, Pair>>,
  federal: Map<string, Map<string, Pair>>,
  linked: (ontarioId: string, federalId: string) => boolean,
): NearMiss[] {
  const fedByName = new Map<string, { id: string; p: Pair }[]>();
  const fedByCity = new Map<string, { id: string; p: Pair }[]>();
  for (const [id, pairs] of federal) {
    for (const p of pairs.values()) {
      (fedByName.get(p.name) ?? fedByName.set(p.name, []).get(p.name)!).push({ id, p });
      (fedByCity.get(p.city) ?? fedByCity.set(p.city, []).get(p.city)!).push({ id, p });
    }
  }
  const best = new Map<string, NearMiss>();
  const keep = (m: NearMiss) => {
    const key = `${m.kind}\u0000${m.ontario_id}\u0000${m.federal_id}`;
    const prev = best.get(key);
    if (!prev || m.similarity > prev.similarity) best.set(key, m);
  };
  for (const [oid, pairs] of ontario) {
    for (const o of pairs.values()) {
      for (const { id: fid, p: f } of fedByName.get(o.name) ?? []) {
        if (f.city === o.city || linked(oid, fid)) continue;
        keep(
          toNearMiss(
            'same_name_other_city',
            oid,
            o,
            fid,
            f,
            1,
            `same normalized name "${o.name}" but city "${o.city}" ≠ "${f.city}"`,
          ),
        );
      }
      for (const { id: fid, p: f } of fedByCity.get(o.city) ?? []) {
        if (f.name === o.name || maxSimilarity(o.name, f.name) < SIMILAR_NAME_THRESHOLD || linked(oid, fid)) continue;
        const s = similarity(o.name, f.name);
        if (s < SIMILAR_NAME_THRESHOLD) continue;
        const reason = `same city "${o.city}", names "${o.name}" and "${f.name}" are ${Math.round(s * 1000) / 10}% similar but not identical`;
        keep(toNearMiss('similar_name_same_city', oid, o, fid, f, Math.round(s * 1000) / 1000, reason));
      }
    }
  }
  return [...best.values()].sort(
    (a, b) =>
      (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0) ||
      byNumber(a.ontario_id, b.ontario_id) ||
      byNumber(a.federal_id, b.federal_id),
  );
}
