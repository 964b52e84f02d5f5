// The facilities search's map and facets in a real browser, on a demo build served as npm start serves it:
// every match drawn on Ontario's outline at the pixel the projection gives, in its tier's colour; the list
// beside the map used by keyboard alone; a point hovered and clicked; each facet value narrowing the results
// to the count the API gave it, and removed again; axe-core finding nothing; no request leaving the origin.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MapBoundary } from '../../contract/types/facilities/boundary.ts';
import type { SearchResults } from '../../contract/types/facilities/search.ts';
import { buildFacilities } from '../../pipeline/facilities/index.ts';
import { writeDemo } from '../../pipeline/services.ts';
import { facilities } from '../../server/facilities/routes.ts';
import {
  BOUNDARY_URL,
  fitWidth,
  MAP_PADDING,
  MAP_WIDTH,
  type MapFit,
  outlinePositions,
} from '../../web/facilities/projection.ts';
import {
  type Browser,
  chromiumOrSkip,
  formatted,
  launchBrowser,
  openView,
  screenshot,
  seriousViolations,
  timeView,
  warmUp,
} from '../helpers/browser.ts';
import { PINNED_CLOCK } from '../helpers/facilities.ts';
import { type Running, startService, tempDir } from '../helpers/server.ts';

const chromiumPath = chromiumOrSkip();
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

type Result = SearchResults['results'][number];
const FACETS = 'facets=tier,program,naics2,city,flags';
const rgb = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));

describe.skipIf(!chromiumPath)('facilities map and facets in Chromium', () => {
  let root: Awaited<ReturnType<typeof tempDir>>;
  let server: Running<unknown>;
  let browser: Browser;
  let page: Page;
  let fit: MapFit;
  const api = async <T>(path: string): Promise<T> => (await fetch(`${server.base}${path}`)).json() as Promise<T>;
  const listed = () => page.locator('ol.map-list li a').allTextContents();
  const resultLinks = () => page.locator('table.results tbody a').allTextContents();
  /** Every match of a query, in its order, as the map reads them (the demo has fewer than 200). */
  const allMatches = async (q = '') => {
    const body = await api<SearchResults>(`/api/v1/search?limit=200${q ? `&${q}` : ''}`);
    expect(body.total).toBeLessThanOrEqual(200);
    return body;
  };
  const located = (results: readonly Result[]) => results.filter((r) => r.coordinates !== null);
  const distance = (a: readonly number[], b: readonly number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!);
  /** Each located match with its pixel on the canvas, in the search's order. */
  const projected = (results: readonly Result[]) =>
    results.map((r) => ({ r, xy: fit.toPixel(r.coordinates!.longitude, r.coordinates!.latitude) }));
  /** The marks whose centre no mark drawn after them covers (marks are about 15 pixels across). */
  const uncovered = (at: ReturnType<typeof projected>) =>
    at.filter((a, i) => at.slice(0, i).every((o) => distance(o.xy, a.xy) > 12));
  /** The canvas's pixel (its own pixels, not CSS ones) as [r, g, b, a]. */
  const pixel = (x: number, y: number) =>
    page.evaluate(
      ([px, py]) => {
        const canvas = document.querySelector<HTMLCanvasElement>('figure.map canvas')!;
        return [...canvas.getContext('2d')!.getImageData(px!, py!, 1, 1).data];
      },
      [Math.round(x), Math.round(y)],
    );
  /** axe-core's findings of any impact within the map and the facets (the rest of the page: serious ones). */
  const violationsIn = async (selectors: string[]) => {
    await page.evaluate(axeSource);
    return page.evaluate(async (include) => {
      const axe = (globalThis as unknown as { axe: { run(c: unknown): Promise<{ violations: unknown[] }> } }).axe;
      const found = (await axe.run({ include: include.map((s) => [s]) })).violations as {
        id: string;
        impact: string;
        nodes: { target: string[] }[];
      }[];
      return found.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    }, selectors);
  };
  const expectAccessible = async (view: string) => {
    expect(await seriousViolations(page), `axe findings on the ${view}`).toEqual([]);
    expect(await violationsIn(['section[aria-labelledby="map-heading"]', 'aside.facets']), view).toEqual([]);
  };

  beforeAll(async () => {
    root = await tempDir('web-facilities-map');
    const input = join(root.path, 'input');
    await writeDemo('facilities', input);
    await buildFacilities({ input, outDir: join(root.path, 'dist-data'), now: PINNED_CLOCK });
    server = await startService(facilities, join(root.path, 'dist-data'));
    browser = await launchBrowser(chromiumPath!, server.base);
    page = browser.page;
    await warmUp(page, server.base);
    const boundary = await api<MapBoundary>(`/${BOUNDARY_URL}`);
    fit = fitWidth(outlinePositions(boundary), MAP_WIDTH, MAP_PADDING);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await root?.remove();
  });

  it("draws every match on Ontario's outline at the projection's pixel, in its tier's colour, and lists them beside it", async () => {
    await openView(page, `${server.base}/`, 'search');
    const all = await allMatches();
    const onMap = located(all.results);
    expect(onMap.length).toBeGreaterThan(50);
    expect(onMap.length).toBeLessThan(all.total);
    const canvas = page.locator('figure.map canvas');
    expect(await canvas.getAttribute('width')).toBe(String(MAP_WIDTH));
    expect(await canvas.getAttribute('height')).toBe(String(fit.height));

    // The facilities no later mark covers (the search's first matches are drawn last, on top): each is drawn
    // in its tier's colour at the pixel the projection gives, both tiers among them.
    const at = projected(onMap);
    const isolated = uncovered(at);
    expect(isolated.length).toBeGreaterThan(20);
    const tiers = new Set(isolated.map(({ r }) => r.tier));
    expect([...tiers].sort()).toEqual(['anchored', 'unmatched']);
    // Each tier's colour and shape as the legend shows them: two colours, two shapes.
    const legend = await page.locator('figure.map ul.legend li').evaluateAll((lis) =>
      lis.map((li) => {
        const mark = li.querySelector<HTMLElement>('.mark')!;
        return { text: li.textContent ?? '', color: mark.style.getPropertyValue('--mark'), shape: mark.className };
      }),
    );
    const colorOf = (tier: string) => legend.find((l) => l.text.toLowerCase().startsWith(tier))!.color;
    expect(new Set(legend.map((l) => l.color)).size).toBe(2);
    expect(new Set(legend.map((l) => l.shape)).size).toBe(2);
    for (const { r, xy } of isolated) {
      expect(await pixel(...xy), `${r.name} at ${xy.map(Math.round)}`).toEqual([...rgb(colorOf(r.tier)), 255]);
    }
    // Land where no facility is (the Hudson Bay lowlands), nothing outside the outline (the canvas's corner).
    const north = fit.toPixel(-86, 54);
    expect(at.every(({ xy }) => distance(xy, north) > 20)).toBe(true);
    expect(await pixel(...north)).toEqual([...rgb('#eef1f4'), 255]);
    expect((await pixel(1, 1))[3]).toBe(0);

    // The text alternative says what is drawn; the legend counts each tier; the list has the same facilities.
    const label = await page.evaluate(() => {
      const c = document.querySelector('figure.map canvas')!;
      return c
        .getAttribute('aria-labelledby')!
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' ');
    });
    expect(await canvas.getAttribute('role')).toBe('img');
    expect(label).toContain(`${onMap.length} of the ${all.total} matching facilities`);
    const anchored = onMap.filter((r) => r.tier === 'anchored').length;
    expect(await page.locator('figure.map ul.legend').textContent()).toContain(`Anchored (linked): ${anchored}`);
    expect(await listed()).toEqual(onMap.map((r) => r.name));
    const hrefs = await page.locator('ol.map-list li a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(onMap.map((r) => `#/facility/${r.spine_id}`));
    await expectAccessible('search view with its map');
    await screenshot(page, 'facilities-map');
  });

  it('names the point under the pointer and opens its record when clicked', async () => {
    await openView(page, `${server.base}/`, 'search');
    const onMap = located((await allMatches()).results);
    // A facility with no other match within reach of the pointer.
    const at = projected(onMap);
    const target = at.find(({ r, xy }) => at.every((o) => o.r === r || distance(o.xy, xy) > 30))!;
    const canvas = page.locator('figure.map canvas');
    await canvas.scrollIntoViewIfNeeded();
    const box = (await canvas.boundingBox())!;
    const [x, y] = [box.x + (target.xy[0] * box.width) / MAP_WIDTH, box.y + (target.xy[1] * box.height) / fit.height];
    await page.mouse.move(x, y);
    const tip = page.locator('.map-tip');
    expect(await tip.isVisible()).toBe(true);
    expect(await tip.textContent()).toContain(target.r.name);
    expect(await page.locator('ol.map-list li.active a').textContent()).toBe(target.r.name);
    await timeView(page, 'facility', () => page.mouse.click(x, y));
    expect(page.url()).toContain(`#/facility/${target.r.spine_id}`);
    await expect(page.locator('h1').textContent()).resolves.toBe(target.r.name);
  });

  it('is usable by keyboard: Tab reaches the list, focus marks the facility on the map, Enter opens its record', async () => {
    await openView(page, `${server.base}/`, 'search');
    const onMap = located((await allMatches()).results);
    // From the last link before the map (the facets' last), Tab enters the map's list: the canvas takes no stop.
    await page.locator('aside.facets a').last().focus();
    await page.keyboard.press('Tab');
    const focused = () => page.evaluate(() => document.activeElement?.textContent ?? '');
    expect(await focused()).toBe(onMap[0]!.name);
    expect(await page.locator('ol.map-list li.active a').textContent()).toBe(onMap[0]!.name);
    // The focused facility's mark gets a dark ring around it.
    const [x, y] = fit.toPixel(onMap[0]!.coordinates!.longitude, onMap[0]!.coordinates!.latitude);
    const ring = await pixel(x, y - 12);
    expect(Math.max(ring[0]!, ring[1]!, ring[2]!), `ring pixel ${ring}`).toBeLessThan(90);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe(onMap[1]!.name);
    expect(await page.locator('ol.map-list li.active').count()).toBe(1);
    await timeView(page, 'facility', () => page.keyboard.press('Enter'));
    await expect(page.locator('h1').textContent()).resolves.toBe(onMap[1]!.name);
  });

  it("narrows the results with a facet value to the API's count, combines two, and removes one again", async () => {
    await openView(page, `${server.base}/`, 'search');
    const first = await api<SearchResults>(`/api/v1/search?${FACETS}`);
    const unmatched = first.facets!.tier!.results.find((v) => v.value === 'unmatched')!;
    expect(unmatched.count).toBeGreaterThan(0);
    expect(await page.locator('a[data-facet="tier"][data-value="unmatched"] .count').textContent()).toBe(
      formatted(unmatched.count, 0),
    );

    await timeView(page, 'search', () => page.click('a[data-facet="tier"][data-value="unmatched"]'));
    expect(page.url()).toContain('tier=unmatched');
    expect(await page.locator('.pager').first().textContent()).toContain(`of ${unmatched.count} facilities`);
    const byTier = await allMatches('tier=unmatched');
    expect(byTier.total).toBe(unmatched.count);
    expect(await resultLinks()).toEqual(byTier.results.slice(0, 50).map((r) => r.name));
    // The map follows the filter: the unmatched facilities with coordinates, and no other.
    expect(await listed()).toEqual(located(byTier.results).map((r) => r.name));
    expect(await page.locator('a[data-facet="tier"][aria-current="true"]').getAttribute('data-value')).toBe(
      'unmatched',
    );
    expect(await page.locator('section.in-use').textContent()).toContain('Tier: Unmatched');
    await expectAccessible('search view with a facet selected');

    // A second facet's value, counted within the first: the sector with the most unmatched facilities.
    const within = await api<SearchResults>(`/api/v1/search?tier=unmatched&${FACETS}`);
    const sector = within.facets!.naics2!.results[0]!;
    await timeView(page, 'search', () => page.click(`a[data-facet="naics2"][data-value="${sector.value}"]`));
    expect(page.url()).toContain(`naics=${sector.value}`);
    expect(await page.locator('.pager').first().textContent()).toContain(`of ${sector.count} facilities`);
    expect(await page.locator('a[data-facet="naics2"][aria-current="true"] .facet-label').textContent()).toBe(
      sector.label,
    );

    // The selected tier, clicked again, is removed: the sector alone, as the API counts it.
    await timeView(page, 'search', () => page.click('a[data-facet="tier"][aria-current="true"]'));
    expect(page.url()).not.toContain('tier=');
    const bySector = await allMatches(`naics=${sector.value}`);
    expect(await page.locator('.pager').first().textContent()).toContain(`of ${bySector.total} facilities`);
    expect(bySector.total).toBeGreaterThan(sector.count);
    // And from the filters in use: nothing left, every facility again.
    await timeView(page, 'search', () => page.click('a[data-remove="naics"]'));
    expect(await page.locator('.pager').first().textContent()).toContain(`of ${first.total} facilities`);
    await screenshot(page, 'facilities-facets');
  });

  it('orders by the sort chosen in the form and filters by the new fields as the API does', async () => {
    await openView(page, `${server.base}/`, 'search');
    await page.selectOption('select[name="sort"]', 'name');
    await page.selectOption('select[name="flag"]', 'methane');
    await timeView(page, 'search', () => page.click('form[role="search"] button[type="submit"]'));
    expect(page.url()).toContain('sort=name');
    const byName = await api<SearchResults>('/api/v1/search?sort=name&flag=methane');
    expect(byName.total).toBeGreaterThan(0);
    expect(await resultLinks()).toEqual(byName.results.map((r) => r.name));
    const names = byName.results.map((r) => r.name.toLowerCase());
    expect(names).toEqual([...names].sort());

    const floor = byName.results[0]!.emissions ?? 0;
    await page.fill('input[name="min_emissions"]', String(Math.floor(floor)));
    await timeView(page, 'search', () => page.click('form[role="search"] button[type="submit"]'));
    const atLeast = await api<SearchResults>(
      `/api/v1/search?sort=name&flag=methane&min_emissions=${Math.floor(floor)}`,
    );
    expect(await resultLinks()).toEqual(atLeast.results.map((r) => r.name));
    expect(await page.locator('section.in-use').textContent()).toContain('Flag: Methane');
  });

  it('still searches when the outline cannot load, and says so where the map would be', async () => {
    await page.route('**/maps/ontario.geojson', (route) =>
      route.fulfill({ status: 404, contentType: 'application/problem+json', body: '{"status":404}' }),
    );
    try {
      await openView(page, `${server.base}/`, 'search');
      const all = await api<SearchResults>('/api/v1/search');
      expect(await resultLinks()).toEqual(all.results.map((r) => r.name));
      expect(await page.locator('figure.map').count()).toBe(0);
      expect(await page.locator('p.notice').textContent()).toContain("could not load Ontario's outline");
    } finally {
      await page.unroute('**/maps/ontario.geojson');
    }
  });

  it('loaded nothing from elsewhere and threw nothing', () => {
    expect(browser.errors).toEqual([]);
  });
});
