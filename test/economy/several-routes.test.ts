// Several series in one /api/observations call (server/economy/several.ts) on a real socket, over the fake
// upstream of test/helpers/economy-routes.ts: monthly CPI beside daily USD/CAD, aligned by date.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemas } from '../../contract/core/schemas.ts';
import { DAY, type RoutesUnderTest, START, startObservationRoutes } from '../helpers/economy-routes.ts';

describe('several series in one call', () => {
  let routes: RoutesUnderTest;
  let t = START;
  const now = () => new Date(t);
  const get = (path: string) => routes.get(path);
  const json = (path: string) => routes.json(path);

  beforeAll(async () => {
    routes = await startObservationRoutes(now, 'economy-several');
  });
  afterAll(async () => {
    await routes?.close();
  });

  it('aligns the series by date, null where one has no value, with each one’s provenance', async () => {
    const { res, body } = await json('/api/observations?series=USD_CAD,CPI_ALL_ITEMS&from=2026-01-01');
    expect(res.status).toBe(200);
    schemas().assert('economy/observations-of-several', body, 'several');
    expect(body).toMatchObject({ series: ['USD_CAD', 'CPI_ALL_ITEMS'], units: 'lin', count: 4, offset: 0 });
    expect(body.observations).toEqual([
      { date: '2026-01-01', USD_CAD: null, CPI_ALL_ITEMS: 165 },
      { date: '2026-03-02', USD_CAD: 1.35, CPI_ALL_ITEMS: null },
      { date: '2026-03-03', USD_CAD: 1.36, CPI_ALL_ITEMS: null },
      { date: '2026-03-04', USD_CAD: 1.37, CPI_ALL_ITEMS: null },
    ]);
    expect(body.sources).toEqual({
      USD_CAD: { source: 'Bank of Canada', cached: false, asOf: '2026-03-10T12:00:00.000Z', frequency: 'd' },
      CPI_ALL_ITEMS: { source: 'Statistics Canada', cached: false, asOf: '2026-03-10T12:00:00.000Z', frequency: 'm' },
    });
  });

  it('applies the other parameters to each series, then sorts and pages the rows', async () => {
    const { body } = await json('/api/observations?series=CPI_ALL_ITEMS,USD_CAD&units=chg&sort_order=desc&limit=2');
    // CPI's change is computed on CPI alone (2025-11 from 2025-10); USD/CAD's on its own days.
    expect(body).toMatchObject({ units: 'chg', count: 3, limit: 2 });
    expect(body.observations).toEqual([
      { date: '2026-03-04', CPI_ALL_ITEMS: null, USD_CAD: expect.closeTo(0.01, 9) },
      { date: '2026-03-03', CPI_ALL_ITEMS: null, USD_CAD: expect.closeTo(0.01, 9) },
    ]);
  });

  it('answers format=csv with one column per series', async () => {
    const res = await get('/api/observations?series=CPI_ALL_ITEMS,USD_CAD&format=csv&from=2026-01-01&to=2026-03-02');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="CPI_ALL_ITEMS_USD_CAD.csv"');
    expect(await res.text()).toBe('date,CPI_ALL_ITEMS,USD_CAD\r\n2026-01-01,165,\r\n2026-03-02,,1.35\r\n');
  });

  it('answers the series as known on one day, and refuses a real-time period', async () => {
    t = START + DAY;
    routes.up.cpi.set('2026-01-01', 165.4);
    const today = await json('/api/observations?series=CPI_ALL_ITEMS,USD_CAD&from=2026-01-01&to=2026-01-31');
    expect(today.body.observations).toEqual([{ date: '2026-01-01', CPI_ALL_ITEMS: 165.4, USD_CAD: null }]);
    const before = await json(
      '/api/observations?series=CPI_ALL_ITEMS,USD_CAD&realtime_end=2026-03-10&from=2026-01-01&to=2026-01-31',
    );
    expect(before.body).toMatchObject({ realtime_start: '2026-03-10', realtime_end: '2026-03-10', output_type: 1 });
    expect(before.body.observations).toEqual([{ date: '2026-01-01', CPI_ALL_ITEMS: 165, USD_CAD: null }]);
    const period = await json(
      '/api/observations?series=CPI_ALL_ITEMS,USD_CAD&realtime_start=2026-03-10&realtime_end=2026-03-11',
    );
    expect(period.res.status).toBe(400);
    expect((period.body.errors as { parameter: string }[])[0]!.parameter).toBe('realtime_start');
  });

  it.each([
    [`series=${Array.from({ length: 21 }, (_, i) => `S${i}`).join(',')}`, 400, 'at most 20'],
    ['series=CPI_ALL_ITEMS,,USD_CAD', 400, 'empty id'],
    ['series=CPI_ALL_ITEMS,CPI_ALL_ITEMS', 400, 'more than once'],
    ['series=CPI_ALL_ITEMS,NOPE,ALSO_NOPE', 404, 'NOPE, ALSO_NOPE'],
    ['series=CPI_ALL_ITEMS,USD_CAD&frequency=w', 400, "series' own frequency (monthly)"],
  ])('refuses %s with %i', async (query, status, text) => {
    const { res, body } = await json(`/api/observations?${query}`);
    expect(res.status).toBe(status);
    expect(JSON.stringify(body)).toContain(text);
  });
});
