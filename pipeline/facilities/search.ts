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

/** Spine ids whose names contain, for every term, a word starting with that term. */
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
