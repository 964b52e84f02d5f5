// A real browser for the explorer's end-to-end tests (docs/contracts/explorer.md, "Tests"): Debian's
// Chromium driven by playwright-core, headless, with a new empty profile each time and nothing downloaded.
// Where Chromium is not installed the tests are skipped with the command that installs it, except with
// CI=true, where that is a failure. Also: axe-core run in the page, the time a view takes to show its data,
// and screenshots into a git-ignored folder.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const INSTALL_HINT = 'apt-get install -y chromium';

/** Where the tests leave their screenshots and timings (git-ignored). */
export const SCREENSHOTS = join(import.meta.dirname, '..', 'web', 'screenshots');
/** The screenshots README.md and docs/explorer.md show: written there only with UPDATE_SCREENSHOTS=1. */
export const README_SCREENSHOTS = join(import.meta.dirname, '..', '..', 'docs', 'screenshots');

/** The view's data must be on screen within this many milliseconds of navigation (on the demo data). */
export const TIME_TO_DATA_MS = 1000;

/** Says why the tests are skipped, or throws under CI=true, where a missing browser fails the run. */
export function chromiumOrSkip(): string | undefined {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  const message = `chromium not found (${INSTALL_HINT})`;
  if (process.env.CI === 'true') throw new Error(`${message}: the explorer's browser tests need it`);
  console.warn(`skipped: ${message}`);
  return undefined;
}

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Messages the page logged as errors and scripts that threw, for the tests to check. */
  errors: string[];
  close(): Promise<void>;
}

/** A browser whose page may talk to `origin` only (the service under test): any other request is an error. */
export async function launchBrowser(executablePath: string, origin: string): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'shardline-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
    viewport: { width: 1280, height: 900 },
    acceptDownloads: true,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('console', (m) => {
    // A failed request the view answers with its error panel is logged by the browser, not by the page.
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(`console: ${m.text()}`);
  });
  // Every request stays on the service's origin.
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (['http:', 'https:'].includes(url.protocol) && url.origin !== origin)
      errors.push(`request to another origin: ${req.url()}`);
  });
  return {
    context,
    page,
    errors,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Waits until the explorer's main element shows a view with its data (`aria-busy="false"`). */
export async function viewReady(page: Page, view?: string): Promise<void> {
  const selector = view ? `#app[aria-busy="false"][data-view="${view}"]` : '#app[aria-busy="false"]';
  await page.waitForSelector(selector, { timeout: 10_000 });
}

/**
 * Opens the explorer once before anything is timed: a new browser's first page pays for starting its
 * renderer and compiling the script, which is the browser's start-up, not a view's time to data.
 */
export async function warmUp(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/`);
  await viewReady(page);
}

/**
 * Opens `url` as a new page load and returns the milliseconds from the navigation's start to the view's data
 * on screen, as the page's own clock tells it (the mark the explorer sets when a view is shown).
 */
export async function openView(page: Page, url: string, view: string): Promise<number> {
  await page.goto('about:blank');
  await page.goto(url);
  await viewReady(page, view);
  return page.evaluate(() => {
    const marks = performance.getEntriesByName('explorer:view-ready');
    return Math.round(marks[marks.length - 1]?.startTime ?? Number.NaN);
  });
}

/** Runs `act` (a click), then waits for the view: milliseconds from before the action to the data on screen. */
export async function timeView(page: Page, view: string, act: () => Promise<unknown>): Promise<number> {
  // The view now on screen goes busy first: wait for that, so the wait below is for the new view.
  const before = await page.evaluate(() => performance.getEntriesByName('explorer:view-ready').length);
  const started = Date.now();
  await act();
  await page.waitForFunction((n) => performance.getEntriesByName('explorer:view-ready').length > n, before, {
    timeout: 10_000,
  });
  await viewReady(page, view);
  return Date.now() - started;
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * axe-core's findings of impact serious or critical on the page as it is now. The script is evaluated
 * through the debugging protocol, which the page's Content-Security-Policy (no inline scripts) allows.
 */
export async function seriousViolations(page: Page): Promise<AxeFinding[]> {
  await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run()).violations as {
      id: string;
      impact: string;
      help: string;
      nodes: { target: string[] }[];
    }[];
  });
  return found
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
}

/** Saves a full-page screenshot into the git-ignored folder, and into docs/ with UPDATE_SCREENSHOTS=1. */
export async function screenshot(page: Page, name: string, readme = false): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  if (readme && process.env.UPDATE_SCREENSHOTS === '1') {
    mkdirSync(README_SCREENSHOTS, { recursive: true });
    // The top of the view, as a person opening it sees it, a little taller than one screen, no focus ring.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.screenshot({
      path: join(README_SCREENSHOTS, `${name}.png`),
      fullPage: true,
      clip: { x: 0, y: 0, width: 1280, height: Math.min(height, 1500) },
    });
  }
}

/** Records the time to data of each view in SCREENSHOTS/timings-<service>.json and prints them. */
export function recordTimings(service: string, timings: Record<string, number>): void {
  mkdirSync(SCREENSHOTS, { recursive: true });
  writeFileSync(join(SCREENSHOTS, `timings-${service}.json`), `${JSON.stringify(timings, null, 2)}\n`);
  console.log(
    `${service} explorer, time to data (ms): ${Object.entries(timings)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
}

/** The numbers as the explorer prints them (web/core/format.ts): Canadian English, at most `digits` decimals. */
export function formatted(v: number, digits: number): string {
  return new Intl.NumberFormat('en-CA', { maximumFractionDigits: digits, minimumFractionDigits: 0 }).format(v);
}
