// Facilities service (shared/contracts/facilities.md), base path /api/v1. Every document without a query
// is a precomputed Payload from the build, answered with one Map read; search runs the prebuilt lunr index
// and caches each distinct query's response.
import lunr from 'lunr';
import { isSpineId } from '../../pipeline/facilities/ids.ts';
import { normalizeCity } from '../../pipeline/facilities/normalize-names.ts';
import { DEFAULT_LIMIT, NameMatcher, toQueryTerms, toSearchResponse, type SearchDoc, type SearchIndexFile } from '../../pipeline/facilities/search.ts';
import type { Program, Tier } from '../../pipeline/facilities/records.ts';
import { PUBLIC_CACHE, sendDocument, type ServiceDefinition } from '../core/app.ts';
import { Lru } from '../core/cache.ts';
import { parseQuery } from '../core/params.ts';
import { sendPayload, toPayload, type Payload } from '../core/payload.ts';
import { notFound } from '../core/problem.ts';

export interface FacilitiesData {
  names: NameMatcher;
  /** In ranking order. */
  docs: SearchDoc[];
  /** Responses by canonical query (terms, filters, limit). */
  searches: Lru<Payload>;
  /** The same responses by raw query string, so a repeated request skips validation and matching. */
  raw: Lru<Payload>;
}

interface SearchQuery {
  q?: string;
  city?: string;
  tier?: Tier;
  program?: Program;
  limit?: number;
}

export const BASE = '/api/v1';

export function search(data: FacilitiesData, query: SearchQuery): Payload {
  const terms = toQueryTerms(query.q ?? '');
  const cityKey = query.city !== undefined ? normalizeCity(query.city) : '';
  const limit = query.limit ?? DEFAULT_LIMIT;
  const key = JSON.stringify([terms, cityKey, query.tier ?? '', query.program ?? '', limit]);
  const cached = data.searches.get(key);
  if (cached) return cached;
  const named = terms.length ? data.names.match(terms) : undefined;
  const matches = data.docs.filter(
    (d) =>
      (!named || named.has(d.spine_id)) &&
      (!cityKey || d.city_key === cityKey) &&
      (!query.tier || d.tier === query.tier) &&
      (!query.program || d.program === query.program),
  );
  // Not compressed: compressing each new result costs more than it saves on responses this size.
  const payload = toPayload(JSON.stringify(toSearchResponse(matches, limit)), 'application/json', false);
  data.searches.set(key, payload);
  return payload;
}

export const facilities: ServiceDefinition<FacilitiesData> = {
  name: 'facilities',
  basePath: BASE,
  load(build) {
    const file = build.readJson<SearchIndexFile>('index/search.json');
    return { names: new NameMatcher(lunr.Index.load(file.lunr)), docs: file.facilities, searches: new Lru(2000), raw: new Lru(2000) };
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
    r.get(`${BASE}/search`, (req, res, s) => {
      let payload = s.data.raw.get(req.search);
      if (!payload) {
        payload = search(s.data, parseQuery<SearchQuery>(req.query, 'facilities/search-query'));
        s.data.raw.set(req.search, payload);
      }
      sendPayload(req, res, payload, { cacheControl: PUBLIC_CACHE });
    });
  },
};
