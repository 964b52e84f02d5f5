// Bank of Canada Valet client (base URL BOC_VALET_URL; `GET /observations/{names}/json`). Values are strings
// already in the series' units (no scale factor); a date absent from a series has no point, and a cell without
// a number (`{"v":""}`, an error cell) is kept apart as missing, never 0. The wire facts: docs/data-sources.md, "Bank of Canada Valet".
import { isValidIsoDate } from '../../core/dates.ts';
import type { MissingPoint, Observation, PulledSeries, RegistryEntry } from '../types.ts';
import {
  fetchUpstreamJson,
  UpstreamError,
  withoutTrailingSlashes,
  type FetchLike,
  type SeriesUpstream,
} from './port.ts';
import { type Dropped, mergeByDate } from './statcan.ts';
import { readSetting, SETTINGS } from '../../core/settings-registry.ts';

export const BOC_VALET_DEFAULT_URL = SETTINGS.BOC_VALET_URL.default;
export const BOC_LABEL = 'Bank of Canada';

export interface ValetSeriesDetail {
  label?: string;
  description?: string;
  dimension?: { key: string; name: string };
}

/** A cell: `{v}` with the value as text, or `{e}` with an error code. */
export interface ValetCell {
  v?: string | number;
  e?: number;
}

export type ValetObservationRow = { d: string } & Record<string, ValetCell | string>;

export interface ValetObservationsBody {
  terms?: { url: string };
  seriesDetail?: Record<string, ValetSeriesDetail>;
  observations: ValetObservationRow[];
}

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The body's shape, checked: an object with an `observations` array of objects with a `d`. */
export function parseValetResponse(body: unknown): ValetObservationsBody {
  const b = body as Partial<ValetObservationsBody> | null;
  if (typeof b !== 'object' || b === null || !Array.isArray(b.observations))
    throw new UpstreamError('Bank of Canada Valet: the answer has no observations array');
  for (const row of b.observations) {
    if (typeof row !== 'object' || row === null || typeof row.d !== 'string')
      throw new UpstreamError('Bank of Canada Valet: an observation has no date `d`');
  }
  return b as ValetObservationsBody;
}

/** A Valet value: numeric text (or a number); undefined for an empty, error or absent cell. */
export function toValetNumber(cell: unknown): number | undefined {
  if (typeof cell !== 'object' || cell === null) return undefined;
  const v = (cell as ValetCell).v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  if (!NUMBER.test(t)) return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}

/** What a cell without a number stood for: an error cell's code (`e:-64`), else `..` (not available). */
function missingStatusOf(cell: unknown): string {
  const e = typeof cell === 'object' && cell !== null ? (cell as ValetCell).e : undefined;
  return e !== undefined && e !== null ? `e:${String(e)}` : '..';
}

const byDate = (a: { date: string }, b: { date: string }) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0);

/**
 * One series of a Valet answer, ascending by date; a cell present without a number goes to `missing`, an
 * undated row to `dropped`.
 */
export function normalizeValetObservations(
  body: ValetObservationsBody,
  name: string,
): { observations: Observation[]; missing: MissingPoint[]; dropped: Dropped[] } {
  const byDay = new Map<string, Observation | MissingPoint>();
  const dropped: Dropped[] = [];
  for (const row of body.observations) {
    if (!(name in row)) continue; // absent: no value that day
    if (!isValidIsoDate(row.d)) {
      dropped.push({ date: row.d, reason: 'd is not a YYYY-MM-DD date' });
      continue;
    }
    const value = toValetNumber(row[name]);
    byDay.set(
      row.d,
      value === undefined ? { date: row.d, status: missingStatusOf(row[name]) } : { date: row.d, value },
    );
  }
  const observations: Observation[] = [];
  const missing: MissingPoint[] = [];
  for (const p of [...byDay.values()].sort(byDate)) {
    if ('value' in p) observations.push(p);
    else missing.push(p);
  }
  return { observations, missing, dropped };
}

/** An HTTP `Date` header as ISO 8601; undefined when absent or not a date. */
export function toReleasedAt(date: string | null | undefined): string | undefined {
  if (!date) return undefined;
  const t = Date.parse(date);
  return Number.isFinite(t) ? new Date(t).toISOString() : undefined;
}

export interface ValetClientOptions {
  /** BOC_VALET_URL; default https://www.bankofcanada.ca/valet. */
  baseUrl?: string;
  fetch?: FetchLike;
  /** The largest answer taken (UPSTREAM_MAX_BYTES); default 64 MiB. */
  maxBytes?: number;
  timeoutMs?: number;
  /** `source` of the observations; `Bank of Canada` unless a demo. */
  label?: string;
}

export interface ValetClient extends SeriesUpstream {
  readonly baseUrl: string;
  getObservations(
    names: readonly string[],
    range?: { startDate?: string; endDate?: string },
    signal?: AbortSignal,
    /** Called with the answer's headers (its `Date` is the series' release time). */
    onHeaders?: (headers: Headers) => void,
  ): Promise<ValetObservationsBody>;
}

/** BOC_VALET_URL from an environment, else the public service; its readers check it is an http(s) address. */
export function toValetBaseUrl(env: Readonly<Record<string, string | undefined>>): string {
  return readSetting(env, 'BOC_VALET_URL') || BOC_VALET_DEFAULT_URL;
}

export function createValetClient(options: ValetClientOptions = {}): ValetClient {
  const baseUrl = withoutTrailingSlashes(options.baseUrl ?? BOC_VALET_DEFAULT_URL);
  const label = options.label ?? BOC_LABEL;
  const client: ValetClient = {
    label,
    baseUrl,
    async getObservations(names, range = {}, signal, onHeaders) {
      if (names.length === 0) throw new UpstreamError('Bank of Canada Valet: no series names');
      for (const n of names)
        if (!/^[A-Za-z0-9_.]+$/.test(n))
          throw new UpstreamError(`Bank of Canada Valet: ${JSON.stringify(n)} is not a series name`);
      const params = new URLSearchParams();
      for (const [key, d] of [
        ['start_date', range.startDate],
        ['end_date', range.endDate],
      ] as const) {
        if (d === undefined) continue;
        if (!isValidIsoDate(d)) throw new UpstreamError(`${d} is not a YYYY-MM-DD date`);
        params.set(key, d);
      }
      const query = params.toString() ? `?${params.toString()}` : '';
      const body = await fetchUpstreamJson(
        `${baseUrl}/observations/${names.join(',')}/json${query}`,
        { method: 'GET' },
        {
          fetch: options.fetch,
          timeoutMs: options.timeoutMs ?? 10_000,
          maxBytes: options.maxBytes,
          signal,
          label: `${label} Valet`,
          onHeaders,
        },
      );
      return parseValetResponse(body);
    },
    async pull(entry: RegistryEntry, signal: AbortSignal) {
      if (entry.seriesNames.length === 0) throw new UpstreamError(`${entry.id} has no Valet series names`);
      // The whole history: Valet answers every observation when no start_date is given.
      let released: string | undefined;
      const body = await client.getObservations(entry.seriesNames, {}, signal, (h) => {
        released = toReleasedAt(h.get('date'));
      });
      const parts = entry.seriesNames.map((name) => {
        if (body.seriesDetail && !(name in body.seriesDetail))
          throw new UpstreamError(`${label} Valet: ${name} is missing from the answer`);
        return normalizeValetObservations(body, name);
      });
      const pulled: PulledSeries = mergeByDate(parts);
      if (released) pulled.released = released;
      return pulled;
    },
  };
  return client;
}
