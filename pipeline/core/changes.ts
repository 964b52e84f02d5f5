// Writes a build's change record into its tree (docs/contracts/changes.md): the history carried over from the
// published tree, this build's entry and document pages, and the Atom and JSON feeds. The service compares its
// entities; this module keeps the record. A damaged record in the published tree starts a new history (said in
// the warnings) rather than stop the build.
import { join } from 'node:path';
import { Feed } from 'feed';
import {
  CHANGES_DIR,
  CHANGES_INDEX,
  type Change,
  type ChangeEntry,
  type ChangesBuild,
  changePageName,
  FEED_ATOM,
  FEED_BUILDS,
  FEED_JSON,
  diffViews,
  type Field,
  HISTORY_BUILDS,
  notableIndexName,
  publicUrlSetting,
  PAGE_CHANGES,
  buildName,
} from '../../contract/core/changes.ts';
import type { Manifest } from '../../contract/core/manifest.ts';
import { ChangeLog } from './change-log.ts';
import { type PublishedHistory, readPublishedHistory } from './change-history.ts';
import type { Sink, SinkEffects } from './sink.ts';

/** One entity as the comparison sees it: its name and the pointers it is compared on. */
export interface EntityView {
  name: string;
  view: ReadonlyMap<string, unknown>;
}

/** How a service compares: what is notable in a change, and which different values are no change. */
export interface Comparison {
  notable(fields: readonly Field[]): string[];
  same?(path: string, from: unknown, to: unknown): boolean;
  /** The parts of two views of one entity that can be compared (both builds had what they rest on). */
  align?(
    before: ReadonlyMap<string, unknown>,
    after: ReadonlyMap<string, unknown>,
  ): [ReadonlyMap<string, unknown>, ReadonlyMap<string, unknown>];
}

/** One entity's change between two builds, or undefined when nothing compared moved. */
export function compareEntity(
  id: string,
  before: EntityView | undefined,
  after: EntityView | undefined,
  how: Comparison,
): Change | undefined {
  const none = new Map<string, unknown>();
  const [from, to] = how.align
    ? how.align(before?.view ?? none, after?.view ?? none)
    : [before?.view ?? none, after?.view ?? none];
  const fields = diffViews(from, to, how.same);
  if (fields.length === 0) return undefined;
  const kind = before === undefined ? 'added' : after === undefined ? 'removed' : 'changed';
  // An added or removed entity is notable by its kind; its fields say what it held.
  return { id, name: (after ?? before)!.name, kind, fields, notable: kind === 'changed' ? how.notable(fields) : [] };
}

/** Every entity's change between two builds held in memory, ordered by id. */
export function compareEntities(
  before: ReadonlyMap<string, EntityView>,
  after: ReadonlyMap<string, EntityView>,
  how: Comparison,
): Change[] {
  const changes: Change[] = [];
  for (const id of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const change = compareEntity(id, before.get(id), after.get(id), how);
    if (change) changes.push(change);
  }
  return changes;
}

/** What a build says when the published build cannot be compared with: it records no changes. */
export function notCompared(err: unknown): string {
  return `the published build cannot be compared with (${(err as Error).message}): its changes are not recorded, and a new history starts`;
}

/** The published build's data_version at `live`: null when none is published; throws when unreadable. */
export async function publishedVersion(live: string, effects: SinkEffects): Promise<string | null> {
  const body = await effects.readFile(join(live, 'manifest.json'));
  if (!body) return null;
  const version = (JSON.parse(body.toString('utf8')) as { data_version?: unknown }).data_version;
  if (typeof version !== 'string') throw new Error('manifest.json has no data_version');
  return version;
}

export interface ChangeRecordInput {
  service: string;
  outDir: string;
  dataVersion: string;
  builtAt: Date;
  demo: boolean;
  /** The data_version of the build this one replaces (the published manifest's), or null with none published. */
  previous: string | null;
  /** Every entity's change, ordered by id; empty when there is no previous build to compare with. */
  changes: readonly Change[] | ChangeLog;
  global?: readonly Field[];
  /** Where the tree is served: the feeds' links start with it. */
  publicUrl: string;
  /**
   * Pages beside the tree with the signed-in files (`private/changes/`), for a service whose changes are a
   * profile's worth of data (carriers); the index and feeds, counts only, stay public.
   */
  privatePages?: boolean;
}

export interface ChangeRecordResult {
  entry: ChangeEntry;
  /** The builds of the new record, newest first. */
  builds: ChangeEntry[];
  /** False when the build had the data_version of the newest entry (the same inputs again): nothing added. */
  added: boolean;
  /** True when this build starts a history (nothing published, or a damaged record): it records no changes. */
  restarted: boolean;
  /** The published record as it was read: a service carries its own files from it (`folder`). */
  published: PublishedHistory;
  warnings: string[];
}

/** The build's document as pages of at most PAGE_CHANGES changes, each naming the next. */
export function toPages(
  input: Pick<ChangeRecordInput, 'dataVersion' | 'previous' | 'global'> & { changes: readonly Change[] | ChangeLog },
  builtAt: string,
  name = input.dataVersion,
): [string, ChangesBuild][] {
  const log = input.changes instanceof ChangeLog ? input.changes : ChangeLog.of(input.changes);
  const count = Math.max(1, Math.ceil(log.length / PAGE_CHANGES));
  return Array.from({ length: count }, (_, i) => [
    changePageName(name, i + 1),
    {
      data_version: input.dataVersion,
      previous: input.previous,
      built_at: builtAt,
      total: log.length,
      global: i === 0 ? [...(input.global ?? [])] : [],
      changes: log.slice(i * PAGE_CHANGES, (i + 1) * PAGE_CHANGES),
      next: i + 1 < count ? changePageName(name, i + 2) : null,
    },
  ]);
}

/** Atom 1.0 and JSON Feed 1.1 of the newest builds, linked under the URL the tree is served at. */
function toFeeds(
  service: string,
  builds: readonly ChangeEntry[],
  publicUrl: string,
  privatePages: boolean,
): { atom: string; json: unknown } {
  const newest = builds[0];
  const at = (rel: string) => new URL(rel, publicUrl).toString();
  const feed = new Feed({
    id: `tag:shardline,2026:${service}/changes`,
    title: `shardline ${service}: changes by build`,
    description: `What changed in each build of the ${service} data`,
    link: at(CHANGES_INDEX),
    updated: newest ? new Date(newest.built_at) : new Date(0),
    generator: 'shardline',
    feedLinks: { atom: at(FEED_ATOM), json: at(FEED_JSON) },
    copyright: 'See each source’s licence in the build’s manifest.json',
  });
  for (const b of builds.slice(0, FEED_BUILDS)) {
    const { added, removed, changed } = b.counts;
    const summary = `${added} added, ${removed} removed, ${changed} changed${b.previous ? ` since ${b.previous}` : ' (first build of the history)'}${b.demo ? ' (demo data)' : ''}`;
    feed.addItem({
      title: `Build ${b.data_version}: ${summary}`,
      // Named by its document: a data_version that came back is another build, with an id of its own.
      id: `tag:shardline,2026:${service}/changes/${buildName(b)}`,
      // Signed-in pages are not on the public host: their item links to the index.
      link: at(privatePages ? CHANGES_INDEX : `${CHANGES_DIR}/${b.href}`),
      date: new Date(b.built_at),
      description: summary,
    });
  }
  // The library writes JSON Feed 1; 1.1 only renames the version (its other additions are optional).
  const json = JSON.parse(feed.json1()) as Record<string, unknown>;
  json.version = 'https://jsonfeed.org/version/1.1';
  return { atom: feed.atom1(), json };
}

/**
 * Writes changes/ into the build: the published history (the last HISTORY_BUILDS builds) with this build's
 * entry on top, unless the newest entry already has this data_version (the same inputs built again). The
 * kept builds' files are carried from the published tree as they are.
 */
export async function writeChangeRecord(
  sink: Sink,
  effects: SinkEffects,
  input: ChangeRecordInput,
): Promise<ChangeRecordResult> {
  const warnings: string[] = [];
  const live = join(input.outDir, input.service);
  const pagesDir = input.privatePages ? `private/${CHANGES_DIR}` : CHANGES_DIR;
  const published = await readPublishedHistory(live, input.privatePages ?? false, effects, warnings);
  const history = published.index?.builds ?? [];
  const builtAt = input.builtAt.toISOString();
  const again = history[0]?.data_version === input.dataVersion;
  // A first build, or one after a damaged record, starts a history: its first entry compares with nothing.
  const restart = published.damaged || input.previous === null;
  const log = restart
    ? new ChangeLog()
    : input.changes instanceof ChangeLog
      ? input.changes
      : ChangeLog.of(input.changes);
  // A data_version that comes back (inputs A, then B, then A again) is a new build with pages of its own.
  const seen = history.filter((b) => b.data_version === input.dataVersion).length;
  const pageName = seen === 0 ? input.dataVersion : `${input.dataVersion}-r${seen + 1}`;
  const entry: ChangeEntry = again
    ? history[0]!
    : {
        data_version: input.dataVersion,
        previous: restart ? null : input.previous,
        built_at: builtAt,
        demo: input.demo,
        counts: { ...log.counts },
        href: changePageName(pageName, 1),
      };
  const builds = again ? history : [entry, ...history].slice(0, HISTORY_BUILDS);
  // The files of the builds kept: an older build dropped goes with its own.
  for (const b of again ? builds : builds.slice(1))
    for (const [name, file] of published.files.get(b.href) ?? [])
      await sink.carry(`${pagesDir}/${name}`, file.abs, file.sha256);
  if (!again) {
    const own = {
      ...input,
      previous: restart ? null : input.previous,
      changes: log,
      global: restart ? [] : input.global,
    };
    for (const [name, page] of toPages(own, builtAt, pageName))
      await sink.writeJson(`${pagesDir}/${name}`, page, 'core/changes-build');
    await sink.writeJson(
      `${pagesDir}/${notableIndexName(entry.href)}`,
      Object.fromEntries([...log.notable].sort(([a], [b]) => (a < b ? -1 : 1))),
      'core/changes-notable',
    );
  }
  await sink.writeJson(CHANGES_INDEX, { service: input.service, builds }, 'core/changes-index');
  const feeds = toFeeds(input.service, builds, input.publicUrl, input.privatePages ?? false);
  await sink.writeText(FEED_ATOM, feeds.atom);
  await sink.writeJson(FEED_JSON, feeds.json, 'core/json-feed');
  return { entry, builds, added: !again, restarted: !again && restart, published, warnings };
}

/** What a service's comparison found: the published build compared with, and its changes. */
export interface ComparedBuild {
  previous: string | null;
  changes: readonly Change[] | ChangeLog;
  global?: readonly Field[];
  warnings: readonly string[];
}

/**
 * The change record of the build `manifest` describes, from what the service's comparison found; the
 * warnings of both (in `warnings`), for the build's summary. `PUBLIC_URL_<SERVICE>`'s default where the caller
 * gives none.
 */
export async function recordChanges(
  sink: Sink,
  effects: SinkEffects,
  options: { outDir: string; publicUrl?: string; privatePages?: boolean },
  manifest: Pick<Manifest, 'service' | 'data_version' | 'built_at' | 'demo'>,
  compared: ComparedBuild,
): Promise<ChangeRecordResult> {
  const record = await writeChangeRecord(sink, effects, {
    service: manifest.service,
    outDir: options.outDir,
    dataVersion: manifest.data_version,
    builtAt: new Date(manifest.built_at),
    demo: manifest.demo,
    previous: compared.previous,
    changes: compared.changes,
    global: compared.global,
    privatePages: options.privatePages,
    publicUrl: options.publicUrl ?? publicUrlSetting({}, manifest.service),
  });
  return { ...record, warnings: [...compared.warnings, ...record.warnings] };
}
