// Economy registry routes (docs/contracts/economy.md, "REST"): `/api/series`, `/api/series/{id}` and
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
import { PUBLIC_CACHE } from '../../contract/core/layout.ts';
import { sendDocument, type Routes } from '../core/service.ts';
import type { LoadedBuild } from '../core/build.ts';
import { Lru } from '../core/cache.ts';
import { parseQuery, queryOf } from '../core/params.ts';
import { sendPayload, toPayload, type Payload } from '../core/payload.ts';
import { notFound, type ParameterError } from '../../contract/core/problem.ts';
import { loadChangeHistory, mountChangeRoutes, type ChangeHistory } from '../core/changes.ts';

export interface EconomyRegistryData {
  search: SeriesSearch;
  /** The build's registry (its registry.json) by id: upstream identifiers for the observation routes. */
  entries: ReadonlyMap<string, RegistryEntry>;
  /**
   * Ranked responses by canonical query (its words and page, never the raw query string): junk or
   * reordered parameters name one entry.
   */
  searches: Lru<SeriesPage>;
  /** The build's change record (docs/contracts/changes.md). */
  changes: ChangeHistory;
}

interface SeriesQuery {
  q?: string;
  limit?: number;
  offset?: number;
}

/** A page of `/api/series`, and how many series matched before paging (X-Total-Count). */
export interface SeriesPage {
  payload: Payload;
  total: number;
}

/** Builds the lookups from a verified build; runs at start and on reload only. */
export function loadRegistryData(build: LoadedBuild): EconomyRegistryData {
  const index = build.readJson<SearchIndexFile>('index/search.json');
  const entries = build.readJson<RegistryEntry[]>('registry.json');
  return {
    search: toSeriesSearch(index),
    entries: new Map(entries.map((e) => [e.id, e])),
    searches: new Lru(2000),
    changes: loadChangeHistory(build),
  };
}

/** One rule for q on every service (docs/contracts/common.md): absent is no filter, present needs a word. */
function checkSeriesQuery(query: Partial<SeriesQuery>): ParameterError[] {
  if (query.q === undefined || toQueryWords(query.q).length > 0) return [];
  return [{ parameter: 'q', message: 'must hold a letter or digit; leave q out to list every series' }];
}

/**
 * The `/api/series` page for a query: the build's list when q is absent and nothing is paged, else the
 * ranking (or the list) sliced by offset and limit.
 */
export function searchSeries(data: EconomyRegistryData, build: LoadedBuild, query: SeriesQuery): SeriesPage {
  const words = toQueryWords(query.q ?? '');
  const offset = query.offset ?? 0;
  const paged = offset > 0 || query.limit !== undefined;
  if (words.length === 0 && !paged) {
    const all = build.payloads.get(`${API}/series`);
    if (!all) throw notFound(`no resource at ${API}/series`);
    return { payload: all, total: data.search.ids.length };
  }
  const key = JSON.stringify([words, offset, query.limit ?? null]);
  let page = data.searches.get(key);
  if (!page) {
    const matches = rankSeries(words.join(' '), data.search);
    const end = query.limit === undefined ? undefined : offset + query.limit;
    page = { payload: toPayload(JSON.stringify(matches.slice(offset, end))), total: matches.length };
    data.searches.set(key, page);
  }
  return page;
}

export function registryRoutes<D extends EconomyRegistryData>(r: Routes<D>): void {
  r.get(`${API}/series`, (req, res, s) => {
    const query = parseQuery<SeriesQuery>(queryOf(req), 'economy/series-query', checkSeriesQuery);
    const page = searchSeries(s.data, s.build, query);
    sendPayload(req, res, page.payload, { cacheControl: PUBLIC_CACHE, headers: { 'X-Total-Count': page.total } });
  });
  r.get(`${API}/series/:id`, (req, res, s) => {
    const id = req.params.id ?? '';
    if (!isSeriesId(id)) throw notFound(`${id} is not a series id (upper case letters, digits and underscores)`);
    const p = s.build.payloads.get(`${API}/series/${id}`);
    if (!p) throw notFound(`no series ${id}`);
    sendPayload(req, res, p, { cacheControl: PUBLIC_CACHE });
  });
  r.get(`${API}/categories`, (req, res, s) => sendDocument(req, res, s, `${API}/categories`));
  mountChangeRoutes(
    r,
    { changes: `${API}/changes`, history: `${API}/series/:id/history` },
    {
      checkId(id) {
        if (!isSeriesId(id)) throw notFound(`${id} is not a series id (upper case letters, digits and underscores)`);
      },
      served: (s, id) => s.build.payloads.has(`${API}/series/${id}`),
      what: 'series',
    },
  );
}
