// The economy explorer: the categories with their series, search, and a series' observations as a chart
// with a date range, FRED's units and frequency choices, the data as known on a past day (ALFRED), each date as
// first published, the vintage archive drawn against the latest data with the revised points listed, and the
// CSV (docs/contracts/explorer.md, economy.md).
import '../core/styles.css';
import type { Categories } from '../../contract/types/economy/categories.ts';
import type { ObservationsOfASeries } from '../../contract/types/economy/observations.ts';
import type { SeriesDetail } from '../../contract/types/economy/series-detail.ts';
import type { SeriesList } from '../../contract/types/economy/series-list.ts';
import type { VintagesOfASeries } from '../../contract/types/economy/vintages.ts';
import { getJson, query } from '../core/api.ts';
import { href, startExplorer, type View } from '../core/app.ts';
import { changesViews } from '../core/changes.ts';
import { COLORS, chartFigure } from '../core/chart.ts';
import { type Child, facts, field, h, select, table } from '../core/dom.ts';
import { isoToSeconds, MISSING, num } from '../core/format.ts';
import { card, empty, intParam, pager, routeForm } from '../core/parts.ts';

const API = 'api';
const PAGE = 25;

type Series = SeriesList[number];
type Observation = ObservationsOfASeries['observations'][number];

/** FRED's units transforms, as a person reads them. */
const UNITS: readonly (readonly [string, string])[] = [
  ['lin', 'Level, as published'],
  ['chg', 'Change'],
  ['ch1', 'Change from a year ago'],
  ['pch', 'Percent change'],
  ['pc1', 'Percent change from a year ago'],
  ['pca', 'Compounded annual rate of change'],
  ['cch', 'Continuously compounded rate of change'],
  ['cca', 'Continuously compounded annual rate of change'],
  ['log', 'Natural log'],
];
const PERCENT_UNITS = new Set(['pch', 'pc1', 'pca', 'cch', 'cca']);

/** Frequencies from the highest; a series can be aggregated to its own or any lower one. */
const FREQUENCIES: readonly (readonly [string, string, string])[] = [
  ['daily', 'd', 'Daily'],
  ['weekly', 'w', 'Weekly'],
  ['monthly', 'm', 'Monthly'],
  ['quarterly', 'q', 'Quarterly'],
  ['', 'sa', 'Semiannual'],
  ['annual', 'a', 'Annual'],
];

const FREQUENCY_NAMES: Record<string, string> = Object.fromEntries(FREQUENCIES.map(([, code, name]) => [code, name]));

const AGGREGATIONS: readonly (readonly [string, string])[] = [
  ['avg', 'Average'],
  ['sum', 'Sum'],
  ['eop', 'End of period'],
];

/** Values with up to four decimals: enough for exchange rates, and transforms keep their precision. */
const value = (v: number | null | undefined) => num(v, 4);

const seriesHref = (id: string, params: Record<string, string | null> = {}) =>
  href(`/series/${encodeURIComponent(id)}`, params);

function searchForm(q: string) {
  return routeForm(
    '/search',
    [
      field(
        'Search the series',
        h('input', { type: 'search', name: 'q', value: q, required: true, maxlength: 200, autocomplete: 'off' }),
        'an id (CPI_ALL_ITEMS) or words of the title (consumer price index)',
      ),
      h('button', { type: 'submit' }, 'Search'),
    ],
    { label: 'Series' },
  );
}

function seriesItem(s: Series) {
  return h(
    'li',
    null,
    h('a', { href: seriesHref(s.id) }, s.title),
    ' ',
    h('span', { class: 'meta' }, `${s.id} · ${s.frequency} · ${s.sourceLabel}`),
  );
}

const home: View = {
  name: 'categories',
  pattern: /^\/$/,
  nav: '#/',
  async render(ctx) {
    const [{ body: categories }, { body: series }] = await Promise.all([
      getJson<Categories>(`${API}/categories`, { signal: ctx.signal }),
      getJson<SeriesList>(`${API}/series`, { signal: ctx.signal }),
    ]);
    ctx.announce(`${categories.length} categories, ${series.length} series`);
    return [
      h('h1', null, 'Canadian economic series'),
      h(
        'p',
        { class: 'lede' },
        `${num(series.length)} series from Statistics Canada and the Bank of Canada, in ${categories.length} categories. Open one for its chart, transforms, vintages and CSV.`,
      ),
      searchForm(''),
      ...categories.map((c) => {
        const members = series.filter((s) => s.category === c.slug);
        return h(
          'section',
          { 'aria-labelledby': `category-${c.slug}`, class: 'category' },
          h('h2', { id: `category-${c.slug}` }, c.name, ' ', h('span', { class: 'meta' }, `${c.seriesCount} series`)),
          members.length
            ? h('ul', { class: 'series-list' }, ...members.map(seriesItem))
            : empty('No series in this category.'),
        );
      }),
    ];
  },
};

const search: View = {
  name: 'search',
  pattern: /^\/search$/,
  nav: '#/search',
  async render(ctx) {
    const q = (ctx.route.params.get('q') ?? '').trim();
    const offset = intParam(ctx.route.params, 'offset', 0);
    const intro = [h('h1', null, 'Search the series'), searchForm(q)];
    if (!q) return [...intro, h('p', null, 'Type an id or words of a title above.')];
    const { body, headers } = await getJson<SeriesList>(`${API}/series${query({ q, limit: PAGE, offset })}`, {
      signal: ctx.signal,
    });
    const total = Number(headers.get('x-total-count') ?? body.length);
    ctx.announce(`${num(total)} series found`);
    const hrefAt = (o: number) => href('/search', { q, offset: o || null });
    return [
      ...intro,
      body.length === 0
        ? empty(
            offset > 0 && total > 0 ? 'No series on this page. ' : `No series matches “${q}”. `,
            'Try another word, or ',
            h('a', { href: '#/' }, 'browse the categories'),
            '.',
          )
        : [
            pager(total, offset, PAGE, hrefAt, 'series'),
            h('ul', { class: 'series-list results' }, ...body.map(seriesItem)),
            pager(total, offset, PAGE, hrefAt, 'series', 'below'),
          ],
    ];
  },
};

/** The series' own frequency and every lower one, as `frequency` options. */
function frequencyOptions(own: Series['frequency']): (readonly [string, string])[] {
  const start = FREQUENCIES.findIndex(([name]) => name === own);
  const label = FREQUENCIES[start]?.[2] ?? own;
  return [
    ['', `As published (${label.toLowerCase()})`],
    ...FREQUENCIES.slice(start + 1).map(([, code, name]) => [code, name] as const),
  ];
}

interface Revision {
  date: string;
  before: number | null;
  after: number | null;
}

/** How the snapshot differs from the latest data, by date: revised, added since, or gone since. */
function revisions(snapshot: readonly Observation[], latest: readonly Observation[]): Revision[] {
  const old = new Map(snapshot.map((o) => [o.date, o.value]));
  const now = new Map(latest.map((o) => [o.date, o.value]));
  const out: Revision[] = [];
  for (const date of [...new Set([...old.keys(), ...now.keys()])].sort()) {
    const before = old.get(date) ?? null;
    const after = now.get(date) ?? null;
    if (before === null || after === null || Math.abs(before - after) > 1e-9 * Math.max(1, Math.abs(after)))
      out.push({ date, before, after });
  }
  return out;
}

/** Observations on the dates of `dates`, null where a series has none (uPlot draws a gap). */
function alignTo(dates: readonly string[], observations: readonly Observation[]): (number | null)[] {
  const byDate = new Map(observations.map((o) => [o.date, o.value]));
  return dates.map((d) => byDate.get(d) ?? null);
}

/** The table behind the chart: the newest rows (the CSV has every one). */
const TABLE_ROWS = 400;

/** The newest rows: each date's value, then its value in each other series drawn (first release, snapshot). */
function tableRows(
  dates: readonly string[],
  latest: readonly Observation[],
  others: readonly (readonly Observation[] | undefined)[],
) {
  const maps = [latest, ...others.filter((o) => o !== undefined)].map(
    (obs) => new Map(obs.map((o) => [o.date, o.value])),
  );
  return dates
    .slice(-TABLE_ROWS)
    .reverse()
    .map((d) => [d, ...maps.map((m) => value(m.get(d)))]);
}

const seriesView: View = {
  name: 'series',
  pattern: /^\/series\/(?<id>[^/]+)$/,
  nav: '#/',
  async render(ctx) {
    const id = ctx.match.id ?? '';
    const p = ctx.route.params;
    const choice = {
      from: p.get('from'),
      to: p.get('to'),
      units: p.get('units'),
      frequency: p.get('frequency'),
      aggregation_method: p.get('frequency') ? p.get('aggregation_method') : null,
    };
    const vintage = p.get('vintage');
    // "As known on": the data as the archive knew it that day (ALFRED's realtime_end), instead of today's.
    const asOf = p.get('asof');
    // First releases are the values as published: drawn only without units or a frequency.
    const plain = (!choice.units || choice.units === 'lin') && !choice.frequency;
    const wantFirst = p.get('first') === '1';
    const enc = encodeURIComponent(id);
    const [{ body: s }, { body: latest }, { body: vintages }, snapshot, first] = await Promise.all([
      getJson<SeriesDetail>(`${API}/series/${enc}`, { signal: ctx.signal }),
      getJson<ObservationsOfASeries>(`${API}/observations${query({ series: id, ...choice, realtime_end: asOf })}`, {
        signal: ctx.signal,
      }),
      getJson<VintagesOfASeries>(`${API}/vintages${query({ series: id })}`, { signal: ctx.signal }),
      vintage
        ? getJson<ObservationsOfASeries>(`${API}/observations${query({ series: id, ...choice, vintage })}`, {
            signal: ctx.signal,
          }).then((a) => a.body)
        : Promise.resolve(undefined),
      wantFirst && plain
        ? getJson<ObservationsOfASeries>(
            `${API}/observations${query({ series: id, from: choice.from, to: choice.to, output_type: '4', realtime_end: asOf ?? '9999-12-31' })}`,
            { signal: ctx.signal },
          ).then((a) => a.body)
        : Promise.resolve(undefined),
    ]);
    const currentLabel = asOf ? `As known on ${asOf}` : 'Latest data';
    const units = latest.units;
    const unitsLabel = UNITS.find(([k]) => k === units)?.[1] ?? units;
    const measured =
      units === 'lin' ? s.units : PERCENT_UNITS.has(units) ? 'percent' : units === 'log' ? 'log' : s.units;
    const obs = latest.observations;
    const last = obs[obs.length - 1];
    const dates = [
      ...new Set([
        ...obs.map((o) => o.date),
        ...(snapshot?.observations.map((o) => o.date) ?? []),
        ...(first?.observations.map((o) => o.date) ?? []),
      ]),
    ].sort();
    const revised = snapshot ? revisions(snapshot.observations, obs) : [];
    const csv = `${API}/observations${query({ series: id, ...choice, realtime_end: asOf, format: 'csv' })}`;
    ctx.announce(`${s.title}: ${num(obs.length)} observations`);

    const form = routeForm(
      `/series/${id}`,
      [
        field('From', h('input', { type: 'date', name: 'from', value: choice.from ?? '' })),
        field('To', h('input', { type: 'date', name: 'to', value: choice.to ?? '' })),
        field('Units', select('units', UNITS, units)),
        field('Frequency', select('frequency', frequencyOptions(s.frequency), choice.frequency)),
        field(
          'Aggregation',
          select('aggregation_method', AGGREGATIONS, choice.aggregation_method ?? 'avg'),
          'with a lower frequency',
        ),
        field(
          'As known on',
          h('input', {
            type: 'date',
            name: 'asof',
            value: asOf ?? '',
            min: vintages.snapshots[0] ?? '',
            max: new Date().toISOString().slice(0, 10),
          }),
          vintages.snapshots.length
            ? `the archive starts on ${vintages.snapshots[0]}; empty is today`
            : 'nothing archived yet: today only',
        ),
        field(
          'First release',
          h('input', { type: 'checkbox', name: 'first', value: '1', checked: wantFirst, disabled: !plain }),
          plain ? 'draw each date as first published' : 'with the level as published only',
        ),
        field(
          'Compare with the snapshot of',
          select(
            'vintage',
            [['', 'No snapshot'], ...[...vintages.snapshots].reverse().map((d) => [d, d] as const)],
            vintage,
          ),
          vintages.snapshots.length ? `${vintages.snapshots.length} in the archive` : 'none archived yet',
        ),
        h('button', { type: 'submit' }, 'Show'),
      ],
      { label: 'Observations', className: 'filters series-form' },
    );

    const chartPart: Child =
      obs.length === 0 && !snapshot?.observations.length
        ? empty('No observations in this range with these choices. Widen the dates or pick other units.')
        : chartFigure({
            title: `${s.title}: ${unitsLabel.toLowerCase()}`,
            description: `${num(obs.length)} observations${obs[0] ? ` from ${obs[0].date}` : ''}${last ? ` to ${last.date}` : ''}, in ${measured}${asOf ? `, as known on ${asOf}` : ''}${first ? ', drawn against each date as first published' : ''}${snapshot ? `, drawn against the snapshot of ${vintage}` : ''}.`,
            x: dates.map(isoToSeconds),
            xKind: 'date',
            series: [
              { label: currentLabel, values: alignTo(dates, obs), color: COLORS.blue },
              ...(first
                ? [
                    {
                      label: 'First release',
                      values: alignTo(dates, first.observations),
                      color: COLORS.green,
                      style: 'dashed' as const,
                    },
                  ]
                : []),
              ...(snapshot
                ? [
                    {
                      label: `Snapshot of ${vintage}`,
                      values: alignTo(dates, snapshot.observations),
                      color: COLORS.vermillion,
                      style: 'dashed' as const,
                    },
                  ]
                : []),
            ],
            table: {
              columns: [
                'Date',
                snapshot || first ? (asOf ? `Known on ${asOf}` : 'Latest') : 'Value',
                ...(first ? ['First release'] : []),
                ...(snapshot ? [`Snapshot ${vintage}`] : []),
              ],
              rows: tableRows(dates, obs, [first?.observations, snapshot?.observations]),
              numeric: [1, ...(first ? [2] : []), ...(snapshot ? [first ? 3 : 2] : [])],
            },
          });

    return [
      h('p', { class: 'meta' }, h('a', { href: '#/' }, '← All series')),
      h('h1', null, s.title),
      h('p', { class: 'lede' }, s.description),
      form,
      h(
        'div',
        { class: 'cards' },
        card(
          last ? value(last.value) : MISSING,
          last ? `${asOf ? `known on ${asOf}` : 'latest'}, ${last.date} (${measured})` : 'no observation',
        ),
        card(unitsLabel, `${FREQUENCY_NAMES[latest.frequency] ?? latest.frequency} observations`),
        card(num(latest.count), choice.from || choice.to ? 'observations in the range' : 'observations'),
      ),
      chartPart,
      h(
        'p',
        { class: 'actions' },
        h('a', { class: 'button secondary', href: csv, download: `${id}.csv` }, 'Download CSV'),
        h('span', { class: 'meta' }, ` ${latest.source}; pulled ${latest.asOf}${latest.cached ? ' (cached)' : ''}.`),
      ),
      snapshot
        ? [
            h('h2', null, `Revised since ${vintage}`),
            revised.length === 0
              ? empty(`No point differs between the snapshot of ${vintage} and the latest data.`)
              : h(
                  'div',
                  { class: 'table-scroll' },
                  table(
                    `Points that differ between the snapshot of ${vintage} and the latest data`,
                    ['Date', `Snapshot ${vintage}`, 'Latest', 'Change'],
                    revised
                      .slice(-TABLE_ROWS)
                      .map((r) => [
                        r.date,
                        r.before === null ? 'not yet published' : value(r.before),
                        r.after === null ? 'withdrawn' : value(r.after),
                        r.before !== null && r.after !== null ? value(r.after - r.before) : MISSING,
                      ]),
                    { numeric: [1, 2, 3], rowHeaders: true, className: 'data revisions' },
                  ),
                ),
          ]
        : null,
      h('h2', null, 'About the series'),
      facts([
        ['Id', s.id],
        ['Source', s.sourceLabel],
        ['Table', s.tableId],
        ['Units', s.unitsDetail || s.units],
        ['Frequency', s.frequency],
        [
          'Upstream',
          s.upstream.kind === 'statcan-wds'
            ? `vectors ${s.upstream.vectorIds.join(', ')}`
            : `Valet ${s.upstream.seriesNames.join(', ')}`,
        ],
        ['Last verified', s.lastVerified],
        ['JSON', h('a', { href: `${API}/series/${enc}` }, `${API}/series/${s.id}`)],
      ]),
    ];
  },
};

startExplorer({
  service: 'economy',
  views: [home, search, seriesView, ...changesViews({ entityHref: (id) => seriesHref(id), noun: 'series' })],
});
