// The carriers explorer in a real browser, on a demo build: public search by name, number and state with
// paging; a profile behind sign-in (a key kept for the tab only), its percentiles, worst category, top
// risks, rates and allowance checked against the API; what a wrong key, a free key on a premium button and
// a spent allowance show; the premium summary and export.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { buildCarriers } from '../../pipeline/carriers/index.ts';
import { writeDemo } from '../../pipeline/services.ts';
import type { CarrierProfile } from '../../contract/types/carriers/profile.ts';
import type { CarrierSearchResults } from '../../contract/types/carriers/search.ts';
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
import { serveCarriers } from '../helpers/carriers.ts';
import { PINNED_CLOCK } from '../helpers/facilities.ts';
import { tempDir } from '../helpers/server.ts';

const chromiumPath = chromiumOrSkip();
const FREE_LOOKUPS = 25;
const NOW = new Date('2026-11-22T00:00:00Z');

describe.skipIf(!chromiumPath)('carriers explorer in Chromium', () => {
  let root: Awaited<ReturnType<typeof tempDir>>;
  let server: Awaited<ReturnType<typeof serveCarriers>>;
  let browser: Browser;
  let page: Page;
  let free = '';
  let premium = '';
  /** A carrier with an alert in some category, and its profile as the API gives it. */
  let target: CarrierProfile;
  /** A carrier with a docket that may not operate (revoked, uninsured or under an order). */
  let refused: CarrierSearchResults['results'][number];
  const timings: Record<string, number> = {};
  const api = async <T>(path: string, key?: string) => {
    const res = await fetch(`${server.base}${path}`, { headers: key ? { Authorization: `Bearer ${key}` } : {} });
    return { body: (await res.json()) as T, res };
  };
  const links = () => page.locator('table.results tbody a').allTextContents();
  const expectAccessible = async (view: string) =>
    expect(await seriousViolations(page), `axe findings on the ${view} view`).toEqual([]);
  const signIn = async (key: string) => {
    await page.fill('input[type="password"][name="api_key"]', key);
    return timeView(page, 'carrier', () => page.click('form.signin button[type="submit"]'));
  };

  beforeAll(async () => {
    root = await tempDir('web-carriers');
    const input = join(root.path, 'input');
    const outDir = join(root.path, 'dist-data');
    // Two monthly editions built one over the other: a change history, and profiles with a trend.
    await writeDemo('carriers', input, { edition: 1, latestEdition: 2 });
    await buildCarriers({ input, outDir, now: () => new Date(PINNED_CLOCK().getTime() - 30 * 86_400_000) });
    await writeDemo('carriers', input, { edition: 2, latestEdition: 2 });
    const summary = await buildCarriers({ input, outDir, now: PINNED_CLOCK });
    const built = {
      root,
      input,
      outDir,
      buildDir: join(outDir, 'carriers'),
      stateDir: join(root.path, 'state'),
      summary,
    };
    server = await serveCarriers(built, { freeLookups: FREE_LOOKUPS });
    free = (await server.accounts().createKey('free', 'browser free', NOW)).key;
    premium = (await server.accounts().createKey('premium', 'browser premium', NOW)).key;
    // The first carrier of a broad search with an alert (a premium key's lookups are not counted).
    const { body: found } = await api<CarrierSearchResults>('/api/search?q=trucking&limit=100');
    for (const r of found.results) {
      const { body } = await api<CarrierProfile>(`/api/carrier/${r.carrier_id}`, premium);
      if (body.categories.some((c) => c.alert) && body.trend?.length === 2) {
        target = body;
        break;
      }
    }
    expect(target).toBeDefined();
    refused = found.results.find((r) => r.allowed_to_operate === false && r.dockets.length > 0)!;
    expect(refused).toBeDefined();
    browser = await launchBrowser(chromiumPath!, server.base);
    page = browser.page;
    await warmUp(page, server.base);
  }, 120_000);

  afterAll(async () => {
    recordTimings('carriers', timings);
    await browser?.close();
    await server?.close();
    await root?.remove();
  });

  it('searches by name with the state filter, by USDOT number, and pages', async () => {
    timings.home = await openView(page, `${server.base}/`, 'search');
    await expectAccessible('search start');
    await page.fill('input[type="search"]', target.legal_name);
    await page.fill('input[name="state"]', target.state!.toLowerCase());
    timings.search = await timeView(page, 'search', () => page.press('input[type="search"]', 'Enter'));
    const { body: byName } = await api<CarrierSearchResults>(
      `/api/search?q=${encodeURIComponent(target.legal_name)}&state=${target.state}`,
    );
    const names = await links();
    expect(names.length).toBe(byName.results.length);
    for (const [i, r] of byName.results.entries()) expect(names[i]).toContain(r.legal_name);
    await expectAccessible('search results');
    await screenshot(page, 'carriers-search');

    await page.fill('input[type="search"]', `USDOT ${target.carrier_id}`);
    await page.fill('input[name="state"]', '');
    await timeView(page, 'search', () => page.press('input[type="search"]', 'Enter'));
    expect(await links()).toEqual([expect.stringContaining(target.legal_name)]);

    const { body: broad } = await api<CarrierSearchResults>('/api/search?q=trucking&offset=25');
    expect(broad.total).toBeGreaterThan(25);
    await openView(page, `${server.base}/#/search?q=trucking`, 'search');
    await timeView(page, 'search', () => page.locator('a[rel="next"]').first().click());
    expect(page.url()).toContain('offset=25');
    const shown = await links();
    for (const [i, r] of broad.results.entries()) expect(shown[i]).toContain(r.legal_name);

    await page.fill('input[type="search"]', 'zzqx nothing like it');
    await timeView(page, 'search', () => page.press('input[type="search"]', 'Enter'));
    expect(await page.locator('.empty').textContent()).toContain('No carrier matches');
  });

  it('asks for a key, says what to do about a wrong one, and keeps a good one for this tab only', async () => {
    await openView(page, `${server.base}/#/search?q=${encodeURIComponent(`USDOT ${target.carrier_id}`)}`, 'search');
    await timeView(page, 'carrier', () => page.locator('table.results a').first().click());
    expect(await page.locator('input[type="password"][name="api_key"]').count()).toBe(1);
    await expectAccessible('sign-in');

    await signIn('sk_not_a_key_of_this_service');
    const alert = page.locator('[role="alert"]');
    expect(await alert.getAttribute('data-status')).toBe('401');
    expect(await alert.textContent()).toContain('Sign in again with a valid key');
    expect(await page.locator('input[name="api_key"]').count()).toBe(1);
    await expectAccessible('wrong key');

    timings.profile = await signIn(free);
    expect(await page.evaluate(() => Object.values(sessionStorage))).toContain(free);
    expect(await page.evaluate(() => Object.values(localStorage))).not.toContain(free);
    // Another tab has its own session: it asks again.
    const other = await browser.context.newPage();
    await other.goto(page.url());
    await other.waitForSelector('#app[aria-busy="false"]');
    expect(await other.locator('input[name="api_key"]').count()).toBe(1);
    await other.close();
  });

  it("shows the profile's percentiles, worst category, top risks, rates and allowance as the API has them", async () => {
    const p = target;
    expect(await page.locator('h1').textContent()).toBe(p.legal_name);
    const rows = page.locator('table.categories tbody tr');
    expect(await rows.count()).toBe(7);
    for (const [i, c] of p.categories.entries()) {
      const cells = await rows.nth(i).locator('th, td').allTextContents();
      expect(cells[0]).toBe(c.label);
      if (c.percentile !== null) expect(cells[1]).toBe(formatted(c.percentile, 1));
      expect(cells[2]).toBe(String(c.threshold));
      expect(cells[3]!.startsWith('Alert')).toBe(c.alert);
    }
    const worst = p.top_risks[0]!;
    expect(await page.locator('.worst').textContent()).toContain(`Worst category: ${worst.label}`);
    const risks = await page.locator('ol.top-risks li').allTextContents();
    expect(risks.length).toBe(3);
    for (const [i, r] of p.top_risks.entries()) expect(risks[i]).toContain(r.label);
    const rates = await page.locator('table.rates').textContent();
    for (const v of [p.national.vehicle_oos_rate, p.national.driver_oos_rate])
      expect(rates).toContain(`${formatted(v! * 100, 1)} %`);
    expect(await page.locator('figure.chart canvas').count()).toBeGreaterThanOrEqual(2);

    // The allowance shown is the one the API counts: the next lookup leaves one fewer.
    const shown = /left this month: (\d+) of (\d+)/.exec((await page.locator('.allowance').textContent()) ?? '');
    expect(shown?.[2]).toBe(String(FREE_LOOKUPS));
    const { res } = await api(`/api/carrier/${p.carrier_id}`, free);
    expect(Number(res.headers.get('ratelimit-remaining'))).toBe(Number(shown![1]) - 1);
    await expectAccessible('profile');

    // A premium button with a free key: what to do instead of nothing.
    await page.click('button:text-is("Explain in plain language")');
    await page.waitForSelector('.premium-output [role="alert"]');
    expect(await page.locator('.premium-output [role="alert"]').getAttribute('data-status')).toBe('403');
    expect(await page.locator('.premium-output').textContent()).toContain('premium key');
    await expectAccessible('premium refused');

    // Back to the search, forward to the profile (not counted again in this tab).
    await timeView(page, 'search', () => page.goBack());
    await timeView(page, 'carrier', () => page.goForward());
    expect(await page.locator('h1').textContent()).toBe(p.legal_name);
  });

  it('gives a premium key the monthly chart, the summary and the export', async () => {
    await page.click('button:text-is("Sign out")');
    await viewReady(page, 'carrier');
    timings.profile_premium = await signIn(premium);
    expect(await page.locator('.allowance').textContent()).toContain('not counted');
    await page.waitForSelector('figure.chart:has-text("by month") canvas');
    // Opened directly in the signed-in tab: the key is still there, the profile shows at once.
    timings.profile_direct = await openView(page, page.url(), 'carrier');
    expect(await page.locator('h1').textContent()).toBe(target.legal_name);
    await page.waitForSelector('figure.chart:has-text("by month") canvas');

    await page.click('button:text-is("Explain in plain language")');
    await page.waitForSelector('.explain');
    const { body: explained } = await (async () => {
      const res = await fetch(`${server.base}/api/carrier/${target.carrier_id}/explain`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${premium}` },
      });
      return { body: (await res.json()) as { summary: string } };
    })();
    const paragraphs = await page.locator('.explain .summary-para').allTextContents();
    expect(paragraphs.join('\n\n')).toBe(explained.summary);
    await expectAccessible('premium profile');
    await screenshot(page, 'carriers', true);

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('button:text-is("Download CSV")')]);
    expect(download.suggestedFilename()).toBe(`carrier-${target.carrier_id}.csv`);
    const csv = await fetch(`${server.base}/api/carrier/${target.carrier_id}/export?format=csv`, {
      headers: { Authorization: `Bearer ${premium}` },
    });
    expect(readFileSync((await download.path())!, 'utf8')).toBe(await csv.text());
  });

  it('says when the free allowance is spent and when it renews', async () => {
    const spent = (await server.accounts().createKey('free', 'spent', NOW)).key;
    for (let i = 0; i < FREE_LOOKUPS; i++) await api(`/api/carrier/${target.carrier_id}`, spent);
    await page.click('button:text-is("Sign out")');
    await viewReady(page, 'carrier');
    await signIn(spent);
    const alert = page.locator('[role="alert"]');
    expect(await alert.getAttribute('data-status')).toBe('429');
    expect(await alert.textContent()).toMatch(/used up\. It renews in \d+ (day|hour|minute|second)s?/);
    await expectAccessible('allowance spent');
  });

  /** Signs in with `key` on the view now asking for one. */
  const signInOn = async (view: string, key: string) => {
    await page.fill('input[type="password"][name="api_key"]', key);
    return timeView(page, view, () => page.click('form.signin button[type="submit"]'));
  };
  const signOutIfIn = async () => {
    if (await page.locator('button:text-is("Sign out")').count()) await page.click('button:text-is("Sign out")');
  };

  it("draws the profile's percentiles at each build of the history", async () => {
    await openView(page, `${server.base}/#/carrier/${target.carrier_id}`, 'carrier');
    await signOutIfIn();
    await viewReady(page, 'carrier');
    await signIn(premium);
    const points = target.trend!.length;
    expect(points).toBe(2);
    const trend = page.locator('figure.chart:has-text("Percentiles over the last 2 builds")');
    await trend.locator('canvas').waitFor();
    expect(await trend.locator('tbody tr').count()).toBe(points);
    const alerted = target.categories.find((c) => c.alert)!;
    expect(await trend.locator('tbody tr').last().textContent()).toContain(
      `${formatted(alerted.percentile!, 1)} alert`,
    );
    await expectAccessible('profile with trend');
  });

  it("lists the builds and each build's changes, signed in, filtered by what is notable", async () => {
    timings.changes = await openView(page, `${server.base}/#/changes`, 'changes');
    const rows = page.locator('table.builds tbody tr');
    expect(await rows.count()).toBe(2);
    await expectAccessible('what changed');
    timings.changes_build = await timeView(page, 'changes-build', () => rows.first().locator('a').click());
    const { body: index } = await api<{
      builds: { data_version: string; previous: string; counts: Record<string, number> }[];
    }>('/changes/index.json');
    const newest = index.builds[0]!;
    const { body: changes } = await api<{ results: { data_version: string; id: string; notable: string[] }[] }>(
      `/api/changes?since=${newest.previous}&limit=1000`,
      premium,
    );
    const own = changes.results.filter((c) => c.data_version === newest.data_version);
    expect(own.length).toBe(Math.min(1000, newest.counts.added! + newest.counts.removed! + newest.counts.changed!));
    expect(await page.locator('table.changes tbody tr').count()).toBe(own.length);
    await page.selectOption('select[name="notable"]', 'alert_started');
    await timeView(page, 'changes-build', () => page.click('form button[type="submit"]'));
    const started = own.filter((c) => c.notable.includes('alert_started'));
    expect(await page.locator('table.changes tbody tr').count()).toBe(started.length);
    await expectAccessible('a build’s changes');
  });

  it('manages a watchlist: creates one, shows its changes, edits and deletes it', async () => {
    timings.watchlists = await openView(page, `${server.base}/#/watchlists`, 'watchlists');
    if (await page.locator('form.signin').count()) await signInOn('watchlists', premium);
    expect(await page.locator('.empty').textContent()).toContain('no watchlist');
    await page.fill('input[name="name"]', 'Partners');
    await page.fill('textarea[name="carriers"]', `${target.carrier_id}, ${target.carrier_id}`);
    await timeView(page, 'watchlists', () => page.click('form.watchlist-form button[type="submit"]'));
    const link = page.locator('table.watchlists tbody a');
    expect(await link.allTextContents()).toEqual(['Partners']);
    await expectAccessible('watchlists');
    timings.watchlist = await timeView(page, 'watchlist', () => link.click());
    expect(await page.locator('h1').textContent()).toBe('Partners');
    expect(await page.locator('.carrier-list a').allTextContents()).toEqual([`USDOT ${target.carrier_id}`]);
    // Made after the newest build: nothing yet.
    expect(await page.locator('.empty').textContent()).toContain('No change');
    await page.fill('input[name="name"]', 'Partners, renamed');
    await timeView(page, 'watchlist', () => page.click('form.watchlist-form button[type="submit"]'));
    expect(await page.locator('h1').textContent()).toBe('Partners, renamed');
    await expectAccessible('a watchlist');
    // Refused input says why, in place.
    await page.fill('textarea[name="carriers"]', '99999999');
    await page.click('form.watchlist-form button[type="submit"]');
    await page.waitForSelector('.watchlist-form [role="alert"]');
    expect(await page.locator('.watchlist-form [role="alert"]').textContent()).toContain('99999999');
    await timeView(page, 'watchlists', () => page.click('button:text-is("Delete this list")'));
    expect(await page.locator('table.watchlists').count()).toBe(0);
    await signOutIfIn();
    await viewReady(page, 'watchlists');
    expect(await page.locator('form.signin').count()).toBe(1);
    await signInOn('watchlists', premium);
  });

  it('finds a carrier by its docket and says in the results whether it may operate', async () => {
    const docket = refused.dockets[0]!;
    await openView(page, `${server.base}/`, 'search');
    // Typed as on a rate confirmation: lower case, a dash.
    await page.fill('input[type="search"]', `${docket.slice(0, 2).toLowerCase()}-${docket.slice(2)}`);
    await timeView(page, 'search', () => page.press('input[type="search"]', 'Enter'));
    const rows = page.locator('table.results tbody tr');
    expect(await rows.count()).toBeGreaterThanOrEqual(1);
    const cells = await rows.first().locator('td').allTextContents();
    expect(cells[0]).toContain(refused.legal_name);
    expect(cells[2]).toContain(docket);
    expect(cells[3]).toBe('No');
    await expectAccessible('docket search');
  });

  it('shows first whether the carrier may operate, with each reason, then safety', async () => {
    await openView(page, `${server.base}/#/carrier/${refused.carrier_id}`, 'carrier');
    await signOutIfIn();
    await viewReady(page, 'carrier');
    await signIn(premium);
    const { body: p } = await api<CarrierProfile>(`/api/carrier/${refused.carrier_id}`, premium);
    const headings = await page.locator('h2').allTextContents();
    expect(headings.indexOf('May I hire them?')).toBeGreaterThanOrEqual(0);
    expect(headings.indexOf('May I hire them?')).toBeLessThan(headings.indexOf('Safety'));
    expect(await page.locator('.operating-status .verdict').textContent()).toContain('May not operate');
    const reasons = p.operating_status.reasons.filter((r) => r.code !== 'not_checked').map((r) => r.detail);
    expect(reasons.length).toBeGreaterThan(0);
    expect(await page.locator('.operating-status ul.reasons li').allTextContents()).toEqual(reasons);
    const authority = await page.locator('table.authority tbody tr th').allTextContents();
    expect(authority).toEqual(p.authority!.map((a) => a.docket));
    expect(await page.locator('.hire').textContent()).toContain(p.mcs150_date ?? '—');
    await expectAccessible('may I hire them');
  });

  it('draws the step-down calendar and lists the inspections, paged; a free key’s page waits for a click', async () => {
    await openView(page, `${server.base}/#/carrier/${target.carrier_id}`, 'carrier');
    await signOutIfIn();
    await viewReady(page, 'carrier');
    await signIn(premium);
    // When each alert clears: the first step below the threshold.
    const alerts = target.categories.filter((c) => c.alert);
    const clears = page.locator('table.clears tbody tr');
    expect(await clears.count()).toBe(alerts.length);
    for (const [i, c] of alerts.entries()) {
      const step = c.step_down!.find((s) => !s.alert);
      expect(await clears.nth(i).locator('td').last().textContent()).toBe(step ? step.date : 'not within 24 months');
    }
    await page.locator('figure.chart:has-text("Step-down") canvas').waitFor();
    // A premium key's list loads at once, newest first, as the API pages it.
    const { body: first } = await api<{ total: number; inspections: { date: string }[] }>(
      `/api/carrier/${target.carrier_id}/inspections?limit=25`,
      premium,
    );
    await page.waitForSelector('table.inspections');
    const dates = () => page.locator('table.inspections tbody tr td:first-child').allTextContents();
    expect(await dates()).toEqual(first.inspections.map((i) => i.date));
    if (first.total > 25) {
      const { body: second } = await api<{ inspections: { date: string }[] }>(
        `/api/carrier/${target.carrier_id}/inspections?limit=25&offset=25`,
        premium,
      );
      await page.click('button:text-is("Older →")');
      await page.waitForSelector('table.inspections caption:has-text("Inspections 26")');
      expect(await dates()).toEqual(second.inspections.map((i) => i.date));
    }
    await expectAccessible('step-down and inspections');

    // A free key: the list costs a lookup, so it waits for the click, and the click counts one.
    const key = (await server.accounts().createKey('free', 'inspection list', NOW)).key;
    await page.click('button:text-is("Sign out")');
    await viewReady(page, 'carrier');
    await signIn(key);
    const button = page.locator('button:has-text("Show the inspections and crashes")');
    expect(await button.textContent()).toContain('counts one free lookup');
    expect(await page.locator('table.inspections').count()).toBe(0);
    await button.click();
    await page.waitForSelector('table.inspections');
    const { res } = await api(`/api/carrier/${target.carrier_id}`, key);
    // The profile, the list, then this lookup.
    expect(Number(res.headers.get('ratelimit-remaining'))).toBe(FREE_LOOKUPS - 3);
  });

  it('showed every view within the time to data, loaded nothing from elsewhere, threw nothing', () => {
    for (const [view, ms] of Object.entries(timings)) expect(ms, view).toBeLessThan(TIME_TO_DATA_MS);
    expect(browser.errors).toEqual([]);
  });
});
