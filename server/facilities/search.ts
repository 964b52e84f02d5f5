// GET /api/v1/search over the prebuilt index (docs/contracts/facilities.md): name words through the
// NameMatcher, filters as one predicate per document, an order per year and sort made the first time it is
// asked, facets counted over every match, and each distinct query's response cached. A response is made of
// the results and CSV rows serialized once per year, so a page is a copy of bytes.
import lunr from 'lunr';
import { CSV_TYPE } from '../../contract/core/csv.ts';
import { invalidParameters, type ParameterError } from '../../contract/core/problem.ts';
import { SPINE_CSV_HEADER, toSpineCsvRecord, toSpineRow } from '../../contract/facilities/downloads.ts';
import { normalizeCity } from '../../contract/facilities/normalize-names.ts';
import { toDelta } from '../../contract/facilities/record.ts';
import {
  DEFAULT_LIMIT,
  NameMatcher,
  toQueryTerms,
  toSearchResult,
  type SearchDoc,
  type SearchIndexFile,
} from '../../contract/facilities/search.ts';
import type { SearchParameters } from '../../contract/types/facilities/search-query.ts';
import { RepeatCache } from '../core/cache.ts';
import { toPayload, type Payload } from '../core/payload.ts';
import { FACET_NAMES, facetJson, parseFacets, selectedKeys, toFacetColumns, type FacetColumns } from './facets.ts';

/** schemas/facilities/search-query.schema.json */
export type SearchQuery = SearchParameters;
export type Sort = NonNullable<SearchQuery['sort']>;
export const DEFAULT_SORT: Sort = '-emissions';

/** One year's figures for every document of the index, serialized, and its orders. */
interface YearView {
  year: number;
  /** In index order, with this year's totals, emissions and delta. */
  docs: SearchDoc[];
  /** Each doc's search result, serialized with a leading comma: a response copies these bytes. */
  results: Buffer[];
  /** Each doc's row of search?format=csv, CRLF included. */
  csv: Buffer[];
  /** Per sort, the positions in that order, and each position's place in it; made when first asked. */
  orders: Map<Sort, { order: Int32Array; rank: Int32Array }>;
}

export interface SearchData {
  names: NameMatcher;
  /** In ranking order (the comparison year's emissions). */
  docs: SearchDoc[];
  /** The build's comparison year and the years `year` takes. */
  year: number;
  years: ReadonlySet<number>;
  /** The comparison year's view, made at load, and the others' as they are asked for. */
  views: Map<number, YearView>;
  facets: FacetColumns;
  /** The build's data version: with the canonical query, it names a search response (its ETag). */
  version: string;
  /**
   * Responses by canonical query (the validated terms, filters and page in a fixed order, never the raw
   * query string), for queries asked more than once lately: junk or reordered parameters name one entry.
   */
  searches: RepeatCache<Payload>;
}

function toView(year: number, docs: SearchDoc[]): YearView {
  return {
    year,
    docs,
    results: docs.map((d) => Buffer.from(`,${JSON.stringify(toSearchResult(d))}`)),
    csv: docs.map((d) => Buffer.from(toSpineCsvRecord(toSpineRow(d)))),
    orders: new Map(),
  };
}

/** A document with another year's figures, from its series. */
function inYear(d: SearchDoc, year: number): SearchDoc {
  const point = d.series.find((p) => p.year === year);
  const totals = { year, ontario: point?.ontario ?? null, federal: point?.federal ?? null };
  return { ...d, totals, emissions: totals.federal ?? totals.ontario, delta: toDelta(totals) };
}

export function loadSearch(file: SearchIndexFile, version: string): SearchData {
  const docs = file.facilities;
  return {
    names: new NameMatcher(
      lunr.Index.load(file.lunr),
      docs.map((d) => d.spine_id),
    ),
    docs,
    year: file.year,
    years: new Set(file.years),
    views: new Map([[file.year, toView(file.year, docs)]]),
    facets: toFacetColumns(docs),
    version,
    searches: new RepeatCache(2000),
  };
}

function viewOf(data: SearchData, year: number): YearView {
  let view = data.views.get(year);
  if (!view) {
    view = toView(
      year,
      data.docs.map((d) => inYear(d, year)),
    );
    data.views.set(year, view);
  }
  return view;
}

const NAMES = new Intl.Collator('en-CA', { sensitivity: 'base', numeric: true });

/** Compares two values of a sort key, absent ones last whatever the direction. */
function byValue<T>(value: (d: SearchDoc) => T | null, compare: (a: T, b: T) => number, descending: boolean) {
  return (a: SearchDoc, b: SearchDoc): number => {
    const va = value(a);
    const vb = value(b);
    if (va === null || vb === null) return va === null ? (vb === null ? 0 : 1) : -1;
    return descending ? compare(vb, va) : compare(va, vb);
  };
}

const COMPARE: Record<Sort, (a: SearchDoc, b: SearchDoc) => number> = {
  '-emissions': byValue(
    (d) => d.emissions,
    (a, b) => a - b,
    true,
  ),
  emissions: byValue(
    (d) => d.emissions,
    (a, b) => a - b,
    false,
  ),
  name: byValue((d) => d.name, NAMES.compare, false),
  '-name': byValue((d) => d.name, NAMES.compare, true),
  delta_pct: byValue(
    (d) => d.delta?.pct ?? null,
    (a, b) => a - b,
    false,
  ),
  '-delta_pct': byValue(
    (d) => d.delta?.pct ?? null,
    (a, b) => a - b,
    true,
  ),
};

/** The view's positions in `sort` order, ties by spine_id (the index's order for the comparison year). */
function orderOf(data: SearchData, view: YearView, sort: Sort) {
  let o = view.orders.get(sort);
  if (!o) {
    const docs = view.docs;
    const order =
      sort === DEFAULT_SORT && view.year === data.year
        ? Int32Array.from(docs, (_, i) => i)
        : Int32Array.from(docs, (_, i) => i).sort((a, b) => {
            const da = docs[a]!;
            const db = docs[b]!;
            return COMPARE[sort](da, db) || (da.spine_id < db.spine_id ? -1 : da.spine_id > db.spine_id ? 1 : 0);
          });
    const rank = new Int32Array(order.length);
    order.forEach((p, r) => {
      rank[p] = r;
    });
    o = { order, rank };
    view.orders.set(sort, o);
  }
  return o;
}

function yearError(years: ReadonlySet<number>, year: number): ParameterError {
  return {
    parameter: 'year',
    message: `${year} is not a year both programs report; the years are ${[...years].join(', ')}`,
  };
}

/**
 * What the schema cannot say. An empty city (a form's blank field) constrains nothing; one with text but
 * nothing left to compare once normalized (`---`, `(Toronto)`: bracketed parts are dropped) would match every
 * city, so it is a 400. `years`: the index's, when the route knows them.
 */
export function checkSearchQuery(query: Partial<SearchQuery>, years?: ReadonlySet<number>): ParameterError[] {
  const errors: ParameterError[] = [];
  // One rule for q on every service (docs/contracts/common.md): absent is no filter, present needs a word.
  if (query.q !== undefined && toQueryTerms(query.q).length === 0)
    errors.push({ parameter: 'q', message: 'must hold a letter or digit; leave q out to list every facility' });
  const city = query.city;
  if (city !== undefined && city.trim() !== '' && normalizeCity(city) === '')
    errors.push({
      parameter: 'city',
      message: 'has no letters or digits to match once normalized (bracketed parts are left out)',
    });
  const { unknown } = parseFacets(query.facets);
  if (unknown.length)
    errors.push({
      parameter: 'facets',
      message: `${unknown.map((u) => JSON.stringify(u)).join(', ')} ${unknown.length === 1 ? 'is not a facet' : 'are not facets'}; the facets are ${FACET_NAMES.join(', ')}`,
    });
  if (years && query.year !== undefined && !years.has(query.year)) errors.push(yearError(years, query.year));
  if (
    query.min_emissions !== undefined &&
    query.max_emissions !== undefined &&
    query.min_emissions > query.max_emissions
  )
    errors.push({
      parameter: 'min_emissions',
      message: `${query.min_emissions} is more than max_emissions ${query.max_emissions}: no facility could match`,
    });
  return errors;
}

/**
 * The response cache's key of a validated query: every parameter in a fixed order, as it bears on the answer
 * (q as its words, city as its normalized key, defaults filled in, facets as the canonical list, none for a
 * CSV, which has no place for them). Terms and city are letters, digits and spaces; the rest are names and
 * numbers: NUL separates them all.
 */
export function searchKey(query: SearchQuery): string {
  const format = query.format ?? 'json';
  return keyOf(
    query,
    toQueryTerms(query.q ?? ''),
    query.city !== undefined ? normalizeCity(query.city) : '',
    format === 'csv' ? [] : parseFacets(query.facets).names,
  );
}

/** searchKey from the terms, city key and facets a search has worked out already. */
function keyOf(query: SearchQuery, terms: readonly string[], cityKey: string, facets: readonly string[]): string {
  return [
    query.limit ?? DEFAULT_LIMIT,
    query.offset ?? 0,
    query.tier ?? '',
    query.program ?? '',
    query.naics ?? '',
    terms.join(' '),
    cityKey,
    query.format ?? 'json',
    query.year ?? '',
    query.gas ?? '',
    query.min_emissions ?? '',
    query.max_emissions ?? '',
    query.flag ?? '',
    query.sort ?? DEFAULT_SORT,
    facets.join(','),
  ].join('\0');
}

/** The key of no query: the build's api/v1/search.json answers it. */
const WHOLE_KEY = searchKey({});

const TAIL = Buffer.from(']}');
const CSV_HEAD = Buffer.from(SPINE_CSV_HEADER);

/**
 * The answer to a search. `whole` is the build's api/v1/search.json: the answer to no query (nor any query
 * that means the same, such as `limit=25`) is that document, with the file's tag and compressed codings,
 * so the route and the static file agree (docs/contracts/common.md).
 */
export function search(data: SearchData, query: SearchQuery, whole?: Payload): Payload {
  if (query.year !== undefined && !data.years.has(query.year))
    throw invalidParameters([yearError(data.years, query.year)]);
  const terms = toQueryTerms(query.q ?? '');
  const cityKey = query.city !== undefined ? normalizeCity(query.city) : '';
  const limit = query.limit ?? DEFAULT_LIMIT;
  const offset = query.offset ?? 0;
  const tier = query.tier ?? '';
  const program = query.program ?? '';
  const naics = query.naics ?? '';
  const format = query.format ?? 'json';
  const sort = query.sort ?? DEFAULT_SORT;
  const gas = query.gas ?? '';
  const flag = query.flag ?? '';
  const min = query.min_emissions;
  const max = query.max_emissions;
  const facets = format === 'csv' ? [] : parseFacets(query.facets).names;
  const key = keyOf(query, terms, cityKey, facets);
  if (whole && key === WHOLE_KEY) return whole;
  const cached = data.searches.get(key);
  if (cached) return cached;

  const year = query.year ?? data.year;
  const view = viewOf(data, year);
  const docs = view.docs;
  const filtered =
    cityKey !== '' ||
    tier !== '' ||
    program !== '' ||
    naics !== '' ||
    gas !== '' ||
    flag !== '' ||
    min !== undefined ||
    max !== undefined ||
    query.year !== undefined;
  const keep = (d: SearchDoc) =>
    (!cityKey || d.city_key === cityKey) &&
    (!tier || d.tier === tier) &&
    (!program || d.program === program) &&
    (!naics || d.naics?.startsWith(naics)) &&
    (!flag || d.flags[flag]) &&
    (!gas || d.gases[gas].includes(year)) &&
    (query.year === undefined || d.totals.ontario !== null || d.totals.federal !== null) &&
    (min === undefined || (d.emissions !== null && d.emissions >= min)) &&
    (max === undefined || (d.emissions !== null && d.emissions <= max));
  const identity = sort === DEFAULT_SORT && year === data.year;
  let matches: ArrayLike<number>;
  if (terms.length) {
    // Name matches come as positions in index order: the filters, then the order asked for, are left.
    const named = data.names.matchPositions(terms);
    let kept: Int32Array = named;
    if (filtered) {
      const out: number[] = [];
      for (let k = 0; k < named.length; k++) if (keep(docs[named[k]!]!)) out.push(named[k]!);
      kept = Int32Array.from(out);
    }
    if (!identity) {
      const { rank } = orderOf(data, view, sort);
      kept = kept === named ? Int32Array.from(kept) : kept;
      kept.sort((a, b) => rank[a]! - rank[b]!);
    }
    matches = kept;
  } else if (filtered || !identity) {
    const { order } = orderOf(data, view, sort);
    const kept: number[] = [];
    for (let k = 0; k < order.length; k++) if (!filtered || keep(docs[order[k]!]!)) kept.push(order[k]!);
    matches = kept;
  } else {
    matches = orderOf(data, view, sort).order;
  }
  const end = Math.min(offset + limit, matches.length);
  const parts: Buffer[] = [];
  if (format === 'csv') {
    // The same page as the JSON, as rows made at load: total, limit and offset have no place in the CSV.
    parts.push(CSV_HEAD);
    for (let k = offset; k < end; k++) parts.push(view.csv[matches[k]!]!);
  } else {
    // The same bytes as JSON.stringify of the response, from the results serialized at load.
    parts.push(Buffer.from(`{"total":${matches.length},"limit":${limit},"offset":${offset},"results":[`));
    for (let k = offset; k < end; k++) {
      const result = view.results[matches[k]!]!;
      parts.push(k === offset ? result.subarray(1) : result);
    }
    if (facets.length) {
      const selected = selectedKeys(query);
      const members = facets.map((n) => facetJson(data.facets[n], matches, selected[n]));
      parts.push(Buffer.from(`],"facets":{${members.join(',')}}}`));
    } else {
      parts.push(TAIL);
    }
  }
  // A response is a function of the build and the canonical query: that pair is its strong validator,
  // which spares hashing every new body. Compressed on first request for a coding, once per cached entry.
  const type = format === 'csv' ? CSV_TYPE : 'application/json';
  const payload = toPayload(Buffer.concat(parts), type, true, `${data.version}\0${key}`);
  data.searches.offer(key, payload);
  return payload;
}
