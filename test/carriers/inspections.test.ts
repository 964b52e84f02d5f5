// GET /api/carrier/{id}/inspections on a real socket over the fixture build: signed in, counted as a profile
// lookup for a free key, paged, and every bad parameter a 400 that counts nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemas } from '../../contract/core/schemas.ts';
import {
  type buildCarriersFixture,
  expectProblem,
  type Json,
  readOnlyCarriersFixture,
  serveCarriers,
} from '../helpers/carriers.ts';

let built: Awaited<ReturnType<typeof buildCarriersFixture>>;
let srv: Awaited<ReturnType<typeof serveCarriers>>;
let free = '';
let premium = '';
const NOW = new Date('2026-11-22T00:00:00Z');

beforeAll(async () => {
  built = await readOnlyCarriersFixture();
  srv = await serveCarriers(built, { freeLookups: 2, now: () => NOW });
  free = (await srv.accounts().createKey('free', 'inspections free', NOW)).key;
  premium = (await srv.accounts().createKey('premium', 'inspections premium', NOW)).key;
});
afterAll(async () => {
  await srv.close();
  await built.root.remove();
});

const get = (path: string, key?: string) =>
  fetch(`${srv.base}${path}`, { headers: key ? { Authorization: `Bearer ${key}` } : {} });
const used = async () => srv.accounts().usage((await srv.accounts().findKey(free))!.id, NOW.toISOString().slice(0, 7));

describe('the inspection list', () => {
  it('answers the window’s inspections newest first with their violations, and the crashes', async () => {
    const res = await get('/api/carrier/1000002/inspections', premium);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as Json;
    schemas().assert('carriers/inspections', body, 'inspections');
    expect(body).toMatchObject({
      carrier_id: 1000002,
      data_as_of: '2026-10-31',
      window_months: 24,
      total: 4,
      limit: 25,
      offset: 0,
      data_gaps: [],
    });
    expect(body.inspections.map((i: Json) => [i.date, i.time_weight, i.violations.length])).toEqual([
      ['2026-10-01', 3, 4],
      ['2026-08-01', 3, 2],
      ['2026-05-01', 3, 2],
      ['2025-02-01', 1, 2],
    ]);
    // Beta's crash was found not preventable: listed, and said so.
    expect(body.crashes).toMatchObject([{ report_number: 'C2', not_preventable: true, severity_weight: 1 }]);
  });

  it('pages by limit and offset, and past the end is an empty page', async () => {
    const page = async (q: string) =>
      (await (await get(`/api/carrier/1000002/inspections?${q}`, premium)).json()) as Json;
    const first = await page('limit=3');
    const second = await page('limit=3&offset=3');
    expect([...first.inspections, ...second.inspections].map((i: Json) => i.inspection_id)).toEqual([
      '9011',
      '9012',
      '9013',
      '9014',
    ]);
    expect((await page('offset=10')).inspections).toEqual([]);
    expect((await page('offset=10')).total).toBe(4);
  });

  it('gives a carrier with no event in the window empty lists, not a 404', async () => {
    const body = (await (await get('/api/carrier/1000003/inspections', premium)).json()) as Json;
    expect(body).toMatchObject({ total: 0, inspections: [], crashes: [] });
  });

  it('counts one profile lookup for a free key; sign-in, bad parameters and unknown carriers count nothing', async () => {
    const before = await used();
    await expectProblem(await get('/api/carrier/1000001/inspections'), 401, 'unauthorized');
    const bad = await expectProblem(
      await get('/api/carrier/1000001/inspections?limit=0&offset=-1', free),
      400,
      'invalid_parameter',
    );
    expect(bad.errors.map((e: Json) => e.parameter).sort()).toEqual(['limit', 'offset']);
    await expectProblem(await get('/api/carrier/abc/inspections', free), 400, 'invalid_parameter');
    await expectProblem(await get('/api/carrier/7777777/inspections', free), 404, 'not_found');
    expect(await used()).toBe(before);
    const ok = await get('/api/carrier/1000001/inspections', free);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('ratelimit-remaining')).toBe(String(2 - before - 1));
    expect(await used()).toBe(before + 1);
  });
});
