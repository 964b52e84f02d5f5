// The carriers explorer: public search by name, USDOT number or docket, and a carrier's profile behind
// sign-in with an API key kept for this browser tab only (sessionStorage): first whether it may operate
// (authority, insurance, orders, registration), then safety: percentiles against thresholds, top risks,
// the step-down calendar, rates next to the national averages, inspections and crashes with the inspection
// list, and the premium summary and export (docs/contracts/explorer.md, carriers.md).
import '../core/styles.css';
import type { CarrierExplanation } from '../../contract/types/carriers/explain.ts';
import type { CarrierExportJSON } from '../../contract/types/carriers/export.ts';
import type { CarrierProfile } from '../../contract/types/carriers/profile.ts';
import type { CarrierSearchResults } from '../../contract/types/carriers/search.ts';
import { ApiError, getFile, getJson, query } from '../core/api.ts';
import { errorPanel, href, startExplorer, type View, type ViewContext } from '../core/app.ts';
import { COLORS, chartFigure, mountCharts } from '../core/chart.ts';
import { append, type Child, facts, field, h, table } from '../core/dom.ts';
import { duration, isoToSeconds, MISSING, num, share } from '../core/format.ts';
import { empty, intParam, pager, routeForm } from '../core/parts.ts';
import { inspectionList, stepDownSection } from './events.ts';
import { hireSection } from './hire.ts';
import { auth, keyStore, onKeyChange, signInForm, signOutButton } from './session.ts';
import { trendPart } from './trend.ts';
import { carrierChangesViews, watchlistViews } from './watch.ts';

const API = 'api';
const PAGE = 25;
interface Allowance {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

interface Loaded {
  profile: CarrierProfile;
  /** Free keys' allowance after this lookup; undefined for a key whose lookups are not counted (premium). */
  allowance?: Allowance;
}

/** Profiles fetched in this tab: going back to one does not spend another free lookup. */
const profiles = new Map<string, Loaded>();
onKeyChange(() => profiles.clear());

const carrierHref = (id: number | string) => href(`/carrier/${id}`);

function allowanceOf(headers: Headers): Allowance | undefined {
  const limit = headers.get('ratelimit-limit');
  if (limit === null) return undefined;
  return {
    limit: Number(limit),
    remaining: Number(headers.get('ratelimit-remaining') ?? 0),
    resetSeconds: Number(headers.get('ratelimit-reset') ?? 0),
  };
}

function searchForm(q: string, state: string) {
  return routeForm(
    '/search',
    [
      field(
        'Carrier name, USDOT number or docket',
        h('input', { type: 'search', name: 'q', value: q, required: true, maxlength: 200, autocomplete: 'off' }),
        'words of the legal or DBA name, the number (USDOT 123456), or a docket (MC 123456, FF…, MX…)',
      ),
      field(
        'State',
        h('input', {
          type: 'text',
          name: 'state',
          value: state,
          maxlength: 2,
          size: 4,
          pattern: '[A-Za-z]{2}',
          autocomplete: 'off',
        }),
        'two letters, e.g. TX',
      ),
      h('button', { type: 'submit' }, 'Search'),
    ],
    { label: 'Carriers' },
  );
}

const search: View = {
  name: 'search',
  pattern: /^\/(search)?$/,
  nav: '#/',
  async render(ctx) {
    const p = ctx.route.params;
    const q = (p.get('q') ?? '').trim();
    const state = (p.get('state') ?? '').trim();
    const offset = intParam(p, 'offset', 0);
    const intro = [
      h('h1', null, 'Motor carriers'),
      h(
        'p',
        { class: 'lede' },
        'Find a US motor carrier by name, USDOT number or MC docket. Whether it may operate, and its safety profile ranked against its peers, open with an API key.',
      ),
      searchForm(q, state),
    ];
    if (!q) return [...intro, h('p', null, 'Type a name or a number above to search the census.')];
    const { body } = await getJson<CarrierSearchResults>(
      `${API}/search${query({ q, state: state.toUpperCase(), limit: PAGE, offset })}`,
      { signal: ctx.signal },
    );
    ctx.announce(`${num(body.total)} carriers found`);
    const hrefAt = (o: number) => href('/search', { q, state, offset: o || null });
    return [
      ...intro,
      body.results.length === 0
        ? empty(
            offset > 0 && body.total > 0 ? 'No carriers on this page. ' : `No carrier matches “${q}”`,
            state ? ` in ${state.toUpperCase()}. ` : '. ',
            'Try fewer words, the start of a word, the USDOT number, or the docket as MC 123456.',
          )
        : [
            pager(body.total, offset, PAGE, hrefAt, 'carriers'),
            h(
              'div',
              { class: 'table-scroll' },
              table(
                `Carriers matching “${q}”`,
                ['Carrier', 'USDOT', 'Dockets', 'May operate', 'City', 'State', 'Power units'],
                body.results.map((r) => [
                  h('a', { href: carrierHref(r.carrier_id) }, r.legal_name, r.dba_name ? ` (DBA ${r.dba_name})` : ''),
                  String(r.carrier_id),
                  r.dockets.join(', '),
                  r.allowed_to_operate === null
                    ? 'Not known'
                    : r.allowed_to_operate
                      ? 'Yes'
                      : h('span', { class: 'tag alert' }, 'No'),
                  r.city ?? MISSING,
                  r.state ?? MISSING,
                  num(r.power_units),
                ]),
                { numeric: [1, 6], className: 'data results' },
              ),
            ),
            pager(body.total, offset, PAGE, hrefAt, 'carriers', 'below'),
          ],
    ];
  },
};

function allowanceNote(a: Allowance | undefined): HTMLElement {
  if (!a) return h('p', { class: 'notice allowance' }, 'Premium key: profile lookups are not counted.');
  return h(
    'p',
    { class: 'notice allowance' },
    h('strong', null, `Free lookups left this month: ${num(a.remaining)} of ${num(a.limit)}`),
    a.resetSeconds > 0 ? ` (renews in ${duration(a.resetSeconds)})` : '',
    '. Opening the same carrier again in this tab does not count again.',
  );
}

function percentileChart(p: CarrierProfile): HTMLElement {
  const cats = p.categories;
  return chartFigure({
    title: 'Percentiles against intervention thresholds',
    description:
      'Higher is worse: the share of peer carriers with a better measure. A circle marks each category’s threshold; a missing bar is a category without a percentile.',
    x: cats.map((_, i) => i),
    xKind: 'category',
    categories: cats.map((c) => c.label),
    horizontal: true,
    yRange: [0, 100],
    yFormat: (v) => String(v),
    series: [
      {
        label: 'Below threshold',
        values: cats.map((c) => (c.percentile !== null && !c.alert ? c.percentile : null)),
        color: COLORS.blue,
        style: 'bars',
      },
      {
        label: 'At or above threshold (alert)',
        values: cats.map((c) => (c.percentile !== null && c.alert ? c.percentile : null)),
        color: COLORS.vermillion,
        style: 'bars',
      },
      { label: 'Intervention threshold', values: cats.map((c) => c.threshold), color: COLORS.black, style: 'points' },
    ],
    table: {
      columns: ['Category', 'Percentile', 'Threshold', 'Alert', 'Violations', 'Measure', 'Note'],
      rows: cats.map((c) => [
        c.label,
        num(c.percentile, 1),
        num(c.threshold),
        c.alert ? 'Alert' : 'No',
        num(c.violations),
        num(c.measure, 2),
        c.percentile_note ?? (c.sufficient_data ? '' : 'too little data to rank'),
      ]),
      numeric: [1, 2, 4, 5],
    },
  });
}

function categoryTable(p: CarrierProfile): HTMLElement {
  return table(
    'The seven safety categories (BASICs)',
    ['Category', 'Percentile', 'Threshold', 'Status', 'Violations', 'Measure'],
    p.categories.map((c) => [
      c.label,
      c.percentile === null
        ? (c.percentile_note ?? (c.sufficient_data ? MISSING : 'too little data'))
        : num(c.percentile, 1),
      num(c.threshold),
      c.alert
        ? h('span', { class: 'tag alert' }, 'Alert: at or above threshold')
        : c.percentile === null
          ? 'Not ranked'
          : 'Below threshold',
      num(c.violations),
      num(c.measure, 2),
    ]),
    { numeric: [1, 2, 4, 5], rowHeaders: true, className: 'data categories' },
  );
}

function ratesTable(p: CarrierProfile): HTMLElement {
  const r = p.rates;
  const n = p.national;
  return table(
    'Rates over the window, next to the national averages',
    ['Rate', 'This carrier', 'National average', 'National inspections'],
    [
      ['Vehicle out-of-service rate', share(r.vehicle_oos_rate), share(n.vehicle_oos_rate), num(n.vehicle_inspections)],
      ['Driver out-of-service rate', share(r.driver_oos_rate), share(n.driver_oos_rate), num(n.driver_inspections)],
      ['Hazmat out-of-service rate', share(r.hazmat_oos_rate), share(n.hazmat_oos_rate), num(n.hazmat_inspections)],
      ['Violations per inspection', num(r.violations_per_inspection, 2), MISSING, ''],
      ['Crashes per power unit', num(r.crashes_per_power_unit, 3), MISSING, ''],
    ],
    { numeric: [1, 2, 3], rowHeaders: true, className: 'data rates' },
  );
}

/** Window counts by kind: what a free key's profile offers (the month by month counts are the export's). */
function windowChart(p: CarrierProfile): HTMLElement {
  const i = p.inspections;
  const c = p.crashes;
  const rows: [string, number | null][] = [
    ['Inspections', i.total],
    ['Driver inspections', i.driver],
    ['Vehicle inspections', i.vehicle],
    ['Hazmat inspections', i.hazmat],
    ['Inspections with violations', i.with_violations],
    ['Crashes', c.total],
    ['Fatal crashes', c.fatal],
    ['Injury crashes', c.injury],
    ['Tow-away crashes', c.tow_away],
  ];
  return chartFigure({
    title: `Inspections and crashes in the last ${i.window_months} months`,
    description: `${num(i.total)} inspections and ${num(c.total)} crashes in the window, by kind.`,
    x: rows.map((_, k) => k),
    xKind: 'category',
    categories: rows.map(([label]) => label),
    horizontal: true,
    series: [{ label: 'Count', values: rows.map(([, v]) => v), color: COLORS.blue, style: 'bars' }],
    yFormat: (v) => num(v),
    table: { columns: ['Kind', 'Count'], rows: rows.map(([label, v]) => [label, num(v)]), numeric: [1] },
  });
}

function monthlyChart(e: CarrierExportJSON): HTMLElement {
  const months = e.monthly.months;
  return chartFigure({
    title: 'Inspections and crashes by month',
    description: `From ${e.monthly.from} to ${e.monthly.to}: inspections as bars (left scale), crashes as a line (right scale).`,
    x: months.map((m) => isoToSeconds(`${m.month}-01`)),
    xKind: 'date',
    series: [
      { label: 'Inspections', values: months.map((m) => m.inspections), color: COLORS.blue, style: 'bars' },
      { label: 'Crashes', values: months.map((m) => m.crashes), color: COLORS.vermillion, right: true },
    ],
    yFormat: (v) => num(v),
    rightFormat: (v) => (Number.isInteger(v) ? num(v) : ''),
    table: {
      columns: ['Month', 'Inspections', 'Crashes'],
      rows: months.map((m) => [m.month, num(m.inspections), num(m.crashes)]),
      numeric: [1, 2],
    },
  });
}

/** Saves a body as a file through a temporary link (the export needs the key, so a plain link cannot fetch it). */
function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function premiumSection(p: CarrierProfile, key: string): HTMLElement {
  const out = h('div', { class: 'premium-output', 'aria-live': 'polite' });
  const id = p.carrier_id;
  const busy = async (button: HTMLButtonElement, work: () => Promise<Child>) => {
    button.disabled = true;
    out.replaceChildren(h('p', { class: 'loading' }, 'Working…'));
    try {
      const done = await work();
      out.replaceChildren();
      append(out, [done]);
    } catch (err) {
      out.replaceChildren(errorPanel(err, err instanceof ApiError ? premiumAdvice(err) : undefined));
    } finally {
      button.disabled = false;
    }
  };
  const explain = h('button', { type: 'button' }, 'Explain in plain language');
  explain.addEventListener('click', () =>
    busy(explain, async () => {
      const { body } = await getJson<CarrierExplanation>(`${API}/carrier/${id}/explain`, {
        method: 'POST',
        headers: { ...auth(key), 'Content-Type': 'application/json' },
        body: '{}',
      });
      return h(
        'section',
        { class: 'explain', 'aria-labelledby': 'explain-title' },
        h('h3', { id: 'explain-title' }, 'Summary'),
        ...body.summary.split(/\n{2,}/).map((para) => h('p', { class: 'summary-para' }, para)),
        h('p', { class: 'meta' }, `${body.generator}, ${body.cached ? 'cached' : 'generated'} ${body.generated_at}`),
      );
    }),
  );
  const download = (format: 'csv' | 'json') => {
    const button = h('button', { type: 'button', class: 'secondary' }, `Download ${format.toUpperCase()}`);
    button.addEventListener('click', () =>
      busy(button, async () => {
        const { blob, name } = await getFile(`${API}/carrier/${id}/export${query({ format })}`, { headers: auth(key) });
        const file = name ?? `carrier-${id}.${format}`;
        save(blob, file);
        return h('p', { class: 'notice' }, `Saved ${file}.`);
      }),
    );
    return button;
  };
  return h(
    'section',
    { 'aria-labelledby': 'premium' },
    h('h2', { id: 'premium' }, 'Premium: summary and export'),
    h('p', null, 'A premium key explains this profile in plain language and exports it with its monthly counts.'),
    h('div', { class: 'actions' }, explain, download('csv'), download('json')),
    out,
  );
}

function premiumAdvice(err: ApiError): string | undefined {
  if (err.code === 'premium_required')
    return 'These need a premium key: sign out and sign in with one, or ask the operator for one (npm run keys -- create --plan premium).';
  if (err.code === 'unauthorized') return 'The key is no longer accepted: sign out, then sign in with a valid key.';
  return undefined;
}

async function loadProfile(id: string, key: string, ctx: ViewContext): Promise<Loaded> {
  const known = profiles.get(id);
  if (known) return known;
  const { body, headers } = await getJson<CarrierProfile>(`${API}/carrier/${encodeURIComponent(id)}`, {
    headers: auth(key),
    signal: ctx.signal,
  });
  const loaded = { profile: body, allowance: allowanceOf(headers) };
  profiles.set(id, loaded);
  return loaded;
}

/** The monthly counts of a premium key's export, drawn once loaded; a failure leaves the window counts. */
function monthlyPart(p: CarrierProfile, key: string): HTMLElement {
  const box = h(
    'div',
    { class: 'monthly' },
    h('p', { class: 'loading' }, 'Loading the monthly counts…'),
    windowChart(p),
  );
  getJson<CarrierExportJSON>(`${API}/carrier/${p.carrier_id}/export${query({ format: 'json' })}`, {
    headers: auth(key),
  }).then(
    ({ body }) => {
      box.replaceChildren(monthlyChart(body), windowChart(p));
      mountCharts();
    },
    () => box.querySelector('.loading')?.remove(),
  );
  return box;
}

const carrier: View = {
  name: 'carrier',
  pattern: /^\/carrier\/(?<id>[^/]+)$/,
  nav: '#/',
  async render(ctx) {
    const id = ctx.match.id ?? '';
    const back = h('p', { class: 'meta' }, h('a', { href: '#/' }, '← Search carriers'));
    const key = keyStore.get();
    if (!key) return [back, h('h1', null, `Carrier ${id}`), signInForm()];
    let loaded: Loaded;
    try {
      loaded = await loadProfile(id, key, ctx);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (err.code === 'unauthorized') {
        keyStore.clear();
        return [
          back,
          h('h1', null, `Carrier ${id}`),
          errorPanel(err, 'The key was not accepted (unknown, mistyped or revoked). Sign in again with a valid key.'),
          signInForm(),
        ];
      }
      if (err.code === 'quota_exhausted') {
        const wait = err.retryAfter ? ` It renews in ${duration(err.retryAfter)}.` : '';
        return [
          back,
          h('h1', null, `Carrier ${id}`),
          errorPanel(
            err,
            `This key's free lookups for the month are used up.${wait} Sign in with a premium key to go on now.`,
          ),
          h('div', { class: 'actions' }, signOutButton()),
        ];
      }
      throw err;
    }
    const { profile: p, allowance } = loaded;
    const worst = p.top_risks[0];
    ctx.announce(`Profile of ${p.legal_name} loaded`);
    return [
      back,
      h('h1', null, p.legal_name),
      h(
        'p',
        { class: 'lede' },
        [
          p.dba_name ? `DBA ${p.dba_name}` : null,
          `USDOT ${p.carrier_id}`,
          p.dockets.length ? p.dockets.join(', ') : null,
          [p.city, p.state].filter(Boolean).join(', ') || null,
        ]
          .filter(Boolean)
          .join(' · '),
      ),
      h('div', { class: 'actions' }, allowanceNote(allowance), signOutButton()),
      hireSection(p),
      h('h2', null, 'Safety'),
      worst
        ? h(
            'p',
            { class: 'worst' },
            h('strong', null, 'Worst category: '),
            worst.label,
            worst.percentile === null ? ' (no percentile)' : ` (percentile ${num(worst.percentile, 1)})`,
          )
        : null,
      h('h3', null, 'Top 3 risks'),
      h(
        'ol',
        { class: 'top-risks' },
        ...p.top_risks.map((r) =>
          h(
            'li',
            null,
            h('strong', null, r.label),
            r.percentile === null ? '' : ` — percentile ${num(r.percentile, 1)}`,
            h('br'),
            r.reason,
          ),
        ),
      ),
      h('h3', null, 'Safety categories'),
      percentileChart(p),
      categoryTable(p),
      stepDownSection(p),
      h('h2', null, 'Trend'),
      trendPart(p),
      h('h2', null, 'Rates'),
      ratesTable(p),
      h('h2', null, 'Inspections and crashes'),
      allowance
        ? [windowChart(p), h('p', { class: 'meta' }, 'Month by month counts come with a premium key’s export.')]
        : monthlyPart(p, key),
      h('h3', null, 'The inspection list'),
      inspectionList(p, key, API, allowance !== undefined),
      premiumSection(p, key),
      h('h2', null, 'The carrier'),
      facts([
        ['Power units', num(p.power_units)],
        ['Drivers', num(p.drivers)],
        ['Miles driven', p.mileage ? `${num(p.mileage.miles)} (${p.mileage.year})` : MISSING],
        ['Peer group', `${p.peer_group.label} (${num(p.peer_group.size)} carriers)`],
        ['Data as of', p.data_as_of],
        ['Missing inputs', p.data_gaps.length ? p.data_gaps.join(', ') : null],
      ]),
      h('p', { class: 'meta' }, `${p.methodology.note} Methodology ${p.methodology.version}.`),
      h('p', { class: 'meta disclaimer' }, 'FMCSA: ', p.disclaimer),
    ];
  },
};

startExplorer({
  service: 'carriers',
  views: [search, carrier, ...carrierChangesViews(), ...watchlistViews()],
});
