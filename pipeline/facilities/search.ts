// The search index: built once by the pipeline, serialized into the build, loaded by the server with
// lunr.Index.load (no index building at start-up). Words are folded the same way on both sides
// (toSearchText), and the stemmer and stop-word filter are off, so "every word of q must match the start
// of a word of some name" is a plain trailing-wildcard query per word.
import lunr from 'lunr';
import { normalizeCity, toSearchText } from './normalize-names.ts';
import { toEmissions, type BaseRecord, type Program, type Tier, type Totals } from './records.ts';

export interface SearchDoc {
  spine_id: string;
  name: string;
  city: string | null;
  /** normalizeCity(city): what the `city` filter compares with. */
  city_key: string;
  tier: Tier;
  program: Program;
  totals: Totals;
  emissions: number | null;
}

export interface SearchIndexFile {
  /** In ranking order: emissions descending, none last, then spine_id. */
  facilities: SearchDoc[];
  lunr: object;
}

export function toSearchDoc(r: BaseRecord): SearchDoc {
  return {
    spine_id: r.spine_id,
    name: r.name,
    city: r.city,
    city_key: r.city ? normalizeCity(r.city) : '',
    tier: r.tier,
    program: r.program,
    totals: r.totals,
    emissions: toEmissions(r.totals),
  };
}

export function toSearchIndex(ranked: readonly BaseRecord[]): SearchIndexFile {
  const index = lunr(function () {
    this.pipeline.reset();
    this.searchPipeline.reset();
    this.ref('id');
    this.field('names');
    for (const r of ranked) {
      const names = [r.name, ...r.names.ontario, ...r.names.federal];
      this.add({ id: r.spine_id, names: [...new Set(names.map(toSearchText))].join(' ') });
    }
  });
  return { facilities: ranked.map(toSearchDoc), lunr: index.toJSON() };
}

/** Words of a query as the index holds them; an empty list means the query constrains nothing. */
export function toQueryTerms(q: string): string[] {
  return toSearchText(q).split(' ').filter(Boolean);
}

/**
 * The prebuilt lunr index's words, sorted, with the facilities using each: a query word is the contiguous
 * range of words it starts. Matching this way gives exactly lunr's trailing-wildcard REQUIRED query (every
 * term must start a word of some name) without lunr expanding each wildcard through its token set, which cost
 * about 0.5 ms a search.
 */
export class NameMatcher {
  private readonly words: string[];
  /** Per word, the positions (in `order`) of the facilities using it. */
  private readonly docs: Int32Array[];
  private readonly order: readonly string[];
  /** Per position, how far the current search got: `base + k` once its name matched k terms. */
  private readonly marks: Int32Array;
  private base = 0;

  /** `order`: every spine id of the index, in the order matches are returned (ranking order). */
  constructor(index: lunr.Index, order: readonly string[]) {
    const inverted = (index as unknown as { invertedIndex: Record<string, Record<string, Record<string, object>>> })
      .invertedIndex;
    const position = new Map(order.map((id, i) => [id, i]));
    this.order = order;
    this.words = Object.keys(inverted).sort();
    this.docs = this.words.map((w) =>
      Int32Array.from(Object.keys(inverted[w]!.names ?? {}), (ref) => position.get(ref)!),
    );
    this.marks = new Int32Array(order.length);
  }

  /**
   * Positions of the facilities whose names contain, for every term, a word starting with that term,
   * ascending. Each term's words move a facility's mark on only if it matched every term before, so the
   * work is the postings of the terms' words, with no set built; the first term's facilities are the
   * candidates, sorted at the end.
   */
  matchPositions(terms: readonly string[]): Int32Array {
    const unique = [...new Set(terms)];
    if (unique.length === 0) return new Int32Array(0);
    if (this.base > 0x7fffffff - unique.length - 1) {
      this.marks.fill(0);
      this.base = 0;
    }
    const base = this.base;
    this.base += unique.length + 1;
    const marks = this.marks;
    const candidates: number[] = [];
    for (const [j, term] of unique.entries()) {
      let lo = 0;
      let hi = this.words.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.words[mid]! < term) lo = mid + 1;
        else hi = mid;
      }
      const from = j === 0 ? -1 : base + j;
      let any = false;
      for (let i = lo; i < this.words.length && this.words[i]!.startsWith(term); i++) {
        const docs = this.docs[i]!;
        for (let k = 0; k < docs.length; k++) {
          const d = docs[k]!;
          // The first term takes any facility not yet marked by this search; later ones only those at j.
          if (j === 0 ? marks[d]! <= base : marks[d] === from) {
            marks[d] = base + j + 1;
            if (j === 0) candidates.push(d);
            any = true;
          }
        }
      }
      if (!any) return new Int32Array(0);
    }
    const done = base + unique.length;
    if (candidates.length * 16 < marks.length)
      return Int32Array.from(candidates.filter((d) => marks[d] === done)).sort();
    // Many candidates: one pass over the marks finds them in order, cheaper than sorting them.
    let n = 0;
    for (let d = 0; d < marks.length; d++) if (marks[d] === done) n++;
    const found = new Int32Array(n);
    for (let d = 0, k = 0; k < n; d++) if (marks[d] === done) found[k++] = d;
    return found;
  }

  /** Spine ids whose names contain, for every term, a word starting with that term. */
  match(terms: readonly string[]): Set<string> {
    return new Set(Array.from(this.matchPositions(terms), (d) => this.order[d]!));
  }
}

/** The same match through lunr's own query (kept as the reference the matcher is tested against). */
export function matchNames(index: lunr.Index, terms: readonly string[]): Set<string> {
  const hits = index.query((query) => {
    for (const term of terms) {
      query.term(term, {
        wildcard: lunr.Query.wildcard.TRAILING,
        presence: lunr.Query.presence.REQUIRED,
        usePipeline: false,
      });
    }
  });
  return new Set(hits.map((h) => h.ref));
}

export interface SearchResponse {
  total: number;
  limit: number;
  results: Omit<SearchDoc, 'city_key'>[];
}

export function toSearchResponse(matches: readonly SearchDoc[], limit: number): SearchResponse {
  return {
    total: matches.length,
    limit,
    results: matches.slice(0, limit).map(({ spine_id, name, city, tier, program, totals, emissions }) => ({
      spine_id,
      name,
      city,
      tier,
      program,
      totals,
      emissions,
    })),
  };
}

export const DEFAULT_LIMIT = 50;
