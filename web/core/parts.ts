// Pieces every explorer's views share: paging, empty results, number cards, and the search form's submit
// that turns a form into a view's URL.
import { href, navigate } from './app.ts';
import { type Child, h } from './dom.ts';
import { num } from './format.ts';

/**
 * "Showing 51–100 of 127" with links to the pages before and after (`hrefAt(offset)`); `where` tells the
 * pager above the results from the one below them.
 */
export function pager(
  total: number,
  offset: number,
  limit: number,
  hrefAt: (offset: number) => string,
  noun: string,
  where: 'above' | 'below' = 'above',
) {
  const first = total === 0 ? 0 : Math.min(offset + 1, total);
  const last = Math.min(offset + limit, total);
  const text =
    offset >= total && total > 0
      ? `This page is past the last of ${num(total)} ${noun}.`
      : `Showing ${num(first)}–${num(last)} of ${num(total)} ${noun}`;
  return h(
    'nav',
    { class: 'pager', 'aria-label': `Pages (${where} the results)` },
    h('span', null, text),
    offset > 0 ? h('a', { href: hrefAt(Math.max(0, offset - limit)), rel: 'prev' }, '← Previous page') : null,
    offset + limit < total ? h('a', { href: hrefAt(offset + limit), rel: 'next' }, 'Next page →') : null,
  );
}

export const empty = (...children: Child[]) => h('p', { class: 'empty', role: 'status' }, ...children);

export function card(figure: Child, label: Child): HTMLElement {
  return h('div', { class: 'card' }, h('span', { class: 'figure' }, figure), h('span', { class: 'label' }, label));
}

/**
 * A form whose submit opens `path` with its fields as the parameters (empty ones left out), so every search
 * has its own URL; paging starts over.
 */
export function routeForm(path: string, children: Child[], options: { label: string; className?: string }) {
  const form = h(
    'form',
    { class: options.className ?? 'filters', role: 'search', 'aria-label': options.label },
    ...children,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const params: Record<string, string> = {};
    for (const [k, v] of new FormData(form)) if (typeof v === 'string' && v.trim() !== '') params[k] = v.trim();
    navigate(href(path, params));
  });
  return form;
}

/** An integer parameter within bounds, or the default. */
export function intParam(params: URLSearchParams, name: string, fallback: number, min = 0, max = 10_000): number {
  const raw = params.get(name);
  if (raw === null || !/^\d+$/.test(raw)) return fallback;
  return Math.min(max, Math.max(min, Number(raw)));
}
