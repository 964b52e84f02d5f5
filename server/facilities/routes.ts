// Facilities service (docs/contracts/facilities.md), base path /api/v1. Every document without a query
// is a precomputed Payload from the build, answered with one Map read (the CSV, GeoJSON and SQLite downloads
// are files of the tree, which the core's statics answer); search (./search.ts) runs the prebuilt index and
// caches each distinct query's response, as JSON or, with format=csv, as the downloads' rows.
import { CSV_TYPE } from '../../contract/core/csv.ts';
import { isSpineId } from '../../contract/facilities/ids.ts';
import { OPENAPI_PATH } from '../../contract/facilities/layout.ts';
import type { SearchIndexFile } from '../../contract/facilities/search.ts';
import { sendDocument, type ServiceDefinition } from '../core/service.ts';
import { PUBLIC_CACHE } from '../../contract/core/layout.ts';
import { parseQuery, queryOf } from '../core/params.ts';
import { sendPayload } from '../core/payload.ts';
import { notFound } from '../../contract/core/problem.ts';
import { loadChangeHistory, mountChangeRoutes, type ChangeHistory } from '../core/changes.ts';
import { checkSearchQuery, loadSearch, search, type SearchData, type SearchQuery } from './search.ts';
import { mountFacilitiesMcp } from './mcp.ts';

export type FacilitiesData = SearchData & {
  /** The build's change record (docs/contracts/changes.md). */
  changes: ChangeHistory;
};

export { checkSearchQuery, loadSearch, search, type SearchQuery };

export const BASE = '/api/v1';

/** A CSV page is a download (RFC 6266 §4.1), named for what it holds. */
const CSV_HEADERS = { 'Content-Disposition': 'attachment; filename="facilities-search.csv"' };

export interface FacilitiesOptions {
  /** Hosts `POST /api/v1/mcp` answers (MCP_ALLOWED_HOSTS); the local ones by default. */
  allowedHosts?: string[] | undefined;
}

/** The facilities service; `facilities` is the one with every default. */
export function createFacilitiesService(options: FacilitiesOptions = {}): ServiceDefinition<FacilitiesData> {
  return {
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
        const query = parseQuery<SearchQuery>(queryOf(req), 'facilities/search-query', (q) =>
          checkSearchQuery(q, s.data.years),
        );
        const payload = search(s.data, query, s.build.payloads.get(`${BASE}/search`));
        sendPayload(req, res, payload, {
          cacheControl: PUBLIC_CACHE,
          headers: payload.type === CSV_TYPE ? CSV_HEADERS : undefined,
        });
      });
      mountFacilitiesMcp(r, BASE, options.allowedHosts ? { allowedHosts: options.allowedHosts } : {});
    },
  };
}

export const facilities = createFacilitiesService();
