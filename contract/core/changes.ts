// The change record every build carries (docs/contracts/changes.md): what the pipeline writes under
// `changes/` and the server reads to answer `…/changes` and each entity's history.
import type { Change, ChangesBuild, Field } from '../types/core/changes-build.ts';
import type { ChangesIndex } from '../types/core/changes-index.ts';
import { type Env, type SettingName, settingOrDefault } from './settings-registry.ts';
import { urlSetting } from './settings.ts';

export type { Change, ChangesBuild, ChangesIndex, Field };
export type ChangeEntry = ChangesIndex['builds'][number];

/** The builds a history keeps; older ones drop out. */
export const HISTORY_BUILDS = 400;
/** The builds the Atom and JSON feeds list. */
export const FEED_BUILDS = 100;
/** The changes on one page of a build's document. */
export const PAGE_CHANGES = 1000;

export const CHANGES_DIR = 'changes';
export const CHANGES_INDEX = `${CHANGES_DIR}/index.json`;
export const FEED_ATOM = `${CHANGES_DIR}/feed.atom`;
export const FEED_JSON = `${CHANGES_DIR}/feed.json`;

/** Page `n` (from 1) of a build's document, relative to changes/: `<data_version>.json`, then `<data_version>-2.json`. */
export function changePageName(dataVersion: string, n: number): string {
  return n === 1 ? `${dataVersion}.json` : `${dataVersion}-${n}.json`;
}

/** A build's name in the record: its first page's name without `.json` (`<data_version>`, or `-r2` … for one that came back). */
export function buildName(entry: Pick<ChangeEntry, 'href'>): string {
  return entry.href.slice(0, -'.json'.length);
}

/** The pages of a kept build's document, named from its href and its counts (their sum is its `total`). */
export function pagesOf(entry: Pick<ChangeEntry, 'href' | 'counts'>): string[] {
  const base = buildName(entry);
  const total = entry.counts.added + entry.counts.removed + entry.counts.changed;
  return Array.from({ length: Math.max(1, Math.ceil(total / PAGE_CHANGES)) }, (_, i) => changePageName(base, i + 1));
}

/**
 * Beside a build's pages, `<base>.notable.json`: each notable word's changes as their positions in the
 * build's document (from 0), so a reader filters by notable without reading every page.
 */
export function notableIndexName(href: string): string {
  return `${buildName({ href })}.notable.json`;
}

/** RFC 6901: `~` and `/` escaped in a pointer's token. */
export function pointerToken(key: string | number): string {
  return String(key).replaceAll('~', '~0').replaceAll('/', '~1');
}

/**
 * What changed between two views of one entity (each pointer to its value), the pointers in order; values are
 * compared as JSON, a side without a pointer counts as null, and `same` may call two different values no change
 * (a percentile that moved by less than half a point).
 */
export function diffViews(
  before: ReadonlyMap<string, unknown>,
  after: ReadonlyMap<string, unknown>,
  same: (path: string, from: unknown, to: unknown) => boolean = () => false,
): Field[] {
  const fields: Field[] = [];
  for (const path of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const from = (before.get(path) ?? null) as Field['from'];
    const to = (after.get(path) ?? null) as Field['to'];
    if (JSON.stringify(from) !== JSON.stringify(to) && !same(path, from, to)) fields.push({ path, from, to });
  }
  return fields;
}

/** PUBLIC_URL_<SERVICE>: where the service's tree is served, as an absolute http(s) URL ending in `/`. */
const PUBLIC_URLS: Record<string, SettingName> = {
  facilities: 'PUBLIC_URL_FACILITIES',
  carriers: 'PUBLIC_URL_CARRIERS',
  economy: 'PUBLIC_URL_ECONOMY',
};

export function publicUrlSetting(env: Env, service: string): string {
  const name = PUBLIC_URLS[service];
  if (name === undefined) throw new Error(`no public URL setting for ${service}`);
  const url = urlSetting(name, settingOrDefault(env, name)).toString();
  return url.endsWith('/') ? url : `${url}/`;
}
