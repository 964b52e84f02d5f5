// The observation routes (server/economy/observations-routes.ts) on a real socket, over the fake upstream and
// the minimal build of test/helpers/economy-routes.ts. The clock is pinned and moved by hand, so pulls on
// different days make vintages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemas } from '../../contract/core/schemas.ts';
import { sliceByDate } from '../../server/economy/observations.ts';
import {
  DAY,
  type RoutesUnderTest,
  START,
  startObservationRoutes,
  type Upstream,
  WDS_PULL,
} from '../helpers/economy-routes.ts';

describe('observation routes', () => {
  let routes: RoutesUnderTest;
  let up: Upstream;
  let t = START;
  const now = () => new Date(t);
  let url: (path: string) => string;
  const get = (path: string, headers: Record<string, string> = {}) => fetch(url(path), { headers });
  const json = async (path: string) => {
    const res = await get(path);
    return { res, body: (await res.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    routes = await startObservationRoutes(now);
    ({ up } = routes);
    url = routes.url;
  });
  afterAll(async () => {
    await routes?.close();
  });

  it('answers the contract document, pulling once for concurrent requests', async () => {
    const all = await Promise.all(Array.from({ length: 20 }, () => json('/api/observations?series=CPI_ALL_ITEMS')));
    expect(up.pulls.get(WDS_PULL)).toBe(1);
    for (const { res, body } of all) {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('public, max-age=300');
      expect(res.headers.get('x-data-version')).toMatch(/^[0-9a-f]{16}$/);
      schemas().assert('economy/observations', body, 'observations');
      expect(body).toEqual({
        series: 'CPI_ALL_ITEMS',
        observations: [
          { date: '2025-10-01', value: 164.1 },
          { date: '2025-11-01', value: 164.5 },
          { date: '2026-01-01', value: 165 },
        ],
        source: 'Statistics Canada',
        cached: false,
        asOf: '2026-03-10T12:00:00.000Z',
        units: 'lin',
        frequency: 'm',
        count: 3,
        limit: 100000,
        offset: 0,
      });
    }
    const { body } = await json('/api/observations?series=CPI_ALL_ITEMS');
    expect(body.cached).toBe(true);
    expect(up.pulls.get(WDS_PULL)).toBe(1);
  });

  it('serves Valet series too', async () => {
    const { res, body } = await json('/api/observations?series=USD_CAD&from=2026-03-03');
    expect(res.status).toBe(200);
    expect(body).toMatchObject({
      series: 'USD_CAD',
      source: 'Bank of Canada',
      observations: [
        { date: '2026-03-03', value: 1.36 },
        { date: '2026-03-04', value: 1.37 },
      ],
    });
  });

  it('filters with from and to, both inclusive', async () => {
    const cases: [string, string[]][] = [
      ['from=2025-11-01&to=2026-01-01', ['2025-11-01', '2026-01-01']],
      ['from=2025-11-02', ['2026-01-01']],
      ['to=2025-11-01', ['2025-10-01', '2025-11-01']],
      ['from=2025-11-01&to=2025-11-01', ['2025-11-01']],
      ['from=2027-01-01', []],
      // Any four-digit year is a date: "from the beginning" is a common way to ask for everything.
      ['from=0001-01-01&to=2025-10-31', ['2025-10-01']],
      ['from=0999-12-31', ['2025-10-01', '2025-11-01', '2026-01-01']],
    ];
    for (const [query, dates] of cases) {
      const { body } = await json(`/api/observations?series=CPI_ALL_ITEMS&${query}`);
      expect(
        (body.observations as { date: string }[]).map((o) => o.date),
        query,
      ).toEqual(dates);
    }
  });

  it('applies FRED’s units, frequency, sort order and paging, in that order, and says what it applied', async () => {
    // The upstream's CPI: 2025-10 164.1, 2025-11 164.5, 2025-12 missing (..), 2026-01 165.0.
    const pch = await json('/api/observations?series=CPI_ALL_ITEMS&units=pch');
    schemas().assert('economy/observations', pch.body, 'pch');
    // 2026-01's previous month is missing: its change cannot be computed and is left out.
    expect(pch.body).toMatchObject({ units: 'pch', frequency: 'm', count: 1, offset: 0, limit: 100000 });
    expect(pch.body.observations).toEqual([
      { date: '2025-11-01', value: expect.closeTo((164.5 / 164.1 - 1) * 100, 6) },
    ]);

    // 2025Q4 from the two months present; 2026Q1 is not over at the last observation (January).
    const q = await json('/api/observations?series=CPI_ALL_ITEMS&frequency=q');
    expect(q.body).toMatchObject({
      frequency: 'q',
      count: 1,
      observations: [{ date: '2025-10-01', value: 164.3, incomplete: true }],
    });
    const eop = await json('/api/observations?series=CPI_ALL_ITEMS&frequency=q&aggregation_method=eop');
    // 2025-12 was published without a value: the quarter says it is incomplete.
    expect(eop.body.observations).toEqual([{ date: '2025-10-01', value: 164.5, incomplete: true }]);

    const page = await json('/api/observations?series=CPI_ALL_ITEMS&sort_order=desc&offset=1&limit=1');
    expect(page.body).toMatchObject({
      count: 3,
      offset: 1,
      limit: 1,
      observations: [{ date: '2025-11-01', value: 164.5 }],
    });
    const past = await json('/api/observations?series=CPI_ALL_ITEMS&offset=10');
    expect(page.res.status).toBe(200);
    expect(past.body).toMatchObject({ count: 3, offset: 10, observations: [] });
    expect(up.pulls.get(WDS_PULL)).toBe(1);
  });

  it('answers format=csv as a download of date,value rows', async () => {
    const res = await get('/api/observations?series=CPI_ALL_ITEMS&format=csv&to=2025-12-31');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="CPI_ALL_ITEMS.csv"');
    expect(await res.text()).toBe('date,value\r\n2025-10-01,164.1\r\n2025-11-01,164.5\r\n');
    const etag = res.headers.get('etag')!;
    const again = await get('/api/observations?series=CPI_ALL_ITEMS&format=csv&to=2025-12-31', {
      'If-None-Match': etag,
    });
    expect(again.status).toBe(304);
  });

  it('refuses bad FRED parameters with a 400 naming each, and a frequency above the series’ own', async () => {
    const bad = await json(
      '/api/observations?series=CPI_ALL_ITEMS&units=pct&frequency=x&aggregation_method=max&sort_order=up&limit=0&offset=-1&format=xml',
    );
    expect(bad.res.status).toBe(400);
    const named = (bad.body.errors as { parameter: string }[]).map((e) => e.parameter).sort();
    expect(named).toEqual(['aggregation_method', 'format', 'frequency', 'limit', 'offset', 'sort_order', 'units']);
    const higher = await json('/api/observations?series=CPI_ALL_ITEMS&frequency=w');
    expect(higher.res.status).toBe(400);
    expect(higher.body).toMatchObject({ code: 'invalid_parameter', errors: [{ parameter: 'frequency' }] });
    expect((await json('/api/observations?series=CPI_ALL_ITEMS&limit=100001')).res.status).toBe(400);
  });

  it('answers If-None-Match with 304 and HEAD without a body', async () => {
    const first = await get('/api/observations?series=CPI_ALL_ITEMS');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await get('/api/observations?series=CPI_ALL_ITEMS', { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    const head = await fetch(url('/api/observations?series=CPI_ALL_ITEMS'), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it.each([
    ['/api/observations', 400, [['series', 'is required']]],
    ['/api/observations?series=', 400, [['series', 'must not be empty']]],
    ['/api/observations?series=CPI_ALL_ITEMS&series=USD_CAD', 400, [['series', 'must be given once']]],
    [
      '/api/observations?series=CPI_ALL_ITEMS&from=2024-02-30',
      400,
      [['from', 'must be a real calendar date (YYYY-MM-DD); 2024-02-30 is not']],
    ],
    [
      '/api/observations?series=CPI_ALL_ITEMS&from=2023-02-29&to=2024-02-29',
      400,
      [['from', 'must be a real calendar date (YYYY-MM-DD); 2023-02-29 is not']],
    ],
    [
      '/api/observations?series=CPI_ALL_ITEMS&from=2024-13-01&to=soon&vintage=2024-04-31',
      400,
      [
        ['from', 'must match format "date"'],
        ['to', 'must match format "date"'],
        ['vintage', 'must be a real calendar date (YYYY-MM-DD); 2024-04-31 is not'],
      ],
    ],
    [
      '/api/observations?from=2024-02-30',
      400,
      [
        ['from', 'must be a real calendar date (YYYY-MM-DD); 2024-02-30 is not'],
        ['series', 'is required'],
      ],
    ],
    [
      '/api/observations?series=CPI_ALL_ITEMS&from=2025-12-01&to=2025-11-01',
      400,
      [['from', 'must not be after to (2025-11-01)']],
    ],
    [
      '/api/observations?series=CPI_ALL_ITEMS&from=0100-02-29',
      400,
      [['from', 'must be a real calendar date (YYYY-MM-DD); 0100-02-29 is not']],
    ],
    [
      '/api/observations?series=CPI%zz&from=2024%2D01-01',
      400,
      [['series', 'must be UTF-8, percent-encoded (RFC 3986): it has a malformed escape or bytes that are not UTF-8']],
    ],
    [
      '/api/revisions?series=CPI_ALL_ITEMS&from=%E9&to=2026-03-10',
      400,
      [['from', 'must be UTF-8, percent-encoded (RFC 3986): it has a malformed escape or bytes that are not UTF-8']],
    ],
    ['/api/observations?series=NOPE', 404, undefined],
    ['/api/observations?series=cpi_all_items', 404, undefined],
    ['/api/observations?series=CPI_ALL_ITEMS&vintage=2020-01-01', 404, undefined],
    ['/api/vintages', 400, [['series', 'is required']]],
    ['/api/vintages?series=NOPE', 404, undefined],
    [
      '/api/revisions?series=CPI_ALL_ITEMS',
      400,
      [
        ['from', 'is required'],
        ['to', 'is required'],
      ],
    ],
    [
      '/api/revisions?series=CPI_ALL_ITEMS&from=2026-03-10&to=2026-02-30',
      400,
      [['to', 'must be a real calendar date (YYYY-MM-DD); 2026-02-30 is not']],
    ],
    [
      '/api/revisions?series=CPI_ALL_ITEMS&from=2026-03-11&to=2026-03-10',
      400,
      [['from', 'must not be after to (2026-03-10)']],
    ],
    ['/api/revisions?series=NOPE&from=2026-03-10&to=2026-03-11', 404, undefined],
    ['/api/revisions?series=CPI_ALL_ITEMS&from=2020-01-01&to=2026-03-10', 404, undefined],
  ] as const)('GET %s → %i', async (path, status, errors) => {
    const res = await get(path);
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const body = (await res.json()) as { code: string; errors?: { parameter: string; message: string }[] };
    schemas().assert('core/problem', body, 'problem');
    expect(body.code).toBe(status === 400 ? 'invalid_parameter' : 'not_found');
    if (errors) expect(body.errors).toEqual(errors.map(([parameter, message]) => ({ parameter, message })));
  });

  it('refuses an unknown parameter by name, but takes the api_key and file_type FRED clients send', async () => {
    const res = await get('/api/observations?series=CPI_ALL_ITEMS&colour=blue&realtime_ned=2026-01-01');
    expect(res.status).toBe(400);
    const problem = (await res.json()) as { errors: { parameter: string; message: string }[] };
    expect(problem.errors).toEqual([
      { parameter: 'colour', message: 'is not a known parameter' },
      { parameter: 'realtime_ned', message: 'is not a known parameter' },
    ]);
    expect((await get('/api/observations?series=CPI_ALL_ITEMS&api_key=abcdef&file_type=json')).status).toBe(200);
  });

  it('answers 503 upstream_unavailable with Retry-After when the upstream fails and nothing is cached', async () => {
    const res = await get('/api/observations?series=BROKEN');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('60');
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.json()).toMatchObject({
      code: 'upstream_unavailable',
      type: '/problems/upstream-unavailable',
      status: 503,
    });
  });

  it('lists vintages, serves a vintage, and shows the revisions between two', async () => {
    const day1 = '2026-03-10';
    expect((await json('/api/vintages?series=CPI_ALL_ITEMS')).body).toEqual({
      series: 'CPI_ALL_ITEMS',
      snapshots: [day1],
    });

    // A day later StatCan revised November, filled December and published February.
    t = START + DAY + 60_000;
    up.cpi = new Map([
      ['2025-10-01', 164.1],
      ['2025-11-01', 164.6],
      ['2025-12-01', 164.8],
      ['2026-01-01', 165.0],
      ['2026-02-01', 165.4],
    ]);
    const fresh = await json('/api/observations?series=CPI_ALL_ITEMS');
    expect(fresh.body).toMatchObject({ cached: false, asOf: '2026-03-11T12:01:00.000Z' });
    expect(up.pulls.get(WDS_PULL)).toBe(2);
    const day2 = '2026-03-11';

    const list = await json('/api/vintages?series=CPI_ALL_ITEMS');
    schemas().assert('economy/vintages', list.body, 'vintages');
    expect(list.body).toEqual({ series: 'CPI_ALL_ITEMS', snapshots: [day1, day2] });
    expect(list.res.headers.get('cache-control')).toBe('public, max-age=300');
    expect((await json('/api/vintages?series=USD_CAD')).body).toEqual({ series: 'USD_CAD', snapshots: [day1] });

    const old = await json(`/api/observations?series=CPI_ALL_ITEMS&vintage=${day1}&from=2025-11-01`);
    expect(old.res.status).toBe(200);
    schemas().assert('economy/observations', old.body, 'vintage');
    expect(old.body).toEqual({
      series: 'CPI_ALL_ITEMS',
      observations: [
        { date: '2025-11-01', value: 164.5 },
        { date: '2026-01-01', value: 165 },
      ],
      source: 'Statistics Canada',
      cached: true,
      asOf: '2026-03-10T12:00:00.000Z',
      units: 'lin',
      frequency: 'm',
      count: 2,
      limit: 100000,
      offset: 0,
    });
    // A snapshot takes the transforms too: the change from 2025-10 to 2025-11 as that day had them.
    const changed = await json(`/api/observations?series=CPI_ALL_ITEMS&vintage=${day1}&units=chg&format=json`);
    expect(changed.body).toMatchObject({ units: 'chg', count: 1, observations: [{ date: '2025-11-01', value: 0.4 }] });
    // A past day's snapshot never changes; today's may still be replaced.
    expect(old.res.headers.get('cache-control')).toBe('public, max-age=86400');
    expect((await get(`/api/observations?series=CPI_ALL_ITEMS&vintage=${day2}`)).headers.get('cache-control')).toBe(
      'public, max-age=300',
    );

    const rev = await json(`/api/revisions?series=CPI_ALL_ITEMS&from=${day1}&to=${day2}`);
    expect(rev.res.status).toBe(200);
    schemas().assert('economy/revisions', rev.body, 'revisions');
    expect(rev.body).toEqual({
      series: 'CPI_ALL_ITEMS',
      from: day1,
      to: day2,
      changes: [{ date: '2025-11-01', before: 164.5, after: 164.6 }],
      added: [
        { date: '2025-12-01', value: 164.8 },
        { date: '2026-02-01', value: 165.4 },
      ],
      removed: [],
    });
    expect((await json(`/api/revisions?series=CPI_ALL_ITEMS&from=${day2}&to=${day2}`)).body).toMatchObject({
      changes: [],
      added: [],
      removed: [],
    });
  });

  it('serves the cached copy with stale and a short max-age when the upstream fails', async () => {
    up.failing = true;
    t += DAY + 60_000;
    const { res, body } = await json('/api/observations?series=CPI_ALL_ITEMS');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    schemas().assert('economy/observations', body, 'stale');
    expect(body).toMatchObject({ cached: true, stale: true, asOf: '2026-03-11T12:01:00.000Z' });
    up.failing = false;
  });
});

describe('sliceByDate', () => {
  const obs = ['2025-01-01', '2025-02-01', '2025-03-01', '2025-04-01'].map((date, i) => ({ date, value: i }));
  it.each([
    [undefined, undefined, 4],
    ['2025-02-01', undefined, 3],
    ['2025-01-15', '2025-03-01', 2],
    [undefined, '2025-01-01', 1],
    ['2025-04-02', undefined, 0],
    ['2025-03-01', '2025-02-01', 0],
  ])('from %s to %s keeps %i', (from, to, n) => {
    expect(sliceByDate(obs, from, to)).toHaveLength(n);
  });
});
