// The upstream adapters (contract/economy/upstream/): parsing of the real recorded StatCan WDS and Bank of
// Canada Valet responses, replayed by a fake upstream (a node:http server on 127.0.0.1) that reads them
// from ../shared/data/economy/ at test time; then the wire quirks on small fixtures of our own; then the
// demo upstream through the same adapters. Checkable facts: shared/data/economy/README.md.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Observation, RegistryEntry } from '../../contract/economy/types.ts';
import { UpstreamError } from '../../contract/economy/upstream/port.ts';
import { createDemoUpstreams, DEMO_STATCAN_URL, respondDemo } from '../../contract/economy/upstream/demo.ts';
import {
  applyScalarFactor,
  createStatcanClient,
  LATEST_N,
  normalizeWdsDataPoints,
  parseWdsResponse,
  toWdsNumber,
  type StatcanClient,
  type WdsDataPoint,
  type WdsVectorData,
} from '../../contract/economy/upstream/statcan.ts';
import {
  createValetClient,
  normalizeValetObservations,
  parseValetResponse,
  type ValetClient,
} from '../../contract/economy/upstream/valet.ts';
import { SHARED_DATA } from '../helpers/server.ts';

const DATA = join(SHARED_DATA, 'economy');
const HAS_DATA = existsSync(DATA);
if (!HAS_DATA) console.warn('skipped: ../shared/data not found (economy upstream)');

const signal = () => AbortSignal.timeout(10_000);

function entry(over: Partial<RegistryEntry> & Pick<RegistryEntry, 'id'>): RegistryEntry {
  return {
    title: over.id,
    source: 'STATCAN',
    tableId: null,
    units: 'units',
    unitsDetail: 'units',
    frequency: 'monthly',
    category: 'prices',
    description: '',
    vectorIds: [],
    seriesNames: [],
    scalarFactorCode: 0,
    lastVerified: '2026-06-01',
    ...over,
  };
}

const valueOn = (obs: readonly Observation[], date: string) => obs.find((o) => o.date === date)?.value;

const isAscending = (obs: readonly Observation[]) => obs.every((o, i) => i === 0 || obs[i - 1]!.date < o.date);

// ---------------------------------------------------------------------------------------------------------
// The replaying fake upstream.

interface Envelope {
  status: string;
  object: Record<string, unknown>;
}

interface Recorded {
  /** getDataFromVectors… envelopes by vector id (latestN120_* and the stats_can latest5 cassette). */
  data: Map<number, Envelope>;
  /** getSeriesInfoFromVector objects by vector id. */
  info: Map<number, Envelope>;
  notFound: Record<string, unknown>;
  /** Valet cells by series name, then date; and the series' detail. */
  valet: Map<string, { detail: unknown; cells: Map<string, unknown> }>;
}

function loadRecorded(): Recorded {
  const wds = join(DATA, 'statcan_wds');
  const read = (dir: string, name: string): unknown => JSON.parse(readFileSync(join(dir, name), 'utf8'));
  const data = new Map<number, Envelope>();
  for (const name of readdirSync(wds).filter((n) => /^(latestN120_|getDataFromVectorsAndLatestNPeriods_)/.test(n))) {
    for (const env of read(wds, name) as Envelope[]) data.set(Number(env.object.vectorId), env);
  }
  const info = new Map<number, Envelope>();
  for (const env of read(wds, 'getSeriesInfoFromVector_v41692452.json') as Envelope[])
    info.set(Number(env.object.vectorId), env);
  // The mcp-statcan captures kept only the `object`: wrapped back in the envelope WDS sends around it.
  for (const name of ['seriesInfo_object_v41690973.json', 'seriesInfo_object_v21581063.json']) {
    const object = read(wds, name) as Record<string, unknown>;
    info.set(Number(object.vectorId), { status: 'SUCCESS', object });
  }
  const notFound = read(wds, 'seriesInfo_object_v1175552674_not_found.json') as Record<string, unknown>;

  const valet = new Map<string, { detail: unknown; cells: Map<string, unknown> }>();
  const vdir = join(DATA, 'valet');
  for (const name of readdirSync(vdir).filter((n) => n.endsWith('.json'))) {
    const doc = read(vdir, name) as { seriesDetail: Record<string, unknown>; observations: Record<string, unknown>[] };
    for (const [series, detail] of Object.entries(doc.seriesDetail)) {
      let s = valet.get(series);
      if (!s) {
        s = { detail, cells: new Map() };
        valet.set(series, s);
      }
      // The yearly FX files overlap by a few days at year ends: one cell per date.
      for (const row of doc.observations) if (series in row) s.cells.set(row.d as string, row[series]);
    }
  }
  return { data, info, notFound, valet };
}

interface Replay {
  base: string;
  requests: { method: string; url: string; body: string }[];
  close(): Promise<void>;
}

async function startReplay(rec: Recorded): Promise<Replay> {
  const requests: Replay['requests'] = [];
  const answer = (method: string, url: URL, body: string): { status: number; json: unknown; indent?: number } => {
    const path = url.pathname;
    const failed = (vectorId: unknown) => ({
      status: 'FAILED',
      object: { ...rec.notFound, vectorId: Number(vectorId) },
    });
    if (method === 'POST' && path.endsWith('/getDataFromVectorsAndLatestNPeriods')) {
      const items = JSON.parse(body) as { vectorId: number; latestN: number }[];
      return {
        status: 200,
        json: items.map(({ vectorId, latestN }) => {
          const env = rec.data.get(vectorId);
          if (!env) return failed(vectorId);
          const points = env.object.vectorDataPoint as unknown[];
          return {
            ...env,
            object: { ...env.object, vectorDataPoint: points.slice(Math.max(0, points.length - latestN)) },
          };
        }),
      };
    }
    if (method === 'POST' && path.endsWith('/getSeriesInfoFromVector')) {
      const items = JSON.parse(body) as { vectorId: number }[];
      return { status: 200, json: items.map(({ vectorId }) => rec.info.get(vectorId) ?? failed(vectorId)) };
    }
    if (method === 'GET' && path.endsWith('/getDataFromVectorByReferencePeriodRange')) {
      // No raw recording of this method exists (README, section C): the recorded points, cut to the range.
      const ids = (url.searchParams.get('vectorIds') ?? '').split(',').map((s) => Number(s.replaceAll('"', '')));
      const start = url.searchParams.get('startRefPeriod') ?? '';
      const end = url.searchParams.get('endReferencePeriod') ?? '9999';
      return {
        status: 200,
        json: ids.map((id) => {
          const env = rec.data.get(id);
          if (!env) return failed(id);
          const points = (env.object.vectorDataPoint as WdsDataPoint[]).filter(
            (p) => p.refPer >= start && p.refPer <= end,
          );
          return { ...env, object: { ...env.object, vectorDataPoint: points } };
        }),
      };
    }
    const valet = /\/valet\/observations\/([^/]+)\/json$/.exec(path);
    if (method === 'GET' && valet) {
      const names = decodeURIComponent(valet[1]!).split(',');
      const unknown = names.find((n) => !rec.valet.has(n));
      if (unknown)
        return {
          status: 404,
          json: { message: `Series ${unknown} not found.`, docs: 'https://www.bankofcanada.ca/valet/docs' },
          indent: 4,
        };
      const start = url.searchParams.get('start_date') ?? '';
      const end = url.searchParams.get('end_date') ?? '9999';
      const rows = new Map<string, Record<string, unknown>>();
      for (const n of names) {
        for (const [d, cell] of rec.valet.get(n)!.cells) {
          if (d < start || d > end) continue;
          let row = rows.get(d);
          if (!row) {
            row = { d };
            rows.set(d, row);
          }
          row[n] = cell;
        }
      }
      const seriesDetail = Object.fromEntries(names.map((n) => [n, rec.valet.get(n)!.detail]));
      const observations = [...rows.values()].sort((a, b) => ((a.d as string) < (b.d as string) ? -1 : 1));
      return {
        status: 200,
        json: { terms: { url: 'https://www.bankofcanada.ca/terms/' }, seriesDetail, observations },
        indent: 4,
      };
    }
    return { status: 404, json: { message: 'not recorded' } };
  };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', body });
      const a = answer(req.method ?? '', new URL(req.url ?? '/', 'http://fake'), body);
      res.statusCode = a.status;
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify(a.json, null, a.indent));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

// ---------------------------------------------------------------------------------------------------------

describe.skipIf(!HAS_DATA)('StatCan WDS adapter on the recorded responses', () => {
  let replay: Replay;
  let wds: StatcanClient;
  beforeAll(async () => {
    replay = await startReplay(loadRecorded());
    wds = createStatcanClient({ baseUrl: `${replay.base}/t1/wds/rest/` });
  });
  afterAll(() => replay.close());

  it('pulls CPI all-items (v41690973) with its exact values, ascending', async () => {
    const { observations: obs } = await wds.pull(entry({ id: 'CPI_ALL_ITEMS', vectorIds: [41690973] }), signal());
    expect(obs).toHaveLength(120);
    expect(isAscending(obs)).toBe(true);
    expect(obs[0]!.date).toBe('2016-05-01');
    expect(valueOn(obs, '2019-12-01')).toBe(136.4);
    expect(valueOn(obs, '2022-06-01')).toBe(152.9);
    expect(valueOn(obs, '2024-01-01')).toBe(158.3);
    expect(valueOn(obs, '2025-01-01')).toBe(161.3);
    expect(valueOn(obs, '2026-04-01')).toBe(168.0);
    // The request is the documented POST body, with the whole history asked for.
    const last = replay.requests.at(-1)!;
    expect(last.method).toBe('POST');
    expect(last.url).toBe('/t1/wds/rest/getDataFromVectorsAndLatestNPeriods');
    expect(JSON.parse(last.body)).toEqual([{ vectorId: 41690973, latestN: LATEST_N }]);
  });

  it('pulls the unemployment rate (v2062815)', async () => {
    const { observations: obs } = await wds.pull(
      entry({ id: 'UNEMPLOYMENT_RATE', vectorIds: [2062815], category: 'labour' }),
      signal(),
    );
    expect(valueOn(obs, '2020-04-01')).toBe(13.7);
    expect(valueOn(obs, '2020-05-01')).toBe(14.2);
    expect(valueOn(obs, '2023-01-01')).toBe(5.1);
    expect(valueOn(obs, '2026-04-01')).toBe(6.9);
  });

  it('dates quarterly GDP (v62305752) at refPer, the quarter start, and applies scalar factor 6 (millions)', async () => {
    const { observations: obs } = await wds.pull(
      entry({ id: 'GDP_EXPENDITURE', vectorIds: [62305752], frequency: 'quarterly', scalarFactorCode: 6 }),
      signal(),
    );
    expect(obs).toHaveLength(120);
    expect(obs[0]!.date).toBe('1996-04-01'); // 1996Q2; refPerRaw says 1996-06-01
    expect(obs.every((o) => ['01', '04', '07', '10'].includes(o.date.slice(5, 7)) && o.date.endsWith('-01'))).toBe(
      true,
    );
    expect(valueOn(obs, '2019-10-01')).toBe(2_255_354_000_000); // 2019Q4: 2255354.0 millions
    expect(valueOn(obs, '2020-04-01')).toBe(1_968_126_000_000);
    expect(valueOn(obs, '2026-01-01')).toBe(2_500_680_000_000); // 2026Q1
  });

  it('reads exponent-form values (retail v52367097, 3.9520274E7 thousands)', async () => {
    const { observations: obs } = await wds.pull(
      entry({ id: 'RETAIL_SALES', vectorIds: [52367097], scalarFactorCode: 3 }),
      signal(),
    );
    expect(valueOn(obs, '2013-01-01')).toBe(39_520_274_000);
    expect(valueOn(obs, '2020-04-01')).toBe(35_195_868_000);
    // statusCode 3 is StatCan's `A` (data quality excellent); releaseTime is kept as WDS gives it.
    expect(obs.at(-1)).toEqual({
      date: '2022-12-01',
      value: 62_122_558_000,
      status: 'A',
      released: '2023-02-21T08:30',
    });
  });

  it('fails the pull when the registry scalar factor contradicts the upstream one', async () => {
    const pull = wds.pull(
      entry({ id: 'GDP_WRONG', vectorIds: [62305752], frequency: 'quarterly', scalarFactorCode: 3 }),
      signal(),
    );
    await expect(pull).rejects.toThrow(UpstreamError);
    await expect(pull).rejects.toThrow(/scalarFactorCode 6, the registry says 3/);
  });

  it('asks getDataFromVectorsAndLatestNPeriods for several vectors at once (stats_can cassette)', async () => {
    const items = await wds.getDataFromVectorsAndLatestNPeriods([
      { vectorId: 74804, latestN: 5 },
      { vectorId: 41692457, latestN: 5 },
    ]);
    expect(items.map((i) => i.ok)).toEqual([true, true]);
    const byVector = new Map(
      items.map((i) => [i.vectorId, i.ok ? normalizeWdsDataPoints(i.object.vectorDataPoint).observations : []]),
    );
    expect(valueOn(byVector.get(74804)!, '2024-04-01')).toBe(296148);
    expect(valueOn(byVector.get(41692457)!, '2024-05-01')).toBe(164.2);
    expect(byVector.get(41692457)!.map((o) => o.date)).toEqual([
      '2024-01-01',
      '2024-02-01',
      '2024-03-01',
      '2024-04-01',
      '2024-05-01',
    ]);
  });

  it('sends getDataFromVectorByReferencePeriodRange as the documented GET with quoted vector ids', async () => {
    const items = await wds.getDataFromVectorByReferencePeriodRange([41690973], '2024-10-01', '2025-02-01');
    const req = replay.requests.at(-1)!;
    expect(req.method).toBe('GET');
    const url = new URL(req.url, 'http://x');
    expect(url.pathname).toBe('/t1/wds/rest/getDataFromVectorByReferencePeriodRange');
    expect(url.searchParams.get('vectorIds')).toBe('"41690973"');
    expect(url.searchParams.get('startRefPeriod')).toBe('2024-10-01');
    expect(url.searchParams.get('endReferencePeriod')).toBe('2025-02-01');
    const item = items[0]!;
    expect(item.ok).toBe(true);
    // The same five months the mcp-statcan capture (latest5_object_v41690973_…) shows.
    const obs = normalizeWdsDataPoints((item as { object: WdsVectorData }).object.vectorDataPoint).observations;
    expect(obs.map((o) => o.value)).toEqual([161.8, 161.8, 161.2, 161.3, 163.0]);
  });

  it('reads getSeriesInfoFromVector item by item, with the failed item flagged (responseStatusCode 4)', async () => {
    const items = await wds.getSeriesInfoFromVector([41692452, 21581063, 1175552674]);
    expect(items[0]).toMatchObject({
      ok: true,
      vectorId: 41692452,
      object: { scalarFactorCode: 0, frequencyCode: 6, SeriesTitleEn: 'Alberta;All-items excluding food and energy' },
    });
    expect(items[1]).toMatchObject({
      ok: true,
      vectorId: 21581063,
      object: { scalarFactorCode: 3, memberUomCode: 428 },
    });
    expect(items[2]).toMatchObject({ ok: false, vectorId: 1175552674, code: 4 });
    expect((items[2] as { message: string }).message).toContain('Vector is invalid');
  });

  it('fails a pull whose vector the upstream rejects', async () => {
    await expect(wds.pull(entry({ id: 'GONE', vectorIds: [1175552674] }), signal())).rejects.toThrow(
      /v1175552674: Vector is invalid \(responseStatusCode 4\)/,
    );
  });
});

describe.skipIf(!HAS_DATA)('Valet adapter on the recorded responses', () => {
  let replay: Replay;
  let valet: ValetClient;
  beforeAll(async () => {
    replay = await startReplay(loadRecorded());
    valet = createValetClient({ baseUrl: `${replay.base}/valet` });
  });
  afterAll(() => replay.close());

  it('pulls USD/CAD (FXUSDCAD) across the yearly files, one observation per date', async () => {
    const { observations: obs } = await valet.pull(
      entry({
        id: 'USD_CAD',
        source: 'BOC',
        seriesNames: ['FXUSDCAD'],
        frequency: 'daily',
        category: 'exchange-rates',
      }),
      signal(),
    );
    expect(isAscending(obs)).toBe(true);
    expect(obs[0]).toEqual({ date: '2017-01-03', value: 1.3435 });
    expect(valueOn(obs, '2024-01-02')).toBe(1.3316);
    expect(valueOn(obs, '2024-06-28')).toBe(1.3687);
    expect(valueOn(obs, '2024-12-31')).toBe(1.4389);
    expect(replay.requests.at(-1)!.url).toBe('/valet/observations/FXUSDCAD/json');
  });

  it('asks for a date range with start_date and end_date', async () => {
    const body = await valet.getObservations(['FXEURCAD', 'FXUSDCAD'], {
      startDate: '2024-12-30',
      endDate: '2024-12-31',
    });
    expect(replay.requests.at(-1)!.url).toBe(
      '/valet/observations/FXEURCAD,FXUSDCAD/json?start_date=2024-12-30&end_date=2024-12-31',
    );
    expect(normalizeValetObservations(body, 'FXEURCAD').observations.at(-1)).toEqual({
      date: '2024-12-31',
      value: 1.4928,
    });
    expect(normalizeValetObservations(body, 'FXUSDCAD').observations.map((o) => o.date)).toEqual([
      '2024-12-30',
      '2024-12-31',
    ]);
  });

  it('pulls the policy rate (V39079) with its step dates', async () => {
    const { observations: obs } = await valet.pull(
      entry({
        id: 'POLICY_RATE',
        source: 'BOC',
        seriesNames: ['V39079'],
        frequency: 'daily',
        category: 'interest-rates',
      }),
      signal(),
    );
    expect(valueOn(obs, '2020-03-27')).toBe(0.25);
    expect(valueOn(obs, '2022-03-03')).toBe(0.5);
    expect(valueOn(obs, '2022-07-14')).toBe(2.5);
    expect(valueOn(obs, '2023-07-13')).toBe(5);
    expect(valueOn(obs, '2024-06-05')).toBe(5);
    expect(valueOn(obs, '2024-06-06')).toBe(4.75);
    expect(valueOn(obs, '2025-03-13')).toBe(2.75);
    expect(valueOn(obs, '2025-10-30')).toBe(2.25);
  });

  it('reads the other single-series captures (FXCADUSD, V122487) and the annual group (FXAUSDCAD)', async () => {
    const { observations: cadusd } = await valet.pull(
      entry({ id: 'CAD_USD', source: 'BOC', seriesNames: ['FXCADUSD'] }),
      signal(),
    );
    expect(valueOn(cadusd, '2017-01-03')).toBe(0.7443);
    expect(valueOn(cadusd, '2026-06-02')).toBe(0.7229);
    const { observations: bonds } = await valet.pull(
      entry({ id: 'GOC_10Y', source: 'BOC', seriesNames: ['V122487'] }),
      signal(),
    );
    expect(valueOn(bonds, '2010-01-01')).toBe(3.92);
    expect(valueOn(bonds, '2026-05-01')).toBe(3.76);
    const { observations: annual } = await valet.pull(
      entry({ id: 'USD_CAD_ANNUAL', source: 'BOC', seriesNames: ['FXAUSDCAD'], frequency: 'annual' }),
      signal(),
    );
    expect(annual.map((o) => o.value)).toEqual(expect.arrayContaining([1.2986, 1.3415, 1.3497, 1.3698]));
    expect(valueOn(annual, '2024-01-01')).toBe(1.3698);
  });

  it('leaves out dates where a series is absent (discontinued FXMYRCAD), never writing 0', async () => {
    const { observations: obs } = await valet.pull(
      entry({ id: 'MYR_CAD', source: 'BOC', seriesNames: ['FXMYRCAD'] }),
      signal(),
    );
    expect(obs.length).toBeGreaterThan(700);
    // The recordings carry it to 2019-12-31 (the README says 2019-12-27, where the 2020 file begins).
    expect(obs.at(-1)!.date).toBe('2019-12-31');
    expect(obs.some((o) => o.value === 0)).toBe(false);
    const body = await valet.getObservations(['FXMYRCAD', 'FXUSDCAD'], {
      startDate: '2020-01-02',
      endDate: '2020-01-31',
    });
    expect(body.observations.length).toBeGreaterThan(15);
    expect(normalizeValetObservations(body, 'FXMYRCAD')).toEqual({ observations: [], missing: [], dropped: [] });
    expect(normalizeValetObservations(body, 'FXUSDCAD').observations).toHaveLength(body.observations.length);
  });

  it('fails a pull of an unknown series with Valet’s message', async () => {
    const pull = valet.pull(entry({ id: 'NOPE', source: 'BOC', seriesNames: ['FXNOPECAD'] }), signal());
    await expect(pull).rejects.toThrow(UpstreamError);
    await expect(pull).rejects.toMatchObject({
      status: 404,
      message: expect.stringContaining('Series FXNOPECAD not found.'),
    });
  });
});

// ---------------------------------------------------------------------------------------------------------
// Wire quirks on our own fixtures.

describe('WDS values', () => {
  it.each([
    [161.3, 161.3],
    [3.9520274e7, 39520274],
    ['18381', 18381], // the user guide writes values as strings
    ['3.9520274E7', 39520274],
    ['1.5e-3', 0.0015],
    [' -0.4 ', -0.4],
    ['..', undefined],
    ['...', undefined],
    ['x', undefined],
    ['F', undefined],
    ['', undefined],
    [null, undefined],
    [undefined, undefined],
    [Number.NaN, undefined],
    ['1,234', undefined],
    ['abc', undefined],
  ])('toWdsNumber(%j) is %j', (input, expected) => {
    expect(toWdsNumber(input)).toBe(expected);
  });

  it.each([
    [226.7, 3, 226_700],
    [2500680, 6, 2_500_680_000_000],
    [3.9520274e7, 3, 39_520_274_000],
    [0.1, 1, 1],
    [1.5, 0, 1.5],
    [1e21, 3, 1e24],
  ])('applyScalarFactor(%d, %d) is %d', (value, code, expected) => {
    expect(applyScalarFactor(value, code)).toBe(expected);
  });

  it('rejects a scalar factor code outside 0–9', () => {
    expect(() => applyScalarFactor(1, 12)).toThrow(UpstreamError);
  });

  it('keeps missing values apart with their status instead of writing 0', () => {
    const p = (refPer: string, value: WdsDataPoint['value'], extra: Partial<WdsDataPoint> = {}): WdsDataPoint => ({
      refPer,
      value,
      scalarFactorCode: 3,
      statusCode: 0,
      securityLevelCode: 0,
      ...extra,
    });
    const { observations, missing, dropped } = normalizeWdsDataPoints(
      [
        p('2024-03-01', '12.5', { symbolCode: 1, releaseTime: '2024-04-16T08:30' }), // p: preliminary
        p('2024-12-01', 7, { statusCode: 7 }), // E: use with caution
        p('2024-01-01', 10),
        p('2024-02-01', null, { statusCode: 1 }), // ..
        p('2024-04-01', '..'),
        p('2024-05-01', 'F'),
        p('2024-06-01', 'x'),
        p('2024-07-01', ''),
        p('2024-08-01', 99, { statusCode: '8' }), // F: too unreliable to be published
        p('2024-09-01', 99, { securityLevelCode: 1 }), // x: suppressed
        p('2024-10-01', 99, { statusCode: 9 }), // ...: not applicable
        p('2024-11-01', 0), // a true zero stays
        p('2024-13-01', 5), // no such month
      ],
      { scalarFactorCode: 3 },
    );
    expect(observations).toEqual([
      { date: '2024-01-01', value: 10_000 },
      { date: '2024-03-01', value: 12_500, status: 'p', released: '2024-04-16T08:30' },
      { date: '2024-11-01', value: 0 },
      { date: '2024-12-01', value: 7_000, status: 'E' },
    ]);
    expect(missing).toEqual([
      { date: '2024-02-01', status: '..' },
      { date: '2024-04-01', status: '..' },
      { date: '2024-05-01', status: 'F' },
      { date: '2024-06-01', status: 'x' },
      { date: '2024-07-01', status: '..' },
      { date: '2024-08-01', status: 'F' },
      { date: '2024-09-01', status: 'x' },
      { date: '2024-10-01', status: '...' },
    ]);
    expect(dropped.map((d) => d.date)).toEqual(['2024-13-01']);
  });

  it('parses the user guide example (string value, refPer first)', () => {
    const [item] = parseWdsResponse<WdsVectorData>([
      {
        status: 'SUCCESS',
        object: {
          responseStatusCode: 0,
          productId: 34100006,
          coordinate: '1.2.7.0.0.0.0.0.0.0',
          vectorId: 42076,
          vectorDataPoint: [
            {
              refPer: '2017-07-01',
              refPer2: '',
              refPerRaw: '2017-01-01',
              refPerRaw2: '',
              value: '18381',
              decimals: 0,
              scalarFactorCode: 0,
              symbolCode: 0,
              statusCode: 0,
              securityLevelCode: 0,
              releaseTime: '2017-12-07T08:30',
              frequencyCode: 6,
            },
          ],
        },
      },
    ]);
    expect(item!.ok).toBe(true);
    expect(normalizeWdsDataPoints((item as { object: WdsVectorData }).object.vectorDataPoint).observations).toEqual([
      { date: '2017-07-01', value: 18381, released: '2017-12-07T08:30' },
    ]);
  });

  it.each([
    [
      'SUCCESS with a non-zero responseStatusCode',
      [{ status: 'SUCCESS', object: { responseStatusCode: 6, vectorId: 1 } }],
      { ok: false, code: 6, vectorId: 1 },
    ],
    [
      'FAILED with a text object',
      [{ status: 'FAILED', object: 'Vector is invalid' }],
      { ok: false, code: undefined, vectorId: undefined },
    ],
    [
      'a single envelope, not an array (the guide’s GET example)',
      { status: 'SUCCESS', object: { responseStatusCode: 0, vectorId: 1, vectorDataPoint: [] } },
      { ok: true, vectorId: 1 },
    ],
    ['something else entirely', { message: 'Internal error' }, { ok: false }],
  ])('reads per-item status: %s', (_, body, expected) => {
    const items = parseWdsResponse(body);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject(expected);
  });
});

describe('Valet values', () => {
  it('leaves out absent cells, keeps empty and error cells as missing, and reads strings', () => {
    const body = parseValetResponse({
      seriesDetail: { FXUSDCAD: { label: 'USD/CAD' } },
      observations: [
        { d: '2024-01-03', FXUSDCAD: { v: '1.3346' } },
        { d: '2024-01-02', FXUSDCAD: { v: '1.3316' } },
        { d: '2024-01-01' }, // holiday: absent
        { d: '2023-12-26', FXUSDCAD: { v: '' } },
        { d: '2023-12-25', FXUSDCAD: { e: -64 } },
        { d: '2023-12-22', FXUSDCAD: { v: 'n/a' } },
      ],
    });
    const { observations, missing, dropped } = normalizeValetObservations(body, 'FXUSDCAD');
    expect(observations).toEqual([
      { date: '2024-01-02', value: 1.3316 },
      { date: '2024-01-03', value: 1.3346 },
    ]);
    expect(missing).toEqual([
      { date: '2023-12-22', status: '..' },
      { date: '2023-12-25', status: 'e:-64' },
      { date: '2023-12-26', status: '..' },
    ]);
    expect(dropped).toEqual([]);
  });

  it('rejects a body without observations', () => {
    expect(() => parseValetResponse({ message: 'Series not found' })).toThrow(UpstreamError);
  });
});

// ---------------------------------------------------------------------------------------------------------

describe('demo upstream', () => {
  const cpi = entry({ id: 'CPI_ALL_ITEMS', vectorIds: [41690973], units: 'Index, 2002=100', tableId: '18-10-0004-01' });
  const gdp = entry({
    id: 'GDP_EXPENDITURE',
    vectorIds: [62305752],
    frequency: 'quarterly',
    scalarFactorCode: 6,
    units: 'dollars',
    category: 'output',
  });
  const usd = entry({
    id: 'USD_CAD',
    source: 'BOC',
    seriesNames: ['FXUSDCAD'],
    frequency: 'daily',
    category: 'exchange-rates',
    units: 'CAD per USD',
  });
  const day = (iso: string) => () => new Date(`${iso}T12:00:00Z`);

  it('answers in the WDS wire format, parsed by the StatCan adapter, labelled (demo)', async () => {
    const up = createDemoUpstreams({ now: day('2026-06-15') });
    expect(up.STATCAN.label).toBe('Statistics Canada (demo)');
    const { observations: obs } = await up.STATCAN.pull(cpi, signal());
    expect(obs.length).toBeGreaterThan(250);
    expect(isAscending(obs)).toBe(true);
    expect(obs[0]!.date).toBe('2000-01-01');
    expect(obs.at(-1)!.date).toBe('2026-04-01'); // May is not out by mid-June
    expect(obs.every((o) => o.value > 50 && o.value < 400)).toBe(true);
    expect(obs.some((o) => o.value === 0)).toBe(false);
  });

  it('is deterministic: the same day gives the same series, another day revises only the three newest values', async () => {
    const { observations: a } = await createDemoUpstreams({ now: day('2026-06-15') }).STATCAN.pull(cpi, signal());
    const { observations: b } = await createDemoUpstreams({ now: day('2026-06-15') }).STATCAN.pull(cpi, signal());
    const { observations: c } = await createDemoUpstreams({ now: day('2026-06-16') }).STATCAN.pull(cpi, signal());
    expect(b).toEqual(a);
    expect(c.slice(0, -3)).toEqual(a.slice(0, -3));
    expect(c.slice(-3).map((o) => o.date)).toEqual(a.slice(-3).map((o) => o.date));
    expect(c.at(-1)!.value).not.toBe(a.at(-1)!.value);
    // Flagged and released as WDS would: p on the preliminary value, r on the revised ones, released that day.
    expect(c.slice(-3).map((o) => [o.status, o.released])).toEqual([
      ['r', '2026-06-16T08:30'],
      ['r', '2026-06-16T08:30'],
      ['p', '2026-06-16T08:30'],
    ]);
    // An older point was released about six weeks after its month began.
    expect(c.find((o) => o.date === '2025-01-01')).toMatchObject({ released: '2025-03-15T08:30' });
    expect(c.find((o) => o.date === '2025-01-01')!.status).toBeUndefined();
  });

  it('sends quarterly data at quarter starts with its scalar factor, which the adapter applies', async () => {
    const { observations: obs } = await createDemoUpstreams({ now: day('2026-06-15') }).STATCAN.pull(gdp, signal());
    expect(obs.every((o) => ['01', '04', '07', '10'].includes(o.date.slice(5, 7)))).toBe(true);
    expect(obs.every((o) => o.value % 1_000_000 === 0)).toBe(true);
  });

  it('answers in the Valet wire format: string values, missing days absent', async () => {
    const up = createDemoUpstreams({ now: day('2026-06-15') });
    expect(up.BOC.label).toBe('Bank of Canada (demo)');
    const { observations: obs } = await up.BOC.pull(usd, signal());
    expect(obs[0]!.date).toBe('2000-01-03');
    expect(obs.every((o) => o.value > 0.5 && o.value < 3)).toBe(true);
    expect(obs.every((o) => ![0, 6].includes(new Date(`${o.date}T00:00:00Z`).getUTCDay()))).toBe(true);
    const raw = respondDemo(
      'GET',
      new URL('https://x/valet/observations/FXUSDCAD/json?start_date=2026-06-01'),
      undefined,
      { now: day('2026-06-15'), entries: [usd] },
    );
    expect(raw.status).toBe(200);
    const cell = (JSON.parse(raw.body) as { observations: Record<string, { v: unknown }>[] }).observations[0]!
      .FXUSDCAD!;
    expect(typeof cell.v).toBe('string');
  });

  it("starts a currency's daily and annual rates at one level, near where it stood in 2000", async () => {
    const up = createDemoUpstreams({ now: day('2026-06-15') });
    const { observations: eur } = await up.BOC.pull(
      entry({
        id: 'EUR',
        source: 'BOC',
        seriesNames: ['FXEURCAD'],
        frequency: 'daily',
        category: 'exchange-rates',
        units: 'CAD per EUR',
      }),
      signal(),
    );
    const { observations: eurAnnual } = await up.BOC.pull(
      entry({
        id: 'EUR_A',
        source: 'BOC',
        seriesNames: ['FXAEURCAD'],
        frequency: 'annual',
        category: 'exchange-rates',
        units: 'CAD per EUR',
      }),
      signal(),
    );
    const mean = (xs: { value: number }[]) => xs.reduce((a, o) => a + o.value, 0) / xs.length;
    // 26 years of a walk pulled back to its start (±40 %): both near 1.37, and near each other.
    for (const series of [eur, eurAnnual]) expect(mean(series)).toBeGreaterThan(0.8);
    for (const series of [eur, eurAnnual]) expect(mean(series)).toBeLessThan(2.2);
    expect(mean(eur) / mean(eurAnnual)).toBeGreaterThan(0.6);
    expect(mean(eur) / mean(eurAnnual)).toBeLessThan(1.6);
  });

  it('answers an unknown vector or series name as the upstreams do', () => {
    const opts = { now: day('2026-06-15'), entries: [cpi] };
    const wds = respondDemo(
      'POST',
      new URL(`${DEMO_STATCAN_URL}/getDataFromVectorsAndLatestNPeriods`),
      JSON.stringify([{ vectorId: 5, latestN: 3 }]),
      opts,
    );
    expect(parseWdsResponse(JSON.parse(wds.body))[0]).toMatchObject({ ok: false, code: 4 });
    expect(respondDemo('GET', new URL('https://x/valet/observations/FXNOPECAD/json'), undefined, opts).status).toBe(
      404,
    );
  });
});
