// The search index: built once by the pipeline, serialized into the build, loaded by the server with
// lunr.Index.load (no index building at start-up). Words are folded the same way on both sides
// (toSearchText), and the stemmer and stop-word filter are off, so "every word of q must match the start
// of a word of some name" is a plain trailing-wildcard query per word; the query side is
// contract/facilities/search.ts.
import lunr from 'lunr';
import { normalizeCity, toSearchText } from '../../contract/facilities/normalize-names.ts';
import { toEmissions } from './records.ts';
import type { BaseRecord } from '../../contract/facilities/record.ts';
import type { SearchDoc, SearchIndexFile } from '../../contract/facilities/search.ts';

export function toSearchDoc(r: BaseRecord): SearchDoc {
  return {
    spine_id: r.spine_id,
    name: r.name,
    city: r.city,
    city_key: r.city ? normalizeCity(r.city) : '',
    tier: r.tier,
    program: r.program,
    naics: r.naics,
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
