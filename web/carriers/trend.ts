// A carrier's trend: each ranked category's percentile at each of the last builds (the profile's `trend`),
// one line per category, with the builds that alerted it in the table.
import type { CarrierProfile } from '../../contract/types/carriers/profile.ts';
import { COLORS, chartFigure } from '../core/chart.ts';
import { h } from '../core/dom.ts';
import { isoToSeconds, MISSING, num } from '../core/format.ts';

const PALETTE = [COLORS.blue, COLORS.vermillion, COLORS.green, COLORS.purple, COLORS.grey, COLORS.black];

export function trendPart(p: CarrierProfile): HTMLElement {
  const points = p.trend ?? [];
  const labels = new Map(p.categories.map((c) => [c.category, c.label]));
  // The categories ranked in at least one build, in the profile's order.
  const ranked = p.categories
    .map((c) => c.category)
    .filter((c) => points.some((t) => t.categories[c]?.percentile !== null && t.categories[c] !== undefined));
  if (points.length < 2 || ranked.length === 0)
    return h(
      'p',
      { class: 'meta' },
      points.length === 0
        ? 'No build of the change history ranked this carrier yet.'
        : 'One build so far: the trend draws from the second build on.',
    );
  const day = (t: (typeof points)[number]) => t.built_at.slice(0, 10);
  return chartFigure({
    title: `Percentiles over the last ${num(points.length)} builds`,
    description: `Each ranked category's percentile at each build (higher is worse), ${day(points[0]!)} to ${day(points.at(-1)!)}; a gap is a build that did not rank it.`,
    x: points.map((t) => isoToSeconds(day(t))),
    xKind: 'date',
    yRange: [0, 100],
    yFormat: (v) => String(v),
    series: ranked.map((c, i) => ({
      label: labels.get(c) ?? c,
      values: points.map((t) => t.categories[c]?.percentile ?? null),
      color: PALETTE[i % PALETTE.length]!,
      style: i < PALETTE.length ? ('line' as const) : ('dashed' as const),
    })),
    table: {
      columns: ['Build', ...ranked.map((c) => labels.get(c) ?? c)],
      rows: points.map((t) => [
        `${day(t)} (${t.data_version})`,
        ...ranked.map((c) => {
          const v = t.categories[c];
          if (!v || v.percentile === null) return MISSING;
          return `${num(v.percentile, 1)}${v.alert ? ' alert' : ''}`;
        }),
      ]),
      numeric: ranked.map((_, i) => i + 1),
    },
  });
}
