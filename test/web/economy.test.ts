// The economy explorer in a real browser, on a demo build with the built-in demo upstream: the categories
// with their series, search with paging, a series' chart with the date range, units and frequency, a
// snapshot of the vintage archive against the latest data with its revised points, and the CSV, each
// checked against the API's own answers, by axe-core, and for its time to data.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Categories } from '../../contract/types/economy/categories.ts';
import type { ObservationsOfASeries } from '../../contract/types/economy/observations.ts';
import type { RevisionsBetweenTwoVintages as Revisions } from '../../contract/types/economy/revisions.ts';
import type { SeriesList } from '../../contract/types/economy/series-list.ts';
import { createEconomyService } from '../../server/economy/routes.ts';
import {
  type Browser,
  chromiumOrSkip,
  formatted,
  launchBrowser,
  openView,
  recordTimings,
  screenshot,
  seriousViolations,
  TIME_TO_DATA_MS,
  timeView,
  viewReady,
  warmUp,
} from '../helpers/browser.ts';
import { buildEconomyFixture } from '../helpers/economy.ts';
import { type Running, startService } from '../helpers/server.ts';

const chromiumPath = chromiumOrSkip();
const CPI = 'CPI_ALL_ITEMS';
/** The first pull's day, and the day of the pull the browser causes: two snapshots in the archive. */
const DAY1 = '2026-11-20';
const DAY2 = '2026-11-22';

describe.skipIf(!chromiumPath)('economy explorer in Chromium', () => {
  let built: Awaited<ReturnType<typeof buildEconomyFixture>>;
  let server: Running<unknown>;
  let browser: Browser;
  let page: Page;
  let now = new Date(`${DAY1}T12:00:00Z`);
  const timings: Record<string, number> = {};
  const api = async <T>(path: string) => {
    const res = await fetch(`${server.base}${path}`);
    return { body: (await res.json()) as T, res };
  };
  const value = (v: number) => formatted(v, 4);
  const expectAccessible = async (view: string) =>
    expect(await seriousViolations(page), `axe findings on the ${view} view`).toEqual([]);
  const show = (view = 'series') => timeView(page, view, () => page.click('form.series-form button[type="submit"]'));

  beforeAll(async () => {
    built = await buildEconomyFixture({ demo: true });
    server = await startService(
      createEconomyService({ stateDir: join(built.root.path, 'state'), env: {}, now: () => now }),
      built.outDir,
    );
    // A pull on the first day fills the archive; the browser's first look, two days on, pulls again.
    expect((await api(`/api/observations?series=${CPI}`)).res.status).toBe(200);
    now = new Date(`${DAY2}T12:00:00Z`);
    browser = await launchBrowser(chromiumPath!, server.base);
    page = browser.page;
    await warmUp(page, server.base);
  }, 120_000);

  afterAll(async () => {
    recordTimings('economy', timings);
    await browser?.close();
    await server?.close();
    await built?.root.remove();
  });

  it('lists the categories with their series, and searches with paging', async () => {
    timings.categories = await openView(page, `${server.base}/`, 'categories');
    const { body: categories } = await api<Categories>('/api/categories');
    const { body: series } = await api<SeriesList>('/api/series');
    for (const c of categories) {
      const section = page.locator(`section:has(h2#category-${c.slug})`);
      expect(await section.locator('h2').textContent()).toContain(c.name);
      expect(await section.locator('ul.series-list a').allTextContents()).toEqual(
        series.filter((s) => s.category === c.slug).map((s) => s.title),
      );
    }
    await expectAccessible('categories');
    await screenshot(page, 'economy-categories');

    await page.fill('input[type="search"]', 'canada');
    timings.search = await timeView(page, 'search', () => page.press('input[type="search"]', 'Enter'));
    const first = await api<SeriesList>('/api/series?q=canada&limit=25');
    expect(Number(first.res.headers.get('x-total-count'))).toBeGreaterThan(25);
    expect(await page.locator('ul.results a').allTextContents()).toEqual(first.body.map((s) => s.title));
    await timeView(page, 'search', () => page.locator('a[rel="next"]').first().click());
    const second = await api<SeriesList>('/api/series?q=canada&limit=25&offset=25');
    expect(await page.locator('ul.results a').allTextContents()).toEqual(second.body.map((s) => s.title));
    await expectAccessible('search');

    await page.fill('input[type="search"]', 'zzqx');
    await timeView(page, 'search', () => page.press('input[type="search"]', 'Enter'));
    expect(await page.locator('.empty').textContent()).toContain('No series matches');
  });

  it("draws a series with its latest value, and CPI's year-over-year change in 2024 as the API computes it", async () => {
    await openView(page, `${server.base}/#/search?q=${encodeURIComponent('consumer price index all-items')}`, 'search');
    const { body: detail } = await api<{ title: string }>(`/api/series/${CPI}`);
    timings.series = await timeView(page, 'series', () =>
      page.locator('ul.results a', { hasText: detail.title }).first().click(),
    );
    expect(await page.locator('h1').textContent()).toBe(detail.title);
    const { body: latest } = await api<ObservationsOfASeries>(`/api/observations?series=${CPI}`);
    const last = latest.observations[latest.observations.length - 1]!;
    const cards = await page.locator('.cards').textContent();
    expect(cards).toContain(value(last.value!));
    expect(cards).toContain(last.date);
    expect(await page.locator('figure.chart canvas').count()).toBe(1);
    await expectAccessible('series');

    // Percent change from a year ago, over 2024, monthly then as the annual average.
    await page.selectOption('select[name="units"]', 'pc1');
    await page.fill('input[name="from"]', '2024-01-01');
    await page.fill('input[name="to"]', '2024-12-31');
    await show();
    expect(page.url()).toContain('units=pc1');
    const { body: yoy } = await api<ObservationsOfASeries>(
      `/api/observations?series=${CPI}&units=pc1&from=2024-01-01&to=2024-12-31`,
    );
    expect(yoy.observations.length).toBe(12);
    const figure = page.locator('figure.chart');
    await figure.locator('summary').click();
    const rows = await figure.locator('table tbody tr').allTextContents();
    expect(rows.length).toBe(12);
    for (const o of yoy.observations) expect(rows).toContain(`${o.date}${value(o.value!)}`);
    expect(await page.locator('.cards').textContent()).toContain(value(yoy.observations[11]!.value!));
    await screenshot(page, 'economy', true);

    await page.selectOption('select[name="frequency"]', 'a');
    await show();
    const { body: annual } = await api<ObservationsOfASeries>(
      `/api/observations?series=${CPI}&units=pc1&frequency=a&aggregation_method=avg&from=2024-01-01&to=2024-12-31`,
    );
    expect(annual.observations).toEqual([{ date: '2024-01-01', value: expect.any(Number) }]);
    expect(await page.locator('.cards').textContent()).toContain(value(annual.observations[0]!.value!));

    // The CSV is what the API answers for the same choices.
    const csvHref = await page.locator('a', { hasText: 'Download CSV' }).getAttribute('href');
    const csv = await fetch(new URL(csvHref!, `${server.base}/`));
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(await csv.text()).toBe(
      await (
        await fetch(
          `${server.base}/api/observations?series=${CPI}&units=pc1&frequency=a&aggregation_method=avg&from=2024-01-01&to=2024-12-31&format=csv`,
        )
      ).text(),
    );

    // Back to the monthly choice, forward to the annual one.
    await timeView(page, 'series', () => page.goBack());
    expect(await page.locator('select[name="frequency"]').inputValue()).toBe('');
    await timeView(page, 'series', () => page.goForward());
    expect(await page.locator('select[name="frequency"]').inputValue()).toBe('a');
    timings.series_direct = await openView(page, page.url(), 'series');
  });

  it('draws a snapshot of the archive against the latest data and lists the revised points', async () => {
    await openView(page, `${server.base}/#/series/${CPI}`, 'series');
    const { body: vintages } = await api<{ snapshots: string[] }>(`/api/vintages?series=${CPI}`);
    expect(vintages.snapshots).toEqual([DAY1, DAY2]);
    await page.selectOption('select[name="vintage"]', DAY1);
    timings.vintage = await show();
    expect(page.url()).toContain(`vintage=${DAY1}`);
    expect(await page.locator('.legend').textContent()).toContain(`Snapshot of ${DAY1}`);
    const { body: rev } = await api<Revisions>(`/api/revisions?series=${CPI}&from=${DAY1}&to=${DAY2}`);
    const changed = [
      ...rev.changes.map((c) => c.date),
      ...rev.added.map((a) => a.date),
      ...rev.removed.map((r) => r.date),
    ];
    expect(changed.length).toBeGreaterThan(0);
    const listed = await page.locator('table.revisions tbody th').allTextContents();
    expect(listed).toEqual(changed.sort());
    for (const c of rev.changes) {
      const row = await page.locator(`table.revisions tbody tr:has(th:text-is("${c.date}"))`).textContent();
      expect(row).toContain(value(c.before));
      expect(row).toContain(value(c.after));
    }
    await expectAccessible('vintage');
    await screenshot(page, 'economy-vintage');
  });

  it('shows the data as known on a past day, and each date as first published against it', async () => {
    await openView(page, `${server.base}/#/series/${CPI}`, 'series');
    const asOf = page.locator('input[name="asof"]');
    expect(await asOf.getAttribute('min')).toBe(DAY1);
    await asOf.fill(DAY1);
    await page.check('input[name="first"]');
    timings.as_known = await show();
    expect(page.url()).toContain(`asof=${DAY1}`);
    expect(page.url()).toContain('first=1');
    const legend = await page.locator('.legend').textContent();
    expect(legend).toContain(`As known on ${DAY1}`);
    expect(legend).toContain('First release');
    // The newest month as known on DAY1 is the API's, and its first release is the DAY1 value too.
    const { body: known } = await api<ObservationsOfASeries>(`/api/observations?series=${CPI}&realtime_end=${DAY1}`);
    const { body: first } = await api<ObservationsOfASeries>(
      `/api/observations?series=${CPI}&output_type=4&realtime_end=9999-12-31`,
    );
    const newest = known.observations.at(-1)!;
    expect(await page.locator('.cards').textContent()).toContain(value(newest.value!));
    const figure = page.locator('figure.chart');
    await figure.locator('summary').click();
    expect(await figure.locator('table thead th').allTextContents()).toEqual([
      'Date',
      `Known on ${DAY1}`,
      'First release',
    ]);
    const firstOf = new Map(first.observations.map((o) => [o.date, o.value]));
    const row = await figure.locator(`table tbody tr:has(th:text-is("${newest.date}"))`).textContent();
    expect(row).toContain(value(firstOf.get(newest.date)!));
    // A transform has no first release: the choice is off, and says why.
    await page.selectOption('select[name="units"]', 'pch');
    await show();
    expect(await page.locator('input[name="first"]').isDisabled()).toBe(true);
    await expectAccessible('as-known');
  });

  it('shows what changed: the one build of a new history, with nothing to compare it with', async () => {
    timings.changes = await openView(page, `${server.base}/#/changes`, 'changes');
    const rows = page.locator('table.builds tbody tr');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().locator('td').last().textContent()).toBe('Demo data (first build of the history)');
    await expectAccessible('changes');
    await timeView(page, 'changes-build', () => page.click(`text=${built.summary.data_version}`));
    expect(await page.locator('p.lede').textContent()).toBe(
      'The first build of the history: nothing to compare it with.',
    );
    expect(await page.locator('p.empty').textContent()).toBe('Nothing changed in this build.');
    await expectAccessible('changes-build');
  });

  it('says what to do about an unknown series', async () => {
    await openView(page, `${server.base}/#/series/NOPE`, 'series');
    const alert = page.locator('[role="alert"]');
    expect(await alert.getAttribute('data-status')).toBe('404');
    expect(await alert.textContent()).toContain('What to do');
    await expectAccessible('error');
    await viewReady(page);
  });

  it('showed every view within the time to data, loaded nothing from elsewhere, threw nothing', () => {
    for (const [view, ms] of Object.entries(timings)) expect(ms, view).toBeLessThan(TIME_TO_DATA_MS);
    expect(browser.errors).toEqual([]);
  });
});
