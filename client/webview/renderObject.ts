/** Renders the Desired vs Actual view of one object (everything but the editors). */
import type {
  DiffEntry,
  EventRow,
  ObjectViewState,
  PendingWhy,
  SchedulingExplanation,
  SyncAction,
} from '../src/webview/protocol';
import { h, table } from './dom';
import { formatValue, healthLine } from './format';
import { renderSync } from './renderSync';

export interface ObjectActions {
  openManifest(): void;
  refresh(): void;
  /** Sync, Revert Live to Manifest, Update Manifest from Live. */
  syncAction(action: SyncAction): void;
}

/** The manifest link, or undefined without a manifest. */
function manifestLink(state: ObjectViewState, actions: ObjectActions): HTMLElement | undefined {
  if (!state.manifest) return undefined;
  const link = h(
    'a',
    {
      href: '#',
      class: 'manifest-link',
      'aria-label': `Open the manifest ${state.manifest.label} at line ${state.manifest.line}`,
    },
    `${state.manifest.label}:${state.manifest.line}`,
  );
  link.addEventListener('click', (e) => {
    e.preventDefault();
    actions.openManifest();
  });
  return link;
}

/** Where the desired state comes from: `desired from web.yaml:9`, the owner's template, or why there is none. */
function desiredSource(state: ObjectViewState, actions: ObjectActions): (Node | string)[] {
  const link = manifestLink(state, actions);
  const c = state.comparedWith ?? (link ? { kind: 'manifest' as const } : { kind: 'none' as const, why: '' });
  if (c.kind === 'manifest') return link ? ['desired from ', link] : ['no saved manifest'];
  if (c.kind === 'template') {
    const chain = c.managedBy.length > 0 ? `, managed by ${c.managedBy.join(' → ')}` : '';
    return [`compared with the pod template of ${c.owner}${chain}`, ...(link ? [' (declared in ', link, ')'] : [])];
  }
  return [h('span', { class: 'muted' }, c.why || 'not declared in a saved manifest')];
}

export function renderHeader(state: ObjectViewState, actions: ObjectActions): HTMLElement {
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
      ...desiredSource(state, actions),
      ' ',
      refresh,
    ),
    state.cluster
      ? h(
          'p',
          { class: 'meta live-source', role: 'note' },
          `Actual from context "${state.cluster.context}" (read-only) · ${state.cluster.note}`,
        )
      : null,
    health,
    state.sync ? renderSync(state.sync, (a) => actions.syncAction(a)) : null,
  );
}

/** A Pending pod's requests against every node: the first thing its view shows. */
export function renderWhy(why: PendingWhy): HTMLElement {
  const rows = why.rows.map((r) =>
    h(
      'tr',
      { class: r.fits ? 'node-fits' : 'node-rejected' },
      h('th', { scope: 'row' }, r.node),
      h('td', {}, r.cpu),
      h('td', {}, r.memory),
      h('td', { class: 'verdict' }, r.verdict),
    ),
  );
  return h(
    'div',
    {},
    h('p', { class: 'why-lead' }, why.lead),
    table('Each node: allocatable, requested by its pods, free', ['Node', 'CPU', 'Memory', ''], rows, 'fit'),
  );
}

const KIND_LABEL: Record<DiffEntry['kind'], string> = {
  same: 'same',
  drift: 'drift',
  defaulted: 'default',
  missing: 'missing',
  'extra-by-server': 'server',
};

function diffRow(e: DiffEntry): HTMLTableRowElement {
  return h(
    'tr',
    { class: `diff-${e.kind}` },
    h('th', { scope: 'row' }, h('code', {}, e.path)),
    h('td', {}, formatValue(e.desired)),
    h('td', {}, formatValue(e.live)),
    h('td', {}, KIND_LABEL[e.kind]),
  );
}

const HEADERS = ['Field', 'Desired', 'Live', ''];

/**
 * Drift first: the fields out of sync in their own table, then the fields that match (declared or defaulted) folded
 * away, then — when asked — the fields the server set.
 */
export function renderDiff(entries: readonly DiffEntry[], showServer: boolean, template = false): HTMLElement {
  const drift = entries.filter((e) => e.kind === 'drift' || e.kind === 'missing');
  const matching = entries.filter((e) => e.kind === 'same' || e.kind === 'defaulted');
  const server = entries.filter((e) => e.kind === 'extra-by-server');
  const against = template ? 'its pod template' : 'the manifest';
  const summary =
    entries.length === 0
      ? 'Nothing to compare with.'
      : drift.length === 0
        ? `In sync: the live object matches ${against} (defaults aside).`
        : `${drift.length} field${drift.length === 1 ? '' : 's'} out of sync with ${against}.`;
  const defaulted = matching.filter((e) => e.kind === 'defaulted').length;
  const same = h(
    'details',
    { class: 'matching' },
    h('summary', {}, `${matching.length} field${matching.length === 1 ? '' : 's'} match (${defaulted} by default)`),
    table('Fields that match', HEADERS, matching.map(diffRow), 'diff'),
  );
  return h(
    'div',
    {},
    h('p', { class: drift.length > 0 ? 'summary drift' : 'summary' }, summary),
    drift.length > 0 ? table('Fields out of sync, desired against live', HEADERS, drift.map(diffRow), 'diff') : null,
    matching.length > 0 ? same : null,
    showServer && server.length > 0 ? table('Fields set by the server', HEADERS, server.map(diffRow), 'diff') : null,
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
