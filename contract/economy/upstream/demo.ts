// The built-in demo upstream for demo builds: deterministic series answered in the upstreams' own wire formats,
// so statcan.ts and valet.ts parse them as they parse the real services. `createDemoFetch` answers in process
// on `.invalid` hosts (RFC 2606), which cannot resolve; `respondDemo` is the same answer for a real HTTP server.
import type { Frequency, RegistryEntry, Source } from '../types.ts';
import { createRng, type Rng } from '../../core/rng.ts';
import { DAY_MS } from '../../core/dates.ts';
import { fnv1a } from '../../core/hash.ts';
import type { FetchLike, SeriesUpstream } from './port.ts';
import { createStatcanClient, STATCAN_LABEL, type WdsDataPoint } from './statcan.ts';
import { BOC_LABEL, createValetClient } from './valet.ts';

export const DEMO_SUFFIX = ' (demo)';
export const DEMO_STATCAN_URL = 'https://statcan.demo.invalid/t1/wds/rest';
export const DEMO_VALET_URL = 'https://valet.demo.invalid/valet';

const EPOCH = Date.UTC(2000, 0, 1);
const MISSING_EVERY = 173;

/** getCodeSets → `frequency`. */
const WDS_FREQUENCY: Record<Frequency, number> = { daily: 1, weekly: 2, monthly: 6, quarterly: 9, annual: 12 };

export interface DemoOptions {
  now: () => Date;
  /** Registry entries the demo knows by vector id and Valet name (a pull through `createDemoUpstreams` adds its own). */
  entries?: readonly RegistryEntry[];
}

export interface DemoResponse {
  status: number;
  body: string;
}

type Kind = 'index' | 'rate' | 'policy' | 'fx' | 'level';

interface Profile {
  kind: Kind;
  frequency: Frequency;
  decimals: number;
  scalarFactorCode: number;
}

interface Point {
  date: string;
  value: number | undefined;
}

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function toProfile(entry: RegistryEntry | undefined): Profile {
  const frequency = entry?.frequency ?? 'monthly';
  const scalarFactorCode = entry?.scalarFactorCode ?? 0;
  const text = `${entry?.id ?? ''} ${entry?.title ?? ''} ${entry?.units ?? ''}`.toLowerCase();
  if (entry?.category === 'exchange-rates') return { kind: 'fx', frequency, decimals: 4, scalarFactorCode: 0 };
  if (/overnight|policy|target|bank rate/.test(text))
    return { kind: 'policy', frequency, decimals: 2, scalarFactorCode: 0 };
  if (entry?.category === 'interest-rates' || /percent|%|rate/.test(text))
    return { kind: 'rate', frequency, decimals: entry?.category === 'interest-rates' ? 2 : 1, scalarFactorCode };
  if (/index|=100/.test(text)) return { kind: 'index', frequency, decimals: 1, scalarFactorCode };
  return { kind: 'level', frequency, decimals: 0, scalarFactorCode };
}

/** Period starts from 2000 up to the last period published by `today` (with the usual release lags). */
function periodStarts(frequency: Frequency, today: string): string[] {
  const end = Date.parse(`${today}T00:00:00Z`);
  const out: string[] = [];
  const monthly = (step: number, lagDays: number) => {
    for (let i = 0; ; i += step) {
      const next = Date.UTC(2000, i + step, 1);
      if (next + lagDays * DAY_MS > end) break;
      out.push(iso(Date.UTC(2000, i, 1)));
    }
  };
  switch (frequency) {
    case 'daily':
      // Business days, published the next day.
      for (let t = EPOCH; t + DAY_MS <= end; t += DAY_MS) {
        const wd = new Date(t).getUTCDay();
        if (wd !== 0 && wd !== 6) out.push(iso(t));
      }
      break;
    case 'weekly':
      // Wednesdays, as the Bank's weekly series are dated.
      for (let t = EPOCH + 4 * DAY_MS; t + 7 * DAY_MS <= end; t += 7 * DAY_MS) out.push(iso(t));
      break;
    case 'monthly':
      monthly(1, 20);
      break;
    case 'quarterly':
      monthly(3, 60);
      break;
    case 'annual':
      monthly(12, 90);
      break;
  }
  return out;
}

/** Yearly growth and noise, spread over the periods of a year. */
const PER_YEAR: Record<Frequency, number> = { daily: 250, weekly: 52, monthly: 12, quarterly: 4, annual: 1 };

function walk(profile: Profile, rng: Rng, n: number, start?: number): number[] {
  const perYear = PER_YEAR[profile.frequency];
  const values: number[] = [];
  switch (profile.kind) {
    case 'index': {
      let v = rng.float(85, 105);
      for (let i = 0; i < n; i++) {
        v *= 1 + rng.normal(0.022, 0.012) / perYear;
        values.push(v);
      }
      break;
    }
    case 'level': {
      // In the upstream's own scale (thousands, millions, …): the parser multiplies by 10^scalarFactorCode.
      let v = rng.logFloat(2e3, 3e6);
      for (let i = 0; i < n; i++) {
        v *= 1 + rng.normal(0.03, 0.04) / perYear + rng.normal(0, 0.004);
        values.push(v);
      }
      break;
    }
    case 'rate': {
      const mean = rng.float(2, 7);
      let v = mean;
      for (let i = 0; i < n; i++) {
        v += (mean - v) * (0.5 / perYear) + rng.normal(0, 0.6 / Math.sqrt(perYear));
        v = Math.min(15, Math.max(0.1, v));
        values.push(v);
      }
      break;
    }
    case 'policy': {
      let v = 2;
      // About eight decisions a year, most of them holds.
      const decide = 8 / perYear;
      for (let i = 0; i < n; i++) {
        if (rng.chance(decide))
          v = Math.min(
            5,
            Math.max(
              0.25,
              v +
                rng.pickWeighted([
                  [0, 6],
                  [0.25, 2],
                  [-0.25, 2],
                  [0.5, 0.5],
                  [-0.5, 0.5],
                ] as const),
            ),
          );
        values.push(v);
      }
      break;
    }
    case 'fx': {
      // A log random walk pulled back toward its starting level, so 26 years stay within about ±40 %.
      const level = Math.log(start ?? rng.logFloat(0.005, 1.8));
      let x = level;
      for (let i = 0; i < n; i++) {
        x += (level - x) * (0.3 / perYear) + rng.normal(0, 0.07 / Math.sqrt(perYear));
        values.push(Math.exp(x));
      }
      break;
    }
  }
  return values;
}

/**
 * Where a Valet exchange rate starts in 2000: about where that currency stood in Canadian dollars then, so
 * a pair looks like what it stands for, and its daily (FXEURCAD) and annual (FXAEURCAD) series agree.
 */
const CAD_PER_UNIT_2000: Record<string, number> = {
  USD: 1.45,
  EUR: 1.37,
  GBP: 2.25,
  JPY: 0.0138,
  CNY: 0.18,
  MXN: 0.157,
  CHF: 0.88,
  AUD: 0.86,
};
function fxStart(key: string): number | undefined {
  if (key === 'FXCADUSD') return 1 / CAD_PER_UNIT_2000.USD!;
  const currency = /^FXA?([A-Z]{3})CAD$/.exec(key)?.[1];
  if (currency === undefined) return undefined;
  // Another currency: a level of its own, the same for every series of that currency.
  return CAD_PER_UNIT_2000[currency] ?? createRng(fnv1a(currency)).logFloat(0.005, 1.8);
}

/** The series as the upstream would publish it on `today`: one point per period, undefined where missing. */
export function toDemoSeries(
  key: string,
  entry: RegistryEntry | undefined,
  today: string,
): { profile: Profile; points: Point[] } {
  const profile = toProfile(entry);
  const dates = periodStarts(profile.frequency, today);
  const rng = createRng(fnv1a(key));
  const values = walk(profile, rng.fork('walk'), dates.length, fxStart(key));
  const gaps = rng.fork('gaps');
  const points: Point[] = dates.map((date, i) => {
    const missing = i < dates.length - 3 && gaps.int(0, MISSING_EVERY - 1) === 0;
    return { date, value: missing ? undefined : values[i] };
  });
  // The preliminary latest value moves a little with each day's release, and so do the two before it while
  // they are revised (monthly and coarser series), less each step back: an archive of demo days shows ALFRED's
  // real-time periods. A policy rate is never revised.
  const revised = revisedCount(profile);
  for (let k = 0; k < revised; k++) {
    const p = points[points.length - 1 - k];
    if (p?.value === undefined) continue;
    const revise = createRng(fnv1a(k === 0 ? `${key}|${today}` : `${key}|${today}|${k}`));
    p.value *= 1 + revise.normal(0, 0.002 / (k + 1));
  }
  return { profile, points };
}

/** How many of the newest points each demo day may revise: the preliminary one, and two more for monthly and coarser series. */
function revisedCount(profile: Profile): number {
  if (profile.kind === 'policy') return 0;
  return profile.frequency === 'daily' || profile.frequency === 'weekly' ? 1 : 3;
}

/**
 * A demo point's release time as WDS writes it (Ottawa local): today's 08:30 for the points each day revises,
 * else about six weeks after its period began (the 15th of the month after next), as StatCan's monthly
 * releases fall.
 */
function releaseTimeOf(date: string, index: number, count: number, profile: Profile, today: string): string {
  if (index >= count - Math.max(1, revisedCount(profile))) return `${today}T08:30`;
  const day = `${addMonthsIso(date, profile.frequency === 'quarterly' ? 4 : 2).slice(0, 8)}15`;
  return `${day < today ? day : today}T08:30`;
}

const round = (v: number, decimals: number) => Number(v.toFixed(decimals));
const json = (status: number, doc: unknown, indent?: number): DemoResponse => ({
  status,
  body: JSON.stringify(doc, null, indent),
});

/** `18-10-0004-01` → 18100004, the productId WDS writes. */
function toProductId(tableId: string | null | undefined): number {
  const digits = (tableId ?? '').replace(/\D/g, '').slice(0, 8);
  return digits.length === 8 ? Number(digits) : 0;
}

function addMonthsIso(date: string, months: number): string {
  const [y, m] = [Number(date.slice(0, 4)), Number(date.slice(5, 7))];
  return iso(Date.UTC(y, m - 1 + months, 1));
}

function wdsObject(
  vectorId: number,
  entry: RegistryEntry | undefined,
  today: string,
  range?: { start?: string; end?: string; latestN?: number },
) {
  const { profile, points } = toDemoSeries(String(vectorId), entry, today);
  let selected = points.filter((p) => (!range?.start || p.date >= range.start) && (!range?.end || p.date <= range.end));
  if (range?.latestN !== undefined) selected = selected.slice(Math.max(0, selected.length - range.latestN));
  const lastDate = points[points.length - 1]?.date;
  const revisedFrom = points[points.length - revisedCount(profile)]?.date ?? lastDate;
  const indexOf = new Map(points.map((p, i) => [p.date, i]));
  const vectorDataPoint: WdsDataPoint[] = selected.map((p) => ({
    refPer: p.date,
    refPer2: '',
    // Quarterly: refPerRaw is the quarter's last month (README, "Quarterly periods").
    refPerRaw: profile.frequency === 'quarterly' ? addMonthsIso(p.date, 2) : p.date,
    refPerRaw2: '',
    value: p.value === undefined ? null : round(p.value, profile.decimals),
    decimals: profile.decimals,
    scalarFactorCode: profile.scalarFactorCode,
    // p on the preliminary value, r on the ones being revised.
    symbolCode: p.date === lastDate ? 1 : revisedFrom !== undefined && p.date >= revisedFrom ? 3 : 0,
    statusCode: p.value === undefined ? 1 : 0,
    securityLevelCode: 0,
    releaseTime: releaseTimeOf(p.date, indexOf.get(p.date) ?? 0, points.length, profile, today),
    frequencyCode: WDS_FREQUENCY[profile.frequency],
  }));
  return {
    responseStatusCode: 0,
    productId: toProductId(entry?.tableId),
    coordinate: '1.1.0.0.0.0.0.0.0.0',
    vectorId,
    vectorDataPoint,
  };
}

const invalidVector = (vectorId: unknown) => ({
  status: 'FAILED',
  object: { responseStatusCode: 4, productId: 0, coordinate: '.........', vectorId: Number(vectorId) || null },
});

/**
 * Answers one upstream request from generated data: WDS `getDataFromVectorsAndLatestNPeriods`,
 * `getDataFromVectorByReferencePeriodRange` and `getSeriesInfoFromVector`, and Valet
 * `observations/{names}/json`, recognized by the end of the path whatever the host.
 */
export function respondDemo(
  method: string,
  url: URL,
  body: string | undefined,
  options: DemoOptions & { lookup?: (key: string) => RegistryEntry | undefined },
): DemoResponse {
  const today = iso(options.now().getTime());
  const known = new Map<string, RegistryEntry>();
  for (const e of options.entries ?? []) {
    for (const v of e.vectorIds) known.set(String(v), e);
    for (const n of e.seriesNames) known.set(n, e);
  }
  const lookup = (key: string) => options.lookup?.(key) ?? known.get(key);
  const path = url.pathname;

  const requests = (): { vectorId?: unknown; latestN?: unknown }[] | undefined => {
    try {
      const parsed: unknown = JSON.parse(body ?? '');
      return Array.isArray(parsed) ? (parsed as { vectorId?: unknown; latestN?: unknown }[]) : undefined;
    } catch {
      return undefined;
    }
  };
  const isVector = (v: unknown): v is number =>
    Number.isInteger(Number(v)) && Number(v) > 0 && lookup(String(Number(v))) !== undefined;

  if (path.endsWith('/getDataFromVectorsAndLatestNPeriods') && method === 'POST') {
    const list = requests();
    if (!list) return json(406, { message: 'the body must be a JSON array of {vectorId, latestN}' });
    return json(
      200,
      list.map((r) => {
        const n = Number(r.latestN);
        if (!isVector(r.vectorId)) return invalidVector(r.vectorId);
        if (!Number.isInteger(n) || n < 1)
          return { status: 'FAILED', object: { responseStatusCode: 8, vectorId: Number(r.vectorId) } };
        const id = Number(r.vectorId);
        return { status: 'SUCCESS', object: wdsObject(id, lookup(String(id)), today, { latestN: n }) };
      }),
    );
  }
  if (path.endsWith('/getDataFromVectorByReferencePeriodRange') && method === 'GET') {
    const ids = (url.searchParams.get('vectorIds') ?? '')
      .split(',')
      .map((s) => s.replace(/"/g, '').trim())
      .filter(Boolean);
    const start = url.searchParams.get('startRefPeriod') ?? undefined;
    const end = url.searchParams.get('endReferencePeriod') ?? undefined;
    return json(
      200,
      ids.map((raw) =>
        isVector(raw)
          ? { status: 'SUCCESS', object: wdsObject(Number(raw), lookup(raw), today, { start, end }) }
          : invalidVector(raw),
      ),
    );
  }
  if (path.endsWith('/getSeriesInfoFromVector') && method === 'POST') {
    const list = requests();
    if (!list) return json(406, { message: 'the body must be a JSON array of {vectorId}' });
    return json(
      200,
      list.map((r) => {
        if (!isVector(r.vectorId)) return invalidVector(r.vectorId);
        const entry = lookup(String(Number(r.vectorId)))!;
        const { profile } = toDemoSeries(String(r.vectorId), entry, today);
        return {
          status: 'SUCCESS',
          object: {
            responseStatusCode: 0,
            productId: toProductId(entry.tableId),
            coordinate: '1.1.0.0.0.0.0.0.0.0',
            vectorId: Number(r.vectorId),
            frequencyCode: WDS_FREQUENCY[profile.frequency],
            scalarFactorCode: profile.scalarFactorCode,
            decimals: profile.decimals,
            terminated: 0,
            SeriesTitleEn: entry.title,
            SeriesTitleFr: entry.title,
            memberUomCode: null,
          },
        };
      }),
    );
  }
  const valet = /\/observations\/([^/]+)\/json$/.exec(path);
  if (valet && method === 'GET') {
    const names = decodeURIComponent(valet[1]!).split(',');
    const unknown = names.find((n) => lookup(n) === undefined);
    // Valet's own answer to an unknown series name.
    if (unknown)
      return json(404, { message: `Series ${unknown} not found.`, docs: 'https://www.bankofcanada.ca/valet/docs' }, 4);
    const start = url.searchParams.get('start_date') ?? '';
    const end = url.searchParams.get('end_date') ?? '9999-12-31';
    const rows = new Map<string, Record<string, unknown>>();
    const seriesDetail: Record<string, unknown> = {};
    for (const name of names) {
      const entry = lookup(name)!;
      seriesDetail[name] = { label: name, description: entry.title, dimension: { key: 'd', name: 'Date' } };
      const { profile, points } = toDemoSeries(name, entry, today);
      for (const p of points) {
        if (p.date < start || p.date > end || p.value === undefined) continue; // absent, as Valet does
        let row = rows.get(p.date);
        if (!row) {
          row = { d: p.date };
          rows.set(p.date, row);
        }
        row[name] = { v: p.value.toFixed(profile.decimals) };
      }
    }
    const observations = [...rows.values()].sort((a, b) => ((a.d as string) < (b.d as string) ? -1 : 1));
    return json(200, { terms: { url: 'https://www.bankofcanada.ca/terms/' }, seriesDetail, observations }, 4);
  }
  return json(404, { message: `the demo upstream has no ${method} ${path}` });
}

/** A `fetch` answered by `respondDemo`, for the adapters' `fetch` option. */
export function createDemoFetch(
  options: DemoOptions & { lookup?: (key: string) => RegistryEntry | undefined },
): FetchLike {
  return async (input, init) => {
    init?.signal?.throwIfAborted();
    const r = respondDemo(
      init?.method ?? 'GET',
      new URL(input),
      typeof init?.body === 'string' ? init.body : undefined,
      options,
    );
    return new Response(r.body, { status: r.status, headers: { 'Content-Type': 'application/json' } });
  };
}

/**
 * The two upstreams of a demo build: the real adapters over the demo `fetch`, labelled `… (demo)`. Each
 * pull tells the demo which registry entry it is for, so no registry needs to be passed in.
 */
export function createDemoUpstreams(options: DemoOptions): Record<Source, SeriesUpstream> {
  const seen = new Map<string, RegistryEntry>();
  for (const e of options.entries ?? []) for (const k of [...e.vectorIds.map(String), ...e.seriesNames]) seen.set(k, e);
  const demoFetch = createDemoFetch({ now: options.now, lookup: (key) => seen.get(key) });
  const remember = (upstream: SeriesUpstream): SeriesUpstream => ({
    label: upstream.label,
    pull(entry, signal) {
      for (const k of [...entry.vectorIds.map(String), ...entry.seriesNames]) seen.set(k, entry);
      return upstream.pull(entry, signal);
    },
  });
  return {
    STATCAN: remember(
      createStatcanClient({ baseUrl: DEMO_STATCAN_URL, fetch: demoFetch, label: `${STATCAN_LABEL}${DEMO_SUFFIX}` }),
    ),
    BOC: remember(
      createValetClient({ baseUrl: DEMO_VALET_URL, fetch: demoFetch, label: `${BOC_LABEL}${DEMO_SUFFIX}` }),
    ),
  };
}
