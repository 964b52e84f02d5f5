// The search side the server runs over the index the facilities build writes (pipeline/facilities/search.ts):
// the documents, query words folded as the index's words were (toSearchText; no stemmer, no stop words), and
// "every word of q must start a word of some name" as a range of the index's sorted words per query word.
import type lunr from 'lunr';
import { toSearchText } from './normalize-names.ts';
import type { Coordinates, Delta, Program, SeriesPoint, Tier, Totals } from './record.ts';

/** The gases the `gas` filter takes: the record's `by_gas` keys. */
export const GAS_NAMES = ['co2', 'ch4', 'n2o', 'hfc', 'pfc', 'sf6'] as const;
export type GasName = (typeof GAS_NAMES)[number];

export interface SearchDoc {
  spine_id: string;
  name: string;
  city: string | null;
  /** normalizeCity(city): what the `city` filter compares with. */
  city_key: string;
  tier: Tier;
  program: Program;
  /** Six-digit NAICS code, or null: what the `naics` filter compares with, as a prefix. */
  naics: string | null;
  totals: Totals;
  emissions: number | null;
  /** The record's coordinates: what the downloads' latitude and longitude columns and a map need. */
  coordinates: Coordinates;
  /** Provincial minus federal for the comparison year, as the record's (toDelta of `totals`). */
  delta: Delta | null;
  /** The record's flags without their reasons: what the `flag` filter and the flags facet read. */
  flags: { methane: boolean; anomaly: boolean };
  /** Every year's totals (the record's series): the figures a search with `year` answers. */
  series: SeriesPoint[];
  /** Per gas, the years in which either program reports it (the record's by_gas): what `gas` reads. */
  gases: Record<GasName, number[]>;
}

export interface SearchIndexFile {
  /** In ranking order: emissions descending, none last, then spine_id. */
  facilities: SearchDoc[];
  lunr: object;
  /** The build's comparison year: the figures of `totals`, `emissions` and `delta`. */
  year: number;
  /** Every year both programs report (ascending, the comparison year among them): the values `year` takes. */
  years: number[];
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

/** What a search result shows of a document. */
export type SearchResult = Omit<SearchDoc, 'city_key' | 'series' | 'gases'>;

export interface SearchResponse {
  total: number;
  limit: number;
  offset: number;
  results: SearchResult[];
}

export function toSearchResult(d: SearchDoc): SearchResult {
  const { spine_id, name, city, tier, program, naics, totals, emissions, delta, flags, coordinates } = d;
  return { spine_id, name, city, tier, program, naics, totals, emissions, delta, flags, coordinates };
}

export function toSearchResponse(matches: readonly SearchDoc[], limit: number, offset = 0): SearchResponse {
  return {
    total: matches.length,
    limit,
    offset,
    results: matches.slice(offset, offset + limit).map(toSearchResult),
  };
}

export const DEFAULT_LIMIT = 50;
