// Economy registry routes (shared/contracts/economy.md, "REST"): `/api/series`, `/api/series/{id}` and
// `/api/categories`. Every document without a query is a precomputed Payload from the build, answered with
// one Map read; `q` runs the prebuilt lunr index through rankSeries and caches each distinct query's
// response. The service definition that joins these routes with the observation and MCP routes lives in
// server/economy/routes.ts.
import { API } from '../../contract/economy/api.ts';
import { isSeriesId } from '../../contract/economy/ids.ts';
import {
  rankSeries,
  toQueryWords,
  toSeriesSearch,
  type SearchIndexFile,
  type SeriesSearch,
} from '../../contract/economy/search.ts';
import type { RegistryEntry } from '../../contract/economy/types.ts';
import { PUBLIC_CACHE, sendDocument, type Routes } from '../core/app.ts';
import type { LoadedBuild } from '../core/build.ts';
import { Lru } from '../core/cache.ts';
import { parseQuery, queryOf } from '../core/params.ts';
import { sendPayload, toPayload, type Payload } from '../core/payload.ts';
import { notFound } from '../../contract/core/problem.ts';

export interface EconomyRegistryData {
  search: SeriesSearch;
  /** The build's registry (its registry.json) by id: upstream identifiers for the observation routes. */
  entries: ReadonlyMap<string, RegistryEntry>;
  /** Ranked responses by canonical query (its words). */
  searches: Lru<Payload>;
  /** The same responses by raw query string, so a repeated request skips validation and ranking. */
  raw: Lru<Payload>;
}

interface SeriesQuery {
  q?: string;
}

/** Builds the lookups from a verified build; runs at start and on reload only. */
export function loadRegistryData(build: LoadedBuild): EconomyRegistryData {
  const index = build.readJson<SearchIndexFile>('index/search.json');
  const entries = build.readJson<RegistryEntry[]>('registry.json');
  return {
    search: toSeriesSearch(index),
    entries: new Map(entries.map((e) => [e.id, e])),
    searches: new Lru(2000),
    raw: new Lru(2000),
  };
}

/** The `/api/series` response for a query: the build's list when q constrains nothing, else the ranking. */
export function searchSeries(data: EconomyRegistryData, build: LoadedBuild, query: SeriesQuery): Payload {
  const words = toQueryWords(query.q ?? '');
  if (words.length === 0) {
    const all = build.payloads.get(`${API}/series`);
    if (!all) throw notFound(`no resource at ${API}/series`);
    return all;
  }
  const key = JSON.stringify(words);
  let payload = data.searches.get(key);
  if (!payload) {
    payload = toPayload(JSON.stringify(rankSeries(words.join(' '), data.search)));
    data.searches.set(key, payload);
  }
  return payload;
}

export function registryRoutes<D extends EconomyRegistryData>(r: Routes<D>): void {
  r.get(`${API}/series`, (req, res, s) => {
    let payload = s.data.raw.get(req.search);
    if (!payload) {
      payload = searchSeries(s.data, s.build, parseQuery<SeriesQuery>(queryOf(req), 'economy/series-query'));
      s.data.raw.set(req.search, payload);
    }
    sendPayload(req, res, payload, { cacheControl: PUBLIC_CACHE });
  });
  r.get(`${API}/series/:id`, (req, res, s) => {
    const id = req.params.id ?? '';
    if (!isSeriesId(id)) throw notFound(`${id} is not a series id (upper case letters, digits and underscores)`);
    const p = s.build.payloads.get(`${API}/series/${id}`);
    if (!p) throw notFound(`no series ${id}`);
    sendPayload(req, res, p, { cacheControl: PUBLIC_CACHE });
  });
  r.get(`${API}/categories`, (req, res, s) => sendDocument(req, res, s, `${API}/categories`));
}
