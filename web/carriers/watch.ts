// The carriers' memory across builds in the explorer: "What changed" (the builds are public files of the tree,
// each build's changes signed in, from GET /api/changes) and the signed-in key's watchlists: create, edit and
// delete them, and read each list's changes (docs/contracts/changes.md).
import type { ChangesIndex } from '../../contract/core/changes.ts';
import type { Changes } from '../../contract/types/core/changes.ts';
import type { Watchlist } from '../../contract/types/carriers/watchlist.ts';
import type { WatchlistChanges } from '../../contract/types/carriers/watchlist-changes.ts';
import type { Watchlists } from '../../contract/types/carriers/watchlists.ts';
import { getJson, query } from '../core/api.ts';
import { errorPanel, href, rerender, type View, type ViewContext } from '../core/app.ts';
import { type BuildChanges, changesViews, fieldList } from '../core/changes.ts';
import { type Child, field, h, table } from '../core/dom.ts';
import { MISSING, num } from '../core/format.ts';
import { empty } from '../core/parts.ts';
import { auth, keyStore, signInForm, signOutButton } from './session.ts';

const API = 'api';
/** The notable words of the carriers' changes. */
const WORDS = ['alert_started', 'alert_ended', 'name_changed'];
const carrierHref = (id: number | string) => href(`/carrier/${id}`);
const listHref = (id: string) => href(`/watchlists/${id}`);
const when = (iso: string | null) => (iso ? iso.replace('T', ' ').slice(0, 16) : MISSING);

/** One build's changes, signed in: the first 1,000 of GET /api/changes after the build it replaced. */
async function loadBuild(ctx: ViewContext, version: string, notable: string | null): Promise<BuildChanges | Child[]> {
  const key = keyStore.get();
  if (!key)
    return [
      h('h1', null, `Build ${version}`),
      signInForm(h('p', null, 'A build’s changes to carriers are signed-in data, as profiles are; counts are public.')),
    ];
  const { body: index } = await getJson<ChangesIndex>('changes/index.json', { signal: ctx.signal });
  const entry = index.builds.find((b) => b.href === `${version}.json`);
  if (!entry) return [h('h1', null, `Build ${version}`), empty('No build of the change history has this name.')];
  const total = entry.counts.added + entry.counts.removed + entry.counts.changed;
  const base = {
    data_version: entry.data_version,
    previous: entry.previous,
    built_at: entry.built_at,
    total,
    words: WORDS,
  };
  if (entry.previous === null) return { ...base, changes: [] };
  const { body } = await getJson<Changes>(`${API}/changes${query({ since: entry.previous, notable, limit: 1000 })}`, {
    headers: auth(key),
    signal: ctx.signal,
  });
  const changes = body.results.filter((c) => c.data_version === entry.data_version && c.built_at === entry.built_at);
  return {
    ...base,
    changes,
    ...(changes.length === 1000
      ? { note: 'The first 1,000 changes of this build; GET /api/changes pages through the rest.' }
      : {}),
  };
}

export const carrierChangesViews = (): View[] =>
  changesViews({ entityHref: (id) => carrierHref(id), noun: 'carriers', load: loadBuild });

/** Carrier ids typed as numbers separated by commas, spaces or lines. */
const idsOf = (text: string) =>
  text
    .split(/[\s,;]+/)
    .filter(Boolean)
    .map(Number);

/** The form that creates a list, or replaces `list`: POST or PUT, then `done` with the answer. */
function listForm(key: string, list: Watchlist | undefined, done: (answer: Watchlist) => void): HTMLElement {
  const name = h('input', { type: 'text', name: 'name', required: true, maxlength: 100, value: list?.name ?? '' });
  const carriers = h('textarea', { name: 'carriers', required: true, rows: 3 }, list?.carriers.join(', ') ?? '');
  const url = h('input', { type: 'url', name: 'webhook', value: list?.webhook?.url ?? '', placeholder: 'https://' });
  const out = h('div', { 'aria-live': 'polite' });
  const form = h(
    'form',
    { class: 'filters watchlist-form', 'aria-label': list ? 'Edit the list' : 'New list' },
    field('Name', name),
    field('Carriers', carriers, 'USDOT numbers, separated by commas or spaces'),
    field('Webhook', url, 'optional: an https URL that receives each build’s changes to these carriers'),
    h('button', { type: 'submit' }, list ? 'Save' : 'Create'),
    out,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const body = {
      name: name.value.trim(),
      carriers: idsOf(carriers.value),
      ...(url.value.trim() ? { webhook: { url: url.value.trim() } } : {}),
    };
    getJson<Watchlist>(list ? `${API}/watchlists/${list.id}` : `${API}/watchlists`, {
      method: list ? 'PUT' : 'POST',
      headers: { ...auth(key), 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }).then(
      ({ body: answer }) => done(answer),
      (err: unknown) => out.replaceChildren(errorPanel(err)),
    );
  });
  return form;
}

/** Shown once: the webhook's secret, which signs every delivery. */
const secretNotice = (w: Watchlist) =>
  w.webhook?.secret
    ? h(
        'p',
        { class: 'notice secret' },
        h('strong', null, 'Keep this webhook secret now: it is not shown again. '),
        h('code', null, w.webhook.secret),
      )
    : null;

/** A secret just shown, kept until the next view so the list view can show it once. */
let justMade: Watchlist | undefined;

function signedOut(title: string): Child[] {
  return [h('h1', null, title), signInForm(h('p', null, 'Watchlists belong to an API key.'))];
}

const watchlists: View = {
  name: 'watchlists',
  pattern: /^\/watchlists$/,
  nav: '#/watchlists',
  async render(ctx) {
    const key = keyStore.get();
    if (!key) return signedOut('Watchlists');
    const { body } = await getJson<Watchlists>(`${API}/watchlists`, { headers: auth(key), signal: ctx.signal });
    const made = justMade;
    justMade = undefined;
    ctx.announce(`${num(body.results.length)} watchlists`);
    return [
      h('h1', null, 'Watchlists'),
      h(
        'p',
        { class: 'lede' },
        'Lists of carriers whose changes this key follows, build after build; a webhook receives them as each build is published.',
      ),
      h('div', { class: 'actions' }, signOutButton()),
      made ? secretNotice(made) : null,
      body.results.length === 0
        ? empty('This key has no watchlist yet.')
        : table(
            'The key’s watchlists',
            ['Name', 'Carriers', 'Webhook', 'Last delivery'],
            body.results.map((w) => [
              h('a', { href: listHref(w.id) }, w.name),
              num(w.carriers.length),
              w.webhook?.url ?? MISSING,
              w.webhook?.last_delivery
                ? `${w.webhook.last_delivery.status}, ${when(w.webhook.last_delivery.at)}`
                : MISSING,
            ]),
            { numeric: [1], className: 'data watchlists' },
          ),
      h('h2', null, 'New list'),
      listForm(key, undefined, (answer) => {
        justMade = answer;
        rerender();
      }),
    ];
  },
};

const watchlist: View = {
  name: 'watchlist',
  pattern: /^\/watchlists\/(?<id>wl_[0-9a-f]+)$/,
  nav: '#/watchlists',
  async render(ctx) {
    const id = ctx.match.id ?? '';
    const back = h('p', { class: 'meta' }, h('a', { href: '#/watchlists' }, '← Every list'));
    const key = keyStore.get();
    if (!key) return [back, ...signedOut('Watchlist')];
    const cursor = ctx.route.params.get('cursor');
    const [{ body: list }, { body: feed }] = await Promise.all([
      getJson<Watchlist>(`${API}/watchlists/${id}`, { headers: auth(key), signal: ctx.signal }),
      getJson<WatchlistChanges>(`${API}/watchlists/${id}/changes${query({ cursor })}`, {
        headers: auth(key),
        signal: ctx.signal,
      }),
    ]);
    const made = justMade?.id === id ? justMade : undefined;
    justMade = undefined;
    const remove = h('button', { type: 'button', class: 'secondary' }, 'Delete this list');
    remove.addEventListener('click', () => {
      getJson(`${API}/watchlists/${id}`, { method: 'DELETE', headers: auth(key) }).then(
        () => {
          location.hash = '#/watchlists';
        },
        (err: unknown) => remove.replaceWith(errorPanel(err)),
      );
    });
    ctx.announce(`${num(feed.results.length)} changes`);
    return [
      back,
      h('h1', null, list.name),
      made ? secretNotice(made) : null,
      h(
        'p',
        { class: 'lede' },
        `${num(list.carriers.length)} carriers, followed since ${when(list.created_at)} UTC.`,
        list.webhook ? ` Webhook: ${list.webhook.url}.` : '',
      ),
      h('h2', null, cursor ? 'Newer changes' : 'Changes since the list was made'),
      feed.results.length === 0
        ? empty('No change to these carriers yet.')
        : table(
            'Changes to the listed carriers, oldest first',
            ['Build', 'Carrier', 'Notable', 'What moved'],
            feed.results.map((c) => [
              `${when(c.built_at)} (${c.data_version})`,
              h('a', { href: carrierHref(c.id) }, c.name),
              c.notable.length ? c.notable.map((w) => w.replaceAll('_', ' ')).join(', ') : MISSING,
              fieldList(c.fields),
            ]),
            { className: 'data changes' },
          ),
      h('p', null, h('a', { href: href(`/watchlists/${id}`, { cursor: feed.next_cursor }) }, 'Newer changes')),
      h('h2', null, 'Carriers'),
      h(
        'ul',
        { class: 'carrier-list' },
        ...list.carriers.map((c) => h('li', null, h('a', { href: carrierHref(c) }, `USDOT ${c}`))),
      ),
      h('h2', null, 'Edit'),
      listForm(key, list, (answer) => {
        justMade = answer;
        rerender();
      }),
      h('div', { class: 'actions' }, remove),
    ];
  },
};

export const watchlistViews = (): View[] => [watchlists, watchlist];
