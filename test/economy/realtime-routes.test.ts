// /api/observations with ALFRED's real-time parameters on a real socket (server/economy/realtime-answer.ts),
// over the fake upstream of test/helpers/economy-routes.ts with revisions planted across days: the clock moves
// a day, the fake's CPI changes, and the next request pulls and snapshots it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemas } from '../../contract/core/schemas.ts';
import { DAY, type RoutesUnderTest, START, startObservationRoutes, WDS_PULL } from '../helpers/economy-routes.ts';

describe('real-time observations', () => {
  let routes: RoutesUnderTest;
  let t = START;
  const now = () => new Date(t);
  const get = (path: string) => routes.get(path);
  const json = (path: string) => routes.json(path);
  const cpi = (query: string) => json(`/api/observations?series=CPI_ALL_ITEMS&${query}`);

  beforeAll(async () => {
    routes = await startObservationRoutes(now, 'economy-realtime');
    // 2026-03-10: the fake's first CPI (2025-12 published without a value).
    expect((await cpi('')).res.status).toBe(200);
    // 2026-03-11: January revised, February published.
    t = START + DAY;
    routes.up.cpi.set('2026-01-01', 165.2);
    routes.up.cpi.set('2026-02-01', 165.8);
    expect((await cpi('')).body.asOf).toBe('2026-03-11T12:00:00.000Z');
    // 2026-03-14 (no pull on the 12th and 13th): February revised, December gets its value.
    t = START + 4 * DAY;
    routes.up.cpi.set('2026-02-01', 166);
    routes.up.cpi.set('2025-12-01', 164.8);
    expect((await cpi('')).body.asOf).toBe('2026-03-14T12:00:00.000Z');
  });
  afterAll(async () => {
    await routes?.close();
  });

  it('answers the data as known on a day: realtime_end alone, from the latest snapshot on or before it', async () => {
    const { res, body } = await cpi('realtime_end=2026-03-12');
    expect(res.status).toBe(200);
    // An answer that ends before today does not change.
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
    schemas().assert('economy/observations', body, 'as known');
    expect(body).toMatchObject({
      realtime_start: '2026-03-12',
      realtime_end: '2026-03-12',
      output_type: 1,
      asOf: '2026-03-11T12:00:00.000Z',
      count: 4,
    });
    expect(body.observations).toEqual([
      { date: '2025-10-01', value: 164.1, realtime_start: '2026-03-12', realtime_end: '2026-03-12' },
      { date: '2025-11-01', value: 164.5, realtime_start: '2026-03-12', realtime_end: '2026-03-12' },
      { date: '2026-01-01', value: 165.2, realtime_start: '2026-03-12', realtime_end: '2026-03-12' },
      { date: '2026-02-01', value: 165.8, realtime_start: '2026-03-12', realtime_end: '2026-03-12' },
    ]);
  });

  it('gives every value a date had over a real-time period, with the days it was published (output_type 1)', async () => {
    const { body } = await cpi('realtime_start=2026-03-10&realtime_end=9999-12-31&from=2025-12-01');
    schemas().assert('economy/observations', body, 'periods');
    expect(body.observations).toEqual([
      { date: '2025-12-01', value: 164.8, realtime_start: '2026-03-14', realtime_end: '9999-12-31' },
      { date: '2026-01-01', value: 165, realtime_start: '2026-03-10', realtime_end: '2026-03-10' },
      { date: '2026-01-01', value: 165.2, realtime_start: '2026-03-11', realtime_end: '9999-12-31' },
      { date: '2026-02-01', value: 165.8, realtime_start: '2026-03-11', realtime_end: '2026-03-13' },
      { date: '2026-02-01', value: 166, realtime_start: '2026-03-14', realtime_end: '9999-12-31' },
    ]);
    // With include_missing, December's months without a value are there too, with their status.
    const missing = await cpi('realtime_start=2026-03-10&realtime_end=2026-03-20&include_missing=true&to=2025-12-01');
    expect(missing.body.observations.filter((o) => o.date === '2025-12-01')).toEqual([
      { date: '2025-12-01', value: null, status: '..', realtime_start: '2026-03-10', realtime_end: '2026-03-13' },
      { date: '2025-12-01', value: 164.8, realtime_start: '2026-03-14', realtime_end: '2026-03-20' },
    ]);
  });

  it('gives each date as first published (output_type 4)', async () => {
    const { body } = await cpi('output_type=4&realtime_end=9999-12-31&from=2026-01-01');
    expect(body).toMatchObject({ output_type: 4, realtime_end: '9999-12-31' });
    expect(body.observations).toEqual([
      { date: '2026-01-01', value: 165, realtime_start: '2026-03-10', realtime_end: '2026-03-10' },
      { date: '2026-02-01', value: 165.8, realtime_start: '2026-03-11', realtime_end: '2026-03-13' },
    ]);
  });

  it('answers vintage_dates: the values as known on each day, merged while they stay the same', async () => {
    const { body } = await cpi('vintage_dates=2026-03-14,2026-03-10,2026-03-12&from=2026-01-01');
    schemas().assert('economy/observations', body, 'vintage_dates');
    expect(body.vintage_dates).toEqual(['2026-03-10', '2026-03-12', '2026-03-14']);
    expect(body.observations).toEqual([
      { date: '2026-01-01', value: 165, realtime_start: '2026-03-10', realtime_end: '2026-03-10' },
      { date: '2026-01-01', value: 165.2, realtime_start: '2026-03-12', realtime_end: '2026-03-14' },
      { date: '2026-02-01', value: 165.8, realtime_start: '2026-03-12', realtime_end: '2026-03-12' },
      { date: '2026-02-01', value: 166, realtime_start: '2026-03-14', realtime_end: '2026-03-14' },
    ]);
  });

  it('applies units to each day’s series, then merges (pch over the period)', async () => {
    const { body } = await cpi('units=pch&realtime_start=2026-03-10&realtime_end=2026-03-14&from=2026-02-01');
    // February's change from January: (165.8/165.2 - 1) on the 11th to 13th, then (166/165.2 - 1).
    expect(body.observations).toEqual([
      {
        date: '2026-02-01',
        value: expect.closeTo((165.8 / 165.2 - 1) * 100, 6),
        realtime_start: '2026-03-11',
        realtime_end: '2026-03-13',
      },
      {
        date: '2026-02-01',
        value: expect.closeTo((166 / 165.2 - 1) * 100, 6),
        realtime_start: '2026-03-14',
        realtime_end: '2026-03-14',
      },
    ]);
  });

  it('answers format=csv with the real-time period of each row', async () => {
    const res = await get('/api/observations?series=CPI_ALL_ITEMS&realtime_end=2026-03-10&format=csv&from=2026-01-01');
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(await res.text()).toBe('date,value,realtime_start,realtime_end\r\n2026-01-01,165,2026-03-10,2026-03-10\r\n');
  });

  it('keeps a plain request as it was, and include_missing on it shows the points without a value', async () => {
    const plain = await cpi('to=2025-12-01');
    expect(plain.body.observations).toEqual([
      { date: '2025-10-01', value: 164.1 },
      { date: '2025-11-01', value: 164.5 },
      { date: '2025-12-01', value: 164.8 },
    ]);
    const before = await cpi('vintage=2026-03-10&include_missing=true&to=2025-12-01');
    expect(before.body.observations.at(-1)).toEqual({ date: '2025-12-01', value: null, status: '..' });
  });

  it('answers a day before the archive with a 404 saying when it starts', async () => {
    const { res, body } = await cpi('realtime_end=2026-03-09');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(body.detail).toContain('starts on 2026-03-10');
    const dates = await cpi('vintage_dates=2026-03-01,2026-03-12');
    expect(dates.res.status).toBe(404);
    expect(dates.body.detail).toContain('vintage_dates 2026-03-01 is before it');
  });

  it.each([
    ['realtime_start=2026-03-12&realtime_end=2026-03-11', 'realtime_start', 'must not be after realtime_end'],
    ['from=2026-01-01&observation_start=2026-01-01', 'observation_start', "is FRED's name for from"],
    ['output_type=2', 'output_type', 'must be one of: 1, 4'],
    ['vintage=2026-03-10&realtime_end=2026-03-10', 'realtime_end', 'must not be given with vintage'],
    ['vintage_dates=2026-03-10&realtime_start=2026-03-10', 'realtime_start', 'must not be given with vintage_dates'],
    ['vintage_dates=2026-03-10,2026-02-30', 'vintage_dates', '2026-02-30 is not'],
    ['observation_end=2026-02-30', 'observation_end', 'must be a real calendar date'],
    ['output_type=4&units=pch', 'output_type', 'units=lin and no frequency'],
  ])('refuses %s with a 400 naming %s', async (query, parameter, message) => {
    const { res, body } = await cpi(query);
    expect(res.status).toBe(400);
    const errors = body.errors as { parameter: string; message: string }[];
    expect(errors.find((e) => e.parameter === parameter)?.message).toContain(message);
  });

  it('lists the series updated after a time, newest first, with what their last change added and revised', async () => {
    const { res, body } = await json('/api/updates?since=2026-03-10T13:00:00Z');
    expect(res.status).toBe(200);
    schemas().assert('economy/updates', body, 'updates');
    // 2026-03-14's snapshot gave December its value (added) and revised February.
    expect(body).toEqual({
      since: '2026-03-10T13:00:00.000Z',
      results: [{ id: 'CPI_ALL_ITEMS', title: 'CPI', updated_at: '2026-03-14T12:00:00.000Z', added: 1, revised: 1 }],
    });
    expect((await json('/api/updates?since=2026-03-14T12:00:00Z')).body.results).toEqual([]);
    // Without since, the last seven days.
    expect((await json('/api/updates')).body).toMatchObject({ since: '2026-03-07T12:00:00.000Z', results: [{}] });
    const bad = await json('/api/updates?since=yesterday');
    expect(bad.res.status).toBe(400);
    expect((bad.body.errors as { parameter: string }[])[0]!.parameter).toBe('since');
  });

  it('reads FRED’s observation_start and observation_end as from and to', async () => {
    const fred = await cpi('observation_start=2026-01-01&observation_end=2026-01-31');
    const ours = await cpi('from=2026-01-01&to=2026-01-31');
    expect(fred.body).toEqual(ours.body);
    expect(fred.body.observations).toEqual([{ date: '2026-01-01', value: 165.2 }]);
  });

  it('reads a past day from the archive alone, never waiting on the upstream; today asks the cache first', async () => {
    t = START + 6 * DAY; // the copy is two days old: a request for today pulls
    const pulls = () => routes.up.pulls.get(WDS_PULL) ?? 0;
    const before = pulls();
    expect((await cpi('realtime_end=2026-03-12')).res.status).toBe(200);
    expect((await cpi('realtime_start=2026-03-10&realtime_end=2026-03-14')).res.status).toBe(200);
    expect(pulls()).toBe(before);
    // Asked again, the same body (kept, found without reading the archive).
    const again = await routes.get('/api/observations?series=CPI_ALL_ITEMS&realtime_end=2026-03-12');
    const first = await routes.get('/api/observations?series=CPI_ALL_ITEMS&realtime_end=2026-03-12');
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(await again.text()).toBe(await first.text());
    const today = await cpi('realtime_end=9999-12-31&realtime_start=2026-03-16');
    expect(today.body).toMatchObject({ cached: false, asOf: '2026-03-16T12:00:00.000Z' });
    expect(pulls()).toBe(before + 1);
  });
});
