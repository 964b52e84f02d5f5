// What is special to the facilities API, over the fixture build (test/fixtures/facilities.ts): linking,
// tiers, totals, flags, buildings, search ranking and filters. The shared contract is in test/http-contract/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.ts';
import { serveFixture } from '../helpers/facilities.ts';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are untyped JSON, read field by field in assertions
type Json = Record<string, any>;

let fx: Awaited<ReturnType<typeof serveFixture>>;
const get = async (path: string): Promise<Json> => {
  const res = await fetch(fx.base + path);
  expect(res.status, path).toBe(200);
  return (await res.json()) as Json;
};

beforeAll(async () => {
  fx = await serveFixture();
});
afterAll(() => fx.close());

describe('facility records', () => {
  it('anchors across spellings and merges the two federal sources by id', async () => {
    const r = await get('/api/v1/facility/ONF-000001');
    expect(r).toMatchObject({
      spine_id: 'ONF-000001',
      tier: 'anchored',
      program: 'both',
      name: 'Maple Leaf Steel Inc.',
      city: 'Hamilton',
      source_ids: { ontario: ['2001'], federal: ['G20001'] },
      naics: '331110',
      // by-gas 943500 wins over the indicator table's 943.50 kt for the same id and year.
      totals: { year: 2024, ontario: 943000, federal: 943500 },
      delta: { year: 2024, tonnes: -500, pct: -0.05 },
    });
    expect(r.names).toEqual({ ontario: ['Maple Leaf Steel Inc.'], federal: ['Maple Leaf Steel Inc'] });
    expect(r.series).toEqual([
      { year: 2022, ontario: 903000, federal: null },
      { year: 2023, ontario: 953000, federal: 953400 },
      { year: 2024, ontario: 943000, federal: 943500 },
    ]);
  });

  it('subtracts biomass CO2 from the provincial total before comparing', async () => {
    const r = await get('/api/v1/facility/ONF-000002');
    expect(r.name).toBe('Papier Boréal');
    expect(r.totals).toEqual({ year: 2024, ontario: 53500, federal: 53500 });
    expect(r.delta).toEqual({ year: 2024, tonnes: 0, pct: 0 });
  });

  it('keeps near-misses apart: same name in another city, similar name in the same city', async () => {
    const bath = await get('/api/v1/facility/ONF-000003');
    const picton = await get('/api/v1/facility/ONF-000008');
    expect([bath.program, picton.program]).toEqual(['ontario_only', 'federal_only']);
    expect([bath.tier, picton.tier]).toEqual(['unmatched', 'unmatched']);
    const report = (await get('/report.json')) as { near_misses: Json[] };
    expect(
      report.near_misses.map((m) => [m.kind, m.ontario_id, m.federal_id, m.ontario_spine_id, m.federal_spine_id]),
    ).toEqual([
      ['same_name_other_city', '2003', 'G20003', 'ONF-000003', 'ONF-000008'],
      ['similar_name_same_city', '2004', 'G20004', 'ONF-000004', 'ONF-000009'],
    ]);
    const stats = await get('/api/v1/stats');
    const stage = (name: string) => stats.funnel.find((s: Json) => s.stage === name).count;
    expect(stage('rejected_same_name_other_city')).toBe(1);
    expect(stage('rejected_similar_name_same_city')).toBe(1);
  });

  it('reads indicator-table kilotonnes with a space thousands separator and NAICS from the link', async () => {
    const r = await get('/api/v1/facility/ONF-000010');
    expect(r).toMatchObject({
      name: 'Pipeline Station 7',
      program: 'federal_only',
      naics: '486210',
      totals: { federal: 1250400, ontario: null },
      delta: null,
    });
  });

  it('flags methane and disagreement with reasons, and links ST/SAINT city spellings', async () => {
    const r = await get('/api/v1/facility/ONF-000006');
    expect(r.source_ids).toEqual({ ontario: ['2007'], federal: ['G20007'] });
    expect(r.totals).toEqual({ year: 2024, ontario: 91100, federal: 98760 });
    expect(r.flags.methane).toBe(true);
    expect(r.flags.reasons[0]).toMatch(/^methane: Ontario 2024 CH4 90,000 t CO2e is 98\.8% of 91,100 t/);
    // 2023 → 2024 Ontario went 41,100 → 91,100 (+121.7 %).
    expect(r.flags.anomaly).toBe(true);
    expect(r.flags.reasons.some((x: string) => x.includes('2023→2024 changed +121.7%'))).toBe(true);
    expect(r.buildings).toMatchObject({ city: 'Saint Catharines (Downtown)', count: 1 });
  });

  it('gives city context from EWRB buildings, with the data year and medians', async () => {
    const r = await get('/api/v1/facility/ONF-000001');
    expect(r.buildings).toEqual({
      year: 2024,
      city: 'Hamilton',
      count: 3,
      median_site_eui_gj_m2: 2,
      median_ghg_intensity_kg_m2: 60,
      median_water_m3_m2: 0.325,
    });
    expect((await get('/api/v1/facility/ONF-000005')).buildings).toBeNull();
  });

  it('locates a facility from the federal rows, and gives its gases per program and year', async () => {
    const steel = await get('/api/v1/facility/ONF-000001');
    // Both federal files locate it in 2024: the emissions-by-gas file's four decimals over the indicator's two.
    expect(steel.coordinates).toEqual({ latitude: 43.2557, longitude: -79.8711, source: 'federal' });
    expect(steel.by_gas).toEqual({
      federal: [
        { year: 2023, co2: 950000, ch4: 2240, n2o: 1160, hfc: 0, pfc: 0, sf6: 0 },
        { year: 2024, co2: 940000, ch4: 2240, n2o: 1060, hfc: 0, pfc: 0, sf6: 200 },
      ],
      // The registry's empty fluorinated-gas fields are null; its 0 is 0.
      ontario: [
        { year: 2022, co2: 900000, ch4: 2000, n2o: 1000, hfc: null, pfc: null, sf6: null },
        { year: 2023, co2: 950000, ch4: 2000, n2o: 1000, hfc: null, pfc: null, sf6: null },
        { year: 2024, co2: 940000, ch4: 2000, n2o: 1000, hfc: 0, pfc: null, sf6: 0 },
      ],
    });
    // CO2 from biomass is not among the gases.
    const boreal = await get('/api/v1/facility/ONF-000002');
    expect(boreal.by_gas.ontario.at(-1)).toEqual({
      year: 2024,
      co2: 52000,
      ch4: 1000,
      n2o: 500,
      hfc: null,
      pfc: null,
      sf6: null,
    });
    expect((await get('/api/v1/facility/ONF-000005')).by_gas.ontario).toEqual([
      { year: 2024, co2: 12000, ch4: 10, n2o: 10, hfc: 7.25, pfc: 0, sf6: 0 },
    ]);
  });

  it.each([
    // Located by the indicator table alone.
    ['ONF-000006', { latitude: 43.1594, longitude: -79.2469, source: 'federal' }],
    // The indicator table's 0, 0 is no position; a by-gas row with empty coordinates neither.
    ['ONF-000010', null],
    ['ONF-000008', null],
    // The Ontario registry carries no coordinates.
    ['ONF-000003', null],
  ])('coordinates of %s', async (id, coordinates) => {
    expect((await get(`/api/v1/facility/${id}`)).coordinates).toEqual(coordinates);
  });

  it('lists no gases for years only the indicator table reports', async () => {
    expect((await get('/api/v1/facility/ONF-000010')).by_gas).toEqual({ federal: [], ontario: [] });
  });

  it('keeps a facility with an empty city, without a city', async () => {
    const r = await get('/api/v1/facility/ONF-000007');
    expect(r).toMatchObject({ name: 'Lakeside Energy Centre', city: null, program: 'ontario_only' });
  });
});

describe('spine and stats', () => {
  it('lists every facility ascending, without flags and delta', async () => {
    const spine = await get('/api/v1/spine');
    expect(spine.count).toBe(10);
    expect(spine.facilities.map((f: Json) => f.spine_id)).toEqual(
      Array.from({ length: 10 }, (_, i) => `ONF-${String(i + 1).padStart(6, '0')}`),
    );
    expect(spine.facilities[0].flags).toBeUndefined();
    expect(spine.facilities[0].delta).toBeUndefined();
  });

  it('counts tiers and programs, ranks top emitters and buckets agreement cumulatively', async () => {
    const stats = await get('/api/v1/stats');
    expect(stats.match).toEqual({
      facilities: 10,
      anchored: 3,
      unmatched: 7,
      both: 3,
      ontario_only: 4,
      federal_only: 3,
      anchored_rate: 0.3,
    });
    expect(stats.top_emitters.map((t: Json) => t.spine_id).slice(0, 3)).toEqual([
      'ONF-000010',
      'ONF-000001',
      'ONF-000008',
    ]);
    expect(stats.agreement).toMatchObject({
      year: 2024,
      compared: 3,
      within_1pct: 2,
      within_5pct: 2,
      within_10pct: 3,
      over_10pct: 0,
    });
    expect(stats.agreement.largest[0]).toMatchObject({ spine_id: 'ONF-000006', tonnes: -7660, pct: -7.76 });
    const narrowing = stats.funnel.filter((s: Json) => s.narrowing).map((s: Json) => s.count);
    for (let i = 1; i < narrowing.length; i++) expect(narrowing[i]).toBeLessThanOrEqual(narrowing[i - 1]);
    expect(stats.funnel.at(-1)).toMatchObject({ stage: 'anchored', count: 3 });
  });
});

describe('search', () => {
  const ids = (r: Json) => r.results.map((x: Json) => x.spine_id);

  it('ranks by emissions (federal first, else adjusted provincial), none last, ties by id', async () => {
    const r = await get('/api/v1/search');
    expect(r.total).toBe(10);
    expect(r.limit).toBe(50);
    expect(ids(r)).toEqual([
      'ONF-000010',
      'ONF-000001',
      'ONF-000008',
      'ONF-000003',
      'ONF-000009',
      'ONF-000004',
      'ONF-000006',
      'ONF-000002',
      'ONF-000007',
      'ONF-000005',
    ]);
    expect(r.results[0]).toEqual({
      spine_id: 'ONF-000010',
      name: 'Pipeline Station 7',
      city: 'Sault Ste. Marie',
      tier: 'unmatched',
      program: 'federal_only',
      naics: '486210',
      totals: { year: 2024, ontario: null, federal: 1250400 },
      emissions: 1250400,
      delta: null,
      flags: { methane: false, anomaly: false },
      // A pipeline station: the federal files give no coordinates for it.
      coordinates: null,
    });
  });

  it("answers no query, and a query meaning the same, with the build's search.json: its tag and codings", async () => {
    const file = await fetch(`${fx.base}/api/v1/search.json`, { headers: { 'Accept-Encoding': 'br' } });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-encoding')).toBe('br');
    const body = await file.text();
    for (const path of ['/api/v1/search', '/api/v1/search?limit=50', '/api/v1/search?offset=0&unknown=1']) {
      const route = await fetch(fx.base + path, { headers: { 'Accept-Encoding': 'br' } });
      expect(route.headers.get('etag'), path).toBe(file.headers.get('etag'));
      expect(route.headers.get('content-encoding'), path).toBe('br');
      expect(await route.text(), path).toBe(body);
      const again = await fetch(fx.base + path, {
        headers: { 'If-None-Match': file.headers.get('etag')!, 'Accept-Encoding': 'br' },
      });
      expect(again.status, path).toBe(304);
    }
    const other = await fetch(`${fx.base}/api/v1/search?limit=49`);
    expect(other.headers.get('etag')).not.toBe(file.headers.get('etag'));
  });

  it.each([
    ['q=maple', ['ONF-000001']],
    ['q=MAP%20ste', ['ONF-000001']],
    ['q=bor%C3%A9al', ['ONF-000002']],
    ['q=BOREAL', ['ONF-000002']],
    ['q=greenhouse%20%26%20co', ['ONF-000005']],
    ['q=greenhouse%20and', ['ONF-000005']],
    ['q=cement', ['ONF-000008', 'ONF-000003', 'ONF-000009', 'ONF-000004']],
    ['q=cement%20plants', ['ONF-000009']],
    ['q=ement', []],
    ['q=cement&city=BATH', ['ONF-000003']],
    ['city=Sault%20Sainte%20Marie', ['ONF-000010']],
    ['city=st.%20catharines', ['ONF-000006']],
    ['tier=anchored', ['ONF-000001', 'ONF-000006', 'ONF-000002']],
    ['program=federal_only&tier=unmatched', ['ONF-000010', 'ONF-000008', 'ONF-000009']],
    ['program=both', ['ONF-000001', 'ONF-000006', 'ONF-000002']],
    ['naics=486210', ['ONF-000010']],
    ['naics=4862', ['ONF-000010']],
    ['naics=48621', ['ONF-000010']],
    ['naics=486211', []],
  ])('%s', async (query, expected) => {
    expect(ids(await get(`/api/v1/search?${query}`))).toEqual(expected);
  });

  it('counts every match before the limit', async () => {
    const r = await get('/api/v1/search?q=cement&limit=1');
    expect(r).toMatchObject({ total: 4, limit: 1, offset: 0 });
    expect(ids(r)).toEqual(['ONF-000008']);
  });

  it('pages through every match in ranking order, without overlap or gap, and past the end to an empty page', async () => {
    const all = ids(await get('/api/v1/search?q=cement'));
    const pages: string[] = [];
    for (let offset = 0; offset < all.length; offset += 3) {
      const page = await get(`/api/v1/search?q=cement&limit=3&offset=${offset}`);
      expect(page).toMatchObject({ total: 4, limit: 3, offset });
      pages.push(...ids(page));
    }
    expect(pages).toEqual(all);
    expect(pages).toHaveLength(4);
    expect(await get('/api/v1/search?q=cement&offset=4')).toMatchObject({ total: 4, offset: 4, results: [] });
    const facilities = (await get('/api/v1/search')).total as number;
    const last = await get(`/api/v1/search?offset=${facilities - 1}&limit=200`);
    expect(ids(last)).toHaveLength(1);
  });

  it.each(['q=*', 'q=%20%20', 'q=', 'q=%F0%9F%9A%9A', 'offset=-1', 'offset=10001', 'naics=4', 'naics=32x'])(
    'refuses %s with a 400 naming the parameter',
    async (query) => {
      const res = await fetch(`${fx.base}/api/v1/search?${query}`);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { errors: { parameter: string }[] };
      expect(body.errors.map((e) => e.parameter)).toEqual([query.split('=')[0]]);
    },
  );

  it('answers a repeated query with the same ETag', async () => {
    const a = await fetch(`${fx.base}/api/v1/search?q=cement`);
    const b = await fetch(`${fx.base}/api/v1/search?q=cement`);
    expect(a.headers.get('etag')).toBe(b.headers.get('etag'));
  });
});

describe('logs', () => {
  it('writes one JSON line per request with method, path, status, ms and service', async () => {
    const before = fx.logs.length;
    await fetch(`${fx.base}/api/v1/facility/ONF-000001?x=1`);
    await waitFor('the request was logged', () => fx.logs.length > before);
    const line = fx.logs[before];
    expect(fx.logs.length).toBe(before + 1);
    expect(line).toMatchObject({
      method: 'GET',
      path: '/api/v1/facility/ONF-000001',
      status: 200,
      service: 'facilities',
    });
    expect(typeof line!.ms).toBe('number');
  });
});
