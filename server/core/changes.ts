// The change record of the build served (docs/contracts/changes.md), read at load: `…/changes` across the
// builds after `since`, and each entity's history. Answers are made per request from memory and sent as
// payloads, so they get ETags, 304s and compression like any answer.
import {
  CHANGES_DIR,
  CHANGES_INDEX,
  type Change,
  type ChangeEntry,
  type ChangesBuild,
  type ChangesIndex,
  type Field,
} from '../../contract/core/changes.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PUBLIC_CACHE } from '../../contract/core/layout.ts';
import { HttpError, invalidParameters, notFound } from '../../contract/core/problem.ts';
import type { ChangesParameters } from '../../contract/types/core/changes-query.ts';
import type { LoadedBuild } from './build.ts';
import { parseQuery, queryOf, type RawQuery } from './params.ts';
import { sendPayload, toPayload } from './payload.ts';
import type { RouteOptions, RouteRequest, Routes, ServiceState } from './service.ts';

/** The page size of `…/changes` when `limit` is not given. */
export const CHANGES_LIMIT = 100;

/** An answer made for this request, sent with an ETag named by what it was made from, compressed when asked. */
export function sendJson(
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
  identity: string,
  cacheControl = PUBLIC_CACHE,
): void {
  sendPayload(req, res, toPayload(JSON.stringify(body), 'application/json', true, identity), { cacheControl });
}

/** One change as the routes list it: the change with its build's data_version and time. */
export interface DatedChange extends Change {
  data_version: string;
  built_at: string;
}

/**
 * A served build's change record, as the routes ask it. Held in memory where it is small (facilities,
 * economy: loadChangeHistory), read as asked where a build changes hundreds of thousands of entities
 * (carriers: server/carriers/changes.ts).
 */
export interface ChangeHistory {
  /** The builds of the kept history, oldest first. */
  builds: readonly ChangeEntry[];
  /** True when older builds were dropped (the oldest kept one has a previous build). */
  truncated: boolean;
  /** The changes of `builds[from]` onwards (those naming `notable`, when given): how many, and a page of them. */
  list(
    from: number,
    notable: string | undefined,
    offset: number,
    limit: number,
  ): Promise<{ total: number; results: DatedChange[] }>;
  /** Every change to `id` in the kept history, oldest first; undefined for an id it never saw. */
  ofEntity(id: string): Promise<DatedChange[] | undefined>;
}

/** Whether the oldest kept build replaced one the history no longer holds. */
export const truncatedHistory = (builds: readonly ChangeEntry[]) =>
  builds[0] !== undefined && builds[0].previous !== null;

/** The record of `build` in memory, every page verified against its checksums; empty for a tree without one. */
export function loadChangeHistory(build: LoadedBuild): ChangeHistory {
  const builds: ChangeEntry[] =
    CHANGES_INDEX in build.checksums ? [...build.readJson<ChangesIndex>(CHANGES_INDEX).builds].reverse() : [];
  const changes: DatedChange[] = [];
  const starts: number[] = [];
  for (const b of builds) {
    starts.push(changes.length);
    for (let name: string | null = b.href; name !== null; ) {
      const page: ChangesBuild = build.readJson<ChangesBuild>(`${CHANGES_DIR}/${name}`);
      for (const c of page.changes) changes.push({ data_version: b.data_version, built_at: b.built_at, ...c });
      name = page.next;
    }
  }
  const byId = new Map<string, DatedChange[]>();
  for (const c of changes) (byId.get(c.id) ?? byId.set(c.id, []).get(c.id)!).push(c);
  return {
    builds,
    truncated: truncatedHistory(builds),
    async list(from, notable, offset, limit) {
      const after = changes.slice(from < builds.length ? starts[from]! : changes.length);
      const matching = notable === undefined ? after : after.filter((c) => c.notable.includes(notable));
      return { total: matching.length, results: matching.slice(offset, offset + limit) };
    },
    ofEntity: async (id) => byId.get(id),
  };
}

export interface ChangesQuery {
  since?: string;
  id?: string;
  notable?: string;
  limit: number;
  offset: number;
}

const DAY_MS = 86_400_000;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day `YYYY-MM-DD` as the UTC time its next day starts, or undefined. */
function endOfDay(day: string): number | undefined {
  const m = DAY.exec(day);
  if (!m) return undefined;
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return new Date(t).toISOString().slice(0, 10) === day ? t + DAY_MS : undefined;
}

/** The first build (oldest first) the answer covers, as an index into `history.builds`. */
function firstBuild(history: ChangeHistory, since: string): number {
  const end = endOfDay(since);
  if (DAY.test(since)) {
    if (end === undefined) throw invalidParameters([{ parameter: 'since', message: 'must be a real day, YYYY-MM-DD' }]);
    const oldest = history.builds[0];
    if (history.truncated && oldest && end <= Date.parse(oldest.built_at))
      throw new HttpError(
        410,
        'history_expired',
        `${since} is before the kept history, which starts at ${oldest.built_at}`,
      );
    const i = history.builds.findIndex((b) => Date.parse(b.built_at) >= end);
    return i === -1 ? history.builds.length : i;
  }
  // The latest build of that version: one whose inputs came back is listed again, later.
  const i = history.builds.findLastIndex((b) => b.data_version === since);
  if (i >= 0) return i + 1;
  if (history.truncated && history.builds[0]?.previous === since)
    throw new HttpError(410, 'history_expired', `build ${since} is older than the kept history`);
  throw notFound(`no build ${since} in the change history`);
}

/** `…/changes`: every change after `since` (or the last 30 days) to the build served, oldest first, paged. */
export async function queryChanges(history: ChangeHistory, query: ChangesQuery, served: string, now: Date) {
  const since = query.since ?? new Date(now.getTime() - 30 * DAY_MS).toISOString().slice(0, 10);
  const first = firstBuild(history, since);
  let page: { total: number; results: DatedChange[] };
  if (query.id === undefined) page = await history.list(first, query.notable, query.offset, query.limit);
  else {
    const after = new Set(history.builds.slice(first).map((b) => `${b.data_version}\0${b.built_at}`));
    const matching = ((await history.ofEntity(query.id)) ?? []).filter(
      (c) =>
        after.has(`${c.data_version}\0${c.built_at}`) &&
        (query.notable === undefined || c.notable.includes(query.notable)),
    );
    page = { total: matching.length, results: matching.slice(query.offset, query.offset + query.limit) };
  }
  return { since, until: served, total: page.total, limit: query.limit, offset: query.offset, results: page.results };
}

/** `…/changes` for a query as the route and the MCP tool receive it: checked by its schema, then answered. */
export async function answerChanges(history: ChangeHistory, raw: RawQuery, served: string) {
  const q = parseQuery<ChangesParameters>(raw, 'core/changes-query');
  const query = { ...q, limit: q.limit ?? CHANGES_LIMIT, offset: q.offset ?? 0 };
  return { ...(await queryChanges(history, query, served, new Date())), query };
}

/** `…/{id}/history`: every change to `id` in the kept history, oldest first; undefined for an id it never saw. */
export async function entityHistory(
  history: ChangeHistory,
  id: string,
): Promise<
  | {
      id: string;
      results: { data_version: string; built_at: string; kind: Change['kind']; fields: Field[]; notable: string[] }[];
    }
  | undefined
> {
  const own = await history.ofEntity(id);
  if (!own) return undefined;
  return {
    id,
    results: own.map(({ data_version, built_at, kind, fields, notable }) => ({
      data_version,
      built_at,
      kind,
      fields,
      notable,
    })),
  };
}

/**
 * `changes` (`…/changes`) and `history` (`…/{id}/history`, `:id` in it) on a service whose data holds its
 * change record; `checkId` throws the service's 404 for a malformed id, `served` says whether an id is in the
 * build (an entity served but never changed has an empty history).
 */
export function mountChangeRoutes<D extends { changes: ChangeHistory }>(
  r: Routes<D>,
  /** `history` names its id parameter `param` (`:id` by default). */
  paths: { changes: string; history: string; param?: string },
  entity: { checkId(id: string): void; served(state: ServiceState<D>, id: string): boolean; what: string },
  /** For signed-in records (carriers): the sign-in each request passes first, its route options and caching. */
  signedIn?: { check(req: RouteRequest): Promise<unknown>; options: RouteOptions; cacheControl: string },
): void {
  const cache = signedIn?.cacheControl ?? PUBLIC_CACHE;
  r.get(
    paths.changes,
    async (req, res, s) => {
      await signedIn?.check(req);
      const version = s.build.manifest.data_version;
      const body = await answerChanges(s.data.changes, queryOf(req), version);
      const key = JSON.stringify([body.since, body.query.id, body.query.notable, body.limit, body.offset]);
      const { query: _, ...doc } = body;
      sendJson(req, res, doc, `${version}\0changes\0${key}`, cache);
    },
    signedIn?.options,
  );
  r.get(
    paths.history,
    async (req, res, s) => {
      await signedIn?.check(req);
      const id = req.params[paths.param ?? 'id'] ?? '';
      entity.checkId(id);
      const history =
        (await entityHistory(s.data.changes, id)) ?? (entity.served(s, id) ? { id, results: [] } : undefined);
      if (!history) throw notFound(`no ${entity.what} ${id} in this build or its change history`);
      sendJson(req, res, history, `${s.build.manifest.data_version}\0history\0${id}`, cache);
    },
    signedIn?.options,
  );
}
