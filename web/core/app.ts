// The explorer's shell: hash routing, the views' loading and error states, the navigation, focus and the
// announcements a screen reader hears.
//
// Routing is by the URL's fragment (`#/facility/ONF-000001?…`): the page is one file, so any static host
// (a CDN beside the data) serves every view's URL, and the server needs no fallback route. Opening a URL
// shows its view; back and forward are the browser's own history of fragments.
import { ApiError, whatToDo } from './api.ts';
import { mountCharts } from './chart.ts';
import { append, type Child, h } from './dom.ts';

export interface Route {
  /** `/facility/ONF-000001`, always starting with `/`. */
  path: string;
  params: URLSearchParams;
}

/** The route in the location's fragment; anything that is not `#/…` is the home view. */
export function currentRoute(): Route {
  const raw = location.hash.startsWith('#/') ? location.hash.slice(1) : '/';
  const q = raw.indexOf('?');
  const path = q === -1 ? raw : raw.slice(0, q);
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A malformed escape: matched as it is (no view has such a path: not found).
  }
  return { path: decoded, params: new URLSearchParams(q === -1 ? '' : raw.slice(q + 1)) };
}

/** The link to a view: `#/path?params`, leaving out parameters without a value. */
export function href(path: string, params: Record<string, string | number | null | undefined> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return `#${path}${s ? `?${s}` : ''}`;
}

/** Goes to a view, adding to the history (back returns here). */
export function navigate(to: string): void {
  if (location.hash === to) render();
  else location.hash = to;
}

export interface ViewContext {
  route: Route;
  /** The path's groups of the view's pattern (`/facility/(?<id>…)`). */
  match: Record<string, string>;
  /** Aborted when another view replaces this one before it finished loading. */
  signal: AbortSignal;
  /** Announces a short status (result counts) to screen readers. */
  announce(text: string): void;
}

export interface View {
  /** Names the view in `data-view` of the main element (tests and styles). */
  name: string;
  pattern: RegExp;
  /** The nav entry this view belongs to (its href), for aria-current. */
  nav?: string;
  /** The view's content, with its `<h1>` first; the page title is taken from it. */
  render(ctx: ViewContext): Promise<Child>;
}

export interface ExplorerOptions {
  service: string;
  views: readonly View[];
  /** A view's own advice for an error (signing in), before the general one; undefined to use the general. */
  advise?(err: ApiError, ctx: ViewContext): Child | undefined;
}

let options: ExplorerOptions | undefined;
let current: AbortController | undefined;
let statusEl: HTMLElement | undefined;

/** The error panel: what went wrong, in the service's words, and what to do. */
export function errorPanel(err: unknown, advice?: Child): HTMLElement {
  if (!(err instanceof ApiError)) {
    return h(
      'div',
      { class: 'error', role: 'alert' },
      h('h2', null, 'Something went wrong'),
      h('p', null, String((err as Error)?.message ?? err)),
      h('p', null, 'Reload the page to try again.'),
    );
  }
  const p = err.problem;
  return h(
    'div',
    { class: 'error', role: 'alert', 'data-status': p.status, 'data-code': p.code },
    h('h2', null, p.title ?? 'Error', p.status ? ` (${p.status})` : ''),
    p.detail ? h('p', null, p.detail) : null,
    p.errors?.length ? h('ul', null, ...p.errors.map((e) => h('li', null, `${e.parameter}: ${e.message}`))) : null,
    h('p', { class: 'advice' }, h('strong', null, 'What to do: '), advice ?? whatToDo(err)),
  );
}

/**
 * Marks the current view's entry of the page's navigation, which the page itself lists (pipeline/core/
 * explorer.ts): drawn with the header, it never moves the page when the script starts.
 */
function markNav(view: View | undefined): void {
  for (const a of document.querySelectorAll<HTMLAnchorElement>('#nav a')) {
    if (view?.nav !== undefined && a.getAttribute('href') === view.nav) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

async function render(): Promise<void> {
  if (!options) return;
  const main = document.getElementById('app');
  if (!main) return;
  current?.abort();
  const controller = new AbortController();
  current = controller;
  const route = currentRoute();
  let view: View | undefined;
  let match: RegExpExecArray | null = null;
  for (const v of options.views) {
    match = v.pattern.exec(route.path);
    if (match) {
      view = v;
      break;
    }
  }
  markNav(view);
  main.setAttribute('aria-busy', 'true');
  main.dataset.view = view?.name ?? 'not-found';
  // Loading: said at once where the view will be, the previous view gone.
  main.replaceChildren(h('p', { class: 'loading' }, 'Loading…'));
  announce('Loading…');
  const ctx: ViewContext = {
    route,
    match: { ...(match?.groups ?? {}) },
    signal: controller.signal,
    announce,
  };
  let content: Child;
  try {
    if (!view) {
      content = [
        h('h1', null, 'No such view'),
        h('p', null, `Nothing is at ${location.hash}.`),
        h('p', null, h('a', { href: '#/' }, 'Go to the start page')),
      ];
    } else content = await view.render(ctx);
  } catch (err) {
    if (controller.signal.aborted || (err as Error)?.name === 'AbortError') return;
    content = [
      h('h1', null, view?.name === 'home' ? 'The explorer could not load' : 'This view could not load'),
      errorPanel(err, err instanceof ApiError ? options.advise?.(err, ctx) : undefined),
    ];
    announce('Error');
  }
  if (controller.signal.aborted) return;
  const box = document.createDocumentFragment();
  append(box, [content]);
  main.replaceChildren(box);
  mountCharts();
  const heading = main.querySelector('h1');
  document.title = `${heading?.textContent ?? 'Explorer'} · shardline ${options.service}`;
  main.setAttribute('aria-busy', 'false');
  performance.mark('explorer:view-ready');
  // Focus to the view's heading, so keyboard and screen reader users start reading the new view there.
  if (heading) {
    heading.setAttribute('tabindex', '-1');
    heading.focus({ preventScroll: true });
  }
  window.scrollTo(0, 0);
}

export function announce(text: string): void {
  if (!statusEl) {
    statusEl = h('p', { id: 'status', class: 'visually-hidden', role: 'status', 'aria-live': 'polite' });
    document.body.append(statusEl);
  }
  statusEl.textContent = text;
}

/** Starts the explorer: renders the view the URL names now, and again on every change of the fragment. */
export function startExplorer(opts: ExplorerOptions): void {
  options = opts;
  addEventListener('hashchange', () => void render());
  void render();
}

/** Re-renders the current view (after signing in or out). */
export const rerender = (): void => void render();
