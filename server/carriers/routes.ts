// Carriers service (shared/contracts/carriers.md), paths under /api. Profiles and search results are
// precomputed bodies in record stores under the build's private/ folder (never in the public static tree);
// search runs the name index; sign-in and the free allowance use the account store under STATE_DIR.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServiceDefinition } from '../core/app.ts';
import type { LoadedBuild } from '../core/build.ts';
import { Lru } from '../core/cache.ts';
import { parseQuery } from '../core/params.ts';
import { sendPayload, toPayload, type Payload } from '../core/payload.ts';
import { invalidParameters, notFound } from '../core/problem.ts';
import { RecordStore } from '../core/record-store.ts';
import type { AccountStore } from '../core/store.ts';
import { toNameKey } from '../../pipeline/carriers/name-index.ts';
import { authenticate } from './auth.ts';
import { chargeProfileLookup } from './quota.ts';
import { NameIndex } from './search.ts';

export const BASE = '/api';
export const PROFILES = 'private/profiles';
export const SEARCH_RECORDS = 'private/search-records';
const PRIVATE_CACHE = 'no-store';
const PUBLIC_CACHE = 'public, max-age=300';
/** Profiles kept in memory, about 60 MB: the bound on what the cache adds to the server's RSS. */
export const PROFILE_CACHE = 20_000;

/**
 * `123456`, `USDOT 123456`, `DOT#123456`, `US DOT # 123456`: a carrier number look-up (contract, "Search").
 * 1–8 digits, as carrier ids are.
 */
const CARRIER_NUMBER = /^\s*(?:(?:u\.?\s*s\.?\s*)?dot\s*)?#?\s*(\d{1,8})\s*$/i;

export interface CarriersData {
  build: LoadedBuild;
  profiles: RecordStore;
  results: RecordStore;
  names: NameIndex;
  searches: Lru<Payload>;
  /** Recently served profiles (about 3 KB each): hot carriers skip the disk read. */
  hot: Lru<Buffer>;
}

export interface CarriersOptions {
  accounts: () => AccountStore;
  freeLookups: number;
  now?: () => Date;
}

interface SearchQuery {
  q: string;
  limit?: number;
}

/** 400 for anything but 1–8 digits (contract, "Access"). */
export function toCarrierId(raw: string | undefined): number {
  if (!raw || !/^\d{1,8}$/.test(raw) || Number(raw) === 0) {
    throw invalidParameters([{ parameter: 'carrier_id', message: 'must be a carrier number of 1 to 8 digits' }]);
  }
  return Number(raw);
}

function searchBody(data: CarriersData, q: string, limit: number): string {
  const number = CARRIER_NUMBER.exec(q);
  let total: number;
  let dots: number[];
  if (number) {
    const dot = Number(number[1]);
    dots = data.results.indexOf(dot) >= 0 ? [dot] : [];
    total = dots.length;
  } else {
    const isWholeName = (dot: number, key: string) => {
      const r = JSON.parse(data.results.get(dot)!.toString('utf8')) as { legal_name: string; dba_name: string | null };
      return toNameKey(r.legal_name) === key || (r.dba_name !== null && toNameKey(r.dba_name) === key);
    };
    ({ total, dots } = data.names.search(q, limit, isWholeName));
  }
  // The stored results are complete JSON objects: the response is assembled without re-parsing them.
  const parts = dots.map((d) => data.results.get(d)!.toString('utf8'));
  return `{"query":${JSON.stringify(q)},"total":${total},"results":[${parts.join(',')}]}`;
}

/**
 * A stored record never changes within a build, so its strong ETag is the build's data version and the
 * record's key: no hashing per request.
 */
function sendRecord(req: IncomingMessage, res: ServerResponse, body: Buffer, etag: string, headers: Record<string, string>): void {
  const payload: Payload = { body, etag, type: 'application/json' };
  sendPayload(req, res, payload, { cacheControl: PRIVATE_CACHE, headers });
}

export function createCarriersService(options: CarriersOptions): ServiceDefinition<CarriersData> {
  const now = options.now ?? (() => new Date());
  return {
    name: 'carriers',
    basePath: BASE,
    load(build) {
      return {
        build,
        profiles: RecordStore.open(build, PROFILES),
        results: RecordStore.open(build, SEARCH_RECORDS),
        names: new NameIndex(build),
        searches: new Lru(5000),
        hot: new Lru(PROFILE_CACHE),
      };
    },
    unload(data) {
      data.profiles.close();
      data.results.close();
    },
    routes(r) {
      r.get(`${BASE}/search`, (req, res, s) => {
        let payload = s.data.searches.get(req.search);
        if (!payload) {
          const query = parseQuery<SearchQuery>(req.query, 'carriers/search-query');
          payload = toPayload(searchBody(s.data, query.q, query.limit ?? 25), 'application/json', false);
          s.data.searches.set(req.search, payload);
        }
        sendPayload(req, res, payload, { cacheControl: PUBLIC_CACHE });
      });

      r.get(`${BASE}/carrier/:carrier_id`, (req, res, s) => {
        const account = authenticate(req, options.accounts());
        const id = toCarrierId(req.params.carrier_id);
        let body = s.data.hot.get(String(id));
        if (!body) {
          body = s.data.profiles.get(id);
          if (body) s.data.hot.set(String(id), body);
        }
        // A 4xx never counts against the allowance: look up first, charge after.
        if (!body) throw notFound(`no carrier ${id} in this build`);
        const charge = chargeProfileLookup(options.accounts(), account, now(), options.freeLookups);
        sendRecord(req, res, body, `"${s.build.manifest.data_version}-${id}"`, charge.headers);
      });
    },
  };
}
