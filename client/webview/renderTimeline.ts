/**
 * The Timeline section of Desired vs Actual: the object's causal chain as a table (time, actor, what and why, the
 * manifest line), the scheduler's per-node results folded under its decision, and the notes on what the sandbox could
 * not record. Links and folds are keyboard-reachable (an anchor, a `<details>` summary).
 */
import type { TimelineRow, TimelineView } from '../src/webview/protocol';
import { h, table } from './dom';

export interface TimelineActions {
  /** Opens the manifest line a step links to. */
  openStep(step: number): void;
  /** A step's per-node list was folded open or closed (kept across re-renders). */
  toggled(step: number, open: boolean): void;
}

function stepCell(r: TimelineRow, actions: TimelineActions, open: boolean): HTMLElement {
  const cell = h(
    'td',
    { class: 'step' },
    r.what ? h('span', { class: 'what' }, r.what) : null,
    r.what ? ' ' : null,
    r.text,
    r.why ? h('span', { class: 'why' }, ` (${r.why})`) : null,
    r.about ? h('span', { class: 'about muted' }, ` · ${r.about}`) : null,
  );
  if (r.nodes && r.nodes.length > 0) {
    const rows = r.nodes.map((n) =>
      h(
        'tr',
        { class: n.rejected ? 'node-rejected' : n.chosen ? 'node-chosen' : '' },
        h('th', { scope: 'row' }, n.node),
        h('td', {}, n.verdict),
      ),
    );
    const details = h(
      'details',
      { class: 'timeline-nodes', open },
      h('summary', {}, `Per-node results (${r.nodes.length} node${r.nodes.length === 1 ? '' : 's'})`),
      table(`The scheduler's result for each node`, ['Node', 'Result'], rows, 'scheduling'),
    );
    details.addEventListener('toggle', () => actions.toggled(r.id, details.open));
    cell.append(details);
  }
  return cell;
}

function linkCell(r: TimelineRow, actions: TimelineActions): HTMLElement {
  if (!r.link) return h('td', {});
  const a = h('a', { href: '#', class: 'step-link', 'aria-label': `Open ${r.link}` }, r.link);
  a.addEventListener('click', (e) => {
    e.preventDefault();
    actions.openStep(r.id);
  });
  return h('td', {}, a);
}

/** The section's content (the `<details>` around it is the page's, so its open state survives re-renders). */
export function renderTimeline(
  view: TimelineView,
  actions: TimelineActions,
  openNodes: ReadonlySet<number>,
): HTMLElement {
  const notes = view.notes.map((n) => h('p', { class: 'timeline-note', role: 'note' }, n));
  if (view.rows.length === 0) return h('div', {}, ...notes);
  const rows = view.rows.map((r) =>
    h(
      'tr',
      { class: r.warning ? 'timeline-warning' : '' },
      h('td', { class: 'time', title: r.at }, r.time),
      h('td', { class: 'actor', title: r.component }, r.actor),
      stepCell(r, actions, openNodes.has(r.id)),
      linkCell(r, actions),
    ),
  );
  return h(
    'div',
    {},
    ...notes,
    table('Every step from the apply to now, oldest first', ['Time', 'Actor', 'Step', 'Manifest'], rows, 'timeline'),
  );
}
