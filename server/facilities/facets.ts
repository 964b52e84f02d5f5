// Search facets (docs/contracts/facilities.md, "What FLIGHT and datasette users do next"): per facet, each
// document's value as a small integer code, made once at load, so counting a search's matches is one pass
// over them with an array of counters. Each value is one the facet's filter parameter takes.
import { normalizeCity } from '../../contract/facilities/normalize-names.ts';
import type { SearchDoc } from '../../contract/facilities/search.ts';
import type { SearchParameters } from '../../contract/types/facilities/search-query.ts';

export const FACET_NAMES = ['tier', 'program', 'naics2', 'city', 'flags'] as const;
export type FacetName = (typeof FACET_NAMES)[number];

/** Values a facet lists at most (datasette's default facet size). */
export const FACET_SIZE = 30;

/** The sectors of NAICS Canada 2022: what a 2-digit code is called. */
export const NAICS_SECTORS: Readonly<Record<string, string>> = {
  '11': 'Agriculture, forestry, fishing and hunting',
  '21': 'Mining, quarrying, and oil and gas extraction',
  '22': 'Utilities',
  '23': 'Construction',
  '31': 'Manufacturing',
  '32': 'Manufacturing',
  '33': 'Manufacturing',
  '41': 'Wholesale trade',
  '44': 'Retail trade',
  '45': 'Retail trade',
  '48': 'Transportation and warehousing',
  '49': 'Transportation and warehousing',
  '51': 'Information and cultural industries',
  '52': 'Finance and insurance',
  '53': 'Real estate and rental and leasing',
  '54': 'Professional, scientific and technical services',
  '55': 'Management of companies and enterprises',
  '56': 'Administrative and support, waste management and remediation services',
  '61': 'Educational services',
  '62': 'Health care and social assistance',
  '71': 'Arts, entertainment and recreation',
  '72': 'Accommodation and food services',
  '81': 'Other services (except public administration)',
  '91': 'Public administration',
};

interface Column {
  name: FacetName;
  /**
   * Per document, its value's code; -1 for none. The flags column is a bit set instead: bit k set when the
   * document carries value k (a facility can carry both flags).
   */
  codes: Int32Array;
  multi: boolean;
  /** Per value: what the query's filter holds when it selects that value (the normalized city for cities). */
  keys: string[];
  /** Per value, its place among the values sorted as text: the tie-break, without comparing strings. */
  order: Int32Array;
  /** The values by that place. */
  byOrder: Int32Array;
  /** Per value, its JSON up to the count: `{"value":…,"label":…,"count":`. */
  heads: string[];
  /** `"name":{"name":…,"type":"column","results":[`. */
  open: string;
  /**
   * Counters and ranking keys, one per value, reused by every count (a request is answered synchronously, so
   * no two counts share them at once): a search with few matches allocates nothing per facet.
   */
  counts: Int32Array;
  ranked: Float64Array;
}

/** Places a column's values may take (2^21): a count times this, plus a place, is exact in a double. */
const PLACES = 2 ** 21;
const SELECTED = ',"selected":true}';
const UNSELECTED = ',"selected":false}';

function toColumn(
  name: FacetName,
  keys: string[],
  values: string[],
  labels: string[],
  codes: Int32Array,
  multi = false,
): Column {
  const sorted = values
    .map((_, i) => i)
    .sort((a, b) => (values[a]! < values[b]! ? -1 : values[a]! > values[b]! ? 1 : a - b));
  const order = new Int32Array(values.length);
  sorted.forEach((v, place) => {
    order[v] = place;
  });
  if (values.length > PLACES) throw new Error(`facet ${name}: ${values.length} values, more than ${PLACES}`);
  return {
    name,
    codes,
    multi,
    keys,
    order,
    byOrder: Int32Array.from(sorted),
    heads: values.map((v, i) => `{"value":${JSON.stringify(v)},"label":${JSON.stringify(labels[i])},"count":`),
    open: `${JSON.stringify(name)}:{"name":${JSON.stringify(name)},"type":"column","results":[`,
    counts: new Int32Array(values.length),
    ranked: new Float64Array(values.length),
  };
}

/**
 * A column of the values `key` gives each document, numbered in order of first appearance (the index's
 * order: the highest ranked first), each shown as `value` of that first document.
 */
function columnOf(
  name: FacetName,
  docs: readonly SearchDoc[],
  key: (d: SearchDoc) => string | null,
  value: (d: SearchDoc, key: string) => string,
  label: (value: string) => string = (v) => v,
): Column {
  const numbers = new Map<string, number>();
  const keys: string[] = [];
  const values: string[] = [];
  const codes = new Int32Array(docs.length);
  docs.forEach((d, i) => {
    const k = key(d);
    if (k === null || k === '') {
      codes[i] = -1;
      return;
    }
    let n = numbers.get(k);
    if (n === undefined) {
      n = values.length;
      numbers.set(k, n);
      keys.push(k);
      values.push(value(d, k));
    }
    codes[i] = n;
  });
  return toColumn(name, keys, values, values.map(label), codes);
}

export type FacetColumns = Record<FacetName, Column>;

/** The facet columns of an index's documents (in its order). */
export function toFacetColumns(docs: readonly SearchDoc[]): FacetColumns {
  const flags = ['methane', 'anomaly'];
  const bits = Int32Array.from(docs, (d) => (d.flags.methane ? 1 : 0) | (d.flags.anomaly ? 2 : 0));
  return {
    tier: columnOf(
      'tier',
      docs,
      (d) => d.tier,
      (_, k) => k,
    ),
    program: columnOf(
      'program',
      docs,
      (d) => d.program,
      (_, k) => k,
    ),
    naics2: columnOf(
      'naics2',
      docs,
      (d) => d.naics?.slice(0, 2) ?? null,
      (_, k) => k,
      (v) => (NAICS_SECTORS[v] ? `${v} ${NAICS_SECTORS[v]}` : v),
    ),
    // Cities group by their normalized key (what the filter compares); the value is the spelling of the
    // highest-ranked document with that key, which the filter takes back.
    city: columnOf(
      'city',
      docs,
      (d) => d.city_key,
      (d) => d.city ?? '',
    ),
    flags: toColumn('flags', flags, flags, flags, bits, true),
  };
}

/** Per facet, what the query filters it by, as the column's keys hold it ('' for nothing). */
export function selectedKeys(query: SearchParameters): Record<FacetName, string> {
  return {
    tier: query.tier ?? '',
    program: query.program ?? '',
    naics2: query.naics ?? '',
    city: query.city !== undefined ? normalizeCity(query.city) : '',
    flags: query.flag ?? '',
  };
}

/**
 * A facet's counts over `matches` (positions in the index), most frequent first, ties by value, as the JSON
 * of its `"name":{...}` member (datasette's facet_results), written from fragments made at load.
 */
export function facetJson(column: Column, matches: ArrayLike<number>, selected: string): string {
  const counts = column.counts;
  counts.fill(0);
  const codes = column.codes;
  if (column.multi) {
    for (let k = 0; k < matches.length; k++) {
      const bits = codes[matches[k]!]!;
      for (let b = 0; b < counts.length; b++) if (bits & (1 << b)) counts[b]!++;
    }
  } else {
    for (let k = 0; k < matches.length; k++) {
      const c = codes[matches[k]!]!;
      if (c >= 0) counts[c]!++;
    }
  }
  // Each value with matches as one number, count then text order, so a native numeric sort ranks them.
  const order = column.order;
  let n = 0;
  for (let c = 0; c < counts.length; c++) if (counts[c]! > 0) n++;
  const ranked = column.ranked.subarray(0, n);
  for (let c = 0, k = 0; c < counts.length; c++)
    if (counts[c]! > 0) ranked[k++] = counts[c]! * PLACES + (PLACES - 1 - order[c]!);
  ranked.sort();
  const shown = Math.min(n, FACET_SIZE);
  let out = column.open;
  for (let i = 0; i < shown; i++) {
    const key = ranked[n - 1 - i]!;
    const c = column.byOrder[PLACES - 1 - (key % PLACES)]!;
    out += `${i === 0 ? '' : ','}${column.heads[c]}${counts[c]}${column.keys[c] === selected ? SELECTED : UNSELECTED}`;
  }
  return `${out}],"truncated":${n > FACET_SIZE}}`;
}

type ParsedFacets = { names: FacetName[]; unknown: string[] };

/** Parsed `facets` values: few distinct ones are ever sent (the explorer's, a client's), and each is read twice. */
const parsed = new Map<string, ParsedFacets>();
const MAX_PARSED = 256;

/** The facet names of a `facets` parameter, deduplicated, in FACET_NAMES order; the unknown ones apart. */
export function parseFacets(value: string | undefined): ParsedFacets {
  if (value === undefined || value === '') return { names: [], unknown: [] };
  const known = parsed.get(value);
  if (known) return known;
  const asked = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const names = new Set<string>(FACET_NAMES);
  const out = {
    names: FACET_NAMES.filter((n) => asked.includes(n)),
    unknown: [...new Set(asked.filter((s) => !names.has(s)))],
  };
  if (parsed.size >= MAX_PARSED) parsed.clear();
  parsed.set(value, out);
  return out;
}
