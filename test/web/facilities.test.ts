// The facilities explorer in a real browser, on a demo build served as npm start serves it: search with the
// filters and paging, a facility's totals and chart, the statistics, back and forward, keyboard use, each
// view checked against the API's own answers, by axe-core, and for its time to data.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { buildFacilities } from '../../pipeline/facilities/index.ts';
import { writeDemo } from '../../pipeline/services.ts';
import { facilities } from '../../server/facilities/routes.ts';
import type { FacilityRecord } from '../../contract/types/facilities/record.ts';
import type { SearchResults } from '../../contract/types/facilities/search.ts';
import type { Stats } from '../../contract/types/facilities/stats.ts';
import type { ChangesIndex } from '../../contract/core/changes.ts';
import type { Changes } from '../../contract/types/core/changes.ts';
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
import { PINNED_CLOCK } from '../helpers/facilities.ts';
import { type Running, startService, tempDir } from '../helpers/server.ts';

const chromiumPath = chromiumOrSkip();

const tonnes = (v: number | null) => (v === null ? '–' : `${formatted(v, 1)} t`);

describe.skipIf(!chromiumPath)('facilities explorer in Chromium', () => {
  let root: Awaited<ReturnType<typeof tempDir>>;
  let server: Running<unknown>;
  let browser: Browser;
  let page: Page;
  const timings: Record<string, number> = {};
  const api = async <T>(path: string): Promise<T> => (await fetch(`${server.base}${path}`)).json() as Promise<T>;
  const links = () => page.locator('table.results tbody a').allTextContents();
  const expectAccessible = async (view: string) =>
    expect(await seriousViolations(page), `axe findings on the ${view} view`).toEqual([]);

  beforeAll(async () => {
    root = await tempDir('web-facilities');
    const input = join(root.path, 'input');
    // Two demo editions built in a row, as npm start builds them: a change history to show.
    await writeDemo('facilities', input);
    await buildFacilities({ input, outDir: join(root.path, 'dist-data'), now: PINNED_CLOCK });
    await writeDemo('facilities', input, { edition: 2 });
    await buildFacilities({ input, outDir: join(root.path, 'dist-data'), now: () => new Date('2026-02-02T03:04:05Z') });
    server = await startService(facilities, join(root.path, 'dist-data'));
    browser = await launchBrowser(chromiumPath!, server.base);
    page = browser.page;
    await warmUp(page, server.base);
  }, 120_000);

  afterAll(async () => {
    recordTimings('facilities', timings);
    await browser?.close();
    await server?.close();
    await root?.remove();
  });

  it('searches with the filters and pages as the API ranks, and back and forward return', async () => {
    timings.search = await openView(page, `${server.base}/`, 'search');
    const all = await api<SearchResults>('/api/v1/search');
    expect(await links()).toEqual(all.results.map((r) => r.name));
    await expect(page.locator('.pager').first().textContent()).resolves.toContain(`of ${all.total} facilities`);
    await expectAccessible('search');
    await screenshot(page, 'facilities-search');

    // A word of the second facility's name, typed into the search box as a person would.
    const word = all.results[1]!.name.split(' ')[0]!;
    const byName = await api<SearchResults>(`/api/v1/search?q=${encodeURIComponent(word)}`);
    await page.fill('input[type="search"]', word);
    await timeView(page, 'search', () => page.press('input[type="search"]', 'Enter'));
    expect(page.url()).toContain(`q=${encodeURIComponent(word)}`);
    expect(await links()).toEqual(byName.results.map((r) => r.name));

    // Program filter and NAICS prefix together, as the API combines them.
    await page.fill('input[type="search"]', '');
    await page.selectOption('select[name="program"]', 'both');
    await page.fill('input[name="naics"]', '32');
    await timeView(page, 'search', () => page.click('form[role="search"] button[type="submit"]'));
    const filtered = await api<SearchResults>('/api/v1/search?program=both&naics=32');
    expect(filtered.total).toBeGreaterThan(0);
    expect(await links()).toEqual(filtered.results.map((r) => r.name));
    // A city and a tier that match nothing say so.
    await page.fill('input[name="city"]', 'Nowhere Such');
    await timeView(page, 'search', () => page.click('form[role="search"] button[type="submit"]'));
    await expect(page.locator('.empty').textContent()).resolves.toContain('No facility matches these filters');

    // Back: the filtered results again, the form filled as they were asked.
    await timeView(page, 'search', () => page.goBack());
    expect(await links()).toEqual(filtered.results.map((r) => r.name));
    expect(await page.inputValue('input[name="naics"]')).toBe('32');
    await timeView(page, 'search', () => page.goForward());
    expect(await page.locator('.empty').count()).toBe(1);

    // Paging: 20 a page, the second page is the API's offset 20.
    await openView(page, `${server.base}/#/search?limit=20`, 'search');
    await timeView(page, 'search', () => page.locator('a[rel="next"]').first().click());
    const second = await api<SearchResults>('/api/v1/search?limit=20&offset=20');
    expect(page.url()).toContain('offset=20');
    expect(await links()).toEqual(second.results.map((r) => r.name));
  });

  it("shows a facility's comparison-year totals, delta, chart, flags and JSON record as the API has them", async () => {
    const stats = await api<Stats>('/api/v1/stats');
    // The largest disagreement is over 10 %: its anomaly flag has a reason to show.
    const id = stats.agreement.largest[0]!.spine_id;
    const record = await api<FacilityRecord>(`/api/v1/facility/${id}`);
    await openView(page, `${server.base}/`, 'search');
    await page.fill('input[type="search"]', record.name);
    await timeView(page, 'search', () => page.press('input[type="search"]', 'Enter'));
    timings.facility = await timeView(page, 'facility', () =>
      page.locator('table.results a', { hasText: record.name }).first().click(),
    );
    expect(page.url()).toContain(`#/facility/${id}`);
    await expect(page.locator('h1').textContent()).resolves.toBe(record.name);
    const totals = await page.locator('.cards.totals').textContent();
    expect(totals).toContain(tonnes(record.totals.ontario));
    expect(totals).toContain(tonnes(record.totals.federal));
    expect(totals).toContain(tonnes(record.delta!.tonnes));
    expect(totals).toContain(`${formatted(record.delta!.pct, 2)} %`);
    expect(await page.locator('h2', { hasText: `Comparison year ${record.totals.year}` }).count()).toBe(1);
    // Why the totals differ: the record's delta_parts, each part and the reasons behind it.
    const parts = record.delta_parts!;
    const why = await page.locator('h3:text-is("Why the totals differ") + dl').textContent();
    for (const v of [parts.global_warming_potentials, parts.unexplained, parts.tonnes])
      expect(why).toContain(tonnes(v));
    for (const reason of parts.reasons) expect(await page.locator('ul.delta-reasons').textContent()).toContain(reason);

    // The chart: a canvas, and its figures as a table a keyboard opens.
    const figure = page.locator('figure.chart').first();
    expect(await figure.locator('canvas').count()).toBeGreaterThan(0);
    await figure.locator('summary').focus();
    await page.keyboard.press('Enter');
    expect(await figure.locator('table tbody tr').count()).toBe(record.series.length);
    const lastYear = record.series[record.series.length - 1]!;
    await expect(figure.locator('table tbody tr').last().textContent()).resolves.toContain(String(lastYear.year));

    expect(record.flags.reasons.length).toBeGreaterThan(0);
    for (const reason of record.flags.reasons) expect(await page.locator('ul.reasons').textContent()).toContain(reason);
    const json = await page.locator('a', { hasText: 'The JSON record' }).getAttribute('href');
    expect(await (await fetch(new URL(json!, `${server.base}/`))).json()).toEqual(record);
    await expectAccessible('facility');
    await screenshot(page, 'facilities', true);

    // Back to the search it came from, forward to the facility again.
    await timeView(page, 'search', () => page.goBack());
    expect(await page.inputValue('input[type="search"]')).toBe(record.name);
    await timeView(page, 'facility', () => page.goForward());
    await expect(page.locator('h1').textContent()).resolves.toBe(record.name);

    // Opened directly, the same view.
    timings.facility_direct = await openView(page, `${server.base}/#/facility/${id}`, 'facility');
    await expect(page.locator('h1').textContent()).resolves.toBe(record.name);
  });

  it('shows the statistics as charts with their tables, and the downloads', async () => {
    await openView(page, `${server.base}/`, 'search');
    timings.stats = await timeView(page, 'stats', () => page.click('nav a:text-is("Statistics")'));
    const stats = await api<Stats>('/api/v1/stats');
    expect(await page.locator('figure.chart canvas').count()).toBe(3);
    const [funnel, top, agreement] = await page.locator('figure.chart').all();
    expect(await funnel!.locator('table tbody tr').count()).toBe(stats.funnel.length);
    expect(await top!.locator('table tbody a').allTextContents()).toEqual(stats.top_emitters.map((t) => t.name));
    expect(await agreement!.locator('table tbody tr').first().textContent()).toContain(
      String(stats.agreement.within_1pct),
    );
    for (const path of ['spine.csv', 'spine.geojson', 'emissions.csv', 'facilities.sqlite']) {
      const href = await page.locator(`a[href$="${path}"]`).first().getAttribute('href');
      expect((await fetch(new URL(href!, `${server.base}/`))).status).toBe(200);
    }
    await expectAccessible('stats');
    await screenshot(page, 'facilities-stats');
    timings.stats_direct = await openView(page, `${server.base}/#/stats`, 'stats');
  });

  it('is usable by keyboard alone: search, open a result', async () => {
    await openView(page, `${server.base}/`, 'search');
    const all = await api<SearchResults>('/api/v1/search?limit=1');
    await page.locator('input[type="search"]').focus();
    await page.keyboard.type(all.results[0]!.name);
    await page.keyboard.press('Enter');
    await viewReady(page, 'search');
    // Tab from the page's heading to the first result, then Enter.
    let focused = '';
    for (let i = 0; i < 30 && !focused.startsWith('#/facility/'); i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.getAttribute('href') ?? '');
    }
    expect(focused).toBe(`#/facility/${all.results[0]!.spine_id}`);
    await timeView(page, 'facility', () => page.keyboard.press('Enter'));
    await expect(page.locator('h1').textContent()).resolves.toBe(all.results[0]!.name);
  });

  it('shows what changed: the builds with their counts, one build’s changes by notable word, a facility’s history', async () => {
    timings.changes = await openView(page, `${server.base}/#/changes`, 'changes');
    const index = await api<ChangesIndex>('/changes/index.json');
    const rows = page.locator('table.builds tbody tr');
    expect(await rows.count()).toBe(index.builds.length);
    const newest = index.builds[0]!;
    expect(await rows.first().locator('td').allTextContents()).toEqual([
      newest.data_version,
      '2026-02-02 03:04',
      String(newest.counts.added),
      String(newest.counts.removed),
      String(newest.counts.changed),
      'Demo data',
    ]);
    await expectAccessible('changes');
    await screenshot(page, 'facilities-changes');

    timings['changes-build'] = await timeView(page, 'changes-build', () => page.click(`text=${newest.data_version}`));
    const changes = await api<Changes>(`/api/v1/changes?since=${newest.previous}`);
    const names = () => page.locator('table.changes tbody tr td:first-child a').allTextContents();
    expect(await names()).toEqual(changes.results.map((c) => c.name));
    await page.selectOption('select[name="notable"]', 'total_revised');
    await timeView(page, 'changes-build', () => page.click('button:text-is("Show")'));
    const revised = changes.results.filter((c) => c.notable.includes('total_revised'));
    expect(revised.length).toBeGreaterThan(0);
    expect(await names()).toEqual(revised.map((c) => c.name));
    await expectAccessible('changes-build');

    // The first revised facility's own view lists the change, linked to its build.
    await timeView(page, 'facility', () => page.click(`table.changes a:text-is("${revised[0]!.name}")`));
    const history = page.locator('table.history tbody tr');
    expect(await history.count()).toBe(1);
    expect(await history.locator('td').first().textContent()).toBe(newest.data_version);
    expect(await history.locator('td ul.fields').textContent()).toContain(revised[0]!.fields[0]!.path);
  });

  it('says what to do about an unknown facility', async () => {
    await openView(page, `${server.base}/#/facility/ONF-999999`, 'facility');
    const alert = page.locator('[role="alert"]');
    expect(await alert.textContent()).toContain('Not found');
    expect(await alert.textContent()).toContain('What to do');
    await expectAccessible('error');
  });

  it('showed every view within the time to data, loaded nothing from elsewhere, threw nothing', () => {
    for (const [view, ms] of Object.entries(timings)) expect(ms, view).toBeLessThan(TIME_TO_DATA_MS);
    expect(browser.errors).toEqual([]);
  });
});
