// Statistics Canada Web Data Service client (base URL STATCAN_WDS_URL, each method as `/<method>`). Values are
// unscaled on the wire: the client applies `scalarFactorCode` and fails a pull whose code disagrees with the
// registry's; `refPer` is the date; missing values (`..`, `x`, `F`, statuses 1, 8, 9, security level 1) are
// dropped, never 0. The wire facts: docs/data-sources.md, "Statistics Canada WDS".
import { isValidIsoDate } from '../../core/dates.ts';
import type { Observation, RegistryEntry } from '../types.ts';
import {
  fetchUpstreamJson,
  UpstreamError,
  withoutTrailingSlashes,
  type FetchLike,
  type SeriesUpstream,
} from './port.ts';
import { readSetting, SETTINGS } from '../../core/settings-registry.ts';

export const STATCAN_WDS_DEFAULT_URL = SETTINGS.STATCAN_WDS_URL.default;
export const STATCAN_LABEL = 'Statistics Canada';

/**
 * Periods asked of getDataFromVectorsAndLatestNPeriods: enough for the whole history of any series the
 * registry holds (500 years monthly, 23 years daily). The `cansim` R package asks WDS for 6000 the same way.
 */
export const LATEST_N = 6000;

/** getCodeSets → `wdsResponseStatus`. */
export const WDS_RESPONSE_STATUS: Readonly<Record<number, string>> = {
  0: 'Success',
  1: 'Invalid date',
  2: 'Invalid cube and series combination',
  3: 'Request failed',
  4: 'Vector is invalid',
  5: 'Cube product id is invalid',
  6: 'Cube is currently being published. Please try again later.',
  7: 'Cube is not available',
  8: 'Invalid number of reference periods',
};

/** getCodeSets → `status`: the codes whose point has no value to publish. */
const MISSING_STATUS: ReadonlyMap<number, string> = new Map([
  [1, '..'],
  [8, 'F'],
  [9, '...'],
]);
/** getCodeSets → `securityLevel` 1: `x`, suppressed. */
const SUPPRESSED_SECURITY_LEVEL = 1;
/** Symbols that stand in for a value in StatCan tables (the CSV's VALUE column and the guide's examples). */
const MISSING_SYMBOLS = new Set(['..', '...', 'x', 'X', 'F', '.', '-', '—']);
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

export interface WdsDataPoint {
  refPer: string;
  refPer2?: string;
  refPerRaw?: string;
  refPerRaw2?: string;
  value: number | string | null;
  decimals?: number | null;
  scalarFactorCode?: number | null;
  symbolCode?: number | string | null;
  statusCode?: number | string | null;
  securityLevelCode?: number | string | null;
  releaseTime?: string;
  frequencyCode?: number | null;
}

export interface WdsVectorData {
  responseStatusCode: number;
  productId: number | string;
  coordinate: string;
  vectorId: number;
  vectorDataPoint: WdsDataPoint[];
}

export interface WdsSeriesInfo {
  responseStatusCode: number;
  productId: number | string;
  coordinate: string;
  vectorId: number;
  frequencyCode: number | null;
  scalarFactorCode: number | null;
  decimals: number | null;
  terminated: number | null;
  SeriesTitleEn: string | null;
  SeriesTitleFr: string | null;
  memberUomCode: number | null;
}

/** One item of a WDS answer: its object, or why it failed (`status` ≠ SUCCESS or `responseStatusCode` ≠ 0). */
export type WdsItem<T> =
  | { ok: true; vectorId: number | undefined; object: T }
  | { ok: false; vectorId: number | undefined; code: number | undefined; message: string };

export interface Dropped {
  date: string;
  reason: string;
}

/** The envelope(s) of a WDS answer, item by item. A single envelope (the guide's GET examples) counts as one. */
export function parseWdsResponse<T>(body: unknown): WdsItem<T>[] {
  const list = Array.isArray(body) ? body : [body];
  return list.map((envelope): WdsItem<T> => {
    const { status, object } = (typeof envelope === 'object' && envelope !== null ? envelope : {}) as {
      status?: unknown;
      object?: unknown;
    };
    if (typeof object !== 'object' || object === null || Array.isArray(object)) {
      const why = typeof object === 'string' ? object : 'no object';
      return { ok: false, vectorId: undefined, code: undefined, message: `status ${String(status)}: ${why}` };
    }
    const o = object as Record<string, unknown>;
    const vectorId =
      o.vectorId === null || o.vectorId === undefined || o.vectorId === '' ? undefined : Number(o.vectorId);
    const code =
      o.responseStatusCode === null || o.responseStatusCode === undefined ? undefined : Number(o.responseStatusCode);
    if (status !== 'SUCCESS' || (code !== undefined && code !== 0)) {
      const text =
        code !== undefined
          ? `${WDS_RESPONSE_STATUS[code] ?? 'unknown status'} (responseStatusCode ${code})`
          : `status ${String(status)}`;
      return { ok: false, vectorId: Number.isFinite(vectorId) ? vectorId : undefined, code, message: text };
    }
    return { ok: true, vectorId: Number.isFinite(vectorId) ? vectorId : undefined, object: o as T };
  });
}

/** A WDS value: a finite number, or a numeric string (plain or exponent form); undefined for anything missing. */
export function toWdsNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const t = value.trim();
  if (t === '' || MISSING_SYMBOLS.has(t) || !NUMBER.test(t)) return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * value × 10^code, shifted in decimal so 226.7 × 10^3 is 226700 exactly rather than 226700.00000000003.
 * Codes 0–9 per getCodeSets → `scalar` (0 units … 9 billions).
 */
export function applyScalarFactor(value: number, code: number): number {
  if (!Number.isInteger(code) || code < 0 || code > 9)
    throw new UpstreamError(`scalar factor code ${code} is not one of 0–9`);
  if (code === 0) return value;
  const text = String(value);
  return text.includes('e') ? value * 10 ** code : Number(`${text}e${code}`);
}

/**
 * Data points to observations, ascending by date, scalar factor applied; missing values and undated points
 * go to `dropped`. With `scalarFactorCode`, a point that says otherwise is an UpstreamError.
 */
export function normalizeWdsDataPoints(
  points: readonly WdsDataPoint[],
  options: { scalarFactorCode?: number; vectorId?: number } = {},
): { observations: Observation[]; dropped: Dropped[] } {
  const observations: Observation[] = [];
  const dropped: Dropped[] = [];
  const name = options.vectorId !== undefined ? `v${options.vectorId}` : 'vector';
  for (const p of points) {
    const date = typeof p.refPer === 'string' ? p.refPer : String(p.refPer);
    if (!isValidIsoDate(date)) {
      dropped.push({ date, reason: 'refPer is not a YYYY-MM-DD date' });
      continue;
    }
    const status = MISSING_STATUS.get(Number(p.statusCode));
    if (status !== undefined) {
      dropped.push({ date, reason: `status ${status}` });
      continue;
    }
    if (Number(p.securityLevelCode) === SUPPRESSED_SECURITY_LEVEL) {
      dropped.push({ date, reason: 'suppressed (x)' });
      continue;
    }
    const raw = toWdsNumber(p.value);
    if (raw === undefined) {
      dropped.push({ date, reason: `no value (${JSON.stringify(p.value ?? null)})` });
      continue;
    }
    const code = p.scalarFactorCode ?? options.scalarFactorCode ?? 0;
    if (options.scalarFactorCode !== undefined && code !== options.scalarFactorCode) {
      throw new UpstreamError(
        `${name} ${date}: WDS gives scalarFactorCode ${code}, the registry says ${options.scalarFactorCode}; fix the registry entry`,
      );
    }
    observations.push({ date, value: applyScalarFactor(raw, code) });
  }
  observations.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return { observations, dropped };
}

export interface StatcanClientOptions {
  /** STATCAN_WDS_URL; default https://www150.statcan.gc.ca/t1/wds/rest. */
  baseUrl?: string;
  fetch?: FetchLike;
  /** Per-request limit; default 10 s. */
  /** The largest answer taken (UPSTREAM_MAX_BYTES); default 64 MiB. */
  maxBytes?: number;
  timeoutMs?: number;
  /** `source` of the observations; `Statistics Canada` unless a demo. */
  label?: string;
  latestN?: number;
}

export interface StatcanClient extends SeriesUpstream {
  readonly baseUrl: string;
  /** POST `[{"vectorId":…}]`. */
  getSeriesInfoFromVector(vectorIds: readonly number[], signal?: AbortSignal): Promise<WdsItem<WdsSeriesInfo>[]>;
  /** POST `[{"vectorId":…,"latestN":…}]`. */
  getDataFromVectorsAndLatestNPeriods(
    requests: readonly { vectorId: number; latestN: number }[],
    signal?: AbortSignal,
  ): Promise<WdsItem<WdsVectorData>[]>;
  /** GET `?vectorIds="1","2"&startRefPeriod=YYYY-MM-DD&endReferencePeriod=YYYY-MM-DD` (reference periods, inclusive). */
  getDataFromVectorByReferencePeriodRange(
    vectorIds: readonly number[],
    startRefPeriod: string,
    endReferencePeriod: string,
    signal?: AbortSignal,
  ): Promise<WdsItem<WdsVectorData>[]>;
}

/** STATCAN_WDS_URL from an environment, else the public service; its readers check it is an http(s) address. */
export function toStatcanBaseUrl(env: Readonly<Record<string, string | undefined>>): string {
  return readSetting(env, 'STATCAN_WDS_URL') || STATCAN_WDS_DEFAULT_URL;
}

function assertVectorIds(ids: readonly number[]): void {
  for (const id of ids)
    if (!Number.isInteger(id) || id <= 0) throw new UpstreamError(`vector id ${id} is not a positive integer`);
}

/** Picks the item of `vectorId` (by its own vectorId; by position when a failed item carries none). */
function itemFor<T>(items: readonly WdsItem<T>[], vectorId: number, position: number): WdsItem<T> | undefined {
  return (
    items.find((it) => it.vectorId === vectorId) ??
    (items[position]?.vectorId === undefined ? items[position] : undefined)
  );
}

export function createStatcanClient(options: StatcanClientOptions = {}): StatcanClient {
  const baseUrl = withoutTrailingSlashes(options.baseUrl ?? STATCAN_WDS_DEFAULT_URL);
  const label = options.label ?? STATCAN_LABEL;
  const latestN = options.latestN ?? LATEST_N;
  const request = (method: string, init: RequestInit, query = '', signal?: AbortSignal) =>
    fetchUpstreamJson(`${baseUrl}/${method}${query}`, init, {
      fetch: options.fetch,
      timeoutMs: options.timeoutMs ?? 10_000,
      maxBytes: options.maxBytes,
      signal,
      label: `${label} WDS`,
    });
  const post = (method: string, body: unknown, signal?: AbortSignal) =>
    request(
      method,
      { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
      '',
      signal,
    );

  const client: StatcanClient = {
    label,
    baseUrl,
    async getSeriesInfoFromVector(vectorIds, signal) {
      assertVectorIds(vectorIds);
      return parseWdsResponse<WdsSeriesInfo>(
        await post(
          'getSeriesInfoFromVector',
          vectorIds.map((vectorId) => ({ vectorId })),
          signal,
        ),
      );
    },
    async getDataFromVectorsAndLatestNPeriods(requests, signal) {
      assertVectorIds(requests.map((r) => r.vectorId));
      return parseWdsResponse<WdsVectorData>(
        await post(
          'getDataFromVectorsAndLatestNPeriods',
          requests.map(({ vectorId, latestN }) => ({ vectorId, latestN })),
          signal,
        ),
      );
    },
    async getDataFromVectorByReferencePeriodRange(vectorIds, startRefPeriod, endReferencePeriod, signal) {
      assertVectorIds(vectorIds);
      for (const d of [startRefPeriod, endReferencePeriod])
        if (!isValidIsoDate(d)) throw new UpstreamError(`${d} is not a YYYY-MM-DD date`);
      // The guide writes the ids quoted and comma-separated: vectorIds="1","2".
      const ids = encodeURIComponent(vectorIds.map((v) => `"${v}"`).join(','));
      const query = `?vectorIds=${ids}&startRefPeriod=${startRefPeriod}&endReferencePeriod=${endReferencePeriod}`;
      return parseWdsResponse<WdsVectorData>(
        await request('getDataFromVectorByReferencePeriodRange', { method: 'GET' }, query, signal),
      );
    },
    async pull(entry: RegistryEntry, signal: AbortSignal) {
      if (entry.vectorIds.length === 0) throw new UpstreamError(`${entry.id} has no StatCan vector ids`);
      const items = await client.getDataFromVectorsAndLatestNPeriods(
        entry.vectorIds.map((vectorId) => ({ vectorId, latestN })),
        signal,
      );
      // Several vectors make one series (a terminated vector continued by a new one): by date, the later
      // vector in the registry's list wins.
      const byDate = new Map<string, number>();
      entry.vectorIds.forEach((vectorId, i) => {
        const item = itemFor(items, vectorId, i);
        if (!item) throw new UpstreamError(`${label} WDS: v${vectorId} is missing from the answer`);
        if (!item.ok) throw new UpstreamError(`${label} WDS: v${vectorId}: ${item.message}`);
        const points = Array.isArray(item.object.vectorDataPoint) ? item.object.vectorDataPoint : [];
        for (const o of normalizeWdsDataPoints(points, { scalarFactorCode: entry.scalarFactorCode, vectorId })
          .observations)
          byDate.set(o.date, o.value);
      });
      return [...byDate].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([date, value]) => ({ date, value }));
    },
  };
  return client;
}
