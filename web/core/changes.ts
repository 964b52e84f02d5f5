// "What changed": the builds of the change record the tree carries (changes/index.json, docs/contracts/changes.md)
// with their counts, and one build's changes, filterable by notable word. Read from the tree's static files, so
// the view works as well from a CDN.
import type { Change, ChangeEntry, ChangesBuild, ChangesIndex, Field } from '../../contract/core/changes.ts';
import { getJson } from './api.ts';
import { href, type View, type ViewContext } from './app.ts';
import { type Child, field, h, select, table } from './dom.ts';
import { num } from './format.ts';
import { empty, routeForm } from './parts.ts';

/** A build's page name: its href without `.json` (the explorer takes types alone from contract/). */
export const buildName = (b: Pick<ChangeEntry, 'href'>): string => b.href.slice(0, -'.json'.length);

const KINDS: Record<Change['kind'], string> = { added: 'Added', removed: 'Removed', changed: 'Changed' };

const value = (v: Field['from']): string =>
  v === null ? '–' : typeof v === 'object' ? JSON.stringify(v) : typeof v === 'number' ? num(v, 2) : String(v);

/** Each field that moved, `path: from → to`, as a list. */
export function fieldList(fields: readonly Field[]): HTMLElement {
  return h(
    'ul',
    { class: 'fields' },
    ...fields.map((f) => h('li', null, h('code', null, f.path), ` ${value(f.from)} → ${value(f.to)}`)),
  );
}

const tags = (words: readonly string[]): Child =>
  words.length === 0 ? '–' : words.map((w) => h('span', { class: 'tag alert' }, w.replaceAll('_', ' ')));

/** One build's changes as the build view shows them. */
export interface BuildChanges {
  data_version: string;
  previous: string | null;
  built_at: string;
  total: number;
  changes: Change[];
  /** The notable words the filter offers. */
  words: string[];
  /** Said under the table (the changes shown are not all of the build's). */
  note?: string;
}

/** A build's changes from the tree's static pages (`changes/<build>.json` and the pages it names). */
async function staticBuild(ctx: ViewContext, version: string): Promise<BuildChanges> {
  const pages: ChangesBuild[] = [];
  for (let name: string | null = `${version}.json`; name !== null; ) {
    const { body }: { body: ChangesBuild } = await getJson<ChangesBuild>(`changes/${name}`, { signal: ctx.signal });
    pages.push(body);
    name = body.next;
  }
  const first = pages[0]!;
  const changes = pages.flatMap((p) => p.changes);
  return { ...first, changes, words: [...new Set(changes.flatMap((c) => c.notable))].sort() };
}

/**
 * The two views: the builds, and one build's changes (`entityHref` links each change to its entity).
 * `load` reads a build's changes another way (carriers: signed in, from the API); what it returns that is
 * not a build (a sign-in form) is shown instead.
 */
export function changesViews(options: {
  entityHref: (id: string) => string;
  noun: string;
  load?: (ctx: ViewContext, version: string, notable: string | null) => Promise<BuildChanges | Child[]>;
}): View[] {
  const list: View = {
    name: 'changes',
    pattern: /^\/changes$/,
    nav: '#/changes',
    async render(ctx) {
      const { body } = await getJson<ChangesIndex>('changes/index.json', { signal: ctx.signal });
      ctx.announce(`${num(body.builds.length)} builds in the history`);
      return [
        h('h1', null, 'What changed'),
        h(
          'p',
          { class: 'lede' },
          `What each build changed in the ${options.noun} since the build it replaced, newest first (the last 400 builds are kept).`,
        ),
        body.builds.length === 0
          ? empty('This build has no change history.')
          : table(
              'Builds, newest first',
              ['Build', 'Built', 'Added', 'Removed', 'Changed', 'Data'],
              body.builds.map((b) => [
                // By its document's name: a data_version that came back has a page of its own.
                h('a', { href: href(`/changes/${buildName(b)}`) }, b.data_version),
                b.built_at.replace('T', ' ').slice(0, 16),
                num(b.counts.added),
                num(b.counts.removed),
                num(b.counts.changed),
                [b.demo ? 'Demo data' : 'Published data', b.previous ? '' : ' (first build of the history)'],
              ]),
              { numeric: [2, 3, 4], className: 'data builds' },
            ),
      ];
    },
  };
  const build: View = {
    name: 'changes-build',
    pattern: /^\/changes\/(?<version>[0-9a-z-]+)$/,
    nav: '#/changes',
    async render(ctx) {
      const version = ctx.match.version ?? '';
      const notable = ctx.route.params.get('notable');
      const back = h('p', { class: 'meta' }, h('a', { href: '#/changes' }, '← Every build'));
      const loaded = options.load ? await options.load(ctx, version, notable) : await staticBuild(ctx, version);
      if (Array.isArray(loaded)) return [back, ...loaded];
      const first = loaded;
      const words = loaded.words;
      const shown = notable ? loaded.changes.filter((c) => c.notable.includes(notable)) : loaded.changes;
      ctx.announce(`${num(shown.length)} changes`);
      return [
        back,
        h('h1', null, `Build ${first.data_version}`),
        h(
          'p',
          { class: 'lede' },
          first.previous
            ? `${num(first.total)} changes since build ${first.previous}, built ${first.built_at.replace('T', ' ').slice(0, 16)} UTC.`
            : 'The first build of the history: nothing to compare it with.',
        ),
        words.length > 0
          ? routeForm(
              `/changes/${version}`,
              [
                field(
                  'Notable',
                  select(
                    'notable',
                    [['', 'Every change'], ...words.map((w) => [w, w.replaceAll('_', ' ')] as const)],
                    notable,
                  ),
                ),
                h('button', { type: 'submit' }, 'Show'),
              ],
              { label: 'Changes' },
            )
          : null,
        shown.length === 0
          ? empty(notable ? 'No change of this build is marked so.' : 'Nothing changed in this build.')
          : table(
              notable ? `Changes marked ${notable.replaceAll('_', ' ')}` : 'Changes, by id',
              ['Name', 'Kind', 'Notable', 'What moved'],
              shown.map((c) => [
                h('a', { href: options.entityHref(c.id) }, c.name),
                KINDS[c.kind],
                tags(c.notable),
                fieldList(c.fields),
              ]),
              { className: 'data changes' },
            ),
        loaded.note ? h('p', { class: 'meta' }, loaded.note) : null,
      ];
    },
  };
  return [list, build];
}
