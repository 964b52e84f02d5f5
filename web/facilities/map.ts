// The facilities map (docs/explorer.md, "The facilities map"): every match of the search on a canvas over
// Ontario's outline, the file the build ships (maps/ontario.geojson, Natural Earth), coloured and shaped by
// tier, each point opening its facility's record; beside it the same facilities as a list of links, the map's
// text alternative and its keyboard way in. Nothing is loaded from another origin.
import type { MapBoundary } from '../../contract/types/facilities/boundary.ts';
import type { SearchResults } from '../../contract/types/facilities/search.ts';
import { getJson, query } from '../core/api.ts';
import { navigate } from '../core/app.ts';
import { COLORS } from '../core/chart.ts';
import { h } from '../core/dom.ts';
import { num } from '../core/format.ts';
import { BOUNDARY_URL, fitWidth, MAP_PADDING, MAP_WIDTH, outlinePositions } from './projection.ts';

/** The search's largest page: the matches are read in pages of this many. */
const PAGE = 200;
/** At most this many matches are drawn (ten pages), the first in the search's order. */
export const MAP_MAX = 2000;

type Result = SearchResults['results'][number];
type Tier = Result['tier'];

/** Okabe–Ito colours and two shapes, so the tiers differ without colour too. */
export const TIER_MARKS: Record<Tier, { color: string; shape: 'circle' | 'square'; label: string }> = {
  anchored: { color: COLORS.blue, shape: 'circle', label: 'Anchored (linked)' },
  unmatched: { color: COLORS.vermillion, shape: 'square', label: 'Unmatched' },
};
const LAND = '#eef1f4';
const SHORE = '#6b7280';
/** A mark's radius, and how near a pointer must come to take it, in canvas pixels. */
const RADIUS = 7;
const HIT = 12;

let boundary: Promise<MapBoundary> | undefined;

/** The outline, read once per page (a view left before it came does not cancel it for the next). */
export function loadBoundary(): Promise<MapBoundary> {
  if (!boundary) {
    boundary = getJson<MapBoundary>(BOUNDARY_URL).then((a) => a.body);
    boundary.catch(() => {
      boundary = undefined;
    });
  }
  return boundary;
}

/**
 * Every match of the search's filters, in its order, read in pages of 200 (the first, then the rest at
 * once), up to MAP_MAX: the map shows what the search matched, not only the page in view.
 */
export async function fetchMatches(
  url: string,
  filters: Record<string, string | number | null | undefined>,
  signal: AbortSignal,
): Promise<{ results: Result[]; total: number }> {
  const page = (offset: number) =>
    getJson<SearchResults>(`${url}${query({ ...filters, limit: PAGE, offset: offset || null })}`, { signal });
  const first = (await page(0)).body;
  const offsets: number[] = [];
  for (let o = PAGE; o < Math.min(first.total, MAP_MAX); o += PAGE) offsets.push(o);
  const rest = await Promise.all(offsets.map(page));
  return { results: [first, ...rest.map((r) => r.body)].flatMap((b) => b.results), total: first.total };
}

interface Point {
  result: Result;
  x: number;
  y: number;
}

function drawMark(ctx: CanvasRenderingContext2D, x: number, y: number, tier: Tier): void {
  const mark = TIER_MARKS[tier];
  ctx.beginPath();
  if (mark.shape === 'circle') ctx.arc(x, y, RADIUS, 0, 2 * Math.PI);
  else ctx.rect(x - RADIUS, y - RADIUS, 2 * RADIUS, 2 * RADIUS);
  ctx.fillStyle = mark.color;
  ctx.fill();
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = '#ffffff';
  ctx.stroke();
}

function drawMap(canvas: HTMLCanvasElement, outline: Path2D, points: readonly Point[], active: number | undefined) {
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = LAND;
  ctx.fill(outline, 'evenodd');
  ctx.lineWidth = 1.25;
  ctx.strokeStyle = SHORE;
  ctx.stroke(outline);
  // The search's first matches (the largest emitters, by default) are drawn last, on top.
  for (let i = points.length - 1; i >= 0; i--) {
    const p = points[i]!;
    drawMark(ctx, p.x, p.y, p.result.tier);
  }
  const p = active === undefined ? undefined : points[active];
  if (p) {
    drawMark(ctx, p.x, p.y, p.result.tier);
    ctx.beginPath();
    ctx.arc(p.x, p.y, RADIUS + 5, 0, 2 * Math.PI);
    ctx.lineWidth = 3;
    ctx.strokeStyle = COLORS.black;
    ctx.stroke();
  }
}

export interface MapOptions {
  boundary: MapBoundary;
  /** The matches in the search's order, as fetchMatches read them. */
  matches: readonly Result[];
  total: number;
  hrefOf(id: string): string;
}

/** The map, its legend and caption, and the list of the same facilities beside it. */
export function facilityMap(o: MapOptions): HTMLElement {
  const fit = fitWidth(outlinePositions(o.boundary), MAP_WIDTH, MAP_PADDING);
  const points: Point[] = [];
  for (const r of o.matches) {
    if (!r.coordinates) continue;
    const [x, y] = fit.toPixel(r.coordinates.longitude, r.coordinates.latitude);
    points.push({ result: r, x, y });
  }
  const outline = new Path2D();
  for (const f of o.boundary.features) {
    for (const polygon of f.geometry.coordinates) {
      for (const ring of polygon) {
        ring.forEach(([lon, lat], i) => {
          const [x, y] = fit.toPixel(lon!, lat!);
          if (i === 0) outline.moveTo(x, y);
          else outline.lineTo(x, y);
        });
        outline.closePath();
      }
    }
  }
  const byTier = (tier: Tier) => points.filter((p) => p.result.tier === tier).length;
  const unlocated = o.matches.length - points.length;
  const capped = o.total > o.matches.length;
  const description = [
    `${num(points.length)} of the ${num(o.total)} matching facilities are drawn where the federal files locate them: ${num(byTier('anchored'))} anchored (blue circles) and ${num(byTier('unmatched'))} unmatched (vermillion squares).`,
    unlocated > 0
      ? `${num(unlocated)} have no coordinates (Ontario's registry gives none, nor do linear facilities such as pipelines) and are in the results table only.`
      : '',
    capped ? `Only the first ${num(MAP_MAX)} matches in the search's order are drawn.` : '',
    'Point at a facility to see its name, select it to open its record; the list beside the map has the same facilities as links.',
  ]
    .filter(Boolean)
    .join(' ');

  const canvas = h('canvas', {
    width: MAP_WIDTH,
    height: fit.height,
    role: 'img',
    'aria-labelledby': 'map-title map-desc',
  });
  const tip = h('p', { class: 'map-tip', 'aria-hidden': 'true', hidden: true });
  const items = points.map((p, i) => {
    const mark = TIER_MARKS[p.result.tier];
    const show = () => setActive(i);
    const hide = () => setActive(undefined);
    return h(
      'li',
      { 'data-id': p.result.spine_id },
      h(
        'a',
        { href: o.hrefOf(p.result.spine_id), onfocus: show, onblur: hide, onmouseenter: show, onmouseleave: hide },
        p.result.name,
      ),
      h(
        'span',
        { class: 'map-list-meta' },
        ' ',
        h('span', { class: `mark ${mark.shape}`, style: `--mark:${mark.color}`, 'aria-hidden': 'true' }),
        `${p.result.city ?? 'no city'} · ${mark.label}`,
      ),
    );
  });
  let active: number | undefined;
  function setActive(i: number | undefined) {
    if (i === active) return;
    if (active !== undefined) items[active]?.classList.remove('active');
    active = i;
    if (i !== undefined) items[i]?.classList.add('active');
    drawMap(canvas, outline, points, i);
  }
  /** The point under the pointer: the nearest within reach, in canvas pixels. */
  function pointAt(event: MouseEvent): number | undefined {
    const box = canvas.getBoundingClientRect();
    if (box.width === 0) return undefined;
    const x = ((event.clientX - box.left) * canvas.width) / box.width;
    const y = ((event.clientY - box.top) * canvas.height) / box.height;
    let best: number | undefined;
    let bestDistance = HIT;
    points.forEach((p, i) => {
      const d = Math.hypot(p.x - x, p.y - y);
      if (d <= bestDistance) {
        best = i;
        bestDistance = d;
      }
    });
    return best;
  }
  canvas.addEventListener('mousemove', (event) => {
    const i = pointAt(event);
    setActive(i);
    canvas.style.cursor = i === undefined ? '' : 'pointer';
    const p = i === undefined ? undefined : points[i];
    if (!p) {
      tip.hidden = true;
      return;
    }
    tip.textContent = `${p.result.name} · ${p.result.city ?? 'no city'} · ${TIER_MARKS[p.result.tier].label}`;
    tip.style.left = `${(p.x / canvas.width) * 100}%`;
    tip.style.top = `${(p.y / canvas.height) * 100}%`;
    tip.hidden = false;
  });
  canvas.addEventListener('mouseleave', () => {
    setActive(undefined);
    tip.hidden = true;
  });
  canvas.addEventListener('click', (event) => {
    const p = points[pointAt(event) ?? -1];
    if (p) navigate(o.hrefOf(p.result.spine_id));
  });
  drawMap(canvas, outline, points, undefined);

  const figure = h(
    'figure',
    { class: 'map', id: 'map' },
    h(
      'figcaption',
      null,
      h('strong', { id: 'map-title' }, 'Map of the matching facilities'),
      ' ',
      h('span', { id: 'map-desc' }, description),
    ),
    h(
      'div',
      { class: 'map-body' },
      h(
        'div',
        { class: 'map-canvas' },
        h(
          'ul',
          { class: 'legend', 'aria-label': 'Legend' },
          ...(['anchored', 'unmatched'] as const).map((tier) => {
            const mark = TIER_MARKS[tier];
            return h(
              'li',
              null,
              h('span', { class: `mark ${mark.shape}`, style: `--mark:${mark.color}`, 'aria-hidden': 'true' }),
              `${mark.label}: ${num(byTier(tier))}`,
            );
          }),
        ),
        h('div', { class: 'map-plot' }, canvas, tip),
        h('p', { class: 'map-credit' }, 'Outline: Natural Earth (public domain).'),
      ),
      h(
        'div',
        { class: 'map-list-box' },
        h('h3', { id: 'map-list-title', class: 'map-list-title' }, `Facilities on the map (${num(points.length)})`),
        points.length
          ? h('ol', { class: 'map-list', 'aria-labelledby': 'map-list-title' }, ...items)
          : h('p', null, 'None of the matches has coordinates.'),
      ),
    ),
  );
  return h('section', { 'aria-labelledby': 'map-heading' }, h('h2', { id: 'map-heading' }, 'Map'), figure);
}
