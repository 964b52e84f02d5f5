// The search index: built once by the pipeline, serialized into the build, loaded by the server with
// lunr.Index.load (no index building at start-up). Words are folded the same way on both sides
// (toSearchText), and the stemmer and stop-word filter are off, so "every word of q must match the start
// of a word of some name" is a plain trailing-wildcard query per word; the query side is
// contract/facilities/search.ts.
import lunr from 'lunr';
import { normalizeCity, toSearchText } from '../../contract/facilities/normalize-names.ts';
import { toEmissions } from './records.ts';
import type { FacilityRecord } from '../../contract/facilities/record.ts';
import { GAS_NAMES, type GasName, type SearchDoc, type SearchIndexFile } from '../../contract/facilities/search.ts';

/** What a search document is made of: the record but its city's buildings. */
export type SearchSource = Omit<FacilityRecord, 'buildings'>;

/** Per gas, the years either program reports it, ascending. */
function toGasYears(r: SearchSource): Record<GasName, number[]> {
  const out = {} as Record<GasName, number[]>;
  for (const gas of GAS_NAMES) {
    const years = new Set<number>();
    for (const g of [...r.by_gas.federal, ...r.by_gas.ontario]) if (g[gas] !== null) years.add(g.year);
    out[gas] = [...years].sort((a, b) => a - b);
  }
  return out;
}

export function toSearchDoc(r: SearchSource): SearchDoc {
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
    coordinates: r.coordinates,
    delta: r.delta,
    flags: { methane: r.flags.methane, anomaly: r.flags.anomaly },
    series: r.series,
    gases: toGasYears(r),
  };
}

/** The years in which both programs report some total, and the comparison year: what `year` takes. */
export function toSearchYears(records: readonly Pick<SearchSource, 'series'>[], year: number): number[] {
  const ontario = new Set<number>();
  const federal = new Set<number>();
  for (const r of records)
    for (const p of r.series) {
      if (p.ontario !== null) ontario.add(p.year);
      if (p.federal !== null) federal.add(p.year);
    }
  const both = [...ontario].filter((y) => federal.has(y));
  return [...new Set([...both, year])].sort((a, b) => a - b);
}

export function toSearchIndex(ranked: readonly SearchSource[], year: number): SearchIndexFile {
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
  return {
    facilities: ranked.map(toSearchDoc),
    lunr: index.toJSON(),
    year,
    years: toSearchYears(ranked, year),
  };
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
