// FRED's wire format under /fred (server/economy/fred-routes.ts) on a real socket, over the fake upstream of
// test/helpers/economy-routes.ts. Each case is one of FRED API v1's documented request examples
// (fred.stlouisfed.org/docs/api/fred/) asked of this registry: the same element and attribute names in the same
// order, the same JSON keys, values as strings with "." for a missing one, and FRED's error document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, type RoutesUnderTest, START, startObservationRoutes } from '../helpers/economy-routes.ts';

describe('the FRED wire format', () => {
  let routes: RoutesUnderTest;
  let t = START;
  const now = () => new Date(t);
  const get = (path: string) => routes.get(path);
  const xml = async (path: string) => {
    const res = await get(path);
    return { res, text: await res.text() };
  };
  const json = async (path: string) => {
    const res = await get(`${path}${path.includes('?') ? '&' : '?'}file_type=json`);
    return { res, body: (await res.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    routes = await startObservationRoutes(now, 'economy-fred');
    // Two days of the archive: January revised on the second.
    await get('/api/observations?series=CPI_ALL_ITEMS');
    t = START + DAY;
    routes.up.cpi.set('2026-01-01', 165.2);
  });
  afterAll(async () => {
    await routes?.close();
  });

  it('answers fred/series/observations in FRED’s XML, missing values as "."', async () => {
    const { res, text } = await xml(
      '/fred/series/observations?series_id=CPI_ALL_ITEMS&api_key=abcdefghijklmnopqrstuvwxyz123456',
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/xml; charset=utf-8');
    expect(text).toBe(
      [
        '<?xml version="1.0" encoding="utf-8" ?>',
        '<observations realtime_start="2026-03-11" realtime_end="2026-03-11" observation_start="1776-07-04" observation_end="9999-12-31" units="lin" output_type="1" file_type="xml" order_by="observation_date" sort_order="asc" count="4" offset="0" limit="100000">',
        '  <observation realtime_start="2026-03-11" realtime_end="2026-03-11" date="2025-10-01" value="164.1"/>',
        '  <observation realtime_start="2026-03-11" realtime_end="2026-03-11" date="2025-11-01" value="164.5"/>',
        '  <observation realtime_start="2026-03-11" realtime_end="2026-03-11" date="2025-12-01" value="."/>',
        '  <observation realtime_start="2026-03-11" realtime_end="2026-03-11" date="2026-01-01" value="165.2"/>',
        '</observations>',
        '',
      ].join('\n'),
    );
  });

  it('answers the same with file_type=json, FRED’s keys in FRED’s order', async () => {
    const { res, body } = await json('/fred/series/observations?series_id=CPI_ALL_ITEMS&observation_start=2026-01-01');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Object.keys(body)).toEqual([
      ...['realtime_start', 'realtime_end', 'observation_start', 'observation_end', 'units', 'output_type'],
      ...['file_type', 'order_by', 'sort_order', 'count', 'offset', 'limit', 'observations'],
    ]);
    expect(body).toMatchObject({ output_type: 1, file_type: 'json', count: 1, offset: 0, limit: 100000 });
    expect(body.observations).toEqual([
      { realtime_start: '2026-03-11', realtime_end: '2026-03-11', date: '2026-01-01', value: '165.2' },
    ]);
  });

  it('answers ALFRED’s real-time periods (realtime_start, realtime_end, output_type=4)', async () => {
    const q = '/fred/series/observations?series_id=CPI_ALL_ITEMS&observation_start=2026-01-01';
    const all = await json(`${q}&realtime_start=2026-03-10&realtime_end=9999-12-31`);
    expect(all.body.observations).toEqual([
      { realtime_start: '2026-03-10', realtime_end: '2026-03-10', date: '2026-01-01', value: '165' },
      { realtime_start: '2026-03-11', realtime_end: '9999-12-31', date: '2026-01-01', value: '165.2' },
    ]);
    const first = await json(`${q}&realtime_start=2026-03-10&realtime_end=9999-12-31&output_type=4`);
    expect(first.body.observations).toEqual([
      { realtime_start: '2026-03-10', realtime_end: '2026-03-10', date: '2026-01-01', value: '165' },
    ]);
    const dates = await json(`${q}&vintage_dates=2026-03-10,2026-03-11`);
    expect(dates.body.observations).toHaveLength(2);
  });

  it('answers fred/series with the series record FRED writes', async () => {
    const { text } = await xml('/fred/series?series_id=CPI_ALL_ITEMS');
    expect(text).toBe(
      [
        '<?xml version="1.0" encoding="utf-8" ?>',
        '<seriess realtime_start="2026-03-11" realtime_end="2026-03-11">',
        '  <series id="CPI_ALL_ITEMS" realtime_start="2026-03-11" realtime_end="2026-03-11" title="CPI" observation_start="2025-10-01" observation_end="2026-01-01" frequency="Monthly" frequency_short="M" units="Index, 2002=100" units_short="Index, 2002=100" seasonal_adjustment="Not Applicable" seasonal_adjustment_short="NA" last_updated="2026-03-11 12:00:00+00" popularity="0" notes="Source: Statistics Canada, table 18-10-0004-01."/>',
        '</seriess>',
        '',
      ].join('\n'),
    );
    const { body } = await json('/fred/series?series_id=CPI_ALL_ITEMS');
    expect(Object.keys(body)).toEqual(['realtime_start', 'realtime_end', 'seriess']);
    expect((body.seriess as Record<string, unknown>[])[0]).toMatchObject({ id: 'CPI_ALL_ITEMS', popularity: 0 });
  });

  it('answers fred/series/search, fred/series/vintagedates and fred/series/updates', async () => {
    const search = await json('/fred/series/search?search_text=cpi');
    expect(search.body).toMatchObject({
      order_by: 'search_rank',
      sort_order: 'desc',
      count: 1,
      offset: 0,
      limit: 1000,
    });
    expect((search.body.seriess as { id: string }[]).map((s) => s.id)).toEqual(['CPI_ALL_ITEMS']);

    const { text } = await xml('/fred/series/vintagedates?series_id=CPI_ALL_ITEMS');
    expect(text).toBe(
      [
        '<?xml version="1.0" encoding="utf-8" ?>',
        '<vintage_dates realtime_start="1776-07-04" realtime_end="9999-12-31" order_by="vintage_date" sort_order="asc" count="2" offset="0" limit="10000">',
        '  <vintage_date>2026-03-10</vintage_date>',
        '  <vintage_date>2026-03-11</vintage_date>',
        '</vintage_dates>',
        '',
      ].join('\n'),
    );

    const updates = await json('/fred/series/updates?start_time=202603110000');
    expect(updates.body).toMatchObject({
      filter_variable: 'geography',
      filter_value: 'all',
      order_by: 'last_updated',
      count: 1,
    });
    expect(updates.body.seriess).toEqual([
      expect.objectContaining({ id: 'CPI_ALL_ITEMS', last_updated: '2026-03-11 12:00:00+00' }),
    ]);
  });

  it('numbers the 8 categories 1 to 8 under the root, and lists each one’s series', async () => {
    const { text } = await xml('/fred/category/children?category_id=0');
    expect(text.split('\n').slice(0, 4)).toEqual([
      '<?xml version="1.0" encoding="utf-8" ?>',
      '<categories>',
      '  <category id="1" name="Output and activity" parent_id="0"/>',
      '  <category id="2" name="Prices and inflation" parent_id="0"/>',
    ]);
    expect(text).toContain('<category id="7" name="Exchange rates" parent_id="0"/>');
    const prices = await json('/fred/category/series?category_id=2');
    expect((prices.body.seriess as { id: string }[]).map((s) => s.id)).toEqual(['CPI_ALL_ITEMS']);
    expect((await json('/fred/category/children?category_id=3')).body).toEqual({ categories: [] });
  });

  it.each([
    ['/fred/series/observations', 400, 'Bad Request.  Variable series_id is not set.'],
    ['/fred/series/observations?series_id=NOPE', 400, 'Bad Request.  The series NOPE does not exist.'],
    [
      '/fred/series/observations?series_id=CPI_ALL_ITEMS&realtime_end=2026-03-10',
      400,
      'realtime_start must not be after realtime_end',
    ],
    [
      '/fred/series/observations?series_id=CPI_ALL_ITEMS&output_type=2',
      400,
      'Variable output_type must be one of: 1, 4.',
    ],
    [
      '/fred/series/observations?series_id=CPI_ALL_ITEMS&realtime_start=2026-03-01&realtime_end=2026-03-05',
      404,
      'Not Found.  the archive of CPI_ALL_ITEMS starts on 2026-03-10',
    ],
    [
      '/fred/series/observations?series_id=CPI_ALL_ITEMS&realtime_ned=2026-03-10',
      400,
      'Variable realtime_ned is not one of the allowed variables.',
    ],
    ['/fred/category/series?category_id=9', 400, 'Bad Request.  The category does not exist.'],
    ['/fred/category/children?category_id=0&realtime_end=soon', 400, 'Variable realtime_end is not a valid date'],
    [
      `/fred/series/search?search_text=${'cpi '.repeat(51)}`,
      400,
      'Variable search_text is longer than 200 characters.',
    ],
  ])('answers %s with FRED’s error document (%i)', async (path, status, message) => {
    const x = await xml(path);
    expect(x.res.status).toBe(status);
    expect(x.text).toMatch(
      new RegExp(`^<\\?xml version="1.0" encoding="utf-8" \\?>\\n<error code="${status}" message="[^"]*"/>\\n$`),
    );
    const j = await json(path);
    expect(j.res.status).toBe(status);
    expect(Object.keys(j.body)).toEqual(['error_code', 'error_message']);
    expect(j.body.error_code).toBe(status);
    expect(j.body.error_message).toContain(message);
  });

  it('uses the same cache and archive as /api: no second pull for FRED’s face', async () => {
    const before = routes.up.pulls.get('/wds/getDataFromVectorsAndLatestNPeriods#41690973');
    await xml('/fred/series/observations?series_id=CPI_ALL_ITEMS');
    await get('/api/observations?series=CPI_ALL_ITEMS');
    expect(routes.up.pulls.get('/wds/getDataFromVectorsAndLatestNPeriods#41690973')).toBe(before);
  });
});
