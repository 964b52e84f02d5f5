// Facilities service (docs/contracts/facilities.md), base path /api/v1. Every document without a query
// is a precomputed Payload from the build, answered with one Map read (the CSV and GeoJSON downloads are
// files of the tree, which the core's statics answer); search runs the prebuilt lunr index and caches each
// distinct query's response, as JSON or, with format=csv, as the downloads' rows.
import lunr from 'lunr';
import { CSV_TYPE } from '../../contract/core/csv.ts';
import { SPINE_CSV_HEADER, toSpineCsvRecord, toSpineRow } from '../../contract/facilities/downloads.ts';
import { isSpineId } from '../../contract/facilities/ids.ts';
import { normalizeCity } from '../../contract/facilities/normalize-names.ts';
import { OPENAPI_PATH } from '../../contract/facilities/layout.ts';
import {
  DEFAULT_LIMIT,
  NameMatcher,
  toQueryTerms,
  toSearchResponse,
  type SearchDoc,
  type SearchIndexFile,
} from '../../contract/facilities/search.ts';
import { sendDocument, type ServiceDefinition } from '../core/service.ts';
import { PUBLIC_CACHE } from '../../contract/core/layout.ts';
import { RepeatCache } from '../core/cache.ts';
import { parseQuery, queryOf } from '../core/params.ts';
import { sendPayload, toPayload, type Payload } from '../core/payload.ts';
import { notFound, type ParameterError } from '../../contract/core/problem.ts';
import type { SearchParameters } from '../../contract/types/facilities/search-query.ts';
import { loadChangeHistory, mountChangeRoutes, type ChangeHistory } from '../core/changes.ts';

export interface FacilitiesData {
  names: NameMatcher;
  /** In ranking order. */
  docs: SearchDoc[];
  /**
   * Each doc's search result, serialized once at load with a leading comma: a response is these bytes
   * copied after its head (the first without its comma).
   */
  results: Buffer[];
  /** Each doc's row of search?format=csv, CRLF included: a CSV page is the header and these bytes. */
  csv: Buffer[];
  /** The build's data version: with the canonical query, it names a search response (its ETag). */
  version: string;
  /**
   * Responses by canonical query (the validated terms, filters and page in a fixed order, never the raw
   * query string), for queries asked more than once lately: junk or reordered parameters name one entry.
   */
  searches: RepeatCache<Payload>;
  /** The build's change record (docs/contracts/changes.md). */
  changes: ChangeHistory;
}

/** schemas/facilities/search-query.schema.json */
type SearchQuery = SearchParameters;

export const BASE = '/api/v1';

export function loadSearch(file: SearchIndexFile, version: string): Omit<FacilitiesData, 'changes'> {
  return {
    names: new NameMatcher(
      lunr.Index.load(file.lunr),
      file.facilities.map((d) => d.spine_id),
    ),
    docs: file.facilities,
    results: file.facilities.map((d) => Buffer.from(`,${JSON.stringify(toSearchResponse([d], 1).results[0])}`)),
    csv: file.facilities.map((d) => Buffer.from(toSpineCsvRecord(toSpineRow(d)))),
    version,
    searches: new RepeatCache(2000),
  };
}

const TAIL = Buffer.from(']}');
const CSV_HEAD = Buffer.from(SPINE_CSV_HEADER);
/** A CSV page is a download (RFC 6266 §4.1), named for what it holds. */
const CSV_HEADERS = { 'Content-Disposition': 'attachment; filename="facilities-search.csv"' };

/**
 * An empty city (a form's blank field) constrains nothing; one with text but nothing left to compare once
 * normalized (`---`, `(Toronto)`: bracketed parts are dropped) would match every city, so it is a 400.
 */
export function checkSearchQuery(query: Partial<SearchQuery>): ParameterError[] {
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
  return errors;
}

/**
 * The answer to a search. `whole` is the build's api/v1/search.json: the answer to no query (nor any query
 * that means the same, such as `limit=25`) is that document, with the file's tag and compressed codings,
 * so the route and the static file agree (docs/contracts/common.md).
 */
export function search(data: Omit<FacilitiesData, 'changes'>, query: SearchQuery, whole?: Payload): Payload {
  const terms = toQueryTerms(query.q ?? '');
  const cityKey = query.city !== undefined ? normalizeCity(query.city) : '';
  const limit = query.limit ?? DEFAULT_LIMIT;
  const offset = query.offset ?? 0;
  const tier = query.tier ?? '';
  const program = query.program ?? '';
  const naics = query.naics ?? '';
  const format = query.format ?? 'json';
  // Terms and city are letters, digits and spaces; tier, program and format are names: NUL separates them all.
  const key = `${limit}\0${offset}\0${tier}\0${program}\0${naics}\0${terms.join(' ')}\0${cityKey}\0${format}`;
  if (whole && key === `${DEFAULT_LIMIT}\0${0}\0\0\0\0\0\0json`) return whole;
  const cached = data.searches.get(key);
  if (cached) return cached;
  const filtered = cityKey !== '' || tier !== '' || program !== '' || naics !== '';
  const keep = (d: SearchDoc) =>
    (!cityKey || d.city_key === cityKey) &&
    (!tier || d.tier === tier) &&
    (!program || d.program === program) &&
    (!naics || d.naics?.startsWith(naics));
  let matches: ArrayLike<number>;
  if (terms.length) {
    // Name matches come as positions in ranking order: only the filters are left.
    const named = data.names.matchPositions(terms);
    if (filtered) {
      const kept: number[] = [];
      for (let k = 0; k < named.length; k++) if (keep(data.docs[named[k]!]!)) kept.push(named[k]!);
      matches = kept;
    } else {
      matches = named;
    }
  } else {
    const kept: number[] = [];
    data.docs.forEach((d, i) => {
      if (keep(d)) kept.push(i);
    });
    matches = kept;
  }
  const end = Math.min(offset + limit, matches.length);
  const parts: Buffer[] = [];
  if (format === 'csv') {
    // The same page as the JSON, as rows made at load: total, limit and offset have no place in the CSV.
    parts.push(CSV_HEAD);
    for (let k = offset; k < end; k++) parts.push(data.csv[matches[k]!]!);
  } else {
    // The same bytes as JSON.stringify(toSearchResponse(...)), from the results serialized at load.
    parts.push(Buffer.from(`{"total":${matches.length},"limit":${limit},"offset":${offset},"results":[`));
    for (let k = offset; k < end; k++) {
      const result = data.results[matches[k]!]!;
      parts.push(k === offset ? result.subarray(1) : result);
    }
    parts.push(TAIL);
  }
  // A response is a function of the build and the canonical query: that pair is its strong validator,
  // which spares hashing every new body. Compressed on first request for a coding, once per cached entry.
  const type = format === 'csv' ? CSV_TYPE : 'application/json';
  const payload = toPayload(Buffer.concat(parts), type, true, `${data.version}\0${key}`);
  data.searches.offer(key, payload);
  return payload;
}

export const facilities: ServiceDefinition<FacilitiesData> = {
  name: 'facilities',
  basePath: BASE,
  openapi: OPENAPI_PATH,
  load(build) {
    return {
      ...loadSearch(build.readJson<SearchIndexFile>('index/search.json'), build.manifest.data_version),
      changes: loadChangeHistory(build),
    };
  },
  routes(r) {
    r.get(`${BASE}/spine`, (req, res, s) => sendDocument(req, res, s, `${BASE}/spine`));
    r.get(`${BASE}/stats`, (req, res, s) => sendDocument(req, res, s, `${BASE}/stats`));
    r.get(`${BASE}/facility/:id`, (req, res, s) => {
      const id = req.params.id ?? '';
      if (!isSpineId(id)) throw notFound(`${id} is not a facility id (ONF- and 6 digits)`);
      const p = s.build.payloads.get(`${BASE}/facility/${id}`);
      if (!p) throw notFound(`no facility ${id}`);
      sendPayload(req, res, p, { cacheControl: PUBLIC_CACHE });
    });
    mountChangeRoutes(
      r,
      { changes: `${BASE}/changes`, history: `${BASE}/facility/:id/history` },
      {
        checkId(id) {
          if (!isSpineId(id)) throw notFound(`${id} is not a facility id (ONF- and 6 digits)`);
        },
        served: (s, id) => s.build.payloads.has(`${BASE}/facility/${id}`),
        what: 'facility',
      },
    );
    r.get(`${BASE}/search`, (req, res, s) => {
      const query = parseQuery<SearchQuery>(queryOf(req), 'facilities/search-query', checkSearchQuery);
      const payload = search(s.data, query, s.build.payloads.get(`${BASE}/search`));
      sendPayload(req, res, payload, {
        cacheControl: PUBLIC_CACHE,
        headers: payload.type === CSV_TYPE ? CSV_HEADERS : undefined,
      });
    });
  },
};
