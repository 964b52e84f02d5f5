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
  private readonly refs: string[][];

  constructor(index: lunr.Index) {
    const inverted = (index as unknown as { invertedIndex: Record<string, Record<string, Record<string, object>>> }).invertedIndex;
    this.words = Object.keys(inverted).sort();
    this.refs = this.words.map((w) => Object.keys(inverted[w]!.names ?? {}));
  }

  /** Spine ids whose names contain, for every term, a word starting with that term. */
  match(terms: readonly string[]): Set<string> {
    let result: Set<string> | undefined;
    for (const term of terms) {
      const found = new Set<string>();
      let lo = 0;
      let hi = this.words.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.words[mid]! < term) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo; i < this.words.length && this.words[i]!.startsWith(term); i++) {
        for (const ref of this.refs[i]!) if (!result || result.has(ref)) found.add(ref);
      }
      result = found;
      if (result.size === 0) break;
    }
    return result ?? new Set();
  }
}

/** The same match through lunr's own query (kept as the reference the matcher is tested against). */
export function matchNames(index: lunr.Index, terms: readonly string[]): Set<string> {
  const hits = index.query((query) => {
    for (const term of terms) {
      query.term(term, { wildcard: lunr.Query.wildcard.TRAILING, presence: lunr.Query.presence.REQUIRED, usePipeline: false });
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
    results: matches.slice(0, limit).map(({ spine_id, name, city, tier, program, totals, emissions }) => ({ spine_id, name, city, tier, program, totals, emissions })),
  };
}

export const DEFAULT_LIMIT = 50;
