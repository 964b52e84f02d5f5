// Search facets (docs/contracts/facilities.md, "What FLIGHT and datasette users do next"): per facet, each
// document's value as a small integer code, made once at load, so counting a search's matches is one pass
// over them with an array of counters. Each value is one the facet's filter parameter takes.
import { normalizeCity } from '../../contract/facilities/normalize-names.ts';
import type { SearchDoc } from '../../contract/facilities/search.ts';
import type { SearchParameters } from '../../contract/types/facilities/search-query.ts';
import type { SearchResults } from '../../contract/types/facilities/search.ts';

export const FACET_NAMES = ['tier', 'program', 'naics2', 'city', 'flags'] as const;
export type FacetName = (typeof FACET_NAMES)[number];
export type Facet = NonNullable<NonNullable<SearchResults['facets']>[FacetName]>;

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
  values: string[];
  labels: string[];
  /**
   * Per document, its value's code; -1 for none. The flags column is a bit set instead: bit k set when the
   * document carries values[k] (a facility can carry both flags).
   */
  codes: Int32Array;
  multi: boolean;
  /** Whether the query filters by `value` already. */
  selected(query: SearchParameters, value: string): boolean;
}

/** Codes of the values `key` gives each document, values numbered in order of first appearance. */
function columnOf(
  docs: readonly SearchDoc[],
  key: (d: SearchDoc) => string | null,
  value: (d: SearchDoc, key: string) => string,
  label: (value: string) => string,
  selected: Column['selected'],
): Column {
  const numbers = new Map<string, number>();
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
      values.push(value(d, k));
    }
    codes[i] = n;
  });
  return { values, labels: values.map(label), codes, multi: false, selected };
}

export type FacetColumns = Record<FacetName, Column>;

/** The facet columns of an index's documents (in its order). */
export function toFacetColumns(docs: readonly SearchDoc[]): FacetColumns {
  const same = (v: string) => v;
  const flags: Column = {
    values: ['methane', 'anomaly'],
    labels: ['methane', 'anomaly'],
    codes: Int32Array.from(docs, (d) => (d.flags.methane ? 1 : 0) | (d.flags.anomaly ? 2 : 0)),
    multi: true,
    selected: (q, v) => q.flag === v,
  };
  return {
    tier: columnOf(
      docs,
      (d) => d.tier,
      (_, k) => k,
      same,
      (q, v) => q.tier === v,
    ),
    program: columnOf(
      docs,
      (d) => d.program,
      (_, k) => k,
      same,
      (q, v) => q.program === v,
    ),
    naics2: columnOf(
      docs,
      (d) => d.naics?.slice(0, 2) ?? null,
      (_, k) => k,
      (v) => (NAICS_SECTORS[v] ? `${v} ${NAICS_SECTORS[v]}` : v),
      (q, v) => q.naics === v,
    ),
    // Cities group by their normalized key (what the filter compares); the value is the spelling of the
    // first document of the index (the highest ranked) with that key, which the filter takes back.
    city: columnOf(
      docs,
      (d) => d.city_key,
      (d) => d.city ?? '',
      same,
      (q, v) => q.city !== undefined && normalizeCity(q.city) === normalizeCity(v),
    ),
    flags,
  };
}

/** A facet's counts over `matches` (positions in the index), most frequent first, ties by value. */
export function countFacet(
  column: Column,
  name: FacetName,
  matches: ArrayLike<number>,
  query: SearchParameters,
): Facet {
  const counts = new Int32Array(column.values.length);
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
  const present: number[] = [];
  for (let c = 0; c < counts.length; c++) if (counts[c]! > 0) present.push(c);
  present.sort((a, b) => {
    const va = column.values[a]!;
    const vb = column.values[b]!;
    return counts[b]! - counts[a]! || (va < vb ? -1 : va > vb ? 1 : 0);
  });
  return {
    name,
    type: 'column',
    results: present.slice(0, FACET_SIZE).map((c) => ({
      value: column.values[c]!,
      label: column.labels[c]!,
      count: counts[c]!,
      selected: column.selected(query, column.values[c]!),
    })),
    truncated: present.length > FACET_SIZE,
  };
}

/** The facet names of a `facets` parameter, deduplicated, in FACET_NAMES order; the unknown ones apart. */
export function parseFacets(value: string | undefined): { names: FacetName[]; unknown: string[] } {
  const asked = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const known = new Set<string>(FACET_NAMES);
  return {
    names: FACET_NAMES.filter((n) => asked.includes(n)),
    unknown: [...new Set(asked.filter((s) => !known.has(s)))],
  };
}
