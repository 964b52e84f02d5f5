// The explorer's pages do not jump while they load: the cumulative layout shift of a real load of each
// view, at a phone's width and a desktop's, as Chromium's PerformanceObserver reports `layout-shift` entries
// (buffered, so none before the observer is missed), stays under 0.1 (Lighthouse's "good").
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { buildCarriers } from '../../pipeline/carriers/index.ts';
import { silentProgress } from '../../pipeline/core/progress.ts';
import { createCarriersService } from '../../server/carriers/routes.ts';
import { createEconomyService } from '../../server/economy/routes.ts';
import { facilities } from '../../server/facilities/routes.ts';
import { openSqliteStore } from '../../server/core/store.ts';
import type { ServiceDefinition } from '../../server/core/service.ts';
import { AS_OF, writeCensusOnlyFixture } from '../fixtures/carriers.ts';
import { chromiumOrSkip, launchBrowser, viewReady, type Browser } from '../helpers/browser.ts';
import { buildEconomyFixture } from '../helpers/economy.ts';
import { buildFixture, PINNED_CLOCK } from '../helpers/facilities.ts';
import { type Running, startService, tempDir } from '../helpers/server.ts';

const chromiumPath = chromiumOrSkip();

/** Lighthouse's threshold for a good cumulative layout shift. */
const GOOD_CLS = 0.1;

const VIEWPORTS = [
  { name: 'mobile', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

/** Collects every layout shift of the page's load that no input caused, with what moved, before any script. */
const OBSERVE = `
  window.__shifts = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.hadRecentInput) continue;
      const moved = (e.sources || []).map((s) => s.node ? (s.node.id || s.node.nodeName) : '?').join(',');
      window.__shifts.push({ value: e.value, moved });
    }
  }).observe({ type: 'layout-shift', buffered: true });
`;

interface Shift {
  value: number;
  moved: string;
}

/** Loads `url` afresh and returns its layout shifts once the view shows its data and the page has settled. */
async function shiftsOf(page: Page, url: string, view: string): Promise<Shift[]> {
  await page.goto('about:blank');
  await page.goto(url);
  await viewReady(page, view);
  await page.waitForLoadState('networkidle');
  // Two frames after the last change, so a shift the last render causes is reported.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return page.evaluate(() => (window as unknown as { __shifts: Shift[] }).__shifts);
}

interface Case {
  service: string;
  start(root: string): Promise<Running<unknown>>;
  views: [string, string][];
}

const CASES: Case[] = [
  {
    service: 'facilities',
    start: async () => {
      const fx = await buildFixture();
      return startService(facilities as ServiceDefinition<unknown>, fx.outDir);
    },
    views: [
      ['/', 'search'],
      ['/#/?q=cement', 'search'],
      ['/#/facility/ONF-000001', 'facility'],
      ['/#/stats', 'stats'],
      ['/#/changes', 'changes'],
    ],
  },
  {
    service: 'carriers',
    start: async (root) => {
      const input = join(root, 'input');
      const outDir = join(root, 'dist-data');
      await writeCensusOnlyFixture(input);
      await buildCarriers({ input, outDir, asOf: AS_OF, now: PINNED_CLOCK, progress: silentProgress });
      const store = openSqliteStore(join(root, 'state'));
      return startService(
        createCarriersService({ accounts: () => store, freeLookups: 25 }) as ServiceDefinition<unknown>,
        outDir,
      );
    },
    views: [
      ['/', 'search'],
      ['/#/?q=lone%20star', 'search'],
      ['/#/carrier/2000001', 'carrier'],
      ['/#/changes', 'changes'],
      ['/#/watchlists', 'watchlists'],
    ],
  },
  {
    service: 'economy',
    start: async (root) => {
      const built = await buildEconomyFixture({ demo: true });
      return startService(
        createEconomyService({ stateDir: join(root, 'state'), env: {} }) as ServiceDefinition<unknown>,
        built.outDir,
      );
    },
    views: [
      ['/', 'categories'],
      ['/#/search?q=price', 'search'],
      ['/#/series/CPI_ALL_ITEMS', 'series'],
      ['/#/changes', 'changes'],
    ],
  },
];

describe.skipIf(!chromiumPath).each(CASES)('$service explorer: layout shift while loading', (c) => {
  let root: Awaited<ReturnType<typeof tempDir>>;
  let server: Running<unknown>;
  let browser: Browser;

  beforeAll(async () => {
    root = await tempDir(`layout-shift-${c.service}`);
    server = await c.start(root.path);
    browser = await launchBrowser(chromiumPath!, server.base);
    await browser.context.addInitScript(OBSERVE);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await root?.remove();
  });

  it.each(VIEWPORTS)(
    'stays under 0.1 on every view at $name width ($width x $height)',
    async (viewport) => {
      await browser.page.setViewportSize({ width: viewport.width, height: viewport.height });
      const found: Record<string, string> = {};
      for (const [path, view] of c.views) {
        const shifts = await shiftsOf(browser.page, server.base + path, view);
        const cls = shifts.reduce((sum, s) => sum + s.value, 0);
        found[path] = `${cls.toFixed(3)} (${shifts.map((s) => `${s.value.toFixed(3)} ${s.moved}`).join('; ')})`;
        expect(cls, `${path}: ${found[path]}`).toBeLessThan(GOOD_CLS);
      }
      console.log(`${c.service} ${viewport.name}: ${JSON.stringify(found)}`);
      expect(browser.errors).toEqual([]);
    },
    120_000,
  );
});
