// Charts: uPlot (a small canvas charting library) inside a <figure> whose caption says what the chart shows,
// a legend in the page's own markup, and a table of the same figures behind a disclosure, the chart's text
// alternative for screen readers and for reading exact values.
//
// A figure is made detached and drawn once it is in the page (mountCharts), at the width it gets there.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { type Child, h, table } from './dom.ts';

/** Okabe–Ito colours: told apart with any colour vision, each at least 3:1 against white. */
export const COLORS = {
  blue: '#0072B2',
  vermillion: '#D55E00',
  green: '#007A5A',
  purple: '#A2467C',
  grey: '#5F5F5F',
  black: '#111111',
} as const;

export interface ChartSeries {
  label: string;
  values: readonly (number | null)[];
  color: string;
  /** line (default), bars, points only (markers such as thresholds), or a dashed line. */
  style?: 'line' | 'bars' | 'points' | 'dashed';
  /** A second value scale on the right (counts of another kind). */
  right?: boolean;
}

export interface ChartSpec {
  /** Names the chart (caption). */
  title: string;
  /** What it shows, in words: the text alternative read with the chart. */
  description: string;
  /** x values: years, UTC seconds (`date`) or category indices. */
  x: readonly number[];
  xKind: 'year' | 'date' | 'category';
  /** Category names, for `category`. */
  categories?: readonly string[];
  series: readonly ChartSeries[];
  /** Categories down the left side, bars across (rankings, funnels). */
  horizontal?: boolean;
  /** Formats a value on the axis and the right axis. */
  yFormat?: (v: number) => string;
  rightFormat?: (v: number) => string;
  /** Fixed value range (percentiles 0–100). */
  yRange?: [number, number];
  height?: number;
  /** The figures as a table (the text alternative). */
  table: { columns: readonly string[]; rows: readonly (readonly Child[])[]; numeric?: readonly number[] };
}

const compact = new Intl.NumberFormat('en-CA', { notation: 'compact', maximumFractionDigits: 1 });
export const compactNumber = (v: number) => compact.format(v);

interface Pending {
  plot: HTMLElement;
  spec: ChartSpec;
}

const pending: Pending[] = [];
const live: { chart: uPlot; plot: HTMLElement; spec: ChartSpec }[] = [];
let ids = 0;

/** A figure with the chart, its caption, legend and data table; drawn by mountCharts once in the page. */
export function chartFigure(spec: ChartSpec): HTMLElement {
  const id = `chart-${++ids}`;
  const plot = h('div', { class: 'plot', role: 'img', 'aria-labelledby': `${id}-title ${id}-desc` });
  pending.push({ plot, spec });
  return h(
    'figure',
    { class: 'chart', id },
    h(
      'figcaption',
      null,
      h('strong', { id: `${id}-title` }, spec.title),
      ' ',
      h('span', { id: `${id}-desc` }, spec.description),
    ),
    h(
      'ul',
      { class: 'legend', 'aria-label': 'Legend' },
      ...spec.series.map((s) =>
        h(
          'li',
          null,
          h('span', {
            class: `swatch ${s.style ?? 'line'}`,
            style: `--swatch:${s.color}`,
            'aria-hidden': 'true',
          }),
          s.label,
        ),
      ),
    ),
    plot,
    h(
      'details',
      { class: 'chart-table' },
      h('summary', null, 'Show the figures as a table'),
      table(spec.title, spec.table.columns, spec.table.rows, { numeric: spec.table.numeric, rowHeaders: true }),
    ),
  );
}

const AXIS = { stroke: '#222', grid: { stroke: '#e3e3e3', width: 1 }, ticks: { stroke: '#bbb', width: 1 } };

let measurer: CanvasRenderingContext2D | null | undefined;
/** Width of a label in the axis font, for the room the category axis needs. */
function textWidth(text: string): number {
  measurer ??= document.createElement('canvas').getContext('2d');
  if (!measurer) return text.length * 7;
  measurer.font = '12px system-ui, sans-serif';
  return measurer.measureText(text).width;
}

const clip = (s: string, n = 38) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function toOptions(spec: ChartSpec, width: number): uPlot.Options {
  const categories = spec.categories ?? [];
  const isCategory = spec.xKind === 'category';
  const horizontal = spec.horizontal === true;
  const yFormat = spec.yFormat ?? compactNumber;
  const height = spec.height ?? (horizontal ? Math.max(160, categories.length * 26 + 48) : 280);
  const labelRoom = isCategory ? Math.min(280, Math.max(...categories.map((c) => textWidth(clip(c))), 40) + 18) : 0;
  const series: uPlot.Series[] = [{}];
  for (const s of spec.series) {
    const style = s.style ?? 'line';
    const base: uPlot.Series = {
      label: s.label,
      stroke: s.color,
      width: style === 'points' ? 0 : 2,
      scale: s.right ? 'r' : 'y',
      spanGaps: false,
    };
    if (style === 'bars') {
      series.push({
        ...base,
        fill: s.color,
        paths: uPlot.paths.bars!({ size: [0.65, 40], align: 0 }),
        points: { show: false },
      });
    } else if (style === 'points') {
      series.push({
        ...base,
        paths: () => null,
        points: { show: true, size: 11, width: 2.5, stroke: s.color, fill: '#ffffff' },
      });
    } else {
      series.push({
        ...base,
        dash: style === 'dashed' ? [6, 4] : undefined,
        points: { show: spec.x.length <= 40, size: 5, fill: s.color },
      });
    }
  }
  const xValues = (_u: uPlot, splits: number[]) =>
    isCategory
      ? splits.map((i) => (Number.isInteger(i) ? clip(categories[i] ?? '') : ''))
      : splits.map((v) => String(v));
  const xAxis: uPlot.Axis = {
    ...AXIS,
    scale: 'x',
    side: horizontal ? 3 : 2,
    grid: { show: !isCategory, ...AXIS.grid },
    ...(spec.xKind === 'date' ? {} : { values: xValues }),
    ...(isCategory
      ? {
          splits: () => categories.map((_, i) => i),
          size: horizontal ? labelRoom : 40,
          gap: 4,
        }
      : spec.xKind === 'year'
        ? { incrs: [1, 2, 5, 10, 20, 50] }
        : {}),
  };
  const yAxis: uPlot.Axis = {
    ...AXIS,
    scale: 'y',
    side: horizontal ? 2 : 3,
    size: horizontal ? 36 : 64,
    values: (_u, splits) => splits.map(yFormat),
  };
  const axes = [xAxis, yAxis];
  if (spec.series.some((s) => s.right)) {
    axes.push({
      ...AXIS,
      scale: 'r',
      side: 1,
      size: 52,
      grid: { show: false },
      values: (_u, splits) => splits.map(spec.rightFormat ?? compactNumber),
    });
  }
  // Bars start at zero, whatever the smallest value.
  const allBars = spec.series.every((s) => s.style === 'bars' || s.style === 'points');
  const yRange: [number, number] | undefined =
    spec.yRange ??
    (allBars
      ? [0, Math.max(1, ...spec.series.flatMap((s) => s.values.filter((v): v is number => v !== null))) * 1.05]
      : undefined);
  return {
    width,
    height,
    series,
    axes,
    legend: { show: false },
    cursor: { show: !isCategory, drag: { x: false, y: false } },
    select: { show: false, left: 0, top: 0, width: 0, height: 0 },
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    scales: {
      x: {
        time: spec.xKind === 'date',
        ...(isCategory
          ? {
              range: (): uPlot.Range.MinMax => [-0.6, categories.length - 0.4],
              ori: horizontal ? 1 : 0,
              dir: horizontal ? -1 : 1,
            }
          : {}),
        ...(spec.xKind === 'year' && spec.x.length === 1
          ? { range: (): uPlot.Range.MinMax => [spec.x[0]! - 1, spec.x[0]! + 1] }
          : {}),
      },
      y: {
        ...(horizontal ? { ori: 0 as const, dir: 1 as const } : {}),
        ...(yRange ? { range: (): uPlot.Range.MinMax => yRange } : {}),
      },
      r: {},
    },
  };
}

/** The plot's width in the page: its box, less nothing (the figure pads itself), within sensible bounds. */
const widthOf = (plot: HTMLElement) => Math.max(280, Math.min(plot.clientWidth || 640, 1100));

/** Draws every figure made since that is now in the page, and forgets the charts that left it. */
export function mountCharts(): void {
  for (let i = live.length - 1; i >= 0; i--) {
    const c = live[i]!;
    if (!c.plot.isConnected) {
      c.chart.destroy();
      live.splice(i, 1);
    }
  }
  for (let i = pending.length - 1; i >= 0; i--) {
    const p = pending[i]!;
    if (!p.plot.isConnected) continue;
    pending.splice(i, 1);
    const data = [Array.from(p.spec.x), ...p.spec.series.map((s) => Array.from(s.values))] as uPlot.AlignedData;
    const chart = new uPlot(toOptions(p.spec, widthOf(p.plot)), data, p.plot);
    live.push({ chart, plot: p.plot, spec: p.spec });
  }
  // Figures of a view that was left before it showed are never drawn.
  if (pending.length > 50) pending.splice(0, pending.length - 50);
}

let resizeTimer: ReturnType<typeof setTimeout> | undefined;
addEventListener('resize', () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => {
    for (const c of live) {
      if (!c.plot.isConnected) continue;
      const width = widthOf(c.plot);
      if (width !== c.chart.width) c.chart.setSize({ width, height: c.chart.height });
    }
  }, 150);
});
