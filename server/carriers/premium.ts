// The premium routes (docs/contracts/carriers.md, "Explain", "Export", "Access"):
//   POST /api/carrier/{carrier_id}/explain   a plain-language summary of the profile, cached per build
//   GET  /api/carrier/{carrier_id}/export    the profile, monthly counts and event lists as JSON, or the BASICs as CSV
// Both need a premium key: 401 without a valid key, 403 `premium_required` for a free one, then 400 for a
// bad carrier id (or body, or format), then 404. Neither touches the free allowance.
import { type CarrierChanges, readServedProfile } from './changes.ts';
import { SIGNED_IN } from '../core/service.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Routes } from '../core/service.ts';
import { MAX_JSON_BODY_BYTES, readBody } from '../core/body.ts';
import type { LoadedBuild } from '../core/build.ts';
import type { RepeatCache } from '../core/cache.ts';
import { parseQuery, queryOf } from '../core/params.ts';
import { COMPRESS_MIN_BYTES, sendAnswer, sendPayload, type Payload } from '../core/payload.ts';
import { invalidParameters, notFound } from '../../contract/core/problem.ts';
import type { RecordStore } from '../core/record-store.ts';
import type { AccountStore } from '../core/store.ts';
import type { Profile } from '../../contract/carriers/profile.ts';
import { type Account, authenticate, requirePremium } from './auth.ts';
import type { SignInLimiter } from './sign-in-limit.ts';
import { createExplainer } from './explainer.ts';
import { readInspections, toListsJson } from './inspections.ts';
import { EXPORT_TYPES, toContentDisposition, toExportCsv, toExportJson, type ExportFormat } from './export.ts';
import type { LlmConfig } from './llm.ts';

export const EXPLAIN_PATH = '/api/carrier/:carrier_id/explain';
export const EXPORT_PATH = '/api/carrier/:carrier_id/export';
const PREMIUM_CACHE = 'no-store';

/** What the premium routes read of the service's loaded data. */
export interface PremiumData {
  build: LoadedBuild;
  profiles: RecordStore;
  /** The profile route's cache of recently read profiles, by carrier id as text. */
  hot: RepeatCache<Buffer>;
  /** The build's private/monthly store (pipeline/carriers/monthly.ts). */
  monthly: RecordStore;
  /** Each carrier's inspections and crashes of the window; undefined in a build made before the lists. */
  inspections: RecordStore | undefined;
  changes: CarrierChanges;
}

export interface PremiumOptions {
  accounts: () => AccountStore;
  /** Failed sign-ins per client address, shared with the other signed-in routes. */
  signIn?: SignInLimiter;
  llm?: LlmConfig;
  now: () => Date;
  warn: (message: string) => void;
  /** Aborted when the server shuts down (see ExplainerOptions.stop). */
  stop?: AbortSignal;
}

/** The JSON export, with every inspection and crash of the window where the build has the lists. */
async function toJson(data: PremiumData, id: number, body: Buffer, profile: Profile): Promise<string> {
  const store = data.inspections;
  const lists = store
    ? await readInspections(store, id, profile.data_gaps, 0, Number.POSITIVE_INFINITY).then((l) =>
        toListsJson(l.head, l.lines),
      )
    : undefined;
  return toExportJson(body, profile, await data.monthly.read(id), lists);
}

interface ExportQuery {
  format?: ExportFormat;
}

/** Sign-in (401, or 429 for an address over its failed sign-ins), plan (403), then the carrier id (400): the checks before anything is read. */
async function toPremiumCarrier(
  req: IncomingMessage,
  options: PremiumOptions,
  rawId: string | undefined,
  toCarrierId: (raw: string | undefined) => number,
): Promise<{ id: number; account: Account }> {
  const account = await authenticate(req, options.accounts(), options.signIn);
  requirePremium(account);
  return { id: toCarrierId(rawId), account };
}

/** The profile of carrier `id` as the profile route gives it (with its trend). */
async function readProfile(data: PremiumData, id: number): Promise<Buffer> {
  const body = await readServedProfile(data, id);
  if (!body) throw notFound(`no carrier ${id} in this build`);
  return body;
}

/** The explain route takes no input: an empty body or `{}` (whitespace around it allowed); anything else is a 400. */
async function assertNoInput(req: IncomingMessage): Promise<void> {
  const text = (await readBody(req, MAX_JSON_BODY_BYTES))
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trim();
  if (text === '' || /^\{\s*\}$/.test(text)) return;
  throw invalidParameters([{ parameter: 'body', message: 'must be empty or {}: the route takes no input' }]);
}

const sendJson = (res: ServerResponse, doc: unknown) => sendAnswer(res, doc, { cacheControl: PREMIUM_CACHE });

/** Registers both routes; `toCarrierId` is the service's own carrier-id check, so every route says the same. */
export function mountPremium<D extends PremiumData>(
  r: Routes<D>,
  options: PremiumOptions,
  toCarrierId: (raw: string | undefined) => number,
): void {
  const explain = createExplainer(options);

  r.post(
    EXPLAIN_PATH,
    async (req, res, s) => {
      const { id, account } = await toPremiumCarrier(req, options, req.params.carrier_id, toCarrierId);
      await assertNoInput(req);
      // The state of the request's start: a reload while the summary is generated does not mix builds.
      // The explanation is of the build's figures: the trend stays out of the prompt.
      const { trend: _, ...profile } = JSON.parse((await readProfile(s.data, id)).toString('utf8')) as Profile;
      sendJson(res, await explain(profile, s.build.manifest.data_version, account.id));
    },
    SIGNED_IN,
  );

  r.get(
    EXPORT_PATH,
    async (req, res, s) => {
      const { id } = await toPremiumCarrier(req, options, req.params.carrier_id, toCarrierId);
      const format = parseQuery<ExportQuery>(queryOf(req), 'carriers/export-query').format ?? 'json';
      const body = await readProfile(s.data, id);
      const profile = JSON.parse(body.toString('utf8')) as Profile;
      const text = format === 'json' ? await toJson(s.data, id, body, profile) : toExportCsv(profile);
      // Fixed within a build, like the profile's: the ETag needs no hashing.
      const bytes = Buffer.from(text);
      const payload: Payload = {
        body: bytes,
        etag: `"${s.build.manifest.data_version}-${id}-${format}"`,
        type: EXPORT_TYPES[format],
        compressible: bytes.length > COMPRESS_MIN_BYTES,
      };
      sendPayload(req, res, payload, {
        cacheControl: PREMIUM_CACHE,
        headers: { 'Content-Disposition': toContentDisposition(id, format) },
      });
    },
    SIGNED_IN,
  );
}
