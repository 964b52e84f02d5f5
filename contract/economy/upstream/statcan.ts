// Statistics Canada Web Data Service client (base URL STATCAN_WDS_URL, each method as `/<method>`). Values are
// unscaled on the wire: the client applies `scalarFactorCode` and fails a pull whose code disagrees with the
// registry's; `refPer` is the date; each point keeps its flags and releaseTime; a point without a value (`..`,
// `x`, `F`, statuses 1, 8, 9, security level 1) is kept apart as missing, never 0. The wire facts: docs/data-sources.md, "Statistics Canada WDS".
import { isValidIsoDate } from '../../core/dates.ts';
import type { MissingPoint, Observation, PulledSeries, RegistryEntry } from '../types.ts';
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

/** getCodeSets → `status`: each code's symbol as StatCan tables print it (0, normal, has none). */
const STATUS_SYMBOL: ReadonlyMap<number, string> = new Map([
  [1, '..'],
  [2, '0s'],
  [3, 'A'],
  [4, 'B'],
  [5, 'C'],
  [6, 'D'],
  [7, 'E'],
  [8, 'F'],
  [9, '...'],
  [10, '<LOD'],
]);
/** The status codes whose point has no value to publish: `..`, `F`, `...`. */
const MISSING_STATUS = new Set([1, 8, 9]);
/** getCodeSets → `symbol`: 1 preliminary, 3 revised. */
const SYMBOL: ReadonlyMap<number, string> = new Map([
  [1, 'p'],
  [3, 'r'],
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

/** The point's flags as StatCan tables print them: status, suppression (`x`), symbol; undefined for none. */
function flagsOf(p: WdsDataPoint): string | undefined {
  const flags: string[] = [];
  const status = STATUS_SYMBOL.get(Number(p.statusCode));
  if (status !== undefined) flags.push(status);
  if (Number(p.securityLevelCode) === SUPPRESSED_SECURITY_LEVEL) flags.push('x');
  const symbol = SYMBOL.get(Number(p.symbolCode));
  if (symbol !== undefined) flags.push(symbol);
  return flags.length ? flags.join(' ') : undefined;
}

/** A WDS releaseTime (`YYYY-MM-DDTHH:MM`, Ottawa local) as given; undefined when it is not one. */
function releaseOf(p: WdsDataPoint): string | undefined {
  const t = p.releaseTime;
  return typeof t === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(t)
    ? t.slice(0, 16)
    : undefined;
}

/**
 * Data points to observations, ascending by date, scalar factor applied, each with its flags and release
 * time. A point without a value (a missing status, suppressed, or no number) goes to `missing` with its
 * flags (`..` when it has none); an undated point goes to `dropped`. With `scalarFactorCode`, a point that
 * says otherwise is an UpstreamError.
 */
export function normalizeWdsDataPoints(
  points: readonly WdsDataPoint[],
  options: { scalarFactorCode?: number; vectorId?: number } = {},
): { observations: Observation[]; missing: MissingPoint[]; dropped: Dropped[] } {
  const observations: Observation[] = [];
  const missing: MissingPoint[] = [];
  const dropped: Dropped[] = [];
  const name = options.vectorId !== undefined ? `v${options.vectorId}` : 'vector';
  for (const p of points) {
    const date = typeof p.refPer === 'string' ? p.refPer : String(p.refPer);
    if (!isValidIsoDate(date)) {
      dropped.push({ date, reason: 'refPer is not a YYYY-MM-DD date' });
      continue;
    }
    const flags = flagsOf(p);
    const released = releaseOf(p);
    const raw = toWdsNumber(p.value);
    if (
      MISSING_STATUS.has(Number(p.statusCode)) ||
      Number(p.securityLevelCode) === SUPPRESSED_SECURITY_LEVEL ||
      raw === undefined
    ) {
      const status =
        flags ?? (typeof p.value === 'string' && MISSING_SYMBOLS.has(p.value.trim()) ? p.value.trim() : '..');
      missing.push(released ? { date, status, released } : { date, status });
      continue;
    }
    const code = p.scalarFactorCode ?? options.scalarFactorCode ?? 0;
    if (options.scalarFactorCode !== undefined && code !== options.scalarFactorCode) {
      throw new UpstreamError(
        `${name} ${date}: WDS gives scalarFactorCode ${code}, the registry says ${options.scalarFactorCode}; fix the registry entry`,
      );
    }
    const o: Observation = { date, value: applyScalarFactor(raw, code) };
    if (flags) o.status = flags;
    if (released) o.released = released;
    observations.push(o);
  }
  observations.sort(byDate);
  missing.sort(byDate);
  return { observations, missing, dropped };
}

const byDate = (a: { date: string }, b: { date: string }) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0);

/**
 * Several vectors' points as one series (a terminated vector continued by a new one): by date, the later
 * vector wins, whether its point has a value or not.
 */
export function mergeByDate(parts: readonly { observations: Observation[]; missing: MissingPoint[] }[]): PulledSeries {
  const byDay = new Map<string, Observation | MissingPoint>();
  for (const part of parts) {
    for (const o of part.observations) byDay.set(o.date, o);
    for (const m of part.missing) byDay.set(m.date, m);
  }
  const observations: Observation[] = [];
  const missing: MissingPoint[] = [];
  for (const p of [...byDay.values()].sort(byDate)) {
    if ('value' in p) observations.push(p);
    else missing.push(p);
  }
  return { observations, missing };
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
      const parts = entry.vectorIds.map((vectorId, i) => {
        const item = itemFor(items, vectorId, i);
        if (!item) throw new UpstreamError(`${label} WDS: v${vectorId} is missing from the answer`);
        if (!item.ok) throw new UpstreamError(`${label} WDS: v${vectorId}: ${item.message}`);
        const points = Array.isArray(item.object.vectorDataPoint) ? item.object.vectorDataPoint : [];
        return normalizeWdsDataPoints(points, { scalarFactorCode: entry.scalarFactorCode, vectorId });
      });
      return mergeByDate(parts);
    },
  };
  return client;
}
