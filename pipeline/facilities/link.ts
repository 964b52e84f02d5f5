// Linking (shared/contracts/facilities.md, "Identity rules"): Ontario and federal ids that share a
// normalized (name, city) pair in any year are one facility, and chains of such links are followed, so
// one Ontario id with two federal ids, or two Ontario ids sharing one federal id, become one record.
// Near-misses are found here too, and rejected on purpose.
import { maxSimilarity, normalizeCity, normalizeName, similarity } from './normalize-names.ts';
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

export interface LinkResult {
  components: Component[];
  nearMisses: NearMiss[];
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
}

const byNumber = (a: string, b: string) => a.replace(/\D/g, '').length - b.replace(/\D/g, '').length || (a < b ? -1 : a > b ? 1 : 0);

/** Distinct normalized (name, city) pairs per id, keeping the first raw spelling for reports. */
function pairsById(rows: readonly { id: string; name: string; city: string | null }[]): Map<string, Map<string, Pair>> {
  const out = new Map<string, Map<string, Pair>>();
  for (const r of rows) {
    let pairs = out.get(r.id);
    if (!pairs) out.set(r.id, (pairs = new Map()));
    const name = normalizeName(r.name);
    const city = r.city ? normalizeCity(r.city) : '';
    if (!name || !city) continue;
    const key = `${name}\u0000${city}`;
    if (!pairs.has(key)) pairs.set(key, { name, city, rawName: r.name, rawCity: r.city ?? '' });
  }
  return out;
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
    if (ra !== rb) this.parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
  }
}

export function linkFacilities(ontarioRows: readonly OntarioRow[], federalRows: readonly FederalRow[]): LinkResult {
  const ontario = pairsById(ontarioRows);
  const federal = pairsById(federalRows);
  const uf = new UnionFind();
  for (const id of ontario.keys()) uf.add(`o:${id}`);
  for (const id of federal.keys()) uf.add(`f:${id}`);

  const byKey = new Map<string, LinkEvidence & { on: Set<string>; fed: Set<string> }>();
  const collect = (ids: Map<string, Map<string, Pair>>, side: 'on' | 'fed') => {
    for (const [id, pairs] of ids) {
      for (const [key, p] of pairs) {
        let e = byKey.get(key);
        if (!e) byKey.set(key, (e = { name: p.name, city: p.city, ontario: [], federal: [], on: new Set(), fed: new Set() }));
        e[side].add(id);
      }
    }
  };
  collect(ontario, 'on');
  collect(federal, 'fed');

  const evidence: LinkEvidence[] = [];
  for (const e of byKey.values()) {
    if (e.on.size === 0 || e.fed.size === 0) continue;
    const members = [...[...e.on].map((id) => `o:${id}`), ...[...e.fed].map((id) => `f:${id}`)];
    for (const m of members.slice(1)) uf.union(members[0]!, m);
    evidence.push({ name: e.name, city: e.city, ontario: [...e.on].sort(byNumber), federal: [...e.fed].sort(byNumber) });
  }

  const groups = new Map<string, Component>();
  const groupOf = (node: string) => {
    const root = uf.find(node);
    let g = groups.get(root);
    if (!g) groups.set(root, (g = { ontario: [], federal: [], evidence: [] }));
    return g;
  };
  for (const id of ontario.keys()) groupOf(`o:${id}`).ontario.push(id);
  for (const id of federal.keys()) groupOf(`f:${id}`).federal.push(id);
  for (const e of evidence) groupOf(`o:${e.ontario[0]!}`).evidence.push(e);
  const components = [...groups.values()];
  for (const c of components) {
    c.ontario.sort(byNumber);
    c.federal.sort(byNumber);
    c.evidence.sort((a, b) => (a.name + a.city < b.name + b.city ? -1 : 1));
  }
  components.sort(compareComponents);

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
  return { components, nearMisses, linkableOntario: linkable, nameMatchedOntario: nameMatched, anchoredOntario: anchored };
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

function toNearMiss(kind: NearMissKind, oid: string, o: Pair, fid: string, f: Pair, similarity: number, reason: string): NearMiss {
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
        keep(toNearMiss('same_name_other_city', oid, o, fid, f, 1, `same normalized name "${o.name}" but city "${o.city}" ≠ "${f.city}"`));
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
    (a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0) || byNumber(a.ontario_id, b.ontario_id) || byNumber(a.federal_id, b.federal_id),
  );
}
