// The registry routes over a real build of the repository's registry, served on a real socket: the list,
// the ranking of `q` (exact id, id prefix, title words, description words; ties by id), categories,
// details, 404s and 400s, plus what the build writes beside them (report, manifest, determinism).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../contract/core/rng.ts';
import { sha256 } from '../../contract/core/hash.ts';
import { schemas } from '../../contract/core/schemas.ts';
import { toSearchWords } from '../../contract/core/text.ts';
import { loadRegistry, REGISTRY_PATH, toSeriesDetail, toSeriesRecord } from '../../pipeline/economy/registry.ts';
import { rankSeries, toSeriesSearch } from '../../contract/economy/search.ts';
import { toSearchIndex } from '../../pipeline/economy/search.ts';
import { CATEGORIES, type RegistryEntry, type SeriesRecord } from '../../contract/economy/types.ts';
import { buildEconomyFixture, ECONOMY_CLOCK, serveEconomyFixture } from '../helpers/economy.ts';

const { entries } = loadRegistry();
const byId = new Map(entries.map((e) => [e.id, e]));
const sortedIds = entries.map((e) => e.id).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * The contract's ranking computed the slow way, without lunr or binary search: each record's tier from its
 * words, then by tier and id. The routes must agree with it for every query.
 */
function bruteRank(q: string): string[] {
  const words = toSearchWords(q);
  if (words.length === 0) return sortedIds;
  const key = words.join('_').toUpperCase();
  const covers = (ws: string[]) => words.every((w) => ws.some((x) => x.startsWith(w)));
  const tierOf = (e: RegistryEntry): number | undefined => {
    if (e.id === key) return 0;
    if (e.id.startsWith(key)) return 1;
    const title = toSearchWords(e.title);
    if (covers(title)) return 2;
    if (covers([...toSearchWords(e.id), ...title, ...toSearchWords(e.description)])) return 3;
    return undefined;
  };
  return sortedIds
    .map((id) => ({ id, tier: tierOf(byId.get(id)!) }))
    .filter((x): x is { id: string; tier: number } => x.tier !== undefined)
    .sort((a, b) => a.tier - b.tier || (a.id < b.id ? -1 : 1))
    .map((x) => x.id);
}

describe('rankSeries', () => {
  const records = entries.map(toSeriesRecord);
  const reference = toSeriesSearch(JSON.parse(JSON.stringify(toSearchIndex(records))));
  const queries = [
    'cpi',
    'dollar',
    'rate',
    'canada',
    'price index',
    'fx usd cad',
    'CPI_ALL_ITEMS',
    'm',
    'employment',
    '',
  ];

  it('ignores the order of the records it was built from (seeded shuffles)', () => {
    const rng = createRng(20261122);
    for (let round = 0; round < 5; round++) {
      const shuffled = toSeriesSearch(JSON.parse(JSON.stringify(toSearchIndex(rng.shuffle(records)))));
      for (const q of queries)
        expect(
          rankSeries(q, shuffled).map((r) => r.id),
          q,
        ).toEqual(rankSeries(q, reference).map((r) => r.id));
    }
  });

  it('returns only records of the registry, each once, and narrows as words are added', () => {
    for (const q of queries) {
      const ids = rankSeries(q, reference).map((r) => r.id);
      expect(new Set(ids).size, q).toBe(ids.length);
      for (const id of ids) expect(byId.has(id), id).toBe(true);
    }
    const wide = new Set(rankSeries('price', reference).map((r) => r.id));
    for (const r of rankSeries('price index', reference)) expect(wide.has(r.id), r.id).toBe(true);
  });
});

let base = '';
let buildDir = '';
let state: Awaited<ReturnType<typeof serveEconomyFixture>>['app'];
let close = async () => {};

beforeAll(async () => {
  const running = await serveEconomyFixture();
  ({ base, buildDir, close } = running);
  state = running.app;
});
afterAll(() => close());

async function getJson<T>(path: string): Promise<{ status: number; body: T; etag: string | null }> {
  const res = await fetch(base + path);
  return { status: res.status, body: (await res.json()) as T, etag: res.headers.get('etag') };
}

const search = async (q: string) =>
  (await getJson<SeriesRecord[]>(`/api/series?q=${encodeURIComponent(q)}`)).body.map((r) => r.id);

describe('GET /api/series', () => {
  it('lists every series as a list record, by id', async () => {
    const { status, body } = await getJson<SeriesRecord[]>('/api/series');
    expect(status).toBe(200);
    expect(body).toEqual([...entries].map(toSeriesRecord).sort((a, b) => (a.id < b.id ? -1 : 1)));
    expect(() => schemas().assert('economy/series-list', body, '/api/series')).not.toThrow();
  });

  it('puts the exact id first, whatever its spelling', async () => {
    for (const q of ['CPI_ALL_ITEMS', 'cpi_all_items', 'cpi all items', 'CPI-All-Items'])
      expect((await search(q))[0], q).toBe('CPI_ALL_ITEMS');
    expect(await search('fx usd cad')).toEqual(['FX_USD_CAD', 'FX_USD_CAD_ANNUAL', 'FX_CAD_USD']);
  });

  it('ranks id prefixes next, by id', async () => {
    expect(await search('cpi')).toEqual([
      'CPI_ALBERTA_EX_ENERGY',
      'CPI_ALBERTA_EX_FOOD_ENERGY',
      'CPI_ALL_ITEMS',
      'CPI_ENERGY',
      'CPI_EX_ENERGY',
      'CPI_EX_FOOD_ENERGY',
      'CPI_FOOD',
      'CPI_GOODS',
      'CPI_SERVICES',
      'CPI_SHELTER',
    ]);
    // The key CPI_EX is a prefix of two ids; the Alberta series hold "cpi" and "ex" only as words of their ids.
    expect(await search('cpi ex')).toEqual([
      'CPI_EX_ENERGY',
      'CPI_EX_FOOD_ENERGY',
      'CPI_ALBERTA_EX_ENERGY',
      'CPI_ALBERTA_EX_FOOD_ENERGY',
    ]);
    expect(await search('CPI')).toEqual(await search('cpi'));
    const fx = await search('fx');
    expect(fx).toEqual(sortedIds.filter((id) => id.startsWith('FX')));
  });

  it('ranks title words before description words', async () => {
    const dollar = await search('dollar');
    const titled = sortedIds.filter((id) => toSearchWords(byId.get(id)!.title).some((w) => w.startsWith('dollar')));
    expect(titled.length).toBeGreaterThan(5);
    expect(dollar.slice(0, titled.length)).toEqual(titled);
    expect(dollar).toContain('GDP_REAL_QUARTERLY'); // "chained (2017) dollars" in its description only
    expect(dollar.indexOf('GDP_REAL_QUARTERLY')).toBeGreaterThanOrEqual(titled.length);
    // Id prefix (BANK_RATE), then titles with "Bank"/"banks", then the series naming a bank only in their description.
    expect(await search('bank')).toEqual([
      'BANK_RATE',
      'BCPI_AGRICULTURE',
      'BCPI_ENERGY',
      'BCPI_EXCLUDING_ENERGY',
      'BCPI_FISH',
      'BCPI_FORESTRY',
      'BCPI_METALS_MINERALS',
      'BCPI_TOTAL',
      'CURRENCY_OUTSIDE_BANKS',
      'POLICY_RATE',
      'PRIME_RATE',
      'FX_AUD_CAD',
      'FX_CHF_CAD',
      'FX_CNY_CAD',
      'FX_EUR_CAD',
      'FX_GBP_CAD',
      'FX_JPY_CAD',
      'FX_MXN_CAD',
      'FX_USD_CAD',
      'M2_GROSS',
      'M2_GROSS_NSA',
      'M3_GROSS',
      'M3_GROSS_NSA',
      'MORTGAGE_RATE_5Y',
    ]);
  });

  it('finds series by the words of their description alone', async () => {
    expect(await search('v41690973')).toEqual(['CPI_ALL_ITEMS']);
    expect(await search('FXUSDCAD')).toEqual(['FX_USD_CAD']);
    expect(await search('statistical mode')).toEqual(['MORTGAGE_RATE_5Y', 'PRIME_RATE']); // "the most typical rate (statistical mode)"
    // Id prefix, then the aggregates whose descriptions name currency outside banks or foreign currency deposits.
    expect(await search('currency')).toEqual([
      'CURRENCY_OUTSIDE_BANKS',
      'M2_GROSS',
      'M2_GROSS_NSA',
      'M3_GROSS',
      'M3_GROSS_NSA',
    ]);
  });

  it('matches word starts, case and accents folded', async () => {
    expect(await search('Dollár')).toEqual(await search('dollar'));
    expect(await search('unemploy')).toEqual(['UNEMPLOYMENT_RATE']);
    expect(await search('no such words at all')).toEqual([]);
  });

  it.each([
    'cpi',
    'CPI_ALL_ITEMS',
    'fx usd',
    'dollar',
    'price index',
    'rate',
    'canada',
    'employment',
    'gdp',
    'bank of canada',
    'v2062815',
    'trade balance',
    'm2',
    'yield 10',
    'x',
  ])('agrees with the brute-force ranking for q=%s', async (q) => {
    expect(await search(q)).toEqual(bruteRank(q));
  });

  it('answers no q with the full list and its ETag, and a q without letters or digits with a 400', async () => {
    const all = await getJson<SeriesRecord[]>('/api/series');
    for (const path of ['/api/series?unknown=1', '/api/series?offset=0']) {
      const res = await getJson<SeriesRecord[]>(path);
      expect(res.status, path).toBe(200);
      expect(res.etag, path).toBe(all.etag);
      expect(res.body, path).toEqual(all.body);
    }
    for (const path of ['/api/series?q=', '/api/series?q=%20!%20', '/api/series?q=*']) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).toBe(400);
      expect(((await res.json()) as { errors: { parameter: string }[] }).errors, path).toEqual([
        { parameter: 'q', message: 'must hold a letter or digit; leave q out to list every series' },
      ]);
    }
  });

  it('pages the list and a ranking with limit and offset, the total in X-Total-Count', async () => {
    const all = await getJson<SeriesRecord[]>('/api/series');
    const pages: SeriesRecord[] = [];
    for (let offset = 0; offset < all.body.length; offset += 20) {
      const res = await fetch(`${base}/api/series?limit=20&offset=${offset}`);
      expect(res.headers.get('x-total-count')).toBe(String(all.body.length));
      pages.push(...((await res.json()) as SeriesRecord[]));
    }
    expect(pages).toEqual(all.body);
    const ranked = await getJson<SeriesRecord[]>('/api/series?q=price');
    const second = await fetch(`${base}/api/series?q=price&limit=2&offset=1`);
    expect(second.headers.get('x-total-count')).toBe(String(ranked.body.length));
    expect(await second.json()).toEqual(ranked.body.slice(1, 3));
    const past = await fetch(`${base}/api/series?q=price&offset=10000`);
    expect(await past.json()).toEqual([]);
    expect((await fetch(`${base}/api/series?limit=0`)).status).toBe(400);
  });

  it('caches each canonical query once: another spelling of the same words is the same entry', async () => {
    const first = await getJson<SeriesRecord[]>('/api/series?q=labour&limit=3');
    const size = state.state().data.searches.size;
    const again = await getJson<SeriesRecord[]>('/api/series?limit=3&q=labour');
    expect(again.etag).toBe(first.etag);
    const other = await getJson<SeriesRecord[]>('/api/series?q=LABOUR&limit=3&offset=0&junk=1');
    expect(other.etag).toBe(first.etag);
    expect(state.state().data.searches.size).toBe(size);
  });

  it('takes q up to 200 characters and refuses longer or repeated ones', async () => {
    expect((await fetch(`${base}/api/series?q=${'a'.repeat(200)}`)).status).toBe(200);
    for (const path of [`/api/series?q=${'a'.repeat(201)}`, '/api/series?q=a&q=b']) {
      const res = await fetch(base + path);
      expect(res.status, path).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      const body = (await res.json()) as { code: string; errors: { parameter: string }[] };
      expect(body.code).toBe('invalid_parameter');
      expect(body.errors.map((e) => e.parameter)).toEqual(['q']);
    }
  });
});

describe('GET /api/series/{id}', () => {
  it('answers every series with its detail', async () => {
    for (const e of entries) {
      const { status, body } = await getJson<Record<string, unknown>>(`/api/series/${e.id}`);
      expect(status, e.id).toBe(200);
      expect(body, e.id).toEqual(toSeriesDetail(e));
      expect(() => schemas().assert('economy/series-detail', body, e.id)).not.toThrow();
    }
  });

  it('gives StatCan series their table and vectors, Valet series their names and no vectors', async () => {
    const cpi = (await getJson<Record<string, unknown>>('/api/series/CPI_ALL_ITEMS')).body;
    expect(cpi).toMatchObject({
      id: 'CPI_ALL_ITEMS',
      source: 'STATCAN',
      sourceLabel: 'Statistics Canada',
      tableId: '18-10-0004-01',
      vectorIds: [41690973],
      lastVerified: '2026-11-22',
      upstream: { kind: 'statcan-wds', tableId: '18-10-0004-01', vectorIds: [41690973] },
    });
    const usd = (await getJson<Record<string, unknown>>('/api/series/FX_USD_CAD')).body;
    expect(usd).toMatchObject({
      source: 'BOC',
      sourceLabel: 'Bank of Canada',
      tableId: null,
      vectorIds: [],
      upstream: { kind: 'boc-valet', seriesNames: ['FXUSDCAD'] },
    });
    const gdp = (await getJson<{ scalar_factor: unknown }>('/api/series/GDP_REAL_QUARTERLY')).body;
    expect(gdp.scalar_factor).toEqual({ code: 6, multiplier: 1_000_000 });
  });

  it.each([
    'NO_SUCH_SERIES',
    'cpi_all_items',
    'CPI-ALL-ITEMS',
    'CPI_ALL_ITEMS.json',
    '..%2f..%2fmanifest',
    '%20CPI_ALL_ITEMS',
    'A'.repeat(65),
  ])('/api/series/%s → 404 not_found', async (id) => {
    const res = await fetch(`${base}/api/series/${id}`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(((await res.json()) as { code: string }).code).toBe('not_found');
  });
});

describe('GET /api/categories', () => {
  it('lists the 8 categories with the registry counts and up to 3 examples', async () => {
    const { status, body } =
      await getJson<{ slug: string; name: string; seriesCount: number; examples: string[] }[]>('/api/categories');
    expect(status).toBe(200);
    expect(body.map((c) => [c.slug, c.name])).toEqual(Object.entries(CATEGORIES));
    for (const c of body) {
      const members = entries.filter((e) => e.category === c.slug);
      expect(c.seriesCount, c.slug).toBe(members.length);
      expect(c.seriesCount, c.slug).toBeGreaterThan(0);
      expect(c.examples.length).toBe(Math.min(3, members.length));
      for (const t of c.examples) expect(members.map((m) => m.title)).toContain(t);
    }
    expect(body.reduce((n, c) => n + c.seriesCount, 0)).toBe(entries.length);
  });
});

describe('the economy build', () => {
  it('writes a manifest naming the registry with its sha256, and the counts', () => {
    const manifest = JSON.parse(readFileSync(join(buildDir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      service: 'economy',
      demo: true,
      built_at: ECONOMY_CLOCK().toISOString(),
      sources: [
        {
          file: 'data/economy/registry.json',
          kind: 'registry',
          rows: entries.length,
          sha256: sha256(readFileSync(REGISTRY_PATH)),
        },
        // The upstreams the observations come from, read at request time: no file of theirs.
        { kind: 'boc_valet', upstream: true, rows: entries.filter((e) => e.source === 'BOC').length },
        { kind: 'statcan_wds', upstream: true, rows: entries.filter((e) => e.source === 'STATCAN').length },
      ],
      counts: { series: entries.length, categories: 8 },
    });
  });

  it('reports the series no recorded response backs, and copies the registry', () => {
    const report = JSON.parse(readFileSync(join(buildDir, 'report.json'), 'utf8')) as {
      unverified: string[];
      issues: unknown[];
      by_category: Record<string, number>;
    };
    const unverified = (
      entries as (RegistryEntry & {
        evidence?: { recorded: string[]; documentation?: string[]; archived?: unknown[] };
      })[]
    )
      .filter(
        (e) => !e.evidence?.recorded.length && !e.evidence?.documentation?.length && !e.evidence?.archived?.length,
      )
      .map((e) => e.id)
      .sort();
    expect(report.unverified).toEqual(unverified);
    // The reviewed registry takes no series that nothing backs.
    expect(unverified).toEqual([]);
    expect(report.issues).toEqual([]);
    expect(Object.keys(report.by_category).sort()).toEqual(Object.keys(CATEGORIES).sort());
    expect(JSON.parse(readFileSync(join(buildDir, 'registry.json'), 'utf8'))).toEqual(entries);
    expect(state.state().data.entries.get('FX_USD_CAD')?.seriesNames).toEqual(['FXUSDCAD']);
  });

  it('builds the same bytes twice and a different version for a live build', async () => {
    const a = await buildEconomyFixture();
    const b = await buildEconomyFixture();
    const live = await buildEconomyFixture({ demo: false });
    try {
      expect(readFileSync(join(b.buildDir, 'checksums.json'), 'utf8')).toBe(
        readFileSync(join(a.buildDir, 'checksums.json'), 'utf8'),
      );
      expect(b.summary.data_version).toBe(a.summary.data_version);
      expect(live.summary.data_version).not.toBe(a.summary.data_version);
    } finally {
      await Promise.all([a.root.remove(), b.root.remove(), live.root.remove()]);
    }
  });

  it('reports identifiers verified more than a year before the build', async () => {
    const later = await buildEconomyFixture({ now: () => new Date('2028-01-01T00:00:00Z') });
    try {
      const report = JSON.parse(readFileSync(join(later.buildDir, 'report.json'), 'utf8')) as {
        issues: { id: string; kind: string }[];
      };
      expect(report.issues.map((i) => i.id)).toEqual(sortedIds);
      expect(new Set(report.issues.map((i) => i.kind))).toEqual(new Set(['stale_verification']));
    } finally {
      await later.root.remove();
    }
  });
});
