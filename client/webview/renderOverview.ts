/** Renders the Cluster overview: the aggregate health and one row per declared object. */
import type { ObjectRef, OverviewViewState } from '../src/webview/protocol';
import { h, table } from './dom';
import { healthLine } from './format';

export function renderOverview(state: OverviewViewState, open: (ref: ObjectRef) => void): HTMLElement {
  const rows = state.rows.map((r) => {
    const name = `${r.kind.toLowerCase()}/${r.ref.name}`;
    const link = h('a', { href: '#', 'aria-label': `Show desired vs actual for ${name}` }, name);
    link.addEventListener('click', (e) => {
      e.preventDefault();
      open(r.ref);
    });
    const status = r.health?.status ?? '';
    return h(
      'tr',
      { class: status ? `health-${status.toLowerCase()}` : '' },
      h('th', { scope: 'row' }, link),
      h('td', {}, r.ref.namespace ?? ''),
      h('td', {}, h('span', { class: 'health-dot', 'aria-hidden': 'true' }), status || '—'),
      h('td', {}, r.health?.message ?? ''),
    );
  });
  return h(
    'div',
    {},
    h(
      'header',
      {},
      h('h1', {}, 'Cluster overview'),
      h(
        'p',
        { class: `health health-${state.health.status.toLowerCase()}`, role: 'status' },
        h('span', { class: 'health-dot', 'aria-hidden': 'true' }),
        `Cluster: ${healthLine(state.health)}`,
      ),
    ),
    rows.length > 0
      ? table('Objects and their health', ['Object', 'Namespace', 'Health', 'Message'], rows, 'overview')
      : h('p', { class: 'muted' }, 'Nothing applied yet: save a manifest to apply it.'),
  );
}
