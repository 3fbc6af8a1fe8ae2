/** Renders the Desired vs Actual view of one object (everything but the editors). */
import type { DiffEntry, EventRow, ObjectViewState, SchedulingExplanation, SyncAction } from '../src/webview/protocol';
import { h, table } from './dom';
import { formatValue, healthLine } from './format';
import { renderSync } from './renderSync';

export interface ObjectActions {
  openManifest(): void;
  refresh(): void;
  /** Sync, Revert Live to Manifest, Update Manifest from Live. */
  syncAction(action: SyncAction): void;
}

export function renderHeader(state: ObjectViewState, actions: ObjectActions): HTMLElement {
  const source = state.manifest
    ? h(
        'a',
        {
          href: '#',
          class: 'manifest-link',
          'aria-label': `Open the manifest ${state.manifest.label} at line ${state.manifest.line}`,
        },
        `${state.manifest.label}:${state.manifest.line}`,
      )
    : h('span', { class: 'muted' }, 'not from a saved manifest');
  source.addEventListener('click', (e) => {
    e.preventDefault();
    if (state.manifest) actions.openManifest();
  });
  const refresh = h('button', { type: 'button', class: 'secondary', 'aria-label': 'Refresh' }, 'Refresh');
  refresh.addEventListener('click', () => actions.refresh());
  const health = state.health
    ? h(
        'p',
        {
          class: `health health-${state.health.status.toLowerCase()}`,
          role: 'status',
          'aria-label': `Health: ${healthLine(state.health)}`,
        },
        h('span', { class: 'health-dot', 'aria-hidden': 'true' }),
        healthLine(state.health),
      )
    : h('p', { class: 'health muted', role: 'status' }, 'No health rule for this kind');
  return h(
    'header',
    {},
    h('h1', {}, `Desired vs Actual: ${state.title}`),
    h(
      'p',
      { class: 'meta' },
      state.ref.namespace ? `namespace ${state.ref.namespace} · ` : '',
      'desired from ',
      source,
      ' ',
      refresh,
    ),
    health,
    state.sync ? renderSync(state.sync, (a) => actions.syncAction(a)) : null,
  );
}

const KIND_LABEL: Record<DiffEntry['kind'], string> = {
  same: 'same',
  drift: 'drift',
  defaulted: 'default',
  missing: 'missing',
  'extra-by-server': 'server',
};

export function renderDiff(entries: readonly DiffEntry[], showServer: boolean): HTMLElement {
  const drift = entries.filter((e) => e.kind === 'drift' || e.kind === 'missing').length;
  const shown = entries.filter((e) => showServer || e.kind !== 'extra-by-server');
  const rows = shown.map((e) =>
    h(
      'tr',
      { class: `diff-${e.kind}` },
      h('th', { scope: 'row' }, h('code', {}, e.path)),
      h('td', {}, formatValue(e.desired)),
      h('td', {}, formatValue(e.live)),
      h('td', {}, KIND_LABEL[e.kind]),
    ),
  );
  const summary =
    entries.length === 0
      ? 'No saved manifest to compare with.'
      : drift === 0
        ? 'In sync: the live object matches the manifest (defaults aside).'
        : `${drift} field${drift === 1 ? '' : 's'} out of sync.`;
  return h(
    'div',
    {},
    h('p', { class: drift > 0 ? 'summary drift' : 'summary' }, summary),
    table('Fields, desired against live', ['Field', 'Desired', 'Live', ''], rows, 'diff'),
  );
}

export function renderEvents(events: readonly EventRow[]): HTMLElement {
  if (events.length === 0) return h('p', { class: 'muted' }, 'No events.');
  const rows = events.map((e) =>
    h(
      'tr',
      { class: e.type === 'Warning' ? 'event-warning' : '' },
      h('td', {}, e.lastSeen),
      h('td', {}, e.type),
      h('td', {}, e.reason),
      h('td', {}, e.object),
      h('td', {}, e.count > 1 ? `${e.message} (x${e.count})` : e.message),
    ),
  );
  return table('Recent events', ['Last seen', 'Type', 'Reason', 'Object', 'Message'], rows, 'events');
}

export function renderScheduling(x: SchedulingExplanation): HTMLElement {
  const rows = (x.nodes ?? []).map((n) => {
    const verdict = n.rejectedBy
      ? `rejected by ${n.rejectedBy}: ${(n.reasons ?? []).join('; ')}`
      : n.scores
        ? `feasible, score ${n.total ?? 0}`
        : 'feasible';
    const scores = n.scores
      ? Object.entries(n.scores)
          .map(([p, s]) => `${p} ${s}`)
          .join(', ')
      : '';
    return h(
      'tr',
      { class: n.rejectedBy ? 'node-rejected' : n.chosen ? 'node-chosen' : '' },
      h('th', { scope: 'row' }, n.node),
      h('td', {}, verdict),
      h('td', {}, scores),
    );
  });
  return h(
    'div',
    {},
    h(
      'p',
      {},
      `${x.outcome} after ${x.attempts} attempt${x.attempts === 1 ? '' : 's'}: ${x.feasibleNodes} of ${x.totalNodes} nodes feasible.`,
    ),
    x.message ? h('p', { class: 'muted' }, x.message) : null,
    rows.length > 0
      ? table('Per node', ['Node', 'Verdict', 'Scores'], rows, 'scheduling')
      : h('p', { class: 'muted' }, 'Per-node detail is no longer kept for this decision.'),
  );
}

/** A titled, labelled section. */
export function section(id: string, title: string, ...content: HTMLElement[]): HTMLElement {
  return h('section', { 'aria-labelledby': id }, h('h2', { id }, title), ...content);
}
