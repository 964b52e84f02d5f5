// Carriers scenarios: profile lookups by random carrier id, signed in with a premium key (not counted against
// any allowance), and searches as people type them into a carrier search box: words of carrier names,
// prefixes, two words, whole names and carrier numbers (`USDOT 123456`).
// The ids and names are read from the build's record stores (pipeline/core/record-store.ts) by sampling:
// at 2 million carriers the search records are hundreds of megabytes, and the bench needs a few thousand.
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { offsetsStart, RECORD_STORE_MAGIC } from '../contract/core/record-store.ts';
import type { Rng } from '../contract/core/rng.ts';
import { BASE } from '../server/carriers/routes.ts';
import { PROFILES, SEARCH_RECORDS } from '../contract/carriers/layout.ts';
import { toSearchWords } from '../contract/core/text.ts';
import { loadBuild } from '../server/core/build.ts';
import { openSqliteStore } from '../server/core/store.ts';
import type { Scenario, ScenarioInput } from './scenario.ts';

/** Enough distinct ids that lookups spread over the data file rather than a few pages of it. */
const MAX_IDS = 2000;
/** More ids than the route's profile cache holds (server/carriers/routes.ts), so lookups read the disk. */
const COLD_IDS = 60_000;
/** Search records read to take names from. */
const SAMPLED_NAMES = 5000;
const REPEATED_QUERIES = 300;
/**
 * The search route caches 5,000 responses (server/carriers/routes.ts). With three times as many distinct
 * queries, each connection cycling through its own share (bench/autocannon.ts), a query comes round again
 * only after ~15,000 other requests, so it has always been evicted: every request runs the search.
 */
const DISTINCT_QUERIES = 15_000;
/** Words in most names that nobody searches for on their own. */
const NOISE = new Set(['the', 'and', 'inc', 'llc', 'ltd', 'corp', 'corporation', 'company', 'co', 'of', 'dba']);

interface SearchRecord {
  carrier_id: number;
  legal_name: string;
  dba_name: string | null;
}

interface RecordIndex {
  keys: Uint32Array;
  offsets: Float64Array;
}

/** The keys and offsets of a record store index (layout: pipeline/core/record-store.ts). */
function readRecordIndex(path: string): RecordIndex {
  const idx = readFileSync(path);
  if (idx.length < 16 || idx.toString('latin1', 0, 8) !== RECORD_STORE_MAGIC)
    throw new Error(`${path} is not a record store index`);
  const count = idx.readUInt32LE(8);
  const start = offsetsStart(count);
  if (idx.length !== start + (count + 1) * 8) throw new Error(`${path} has the wrong size for ${count} records`);
  const keys = new Uint32Array(count);
  Buffer.from(keys.buffer).set(idx.subarray(16, 16 + count * 4));
  const offsets = new Float64Array(count + 1);
  Buffer.from(offsets.buffer).set(idx.subarray(start, start + (count + 1) * 8));
  return { keys, offsets };
}

/** Up to `count` distinct positions in [0, n), at random. */
function samplePositions(rng: Rng, n: number, count: number): number[] {
  if (n <= count) return rng.shuffle(Array.from({ length: n }, (_, i) => i));
  const picked = new Set<number>();
  while (picked.size < count) picked.add(rng.int(0, n - 1));
  return [...picked];
}

function readSearchRecords(buildDir: string, rng: Rng, count: number): SearchRecord[] {
  const build = loadBuild(buildDir, 'carriers');
  const { keys, offsets } = readRecordIndex(build.pathOf(`${SEARCH_RECORDS}.idx`));
  const fd = openSync(build.pathOf(`${SEARCH_RECORDS}.dat`), 'r');
  try {
    return samplePositions(rng, keys.length, count).map((i) => {
      const start = offsets[i]!;
      const buf = Buffer.allocUnsafe(offsets[i + 1]! - start);
      readSync(fd, buf, 0, buf.length, start);
      return JSON.parse(buf.toString('utf8')) as SearchRecord;
    });
  } finally {
    closeSync(fd);
  }
}

/** A premium key in the servers' STATE_DIR: profile lookups need one, and premium lookups are never refused for quota. */
async function createPremiumKey(stateDir: string): Promise<string> {
  const store = openSqliteStore(stateDir);
  try {
    return (await store.createKey('premium', 'bench', new Date())).key;
  } finally {
    await store.close();
  }
}

export async function carriersScenarios({ buildDir, stateDir, rng }: ScenarioInput): Promise<Scenario[]> {
  // Private files are beside the tree, where its manifest says (pipeline/core/sink.ts).
  const profiles = readRecordIndex(loadBuild(buildDir, 'carriers').pathOf(`${PROFILES}.idx`));
  if (profiles.keys.length === 0) throw new Error(`${buildDir} holds no carrier profiles to benchmark`);
  const ids = samplePositions(rng.fork('ids'), profiles.keys.length, MAX_IDS).map((i) => profiles.keys[i]!);
  const coldIds = samplePositions(
    rng.fork('cold ids'),
    profiles.keys.length,
    Math.min(COLD_IDS, profiles.keys.length),
  ).map((i) => profiles.keys[i]!);
  const records = readSearchRecords(buildDir, rng.fork('names'), SAMPLED_NAMES);
  const repeated = toSearchPaths(records, rng.fork('repeated'), REPEATED_QUERIES, false);
  const distinct = toSearchPaths(records, rng.fork('distinct'), DISTINCT_QUERIES, true);
  const key = await createPremiumKey(stateDir);
  const n = (x: number) => x.toLocaleString('en-CA');
  return [
    {
      name: 'carrier/:id',
      description: `GET ${BASE}/carrier/{id} with a premium key (Authorization: Bearer), ${n(ids.length)} random ids of ${n(profiles.keys.length)}`,
      paths: ids.map((id) => `${BASE}/carrier/${id}`),
      headers: { authorization: `Bearer ${key}` },
      target: { minRatio: 0.9, maxCpuRatio: 1.2 },
      lookup: true,
    },
    {
      name: 'carrier/:id (cold)',
      description: `GET ${BASE}/carrier/{id}, ${n(coldIds.length)} random ids: more than the route's profile cache holds, so most lookups read the record store on disk`,
      paths: coldIds.map((id) => `${BASE}/carrier/${id}`),
      headers: { authorization: `Bearer ${key}` },
      target: {},
    },
    {
      name: 'search',
      description: `GET ${BASE}/search?q=..., ${repeated.length} realistic queries asked again and again (answered from the route's cache after the first time)`,
      paths: repeated,
      target: {},
    },
    {
      name: 'search (uncached)',
      description: `GET ${BASE}/search?q=...&limit=..., ${n(distinct.length)} distinct queries, more than the route's cache holds: each request runs the search`,
      paths: distinct,
      target: {},
    },
  ];
}

/** The profile lookup of the account store comparison (bench/stores.ts): the `carrier/:id` scenario's ids. */
export function carriersStoreLookup(
  scenarios: readonly Scenario[],
): { paths: readonly string[]; description: string } | undefined {
  const lookup = scenarios.find((s) => s.name === 'carrier/:id');
  return (
    lookup && {
      paths: lookup.paths,
      description: `GET ${BASE}/carrier/{id}, ${lookup.paths.length.toLocaleString('en-CA')} random ids`,
    }
  );
}

function wordsOf(name: string): string[] {
  return toSearchWords(name).filter((w) => w.length >= 3 && !/^\d+$/.test(w) && !NOISE.has(w));
}

/**
 * Up to `count` distinct search paths: a word of a name (40 %), its first letters as typed so far (15 %),
 * two words of one name (20 %), the whole name (10 %) or the carrier number, mostly as `USDOT 123456` (15 %).
 * `withLimit` varies `limit` too.
 */
export function toSearchPaths(records: readonly SearchRecord[], rng: Rng, count: number, withLimit: boolean): string[] {
  const named = records.flatMap((r) =>
    [r.legal_name, r.dba_name ?? '']
      .filter((name) => wordsOf(name).length > 0)
      .map((name) => ({ record: r, name, words: wordsOf(name) })),
  );
  if (named.length === 0) return [];
  const out = new Set<string>();
  for (let attempt = 0; out.size < count && attempt < count * 20; attempt++) {
    const { record, name, words } = rng.pick(named);
    const word = rng.pick(words);
    const kind = rng.pickWeighted([
      ['word', 40],
      ['prefix', 15],
      ['two words', 20],
      ['whole name', 10],
      ['number', 15],
    ] as const);
    let q: string;
    if (kind === 'prefix' && word.length >= 5) q = word.slice(0, rng.int(3, 4));
    else if (kind === 'two words' && words.length > 1) q = rng.shuffle(words).slice(0, 2).join(' ');
    else if (kind === 'whole name') q = name.toLowerCase();
    else if (kind === 'number') q = rng.chance(0.7) ? `USDOT ${record.carrier_id}` : String(record.carrier_id);
    else q = word;
    const params = new URLSearchParams({ q });
    if (withLimit) params.set('limit', String(rng.pick([10, 20, 25, 50, 100])));
    out.add(`${BASE}/search?${params.toString()}`);
  }
  return [...out];
}
