// Building the page: elements from a tag, attributes and children, text always as text (never parsed as
// HTML), so a name from the data can hold `<` or `&` and stays a name.

export type Child = Node | string | number | null | undefined | false | readonly Child[];
type Attr = string | number | boolean | null | undefined | ((event: Event) => void);

/**
 * `h('a', { href: '#/x', class: 'result' }, 'name')`. An attribute of `false`, null or undefined is left out,
 * `true` is present and empty, a function on an `on…` name listens to that event.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, Attr> | null = null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [name, value] of Object.entries(attrs)) {
      if (value === false || value === null || value === undefined) continue;
      if (typeof value === 'function') el.addEventListener(name.slice(2), value);
      else el.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

export function append(parent: Node, children: readonly Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(parent, c as readonly Child[]);
    else parent.appendChild(typeof c === 'object' ? (c as Node) : document.createTextNode(String(c)));
  }
}

/** A `<dl>` of label → value pairs, leaving out pairs without a value. */
export function facts(pairs: readonly (readonly [string, Child])[]): HTMLDListElement {
  const dl = h('dl', { class: 'facts' });
  for (const [label, value] of pairs) {
    if (value === null || value === undefined || value === false || value === '') continue;
    dl.append(h('dt', null, label), h('dd', null, value));
  }
  return dl;
}

/** A table with a caption, column headers and rows; a row's first cell may be a header for the row. */
export function table(
  caption: string,
  columns: readonly string[],
  rows: readonly (readonly Child[])[],
  options: { numeric?: readonly number[]; rowHeaders?: boolean; className?: string } = {},
): HTMLTableElement {
  const numeric = new Set(options.numeric ?? []);
  return h(
    'table',
    { class: options.className ?? 'data' },
    h('caption', null, caption),
    h(
      'thead',
      null,
      h('tr', null, ...columns.map((c, i) => h('th', { scope: 'col', class: numeric.has(i) && 'num' }, c))),
    ),
    h(
      'tbody',
      null,
      ...rows.map((r) =>
        h(
          'tr',
          null,
          ...r.map((cell, i) =>
            i === 0 && options.rowHeaders
              ? h('th', { scope: 'row' }, cell)
              : h('td', { class: numeric.has(i) && 'num' }, cell),
          ),
        ),
      ),
    ),
  );
}

/** A labelled form control: the label names it for assistive technology and takes clicks. */
export function field(label: string, control: HTMLElement, hint?: string): HTMLDivElement {
  const id = control.id || `f-${label.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  control.id = id;
  const hintEl = hint ? h('small', { id: `${id}-hint`, class: 'hint' }, hint) : null;
  if (hintEl) control.setAttribute('aria-describedby', hintEl.id);
  return h('div', { class: 'field' }, h('label', { for: id }, label), control, hintEl);
}

/** A `<select>` of value → label options with one selected. */
export function select(
  name: string,
  options: readonly (readonly [string, string])[],
  selected: string | null | undefined,
): HTMLSelectElement {
  return h(
    'select',
    { name },
    ...options.map(([value, label]) => h('option', { value, selected: value === (selected ?? '') }, label)),
  );
}
