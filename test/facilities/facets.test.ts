// Facets, the year, gas, emissions and flag filters, and sort (docs/contracts/facilities.md, "What FLIGHT
// and datasette users do next"). Over a demo build, every response is compared with a plain definition written
// here (filter the documents with that year's figures, sort, cut the page, count each facet naively); over the
// fixture build on a real socket, figures worked out by hand and every bad value's 400.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import lunr from 'lunr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toDelta } from '../../contract/facilities/record.ts';
import { normalizeCity } from '../../contract/facilities/normalize-names.ts';
import {
  GAS_NAMES,
  toQueryTerms,
  toSearchResult,
  type SearchDoc,
  type SearchIndexFile,
} from '../../contract/facilities/search.ts';
import { buildFacilities } from '../../pipeline/facilities/index.ts';
import { matchNames } from '../../pipeline/facilities/search.ts';
import { writeDemo } from '../../pipeline/services.ts';
import { FACET_NAMES, NAICS_SECTORS } from '../../server/facilities/facets.ts';
import { loadSearch, search, type SearchQuery } from '../../server/facilities/search.ts';
import { serveFixture } from '../helpers/facilities.ts';
import { tempDir } from '../helpers/server.ts';
import { schemas } from '../../contract/core/schemas.ts';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are untyped JSON, read field by field in assertions
type Json = Record<string, any>;

const SORTS = ['-emissions', 'emissions', 'name', '-name', 'delta_pct', '-delta_pct'] as const;
const names = new Intl.Collator('en-CA', { sensitivity: 'base', numeric: true });

/** The plain definition of a search answer, from the index file alone. */
function expected(file: SearchIndexFile, index: lunr.Index, query: SearchQuery): Json {
  const year = query.year ?? file.year;
  const docs: SearchDoc[] = file.facilities.map((d) => {
    const p = d.series.find((s) => s.year === year);
    const totals = { year, ontario: p?.ontario ?? null, federal: p?.federal ?? null };
    return { ...d, totals, emissions: totals.federal ?? totals.ontario, delta: toDelta(totals) };
  });
  const terms = toQueryTerms(query.q ?? '');
  const named = terms.length ? matchNames(index, terms) : undefined;
  const matches = docs.filter(
    (d) =>
      (!named || named.has(d.spine_id)) &&
      (!query.city || d.city_key === normalizeCity(query.city)) &&
      (!query.tier || d.tier === query.tier) &&
      (!query.naics || (d.naics ?? '').startsWith(query.naics)) &&
      (query.year === undefined || d.totals.ontario !== null || d.totals.federal !== null) &&
      (!query.gas || d.gases[query.gas].includes(year)) &&
      (!query.flag || d.flags[query.flag]) &&
      (query.min_emissions === undefined || (d.emissions ?? -Infinity) >= query.min_emissions) &&
      (query.max_emissions === undefined || (d.emissions ?? Infinity) <= query.max_emissions),
  );
  const sort = query.sort ?? '-emissions';
  const key = (d: SearchDoc): number | string | null =>
    sort.endsWith('emissions') ? d.emissions : sort.endsWith('name') ? d.name : (d.delta?.pct ?? null);
  const down = sort.startsWith('-') ? -1 : 1;
  matches.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka === null || kb === null) {
      if (ka !== kb) return ka === null ? 1 : -1;
    } else {
      const c = typeof ka === 'string' ? names.compare(ka, kb as string) : ka - (kb as number);
      if (c !== 0) return down * c;
    }
    return a.spine_id < b.spine_id ? -1 : 1;
  });
  const limit = query.limit ?? 50;
  const offset = query.offset ?? 0;
  const out: Json = {
    total: matches.length,
    limit,
    offset,
    results: matches.slice(offset, offset + limit).map(toSearchResult),
  };
  const asked = (query.facets ?? '').split(',').map((s) => s.trim());
  const facets = FACET_NAMES.filter((n) => asked.includes(n));
  if (facets.length) {
    out.facets = {};
    for (const name of facets) {
      const counts = new Map<string, { value: string; count: number }>();
      const add = (group: string, value: string) => {
        const c = counts.get(group) ?? { value, count: 0 };
        c.count++;
        counts.set(group, c);
      };
      // Cities are named by the spelling of the highest-ranked facility (comparison year) with that key.
      const firstCity = new Map<string, string>();
      for (const d of file.facilities) if (d.city_key && !firstCity.has(d.city_key)) firstCity.set(d.city_key, d.city!);
      for (const d of matches) {
        if (name === 'tier') add(d.tier, d.tier);
        if (name === 'program') add(d.program, d.program);
        if (name === 'naics2' && d.naics) add(d.naics.slice(0, 2), d.naics.slice(0, 2));
        if (name === 'city' && d.city_key) add(d.city_key, firstCity.get(d.city_key)!);
        if (name === 'flags') for (const f of ['methane', 'anomaly'] as const) if (d.flags[f]) add(f, f);
      }
      const all = [...counts.values()].sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1));
      const filterOf = { tier: 'tier', program: 'program', naics2: 'naics', city: 'city', flags: 'flag' } as const;
      out.facets[name] = {
        name,
        type: 'column',
        results: all.slice(0, 30).map(({ value, count }) => {
          const given = query[filterOf[name]] as string | undefined;
          return {
            value,
            label: name === 'naics2' && NAICS_SECTORS[value] ? `${value} ${NAICS_SECTORS[value]}` : value,
            count,
            selected:
              name === 'city' ? given !== undefined && normalizeCity(given) === normalizeCity(value) : given === value,
          };
        }),
        truncated: all.length > 30,
      };
    }
  }
  return out;
}

describe('search with facets, filters and sort, over a demo build', () => {
  let root: Awaited<ReturnType<typeof tempDir>>;
  let file: SearchIndexFile;
  let index: lunr.Index;

  beforeAll(async () => {
    root = await tempDir('facilities-facets');
    await writeDemo('facilities', join(root.path, 'in'));
    await buildFacilities({ input: join(root.path, 'in'), outDir: join(root.path, 'out') });
    const path = join(root.path, 'out', 'facilities', 'index', 'search.json');
    file = JSON.parse(readFileSync(path, 'utf8')) as SearchIndexFile;
    index = lunr.Index.load(file.lunr);
  }, 60_000);
  afterAll(() => root?.remove());

  it('lists the years both programs report, the comparison year among them', () => {
    expect(file.years).toContain(file.year);
    expect(file.years.length).toBeGreaterThan(3);
    for (const y of file.years) {
      expect(file.facilities.some((d) => d.series.some((p) => p.year === y && p.ontario !== null))).toBe(true);
      expect(file.facilities.some((d) => d.series.some((p) => p.year === y && p.federal !== null))).toBe(true);
    }
  });

  it('answers 600 mixed queries with the bytes of the plain definition, facets included', () => {
    const data = loadSearch(file, 'v1');
    const words = file.facilities.flatMap((f) => toQueryTerms(f.name));
    const cities = [...new Set(file.facilities.map((f) => f.city).filter((c): c is string => c !== null))];
    const emissions = file.facilities.map((d) => d.emissions).filter((e): e is number => e !== null);
    let faceted = 0;
    let nonEmpty = 0;
    for (let i = 0; i < 600; i++) {
      const query: SearchQuery = {
        ...(i % 4 === 1 && { q: words[(i * 7919) % words.length]!.slice(0, 3) }),
        ...(i % 9 === 2 && { city: cities[i % cities.length] }),
        ...(i % 7 === 3 && { tier: 'anchored' as const }),
        ...(i % 11 === 4 && { naics: '32' }),
        ...(i % 3 === 0 && { year: file.years[i % file.years.length] }),
        ...(i % 5 === 1 && { gas: GAS_NAMES[i % GAS_NAMES.length] }),
        ...(i % 6 === 2 && { min_emissions: emissions[(i * 31) % emissions.length]! }),
        ...(i % 8 === 5 && { max_emissions: emissions[(i * 17) % emissions.length]! * 3 }),
        ...(i % 10 === 7 && { flag: i % 20 === 7 ? ('methane' as const) : ('anomaly' as const) }),
        ...(i % 2 === 1 && { sort: SORTS[(i >> 1) % SORTS.length] }),
        ...(i % 3 !== 2 && { facets: i % 2 ? 'city,flags,tier' : 'naics2,program' }),
        limit: [5, 50, 200][i % 3],
        offset: [0, 0, 3][i % 3],
      };
      if (query.min_emissions !== undefined && query.max_emissions !== undefined) delete query.max_emissions;
      const want = expected(file, index, query);
      const body = search(data, query).body.toString('utf8');
      expect(body, JSON.stringify(query)).toBe(JSON.stringify(want));
      schemas().assert('facilities/search', JSON.parse(body), 'search');
      if (want.total > 0) nonEmpty++;
      if (want.facets) faceted++;
    }
    expect(nonEmpty).toBeGreaterThan(300);
    expect(faceted).toBeGreaterThan(300);
  });

  it('counts every value its filter then finds: a facet value is a filter value', () => {
    const data = loadSearch(file, 'v1');
    const answer = JSON.parse(search(data, { facets: FACET_NAMES.join(',') }).body.toString('utf8')) as Json;
    const filterOf = { tier: 'tier', program: 'program', naics2: 'naics', city: 'city', flags: 'flag' } as const;
    let checked = 0;
    for (const name of FACET_NAMES) {
      expect(answer.facets[name].results.length, name).toBeGreaterThan(0);
      for (const { value, count } of answer.facets[name].results as Json[]) {
        const narrowed = JSON.parse(search(data, { [filterOf[name]]: value } as SearchQuery).body.toString('utf8'));
        expect(narrowed.total, `${name}=${value}`).toBe(count);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
  });
});

describe('facets, filters and sort over HTTP (fixture build)', () => {
  let fx: Awaited<ReturnType<typeof serveFixture>>;
  const get = async (path: string): Promise<Json> => {
    const res = await fetch(fx.base + path);
    expect(res.status, path).toBe(200);
    return (await res.json()) as Json;
  };
  beforeAll(async () => {
    fx = await serveFixture();
  });
  afterAll(() => fx?.close());

  it('gives another year’s totals, delta and ranking: Maple Leaf in 2023', async () => {
    const r = await get('/api/v1/search?q=maple&year=2023');
    // 2023: Ontario 953,000, federal 953,400: −400 t, −400 / 953,400 = −0.04 %.
    expect(r.results).toHaveLength(1);
    expect(r.results[0]).toMatchObject({
      spine_id: 'ONF-000001',
      totals: { year: 2023, ontario: 953000, federal: 953400 },
      emissions: 953400,
      delta: { year: 2023, tonnes: -400, pct: -0.04 },
    });
  });

  it('keeps the facilities with a figure in the year asked, and sorts those without a value last', async () => {
    const spine = await get('/api/v1/spine');
    const in2023 = spine.facilities
      .filter((f: Json) => f.series.some((p: Json) => p.year === 2023 && (p.ontario !== null || p.federal !== null)))
      .map((f: Json) => f.spine_id)
      .sort();
    expect(in2023.length).toBeGreaterThan(0);
    expect(in2023.length).toBeLessThan(spine.count);
    const asked = await get('/api/v1/search?year=2023');
    expect(asked.results.map((d: Json) => d.spine_id).sort()).toEqual(in2023);
    expect((await get('/api/v1/search')).total).toBe(spine.count);
    for (const sort of ['delta_pct', '-delta_pct']) {
      const deltas = (await get(`/api/v1/search?sort=${sort}`)).results.map((d: Json) => d.delta?.pct ?? null);
      const known = deltas.filter((p: number | null) => p !== null);
      expect(known.length, sort).toBeGreaterThan(1);
      expect(
        deltas.slice(known.length).every((p: number | null) => p === null),
        sort,
      ).toBe(true);
      expect(known, sort).toEqual([...known].sort((x, y) => (sort === 'delta_pct' ? x - y : y - x)));
    }
    const figures = (await get('/api/v1/search?sort=emissions')).results.map((d: Json) => d.emissions);
    expect(figures).toEqual([...figures].sort((x, y) => x - y));
    const byName = (await get('/api/v1/search?sort=-name')).results.map((d: Json) => d.name);
    expect(byName).toEqual([
      'Pipeline Station 7',
      'Papier Boréal',
      'Northfield Cement Plants',
      'Northfield Cement Plant',
      'Maple Leaf Steel Inc.',
      'Landfill East',
      'Lakeside Energy Centre',
      'Greenhouse & Co',
      'Cement Works',
      'Cement Works',
    ]);
    // Equal names keep spine_id order in both directions, so pages never overlap.
    const works = async (sort: string) =>
      (await get(`/api/v1/search?sort=${sort}&q=cement%20works`)).results.map((d: Json) => d.spine_id);
    expect(await works('name')).toEqual(await works('-name'));
  });

  it('counts tiers and programs among every match, before paging, as the spine lists them', async () => {
    const spine = await get('/api/v1/spine');
    const r = await get('/api/v1/search?facets=program,tier&limit=1');
    expect(r.results).toHaveLength(1);
    const count = (key: 'tier' | 'program', v: string) => spine.facilities.filter((f: Json) => f[key] === v).length;
    for (const key of ['tier', 'program'] as const)
      for (const v of r.facets[key].results as Json[]) expect(v.count, `${key} ${v.value}`).toBe(count(key, v.value));
    expect(r.facets.tier.results.reduce((s: number, v: Json) => s + v.count, 0)).toBe(spine.count);
    expect(Object.keys(r.facets)).toEqual(['tier', 'program']);
    const selected = await get('/api/v1/search?facets=tier&tier=anchored');
    expect(selected.facets.tier.results).toEqual([
      { value: 'anchored', label: 'anchored', count: selected.total, selected: true },
    ]);
  });

  it('leaves facets out of the CSV', async () => {
    const res = await fetch(`${fx.base}/api/v1/search?facets=tier&format=csv&q=maple`);
    expect(res.status).toBe(200);
    expect((await res.text()).split('\r\n')[0]).toMatch(/^spine_id,.*,latitude,longitude$/);
  });

  it.each([
    ['year=1999', 'year', /1999 is not a year both programs report; the years are 2023, 2024/],
    ['year=twenty', 'year', /must be an integer/],
    ['gas=co', 'gas', /must be one of: co2, ch4, n2o, hfc, pfc, sf6/],
    ['flag=big', 'flag', /must be one of: methane, anomaly/],
    ['sort=size', 'sort', /must be one of: -emissions, emissions, name, -name, delta_pct, -delta_pct/],
    ['facets=tier,color', 'facets', /"color" is not a facet; the facets are tier, program, naics2, city, flags/],
    ['min_emissions=1e3', 'min_emissions', /must be a decimal number/],
    ['max_emissions=0x10', 'max_emissions', /must be a decimal number/],
    ['min_emissions=', 'min_emissions', /must not be empty/],
    ['min_emissions=10&max_emissions=5', 'min_emissions', /10 is more than max_emissions 5/],
  ])('refuses %s with a 400 naming %s', async (query, parameter, message) => {
    const res = await fetch(`${fx.base}/api/v1/search?${query}`);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const body = (await res.json()) as Json;
    expect(body.errors.map((e: Json) => e.parameter)).toEqual([parameter]);
    expect(body.errors[0].message).toMatch(message);
  });

  it('names every bad parameter at once', async () => {
    const res = await fetch(`${fx.base}/api/v1/search?year=1&gas=x&sort=y&facets=z`);
    const body = (await res.json()) as Json;
    expect(body.errors.map((e: Json) => e.parameter)).toEqual(['facets', 'gas', 'sort', 'year']);
  });
});
