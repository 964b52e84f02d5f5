// Carriers service (docs/contracts/carriers.md), paths under /api. Profiles and search results are
// precomputed bodies in record stores under the build's private/ folder (never in the public static tree);
// search runs the name index on a thread of its own (search-thread.ts); sign-in, the free allowance and the
// explain cache use the account store: SQLite under STATE_DIR, or PostgreSQL with DATABASE_URL (store.ts).
import { SIGNED_IN } from '../core/service.ts';
import { answerChanges, mountChangeRoutes } from '../core/changes.ts';
import { type CarrierChanges, openCarrierChanges, readServedProfile } from './changes.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServiceDefinition, ServiceState } from '../core/service.ts';
import type { LoadedBuild } from '../core/build.ts';
import { RepeatCache } from '../core/cache.ts';
import { parseQuery, queryOf } from '../core/params.ts';
import {
  COMPRESS_MIN_BYTES,
  codingTag,
  matchesEtag,
  pickEncoding,
  sendPayload,
  toPayload,
  type Payload,
} from '../core/payload.ts';
import { HttpError, invalidParameters, notFound, type ParameterError } from '../../contract/core/problem.ts';
import { RecordStore } from '../core/record-store.ts';
import type { AccountStore, Plan, StoreHealth } from '../core/store.ts';
import { INSPECTIONS, MONTHLY, OPENAPI_PATH, PROFILES } from '../../contract/carriers/layout.ts';
import { INSPECTIONS_LIMIT, inspectionsPayload, parseInspectionsQuery } from './inspections.ts';
import { toSearchWords } from '../../contract/core/text.ts';
import { type AgentDeps, mountAgent } from './agent.ts';
import { agentMcp } from './agent-mcp.ts';
import { authenticate, type Account } from './auth.ts';
import { toStoreCheck } from './health.ts';
import type { LlmConfig } from './llm.ts';
import { mountPremium } from './premium.ts';
import { DEFAULT_SIGN_IN_FAILURES, SignInLimiter, type SignInLimitOptions } from './sign-in-limit.ts';
import { allowanceHeaders, chargeProfileLookup, peekProfileLookup } from './quota.ts';
import { CARRIER_NUMBER, SearchThread } from './search-thread.ts';
import { NO_STORE, PUBLIC_CACHE } from '../../contract/core/layout.ts';
import { LOCAL_HOSTS } from '../core/mcp.ts';
import { DEFAULT_WATCHLIST_LIMITS, type WatchlistLimits } from '../../contract/carriers/watchlists.ts';
import { mountWatchlists } from './watchlists.ts';
import type { Resolve } from './webhooks.ts';

export const BASE = '/api';
/** Profiles kept in memory, about 60 MB: the bound on what the cache adds to the server's RSS. */
export const PROFILE_CACHE = 20_000;

export interface CarriersData {
  build: LoadedBuild;
  profiles: RecordStore;
  /** The name index and the search records, on a thread of their own. */
  search: SearchThread;
  /** Responses to queries asked more than once lately, by canonical query (searchKey). */
  searches: RepeatCache<Payload>;
  /** Profiles served more than once lately (about 3 KB each): hot carriers skip the disk read. */
  hot: RepeatCache<Buffer>;
  /** Inspection and crash counts by month, for the export (only carriers with events). */
  monthly: RecordStore;
  /** The build's change record, signed-in data like the profiles (docs/contracts/changes.md). */
  changes: CarrierChanges;
  /** Each carrier's inspections and crashes of the window; undefined in a build made before the lists. */
  inspections: RecordStore | undefined;
}

export interface CarriersOptions {
  accounts: () => AccountStore;
  /**
   * The store's reachability for /healthz (`account_store`), for a shared store; undefined: the embedded
   * one, which is not opened just to be checked.
   */
  storeHealth?: () => Promise<StoreHealth>;
  freeLookups: number;
  now?: () => Date;
  /** The explain summary's LLM backend (EXPLAIN_LLM_*); undefined: the template alone. */
  llm?: LlmConfig;
  /** Where a failed LLM call is reported (default: stderr). */
  warn?: (message: string) => void;
  /** Hostnames allowed in Host and Origin of MCP requests to /api/mcp (DNS-rebinding protection). */
  allowedHosts?: readonly string[];
  /** Failed sign-ins per address (SIGN_IN_FAILURES_PER_MINUTE, TRUSTED_PROXIES); default 30 a minute, socket addresses. */
  signIn?: Partial<SignInLimitOptions>;
  /** Watchlists: limits per plan (WATCHLIST_*_MAX), WEBHOOK_ALLOW_PRIVATE, and how webhook hosts resolve. */
  watchlists?: { limits?: Record<Plan, WatchlistLimits>; allowPrivate?: boolean; resolve?: Resolve };
}

interface SearchQuery {
  q: string;
  limit?: number;
  offset?: number;
  /** Two letters, any case. */
  state?: string;
}

/** 400 for anything but 1–8 digits (contract, "Access"). */
export function toCarrierId(raw: string | undefined): number {
  // 0 is a number of 1 to 8 digits that no carrier has: a 404 where it is looked up, not a 400.
  if (!raw || !/^\d{1,8}$/.test(raw)) {
    throw invalidParameters([{ parameter: 'carrier_id', message: 'must be a carrier number of 1 to 8 digits' }]);
  }
  return Number(raw);
}

/**
 * A `q` with neither a carrier number nor a word to search for (`*`, `.`, `""`, a zero-width space) is a
 * 400, as a blank one is (contract, "Search"): it matches nothing for a reason the client should know.
 */
export function checkSearchText(q: string | undefined, parameter = 'q'): ParameterError[] {
  if (q === undefined || q.trim() === '' || CARRIER_NUMBER.test(q) || toSearchWords(q).length > 0) return [];
  return [{ parameter, message: 'has no letters or digits to search for' }];
}

/** `limit` when a search does not give one (contract, "Search"). */
export const SEARCH_LIMIT = 25;

/**
 * A search's cache key: its validated values in a fixed order, never the raw query string, so junk,
 * reordered or default-valued parameters name one entry. `q` is kept as given (the body echoes it); the
 * state in upper case (any case searches the same state).
 */
export function searchKey(query: SearchQuery): string {
  const { q, limit, offset, state } = query;
  return `${limit ?? SEARCH_LIMIT}\0${offset ?? 0}\0${state?.toUpperCase() ?? ''}\0${q}`;
}

/** The search body as a payload, from the cache or built (and cached) for the query. */
async function searchPayload(data: CarriersData, query: SearchQuery): Promise<Payload> {
  const key = searchKey(query);
  let payload = data.searches.get(key);
  if (!payload) {
    const { q, limit, offset, state } = query;
    // A body is a function of the build and the query: that pair names it (its strong ETag), which spares
    // hashing every new body of up to 100 results.
    payload = toPayload(
      await data.search.body(q, { limit: limit ?? SEARCH_LIMIT, offset: offset ?? 0, state }),
      'application/json',
      true,
      `${data.build.manifest.data_version}\0${key}`,
    );
    data.searches.offer(key, payload);
  }
  return payload;
}

/**
 * A stored record never changes within a build, so its strong ETag is the build's data version and the
 * record's key: no hashing per request.
 */
function sendRecord(req: IncomingMessage, res: ServerResponse, answer: ProfileAnswer): void {
  sendPayload(req, res, recordPayload(answer.body, answer.etag), { cacheControl: NO_STORE, headers: answer.headers });
}

/** A stored record as it is sent: compressed for a client that asks, as every answer of a few kB is. */
function recordPayload(body: Buffer, etag: string): Payload {
  return { body, etag, type: 'application/json', compressible: body.length > COMPRESS_MIN_BYTES };
}

export interface ProfileAccess {
  accounts: () => AccountStore;
  signIn: SignInLimiter;
  freeLookups: number;
  now: () => Date;
}

export interface ProfileAnswer {
  id: number;
  body: Buffer;
  etag: string;
  /** RateLimit-* for a free key; empty for premium. */
  headers: Record<string, string>;
}

/**
 * The one way to a profile, for the REST route and the get_carrier_profile tool alike: sign-in (401), the
 * carrier id (400), the carrier (404), then the allowance (429), in that order so a 4xx never counts. A
 * profile in the route's cache is answered from memory; another is read from its store without holding up
 * the event loop (RecordStore.read), and the allowance is charged once it is read.
 */
export async function lookupProfile(
  req: Pick<IncomingMessage, 'headers' | 'method'>,
  s: ServiceState<CarriersData>,
  rawId: string | undefined,
  access: ProfileAccess,
  /** More to check before the carrier is read (a route's own parameters): a 4xx from it counts nothing. */
  check?: () => void,
): Promise<ProfileAnswer> {
  const account = await authenticate(req, access.accounts(), access.signIn);
  let id: number;
  try {
    id = toCarrierId(rawId);
    check?.();
  } catch (err) {
    return refuse(err, account, access);
  }
  const body = await readServedProfile(s.data, id);
  if (!body) return refuse(notFound(`no carrier ${id} in this build`), account, access);
  return profileAnswer(req, s, account, id, body, access);
}

/**
 * A 400 or 404 counts nothing, but a free key's answer still says what is left: throws `err` with
 * RateLimit-* (after reading the allowance), or at once for premium.
 */
async function refuse(err: unknown, account: Account, access: ProfileAccess): Promise<never> {
  if (err instanceof HttpError && account.plan !== 'premium')
    Object.assign(err.headers, await allowanceHeaders(access.accounts(), account, access.now, access.freeLookups));
  throw err;
}

async function profileAnswer(
  req: Pick<IncomingMessage, 'headers' | 'method'>,
  s: ServiceState<CarriersData>,
  account: Account,
  id: number,
  body: Buffer,
  access: ProfileAccess,
): Promise<ProfileAnswer> {
  const etag = `"${s.build.manifest.data_version}-${id}"`;
  // A GET or HEAD whose If-None-Match holds this tag is answered 304, without the profile: not counted.
  const unchanged =
    (req.method === 'GET' || req.method === 'HEAD') &&
    req.headers['if-none-match'] !== undefined &&
    // The tag of the coding the answer would go out in (sendRecord): a copy in another coding is another copy.
    matchesEtag(
      req.headers['if-none-match'],
      codingTag(etag, pickEncoding(req.headers['accept-encoding'], recordPayload(body, etag))),
    );
  const charge = await (unchanged ? peekProfileLookup : chargeProfileLookup)(
    access.accounts(),
    account,
    access.now,
    access.freeLookups,
  );
  return { id, body, etag, headers: charge.headers };
}

export function createCarriersService(options: CarriersOptions): ServiceDefinition<CarriersData> {
  const access: ProfileAccess = {
    accounts: options.accounts,
    signIn: new SignInLimiter({
      failuresPerMinute: DEFAULT_SIGN_IN_FAILURES,
      trustedProxies: 0,
      ...options.signIn,
    }),
    freeLookups: options.freeLookups,
    now: options.now ?? (() => new Date()),
  };
  // Aborted on shutdown: an explain waiting on the LLM backend answers with the template before the exit.
  const closing = new AbortController();
  return {
    name: 'carriers',
    close: () => closing.abort(),
    ...(options.storeHealth && {
      health: async () => [toStoreCheck(await options.storeHealth!(), options.accounts().name)],
    }),
    basePath: BASE,
    openapi: OPENAPI_PATH,
    load(build) {
      const profiles = RecordStore.open(build, PROFILES);
      const monthly = RecordStore.open(build, MONTHLY);
      const inspections = build.has(`${INSPECTIONS}.idx`) ? RecordStore.open(build, INSPECTIONS) : undefined;
      let search: SearchThread;
      try {
        search = new SearchThread(build);
      } catch (err) {
        profiles.close();
        monthly.close();
        inspections?.close();
        throw err;
      }
      let changes: CarrierChanges;
      try {
        changes = openCarrierChanges(build);
      } catch (err) {
        profiles.close();
        monthly.close();
        inspections?.close();
        search.close();
        throw err;
      }
      return {
        build,
        profiles,
        search,
        searches: new RepeatCache(5000),
        hot: new RepeatCache(PROFILE_CACHE),
        monthly,
        changes,
        inspections,
      };
    },
    unload(data) {
      data.profiles.close();
      data.inspections?.close();
      data.search.close();
      data.monthly.close();
      data.changes.close();
    },
    routes(r) {
      r.get(`${BASE}/search`, async (req, res, s) => {
        const query = parseQuery<SearchQuery>(queryOf(req), 'carriers/search-query', (input) =>
          checkSearchText(input.q),
        );
        const payload = await searchPayload(s.data, query);
        sendPayload(req, res, payload, { cacheControl: PUBLIC_CACHE });
      });

      r.get(
        `${BASE}/carrier/:carrier_id`,
        async (req, res, s) => sendRecord(req, res, await lookupProfile(req, s, req.params.carrier_id, access)),
        SIGNED_IN,
      );

      // A profile's worth of data: the same gate, and a free key's answer counts one lookup.
      r.get(
        `${BASE}/carrier/:carrier_id/inspections`,
        async (req, res, s) => {
          let page = { limit: INSPECTIONS_LIMIT, offset: 0 };
          let store: RecordStore | undefined;
          // The profile's conditional request is not this one's: its If-None-Match is the page's own (below).
          const gate = { headers: { ...req.headers, 'if-none-match': undefined }, method: req.method };
          const answer = await lookupProfile(gate, s, req.params.carrier_id, access, () => {
            page = parseInspectionsQuery(req);
            // A build made before the lists existed: a 404 that says so, never a list that looks empty.
            store = s.data.inspections;
            if (!store) throw notFound('this build has no inspection lists; the next build adds them');
          });
          const dataVersion = s.build.manifest.data_version;
          const payload = await inspectionsPayload(store!, dataVersion, answer.id, answer.body, page);
          sendPayload(req, res, payload, { cacheControl: NO_STORE, headers: answer.headers });
        },
        SIGNED_IN,
      );

      // A change record is a profile's worth of data: signed in, and not counted against the allowance.
      mountChangeRoutes<CarriersData>(
        r,
        { changes: `${BASE}/changes`, history: `${BASE}/carrier/:carrier_id/history`, param: 'carrier_id' },
        {
          checkId: (id) => toCarrierId(id),
          served: (s, id) => s.data.profiles.indexOf(Number(id)) >= 0,
          what: 'carrier',
        },
        {
          check: (req) => authenticate(req, access.accounts(), access.signIn),
          options: SIGNED_IN,
          cacheControl: NO_STORE,
        },
      );

      mountWatchlists<CarriersData>(r, BASE, {
        accounts: options.accounts,
        signIn: (req) => authenticate(req, access.accounts(), access.signIn),
        limits: options.watchlists?.limits ?? DEFAULT_WATCHLIST_LIMITS,
        allowPrivate: options.watchlists?.allowPrivate ?? false,
        now: access.now,
        ...(options.watchlists?.resolve ? { resolve: options.watchlists.resolve } : {}),
      });

      mountPremium<CarriersData>(
        r,
        {
          accounts: options.accounts,
          signIn: access.signIn,
          llm: options.llm,
          now: access.now,
          warn: options.warn ?? ((m) => process.stderr.write(`[carriers] ${m}\n`)),
          stop: closing.signal,
        },
        toCarrierId,
      );

      // The same tools over MCP, on the same route and over the same functions.
      const mcp = (deps: AgentDeps<CarriersData>) =>
        agentMcp(deps, { allowedHosts: options.allowedHosts ?? LOCAL_HOSTS });
      // The tools run the functions above: no way around sign-in or the allowance.
      mountAgent<CarriersData>(r, mcp, {
        search: async (s, q, limit, page = {}) => {
          const errors = checkSearchText(q, 'args.query');
          if (errors.length) throw invalidParameters(errors);
          // The same body as the REST route's for the same values: one cache entry for both.
          const { offset, state } = page;
          return { body: (await searchPayload(s.data, { q, limit, offset, state })).body, headers: {} };
        },
        profile: (req, s, id) => lookupProfile(req, s, id, access),
        changes: async (req, s, args) => {
          await authenticate(req, access.accounts(), access.signIn);
          const raw = Object.fromEntries(Object.entries(args).map(([k, v]) => [k, String(v)]));
          const { query: _, ...doc } = await answerChanges(s.data.changes, raw, s.build.manifest.data_version);
          return { body: JSON.stringify(doc), headers: {} };
        },
        signIn: async (req) =>
          allowanceHeaders(
            access.accounts(),
            await authenticate(req, access.accounts(), access.signIn),
            access.now,
            access.freeLookups,
          ),
      });
    },
  };
}
