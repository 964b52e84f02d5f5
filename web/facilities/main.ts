// The facilities explorer: search with every filter of /api/v1/search, a facility's record with both
// programs' annual series on one chart, and the linkage statistics as charts (docs/contracts/explorer.md).
import '../core/styles.css';
import type { FacilityRecord } from '../../contract/types/facilities/record.ts';
import type { SearchResults } from '../../contract/types/facilities/search.ts';
import type { Stats } from '../../contract/types/facilities/stats.ts';
import type { History } from '../../contract/types/core/history.ts';
import type { ChangesIndex } from '../../contract/core/changes.ts';
import { buildName, changesViews, fieldList } from '../core/changes.ts';
import { getJson, query } from '../core/api.ts';
import { href, startExplorer, type View, type ViewContext } from '../core/app.ts';
import { COLORS, chartFigure, compactNumber } from '../core/chart.ts';
import { facts, field, h, select, table } from '../core/dom.ts';
import { MISSING, num, pct, tonnes } from '../core/format.ts';
import { card, empty, intParam, pager, routeForm } from '../core/parts.ts';
import { FACETS, facetPanel, FILTER_PARAMS, type FilterParams, moreFields, SORTS } from './facets.ts';
import { facilityMap, fetchMatches, loadBoundary } from './map.ts';

const API = 'api/v1';

const PROGRAMS: Record<string, string> = {
  both: 'Both programs',
  ontario_only: 'Ontario only',
  federal_only: 'Federal only',
};
const TIERS: Record<string, string> = { anchored: 'Anchored (linked)', unmatched: 'Unmatched' };

const facilityHref = (id: string) => href(`/facility/${id}`);

function downloads() {
  return h(
    'section',
    { 'aria-labelledby': 'downloads' },
    h('h2', { id: 'downloads' }, 'Downloads'),
    h(
      'ul',
      null,
      h(
        'li',
        null,
        h('a', { href: `${API}/spine.csv`, download: 'spine.csv' }, 'Every facility as CSV'),
        ' (spine.csv: one row per facility, the search columns)',
      ),
      h(
        'li',
        null,
        h('a', { href: `${API}/spine.geojson`, download: 'spine.geojson' }, 'Located facilities as GeoJSON'),
        ' (spine.geojson: points with the same properties)',
      ),
      h(
        'li',
        null,
        h('a', { href: `${API}/emissions.csv`, download: 'emissions.csv' }, 'Every year, program and gas as CSV'),
        ' (emissions.csv: a row per facility, year, program and gas, with coordinates)',
      ),
      h(
        'li',
        null,
        h('a', { href: `${API}/facilities.sqlite`, download: 'facilities.sqlite' }, 'The whole registry as SQLite'),
        ' (facilities.sqlite: for SQL, the sqlite3 shell or datasette)',
      ),
    ),
  );
}

/** The record's delta_parts: what explains the difference between the programs, and the rest. */
function whyTheyDiffer(p: NonNullable<FacilityRecord['delta_parts']>): HTMLElement[] {
  const signedTonnes = (n: number) => `${n > 0 ? '+' : ''}${tonnes(n)}`;
  return [
    h('h3', null, 'Why the totals differ'),
    facts([
      ['Biomass CO₂ one program counts', signedTonnes(p.biomass_co2)],
      ['Gases one program reports', signedTonnes(p.one_program_gases)],
      ['Global-warming potentials (Ontario AR4, federal its own)', signedTonnes(p.global_warming_potentials)],
      ['Unexplained', signedTonnes(p.unexplained)],
      ['Difference', signedTonnes(p.tonnes)],
    ]),
    p.reasons.length
      ? h('ul', { class: 'delta-reasons' }, ...p.reasons.map((reason) => h('li', null, reason)))
      : h('p', null, 'The inputs explain none of the difference.'),
  ];
}

const search: View = {
  name: 'search',
  pattern: /^\/(search)?$/,
  nav: '#/',
  async render(ctx) {
    const p = ctx.route.params;
    const limit = intParam(p, 'limit', 50, 1, 200);
    const offset = intParam(p, 'offset', 0);
    const params = Object.fromEntries(FILTER_PARAMS.map((k) => [k, p.get(k)])) as FilterParams;
    // The page with its facets, and for the map every match and Ontario's outline, at once.
    const [{ body }, matches, boundary] = await Promise.all([
      getJson<SearchResults>(`${API}/search${query({ ...params, limit, offset, facets: FACETS.join(',') })}`, {
        signal: ctx.signal,
      }),
      fetchMatches(`${API}/search`, params, ctx.signal),
      // Without its outline the view still searches: the map says it could not load.
      loadBoundary().catch(() => null),
    ]);
    const form = routeForm(
      '/search',
      [
        field('Facility name', h('input', { type: 'search', name: 'q', value: params.q ?? '', autocomplete: 'off' })),
        field('City', h('input', { type: 'text', name: 'city', value: params.city ?? '', autocomplete: 'off' })),
        field(
          'Program',
          select(
            'program',
            [['', 'Any'], ...Object.entries(PROGRAMS).map(([k, v]) => [k, v] as const)],
            params.program,
          ),
        ),
        field(
          'Tier',
          select('tier', [['', 'Any'], ...Object.entries(TIERS).map(([k, v]) => [k, v] as const)], params.tier),
        ),
        field(
          'NAICS code',
          h('input', {
            type: 'text',
            name: 'naics',
            value: params.naics ?? '',
            inputmode: 'numeric',
            pattern: '[0-9]{2,6}',
            size: 8,
            autocomplete: 'off',
          }),
          'first 2 to 6 digits',
        ),
        ...moreFields(params),
        field(
          'Per page',
          select(
            'limit',
            ['20', '50', '100', '200'].map((n) => [n, n] as const),
            String(limit),
          ),
        ),
        h('button', { type: 'submit' }, 'Search'),
      ],
      { label: 'Facilities' },
    );
    const hrefAt = (o: number) => href('/search', { ...params, limit: limit === 50 ? null : limit, offset: o || null });
    const filtered = FILTER_PARAMS.some((k) => k !== 'sort' && params[k]);
    const results =
      body.results.length === 0
        ? empty(
            offset > 0 && body.total > 0
              ? 'No facilities on this page. '
              : filtered
                ? 'No facility matches these filters. '
                : 'This build has no facilities. ',
            filtered ? h('a', { href: '#/' }, 'Clear the filters') : null,
          )
        : [
            pager(body.total, offset, limit, hrefAt, 'facilities'),
            h(
              'div',
              { class: 'table-scroll' },
              table(
                params.sort ? `Facilities (${SORTS[params.sort] ?? params.sort})` : 'Facilities, by emissions',
                ['Facility', 'City', 'Program', 'NAICS', 'Provincial total', 'Federal total', 'Emissions'],
                body.results.map((r) => [
                  h('a', { href: facilityHref(r.spine_id) }, r.name),
                  r.city ?? MISSING,
                  PROGRAMS[r.program] ?? r.program,
                  r.naics ?? MISSING,
                  tonnes(r.totals.ontario),
                  tonnes(r.totals.federal),
                  tonnes(r.emissions),
                ]),
                { numeric: [4, 5, 6], className: 'data results' },
              ),
            ),
            pager(body.total, offset, limit, hrefAt, 'facilities', 'below'),
          ];
    ctx.announce(`${num(body.total)} facilities found`);
    const year = body.results[0]?.totals.year;
    return [
      h('h1', null, 'Facilities'),
      h(
        'p',
        { class: 'lede' },
        "Ontario's reporting facilities linked across the provincial registry and the federal program, ",
        params.sort ? 'in the order chosen, with emissions' : 'ranked by emissions',
        year ? ` in ${year}` : '',
        ' (federal total where reported, else the provincial total without biomass CO₂).',
      ),
      form,
      h(
        'div',
        { class: 'search-layout' },
        // The results first, the facets beside them: a keyboard reaches the results before the facets' links.
        h('div', { class: 'search-results' }, results),
        facetPanel({
          facets: body.facets,
          params,
          hrefWith: (changes) => href('/search', { ...params, limit: limit === 50 ? null : limit, ...changes }),
          labels: { tier: TIERS, program: PROGRAMS },
        }),
      ),
      body.total > 0
        ? boundary
          ? facilityMap({ boundary, matches: matches.results, total: matches.total, hrefOf: facilityHref })
          : h('p', { class: 'notice' }, "The map could not load Ontario's outline; the results above are complete.")
        : null,
      downloads(),
    ];
  },
};

/**
 * Each build's page name by its data_version and time: a data_version that came back (inputs A, B, then A
 * again) is another build with a page of its own. Empty when the index cannot be read (links by version).
 */
async function buildPages(ctx: ViewContext): Promise<Map<string, string>> {
  try {
    const { body } = await getJson<ChangesIndex>('changes/index.json', { signal: ctx.signal });
    return new Map(body.builds.map((b) => [`${b.data_version} ${b.built_at}`, buildName(b)]));
  } catch {
    return new Map();
  }
}

const facility: View = {
  name: 'facility',
  pattern: /^\/facility\/(?<id>[^/]+)$/,
  nav: '#/',
  async render(ctx) {
    const id = ctx.match.id ?? '';
    const [{ body: r }, { body: history }, builds] = await Promise.all([
      getJson<FacilityRecord>(`${API}/facility/${encodeURIComponent(id)}`, { signal: ctx.signal }),
      getJson<History>(`${API}/facility/${encodeURIComponent(id)}/history`, { signal: ctx.signal }),
      buildPages(ctx),
    ]);
    const t = r.totals;
    const years = r.series.map((s) => s.year);
    const json = `${API}/facility/${encodeURIComponent(r.spine_id)}`;
    const b = r.buildings;
    const flagRow = (label: string, on: boolean) =>
      h('li', null, h('span', { class: on ? 'tag alert' : 'tag ok' }, on ? 'Flagged' : 'Not flagged'), ' ', label);
    return [
      h('p', { class: 'meta' }, h('a', { href: '#/' }, '← Search facilities')),
      h('h1', null, r.name),
      h(
        'p',
        { class: 'lede' },
        [r.city, PROGRAMS[r.program], TIERS[r.tier], r.naics ? `NAICS ${r.naics}` : null].filter(Boolean).join(' · '),
      ),
      h('h2', null, `Comparison year ${t.year}`),
      h(
        'div',
        { class: 'cards totals' },
        card(tonnes(t.ontario), 'Provincial total (Ontario registry, without biomass CO₂)'),
        card(tonnes(t.federal), 'Federal total (GHGRP)'),
        card(
          r.delta ? `${r.delta.tonnes > 0 ? '+' : ''}${tonnes(r.delta.tonnes)}` : MISSING,
          r.delta
            ? `Provincial − federal (${r.delta.pct > 0 ? '+' : ''}${pct(r.delta.pct)} of the federal total)`
            : 'Difference: needs both totals',
        ),
      ),
      ...(r.delta_parts ? whyTheyDiffer(r.delta_parts) : []),
      r.series.length === 0
        ? empty('Neither program reported a total for this facility.')
        : chartFigure({
            title: 'Annual emissions by program',
            description: `Tonnes of CO₂ equivalent reported each year from ${years[0]} to ${years[years.length - 1]}; a gap is a year the program has no total.`,
            x: years,
            xKind: 'year',
            series: [
              { label: 'Provincial (Ontario)', values: r.series.map((s) => s.ontario), color: COLORS.vermillion },
              { label: 'Federal (GHGRP)', values: r.series.map((s) => s.federal), color: COLORS.blue, style: 'dashed' },
            ],
            yFormat: compactNumber,
            table: {
              columns: ['Year', 'Provincial (t)', 'Federal (t)'],
              rows: r.series.map((s) => [String(s.year), num(s.ontario, 1), num(s.federal, 1)]),
              numeric: [1, 2],
            },
          }),
      h('h2', null, 'Flags'),
      h('ul', { class: 'list-plain flags' }, flagRow('Methane', r.flags.methane), flagRow('Anomaly', r.flags.anomaly)),
      r.flags.reasons.length
        ? h('ul', { class: 'reasons' }, ...r.flags.reasons.map((reason) => h('li', null, reason)))
        : h('p', null, 'No rule fired for this facility.'),
      h('h2', null, 'Names and identifiers'),
      facts([
        ['Spine id', r.spine_id],
        ['Ontario names', r.names.ontario.length ? r.names.ontario.join('; ') : MISSING],
        ['Federal names', r.names.federal.length ? r.names.federal.join('; ') : MISSING],
        ['Ontario GHG ids', r.source_ids.ontario.join(', ') || MISSING],
        ['GHGRP ids', r.source_ids.federal.join(', ') || MISSING],
        ['Reporting company', r.identifiers.company ?? MISSING],
        ['Business number', r.identifiers.business_number ?? MISSING],
        ['NPRI id', r.identifiers.npri_id ?? MISSING],
        [
          'Location',
          r.coordinates
            ? `${num(r.coordinates.latitude, 4)}, ${num(r.coordinates.longitude, 4)} (${r.coordinates.source} file)`
            : 'not located in the inputs',
        ],
      ]),
      h('h2', null, 'Large buildings in the same city'),
      b
        ? [
            h(
              'p',
              null,
              `Ontario's Energy and Water Reporting and Benchmarking data for ${b.city}${b.year ? ` (${b.year})` : ''}: context for the city, not this facility.`,
            ),
            facts([
              ['Buildings reporting', num(b.count)],
              [
                'Median site energy use',
                b.median_site_eui_gj_m2 === null ? MISSING : `${num(b.median_site_eui_gj_m2, 2)} GJ/m²`,
              ],
              [
                'Median GHG intensity',
                b.median_ghg_intensity_kg_m2 === null ? MISSING : `${num(b.median_ghg_intensity_kg_m2, 1)} kg/m²`,
              ],
              ['Median water use', b.median_water_m3_m2 === null ? MISSING : `${num(b.median_water_m3_m2, 2)} m³/m²`],
            ]),
          ]
        : h('p', null, 'No large buildings report in this city.'),
      h('h2', null, 'Changes across builds'),
      history.results.length === 0
        ? h('p', null, 'Unchanged since the change history began.')
        : table(
            'Changes to this facility, oldest first',
            ['Build', 'Built', 'Kind', 'What moved'],
            history.results.map((c) => [
              h(
                'a',
                { href: href(`/changes/${builds.get(`${c.data_version} ${c.built_at}`) ?? c.data_version}`) },
                c.data_version,
              ),
              c.built_at.slice(0, 10),
              c.kind,
              fieldList(c.fields),
            ]),
            { className: 'data history' },
          ),
      h('h2', null, 'Data'),
      h('p', null, h('a', { href: json, type: 'application/json' }, 'The JSON record of this facility'), ` (${json})`),
    ];
  },
};

const FUNNEL_NAMES: Record<string, string> = {
  ontario_rows: 'Ontario rows',
  ontario_facilities: 'Ontario facilities',
  ontario_linkable: 'Linkable',
  ontario_name_match: 'Name matches',
  ontario_anchored: 'Name and city match',
  rejected_same_name_other_city: 'Rejected: other city',
  rejected_similar_name_same_city: 'Rejected: similar name',
  federal_rows: 'Federal rows',
  federal_facilities: 'Federal facilities',
  anchored: 'Anchored facilities',
};

const stats: View = {
  name: 'stats',
  pattern: /^\/stats$/,
  nav: '#/stats',
  async render(ctx) {
    const { body: s } = await getJson<Stats>(`${API}/stats`, { signal: ctx.signal });
    const m = s.match;
    const a = s.agreement;
    const stages = s.funnel.map((f) => FUNNEL_NAMES[f.stage] ?? f.stage);
    const top = s.top_emitters;
    const buckets: [string, number][] = [
      ['Within 1 %', a.within_1pct],
      ['Within 5 %', a.within_5pct],
      ['Within 10 %', a.within_10pct],
      ['Over 10 %', a.over_10pct],
    ];
    ctx.announce('Statistics loaded');
    return [
      h('h1', null, 'Linkage statistics'),
      h(
        'p',
        { class: 'lede' },
        `How the provincial and federal registries were linked, and how far their ${s.year} totals agree.`,
      ),
      h(
        'div',
        { class: 'cards' },
        card(num(m.facilities), 'facilities in the spine'),
        card(num(m.anchored), `anchored (${pct(m.anchored_rate * 100, 1)} linked by name and city)`),
        card(num(m.ontario_only), 'Ontario only'),
        card(num(m.federal_only), 'federal only'),
      ),
      chartFigure({
        title: 'Linkage funnel',
        description: `From the registries' rows to the ${num(m.anchored)} anchored facilities, one bar per stage.`,
        x: stages.map((_, i) => i),
        xKind: 'category',
        categories: stages,
        horizontal: true,
        series: [{ label: 'Count', values: s.funnel.map((f) => f.count), color: COLORS.blue, style: 'bars' }],
        table: {
          columns: ['Stage', 'Count', 'What it counts'],
          rows: s.funnel.map((f, i) => [stages[i]!, num(f.count), f.description]),
          numeric: [1],
        },
      }),
      top.length === 0
        ? empty('No facility has emissions in this build.')
        : chartFigure({
            title: `Top ${top.length} emitters in ${s.year}`,
            description: `Tonnes of CO₂ equivalent; the largest, ${top[0]!.name}, emitted ${tonnes(top[0]!.emissions)}.`,
            x: top.map((_, i) => i),
            xKind: 'category',
            categories: top.map((t) => `${t.rank}. ${t.name}`),
            horizontal: true,
            series: [
              {
                label: 'Emissions (t CO₂e)',
                values: top.map((t) => t.emissions),
                color: COLORS.vermillion,
                style: 'bars',
              },
            ],
            table: {
              columns: ['Rank', 'Facility', 'City', 'Program', 'Emissions'],
              rows: top.map((t) => [
                String(t.rank),
                h('a', { href: facilityHref(t.spine_id) }, t.name),
                t.city ?? MISSING,
                PROGRAMS[t.program] ?? t.program,
                tonnes(t.emissions),
              ]),
              numeric: [4],
            },
          }),
      chartFigure({
        title: `Agreement between the programs in ${a.year}`,
        description: `${num(a.compared)} facilities with both totals; the buckets are cumulative (within 5 % includes within 1 %); median difference ${pct(a.median_abs_pct)}.`,
        x: buckets.map((_, i) => i),
        xKind: 'category',
        categories: buckets.map(([label]) => label),
        horizontal: true,
        series: [{ label: 'Facilities', values: buckets.map(([, n]) => n), color: COLORS.green, style: 'bars' }],
        table: {
          columns: ['Difference', 'Facilities'],
          rows: buckets.map(([label, n]) => [label, num(n)]),
          numeric: [1],
        },
      }),
      a.largest.length
        ? table(
            'Largest disagreements (provincial − federal)',
            ['Facility', 'Tonnes', 'Percent of federal'],
            a.largest.map((l) => [h('a', { href: facilityHref(l.spine_id) }, l.name), tonnes(l.tonnes), pct(l.pct)]),
            { numeric: [1, 2] },
          )
        : null,
      downloads(),
    ];
  },
};

startExplorer({
  service: 'facilities',
  views: [search, facility, stats, ...changesViews({ entityHref: facilityHref, noun: 'facilities' })],
});
