// Facilities scenarios: lookups by random id, and searches made of words from the facility names in the
// build (as people type them: whole words, prefixes, two words, a city or tier filter).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Rng } from '../contract/core/rng.ts';
import type { SearchDoc, SearchIndexFile } from '../contract/facilities/search.ts';
import type { Scenario, ScenarioInput } from './scenario.ts';

const BASE = '/api/v1';
/** Enough distinct ids that lookups do not sit in one CPU cache line; the issue asks for a few hundred. */
const MAX_IDS = 2000;
const REPEATED_QUERIES = 300;
/**
 * The route's response cache holds 2,000 queries (server/facilities/routes.ts). With this many distinct
 * queries, each connection cycling through its own share (bench/autocannon.ts), a query comes round again
 * only after ~6,000 other requests, so it has always been evicted: every request runs the search.
 */
const DISTINCT_QUERIES = 6000;
/** Words that match most names and that nobody searches for on their own. */
const NOISE = new Set([
  'the',
  'and',
  'inc',
  'ltd',
  'limited',
  'ltée',
  'ltee',
  'corp',
  'corporation',
  'company',
  'les',
  'des',
  'ulc',
  'llc',
  'co',
]);

export function facilitiesScenarios({ buildDir, rng }: ScenarioInput): Scenario[] {
  const index = JSON.parse(readFileSync(join(buildDir, 'index', 'search.json'), 'utf8')) as SearchIndexFile;
  const docs = index.facilities;
  if (docs.length === 0) throw new Error(`${buildDir} holds no facilities to benchmark`);
  const ids = rng.shuffle(docs.map((d) => d.spine_id)).slice(0, MAX_IDS);
  const repeated = toSearchPaths(docs, rng.fork('repeated'), REPEATED_QUERIES, false);
  const distinct = toSearchPaths(docs, rng.fork('distinct'), DISTINCT_QUERIES, true);
  const browse = toBrowsePaths(index, rng.fork('browse'), DISTINCT_QUERIES);
  return [
    {
      name: 'facility/:id',
      description: `GET ${BASE}/facility/{id}, ${ids.length.toLocaleString('en-CA')} random ids`,
      paths: ids.map((id) => `${BASE}/facility/${id}`),
      target: { minRatio: 0.9, maxCpuRatio: 1.2 },
      lookup: true,
    },
    {
      name: 'search',
      description: `GET ${BASE}/search?q=..., ${repeated.length} realistic queries asked again and again (answered from the route's cache after the first time)`,
      paths: repeated,
      target: {},
    },
    staticFilesScenario(buildDir),
    {
      name: 'search (uncached)',
      description: `GET ${BASE}/search?q=..., ${distinct.length.toLocaleString('en-CA')} distinct queries, more than the route's cache holds: each request runs the search`,
      paths: distinct,
      target: {},
    },
    {
      name: 'search faceted (uncached)',
      description: `the same ${distinct.length.toLocaleString('en-CA')} queries with facets=${FACETS}`,
      paths: distinct.map((p) => `${p}&facets=${FACETS}`),
      target: { maxCpuOf: { scenario: 'search (uncached)', ratio: 1.5 } },
    },
    {
      name: 'browse (uncached)',
      description: `GET ${BASE}/search without q, ${browse.length.toLocaleString('en-CA')} distinct lists by year, gas, flag, tier, program, sector and size, sorted and paged: many matches each`,
      paths: browse,
      target: {},
    },
    {
      name: 'browse faceted (uncached)',
      description: `the same ${browse.length.toLocaleString('en-CA')} lists with facets=${FACETS}: every match counted`,
      paths: browse.map((p) => `${p}&facets=${FACETS}`),
      target: { maxCpuOf: { scenario: 'browse (uncached)', ratio: 1.5 } },
    },
  ];
}

const FACETS = 'tier,program,naics2,city,flags';
const SORTS = ['-emissions', 'emissions', 'name', '-name', 'delta_pct', '-delta_pct'];

/**
 * Up to `count` distinct lists as a FLIGHT user narrows one: a year and a sort, and one or two of gas, flag,
 * tier, program, sector or a size bound (a bound from the facilities' own figures, so each list differs).
 */
export function toBrowsePaths(index: SearchIndexFile, rng: Rng, count: number): string[] {
  const docs = index.facilities;
  const figures = docs.map((d) => d.emissions).filter((e): e is number => e !== null);
  const sectors = [...new Set(docs.map((d) => d.naics?.slice(0, 2)).filter((n): n is string => !!n))];
  const out = new Set<string>();
  for (let attempt = 0; out.size < count && attempt < count * 20; attempt++) {
    const params = new URLSearchParams();
    if (rng.chance(0.5)) params.set('year', String(rng.pick(index.years)));
    params.set('sort', rng.pick(SORTS));
    const narrow = rng.pickWeighted([
      ['gas', 20],
      ['flag', 10],
      ['tier', 15],
      ['program', 15],
      ['sector', 20],
    ] as const);
    if (narrow === 'gas') params.set('gas', rng.pick(['co2', 'ch4', 'n2o', 'hfc', 'pfc', 'sf6']));
    if (narrow === 'flag') params.set('flag', rng.pick(['methane', 'anomaly']));
    if (narrow === 'tier') params.set('tier', rng.pick(['anchored', 'unmatched']));
    if (narrow === 'program') params.set('program', rng.pick(['both', 'ontario_only', 'federal_only']));
    if (narrow === 'sector' && sectors.length) params.set('naics', rng.pick(sectors));
    if (figures.length) params.set('min_emissions', String(Math.round(rng.pick(figures) / 4)));
    params.set('limit', String(rng.pick([10, 25, 50, 100])));
    out.add(`${BASE}/search?${params.toString()}`);
  }
  return [...out];
}

/**
 * The static path (server/core/statics.ts): every file of the tree that no route answers (manifest,
 * checksums, report, indexes, the explorer's page and assets), as a browser asks for them (gzip and br
 * accepted), so each precompressed sibling is picked as it is for people.
 */
function staticFilesScenario(buildDir: string): Scenario {
  const sums = JSON.parse(readFileSync(join(buildDir, 'checksums.json'), 'utf8')) as { files: Record<string, string> };
  const files = Object.keys(sums.files).filter(
    (f) => !f.startsWith('api/') && !f.startsWith('private/') && !/\.(gz|br)$/.test(f),
  );
  const paths = ['/manifest.json', '/checksums.json', ...files.map((f) => `/${f}`)];
  return {
    name: 'static files',
    description: `GET of the ${paths.length} files of the tree no route answers, Accept-Encoding: gzip, br`,
    paths,
    headers: { 'Accept-Encoding': 'gzip, br' },
    target: {},
    statics: true,
  };
}

function wordsOf(name: string): string[] {
  return name
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 3 && !/^\d+$/.test(w) && !NOISE.has(w));
}

/** Up to `count` distinct search paths; `withLimit` varies `limit` too, to reach more distinct queries on a small build. */
export function toSearchPaths(docs: readonly SearchDoc[], rng: Rng, count: number, withLimit: boolean): string[] {
  const named = docs.map((d) => ({ doc: d, words: wordsOf(d.name) })).filter((x) => x.words.length > 0);
  if (named.length === 0) return [];
  const out = new Set<string>();
  for (let attempt = 0; out.size < count && attempt < count * 20; attempt++) {
    const { doc, words } = rng.pick(named);
    const word = rng.pick(words);
    const params = new URLSearchParams();
    const kind = rng.pickWeighted([
      ['word', 40],
      ['prefix', 20],
      ['two words', 15],
      ['city', 15],
      ['filter', 10],
    ] as const);
    if (kind === 'prefix' && word.length >= 6) params.set('q', word.slice(0, rng.int(3, 5)));
    else if (kind === 'two words' && words.length > 1) params.set('q', rng.shuffle(words).slice(0, 2).join(' '));
    else params.set('q', word);
    if (kind === 'city' && doc.city) params.set('city', doc.city);
    if (kind === 'filter') {
      if (rng.chance(0.5)) params.set('tier', doc.tier);
      else params.set('program', doc.program);
    }
    if (withLimit) params.set('limit', String(rng.pick([10, 20, 25, 50, 100])));
    out.add(`${BASE}/search?${params.toString()}`);
  }
  return [...out];
}
