/**
 * A tiny element builder: text always goes in as text nodes, never as HTML,
 * so nothing the sandbox or a manifest contains can become markup.
 */

type Child = Node | string | number | undefined | null | false;
type Attrs = Record<string, string | number | boolean | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    el.setAttribute(name, value === true ? '' : String(value));
  }
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    el.append(typeof c === 'number' ? String(c) : c);
  }
  return el;
}

/** A `<table>` with a caption, column headers (`scope="col"`) and rows. */
export function table(
  caption: string,
  headers: readonly string[],
  rows: readonly HTMLTableRowElement[],
  className = '',
): HTMLTableElement {
  return h(
    'table',
    { class: className || undefined },
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, ...headers.map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, ...rows),
  );
}
