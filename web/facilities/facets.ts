// The search's facets as filters beside the results (datasette's facet_results, docs/api-facilities.md):
// each value a link that adds its filter with the count of matches it keeps, a selected value a link that
// removes it, the filters in use with their own remove links; and the form's fields for the filters that
// are no facet (year, gas, emissions range) and the order.
import type { Facet, SearchResults } from '../../contract/types/facilities/search.ts';
import { type Child, field, h, select } from '../core/dom.ts';
import { num } from '../core/format.ts';

/** The facets the search view asks for, in the answer's order. */
export const FACETS = ['tier', 'program', 'naics2', 'city', 'flags'] as const;
type FacetName = (typeof FACETS)[number];

/** The filter parameter each facet's values are values of. */
export const FACET_PARAM: Record<FacetName, string> = {
  tier: 'tier',
  program: 'program',
  naics2: 'naics',
  city: 'city',
  flags: 'flag',
};

const FACET_TITLES: Record<FacetName, string> = {
  tier: 'Tier',
  program: 'Program',
  naics2: 'Sector (NAICS)',
  city: 'City',
  flags: 'Flag',
};

export const GASES: Record<string, string> = {
  co2: 'CO₂',
  ch4: 'Methane (CH₄)',
  n2o: 'Nitrous oxide (N₂O)',
  hfc: 'HFCs',
  pfc: 'PFCs',
  sf6: 'SF₆',
};
const FLAGS: Record<string, string> = { methane: 'Methane', anomaly: 'Anomaly (totals disagree)' };
export const SORTS: Record<string, string> = {
  '-emissions': 'Emissions, largest first',
  emissions: 'Emissions, smallest first',
  name: 'Name, A to Z',
  '-name': 'Name, Z to A',
  '-delta_pct': 'Provincial − federal %, highest first',
  delta_pct: 'Provincial − federal %, lowest first',
};

/** The search parameters the view reads from its URL: every filter of /search and the order. */
export const FILTER_PARAMS = [
  'q',
  'city',
  'tier',
  'program',
  'naics',
  'year',
  'gas',
  'min_emissions',
  'max_emissions',
  'flag',
  'sort',
] as const;
export type FilterParams = Record<(typeof FILTER_PARAMS)[number], string | null>;

export interface FacetOptions {
  facets: SearchResults['facets'];
  params: FilterParams;
  /** The search's URL with some parameters changed (null removes one), from its first page. */
  hrefWith(changes: Partial<Record<keyof FilterParams, string | null>>): string;
  /** How the view names a tier's or a program's value. */
  labels: { tier: Record<string, string>; program: Record<string, string> };
}

/** What a filter in use reads as: its name and value in words. */
function inUse(o: FacetOptions): [keyof FilterParams, string][] {
  const p = o.params;
  const t = (v: string) => `${num(Number(v))} t`;
  const out: [keyof FilterParams, string | null][] = [
    ['q', p.q && `Name: ${p.q}`],
    ['city', p.city && `City: ${p.city}`],
    ['tier', p.tier && `Tier: ${o.labels.tier[p.tier] ?? p.tier}`],
    ['program', p.program && `Program: ${o.labels.program[p.program] ?? p.program}`],
    ['naics', p.naics && `NAICS: ${p.naics}`],
    ['year', p.year && `Year: ${p.year}`],
    ['gas', p.gas && `Gas: ${GASES[p.gas] ?? p.gas}`],
    ['min_emissions', p.min_emissions && `At least ${t(p.min_emissions)}`],
    ['max_emissions', p.max_emissions && `At most ${t(p.max_emissions)}`],
    ['flag', p.flag && `Flag: ${FLAGS[p.flag] ?? p.flag}`],
  ];
  return out.filter((e): e is [keyof FilterParams, string] => Boolean(e[1]));
}

function valueLabel(name: FacetName, v: Facet['results'][number], o: FacetOptions): string {
  if (name === 'tier') return o.labels.tier[v.value] ?? v.label;
  if (name === 'program') return o.labels.program[v.value] ?? v.label;
  if (name === 'flags') return FLAGS[v.value] ?? v.label;
  return v.label;
}

function facetList(name: FacetName, facet: Facet, o: FacetOptions): HTMLElement {
  const param = FACET_PARAM[name];
  const id = `facet-${name}`;
  return h(
    'section',
    { class: 'facet', 'aria-labelledby': id },
    h('h3', { id, class: 'facet-title' }, FACET_TITLES[name]),
    facet.results.length === 0
      ? h('p', { class: 'meta' }, name === 'flags' ? 'No match carries a flag.' : 'No match has a value.')
      : h(
          'ul',
          { class: 'facet-values' },
          ...facet.results.map((v) =>
            h(
              'li',
              { class: v.selected ? 'selected' : null },
              h(
                'a',
                {
                  href: o.hrefWith({ [param]: v.selected ? null : v.value }),
                  'data-facet': name,
                  'data-value': v.value,
                  'aria-current': v.selected ? 'true' : null,
                },
                v.selected ? h('span', { 'aria-hidden': 'true' }, '✓ ') : null,
                h('span', { class: 'facet-label' }, valueLabel(name, v, o)),
                ' ',
                h('span', { class: 'count' }, num(v.count)),
                v.selected ? h('span', { class: 'visually-hidden' }, ', selected: remove this filter') : null,
              ),
            ),
          ),
        ),
    facet.truncated ? h('p', { class: 'meta' }, 'The 30 most frequent values.') : null,
  );
}

/** The panel beside the results: the filters in use, then each facet's values with their counts. */
export function facetPanel(o: FacetOptions): HTMLElement {
  const used = inUse(o);
  const facets = o.facets ?? {};
  return h(
    'aside',
    { class: 'facets', 'aria-labelledby': 'facets-title' },
    h('h2', { id: 'facets-title', class: 'facets-title' }, 'Refine'),
    used.length
      ? h(
          'section',
          { class: 'in-use', 'aria-labelledby': 'in-use-title' },
          h('h3', { id: 'in-use-title', class: 'facet-title' }, 'Filters in use'),
          h(
            'ul',
            { class: 'facet-values' },
            ...used.map(([param, text]) =>
              h(
                'li',
                null,
                h(
                  'a',
                  { href: o.hrefWith({ [param]: null }), 'data-remove': param },
                  text,
                  h('span', { 'aria-hidden': 'true' }, ' ×'),
                  h('span', { class: 'visually-hidden' }, ': remove this filter'),
                ),
              ),
            ),
          ),
          h('p', null, h('a', { href: '#/' }, 'Clear all filters')),
        )
      : null,
    ...FACETS.map((name) => {
      const facet = facets[name];
      return facet ? facetList(name, facet, o) : null;
    }),
  );
}

/** The form's fields for the filters no facet offers, and the order of the results. */
export function moreFields(p: FilterParams): Child[] {
  const number = (name: string, value: string | null, attrs: Record<string, string | number> = {}) =>
    h('input', { type: 'number', name, value: value ?? '', inputmode: 'decimal', autocomplete: 'off', ...attrs });
  return [
    field('Year', number('year', p.year, { min: 1990, max: 2100, step: 1 }), 'a year both programs report'),
    field('Gas reported', select('gas', [['', 'Any'], ...Object.entries(GASES)], p.gas)),
    field('Flag', select('flag', [['', 'Any'], ...Object.entries(FLAGS)], p.flag)),
    field('At least (t CO₂e)', number('min_emissions', p.min_emissions, { min: 0, step: 'any' })),
    field('At most (t CO₂e)', number('max_emissions', p.max_emissions, { min: 0, step: 'any' })),
    // The default order's value is empty, so a search in the default order keeps a short URL.
    field(
      'Order',
      select(
        'sort',
        Object.entries(SORTS).map(([k, v]) => [k === '-emissions' ? '' : k, v] as const),
        p.sort === '-emissions' ? '' : p.sort,
      ),
    ),
  ];
}
