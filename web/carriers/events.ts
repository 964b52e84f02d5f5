// The events behind the figures: the step-down calendar (when each category's measure and percentile fall
// if nothing new happens: "when does this alert clear") and the inspection list with each violation and the
// crashes, paged in place. A free key's page of inspections counts one lookup, so it waits for a click.
import type { CarrierInspectionsAndCrashes } from '../../contract/types/carriers/inspections.ts';
import type { CarrierProfile } from '../../contract/types/carriers/profile.ts';
import { ApiError, getJson, query } from '../core/api.ts';
import { errorPanel } from '../core/app.ts';
import { COLORS, chartFigure } from '../core/chart.ts';
import { append, type Child, h, table } from '../core/dom.ts';
import { isoToSeconds, MISSING, num } from '../core/format.ts';
import { auth } from './session.ts';

type Category = CarrierProfile['categories'][number];
type Inspection = NonNullable<CarrierInspectionsAndCrashes['inspections']>[number];
type Crash = NonNullable<CarrierInspectionsAndCrashes['crashes']>[number];

const LIST_PAGE = 25;

/** The day an alert clears if nothing new happens: its first step below the threshold. */
function clears(c: Category): string {
  if (!c.alert) return '';
  const step = c.step_down?.find((s) => !s.alert);
  return step ? step.date : 'not within 24 months';
}

/** One category's steps as a table: date, measure, percentile, alert, enough data. */
function stepsTable(c: Category): HTMLElement {
  return table(
    `${c.label}: the coming steps`,
    ['From', 'Measure', 'Percentile', 'Alert', 'Enough data to rank'],
    (c.step_down ?? []).map((s) => [
      s.date,
      num(s.measure, 2),
      num(s.percentile, 1),
      s.alert ? h('span', { class: 'tag alert' }, 'Alert') : 'No',
      s.sufficient_data ? 'Yes' : 'No',
    ]),
    { numeric: [1, 2], className: 'data steps' },
  );
}

/** Percentiles over the coming months for the categories ranked today, threshold as dashes. */
function stepChart(p: CarrierProfile, ranked: readonly Category[]): HTMLElement {
  const days = [...new Set(ranked.flatMap((c) => (c.step_down ?? []).map((s) => s.date)))].sort();
  const dates = [p.data_as_of, ...days];
  /** The category's percentile in force on `day`: today's, then each step's from its date. */
  const at = (c: Category, day: string) => {
    let value = c.percentile;
    for (const s of c.step_down ?? []) if (s.date <= day) value = s.percentile;
    return value;
  };
  const palette = [COLORS.blue, COLORS.vermillion, COLORS.green, COLORS.purple, COLORS.grey];
  return chartFigure({
    title: 'Step-down: percentiles if nothing new happens',
    description: `Each ranked category's percentile from ${p.data_as_of} as the time weights of its past inspections fall; a gap is a day it could no longer be ranked.`,
    x: dates.map((d) => isoToSeconds(d)),
    xKind: 'date',
    yRange: [0, 100],
    series: ranked.map((c, i) => ({
      label: c.label,
      values: dates.map((d) => at(c, d)),
      color: palette[i % palette.length]!,
    })),
    yFormat: (v) => String(v),
    table: {
      columns: ['Date', ...ranked.map((c) => c.label)],
      rows: dates.map((d) => [d, ...ranked.map((c) => num(at(c, d), 1))]),
      numeric: ranked.map((_, i) => i + 1),
    },
  });
}

/** The step-down calendar: when each alert clears, a chart of the ranked categories, each category's steps. */
export function stepDownSection(p: CarrierProfile): HTMLElement {
  const measured = p.categories.filter((c) => c.step_down !== null);
  const ranked = measured.filter((c) => c.percentile !== null && (c.step_down?.length ?? 0) > 0);
  const alerts = p.categories.filter((c) => c.alert);
  return h(
    'section',
    { class: 'step-down', 'aria-labelledby': 'step-down-title' },
    h('h3', { id: 'step-down-title' }, 'When the figures fall'),
    h(
      'p',
      null,
      'Time weights fall as inspections age (3 → 2 → 1 → out of the 24-month window). If nothing new happens, these are the measures and percentiles the carrier would have, against today’s peer groups.',
    ),
    alerts.length
      ? table(
          'When each alert clears',
          ['Category', 'Percentile today', 'Threshold', 'Clears on'],
          alerts.map((c) => [c.label, num(c.percentile, 1), num(c.threshold), clears(c)]),
          { numeric: [1, 2], rowHeaders: true, className: 'data clears' },
        )
      : h('p', null, 'No category is at or above its threshold today.'),
    ranked.length ? stepChart(p, ranked) : null,
    measured.length === 0
      ? h('p', null, 'No category has a measure today, so nothing steps down.')
      : measured.map((c) =>
          h(
            'details',
            { class: 'steps' },
            h(
              'summary',
              null,
              `${c.label}: ${c.step_down!.length ? `${num(c.step_down!.length)} steps` : 'nothing changes'}`,
            ),
            c.step_down!.length ? stepsTable(c) : null,
          ),
        ),
  );
}

function violationList(i: Inspection): Child {
  if (i.violations === null) return MISSING;
  if (i.violations.length === 0) return 'none';
  return h(
    'ul',
    { class: 'violations' },
    ...i.violations.map((v) =>
      h(
        'li',
        null,
        h('code', null, v.code),
        ` ${v.description ?? ''} (${v.basic.replaceAll('_', ' ')}, severity ${v.severity_weight}, time weight ${v.time_weight}${v.oos ? ', out of service' : ''})`,
      ),
    ),
  );
}

function inspectionTable(list: readonly Inspection[], offset: number, total: number): HTMLElement {
  return table(
    `Inspections ${num(offset + 1)}–${num(offset + list.length)} of ${num(total)}, newest first`,
    ['Date', 'State', 'Level', 'Out of service', 'Time weight', 'Violations'],
    list.map((i) => [
      i.date,
      i.state ?? MISSING,
      i.level === null ? MISSING : String(i.level),
      i.out_of_service === null ? MISSING : i.out_of_service ? h('span', { class: 'tag alert' }, 'Yes') : 'No',
      String(i.time_weight),
      violationList(i),
    ]),
    { numeric: [4], className: 'data inspections' },
  );
}

function crashTable(crashes: readonly Crash[]): HTMLElement {
  return table(
    'Crashes, newest first',
    ['Date', 'State', 'Fatalities', 'Injuries', 'Tow-away', 'Not preventable', 'Severity', 'Time weight'],
    crashes.map((c) => [
      c.date,
      c.state ?? MISSING,
      num(c.fatalities),
      num(c.injuries),
      c.tow_away ? 'Yes' : 'No',
      c.not_preventable ? 'Yes' : 'No',
      num(c.severity_weight),
      String(c.time_weight),
    ]),
    { numeric: [2, 3, 6, 7], className: 'data crashes' },
  );
}

/**
 * The inspection list, paged in place. `counted`: a free key, whose every page counts one lookup, so the
 * first page waits for a click and each button says what it costs.
 */
export function inspectionList(p: CarrierProfile, key: string, api: string, counted: boolean): HTMLElement {
  const box = h('div', { class: 'inspection-list', 'aria-live': 'polite' });
  const cost = counted ? ' (counts one free lookup)' : '';
  const load = async (offset: number) => {
    box.replaceChildren(h('p', { class: 'loading' }, 'Loading the inspections…'));
    try {
      const { body } = await getJson<CarrierInspectionsAndCrashes>(
        `${api}/carrier/${p.carrier_id}/inspections${query({ limit: LIST_PAGE, offset })}`,
        { headers: auth(key) },
      );
      const list = body.inspections;
      const total = body.total;
      const nav: HTMLElement[] = [];
      const page = (label: string, to: number) => {
        const b = h('button', { type: 'button', class: 'secondary' }, `${label}${cost}`);
        b.addEventListener('click', () => load(to));
        nav.push(b);
      };
      if (total !== null && offset > 0) page('← Newer', Math.max(0, offset - LIST_PAGE));
      if (total !== null && offset + LIST_PAGE < total) page('Older →', offset + LIST_PAGE);
      box.replaceChildren();
      append(box, [
        list === null || total === null
          ? h('p', { class: 'notice' }, 'Not known: this build had no SMS inspection or violation file.')
          : total === 0
            ? h('p', null, 'No inspection in the window.')
            : [inspectionTable(list, offset, total), h('div', { class: 'actions' }, ...nav)],
        body.crashes === null
          ? h('p', { class: 'notice' }, 'Crashes not known: this build had no SMS crash file.')
          : body.crashes.length
            ? crashTable(body.crashes)
            : h('p', null, 'No crash in the window.'),
      ]);
    } catch (err) {
      box.replaceChildren(errorPanel(err, err instanceof ApiError ? undefined : 'The list could not be loaded.'));
    }
  };
  if (counted) {
    const show = h('button', { type: 'button' }, `Show the inspections and crashes${cost}`);
    show.addEventListener('click', () => load(0));
    box.append(show);
  } else void load(0);
  return box;
}
