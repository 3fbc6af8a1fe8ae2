/**
 * The webview page: says `ready`, then renders every `state` the host posts.
 * Everything from the host is validated (protocol.ts) before it is rendered.
 */
import {
  isHostMessage,
  type HostMessage,
  type ObjectViewState,
  type ViewState,
  type WebviewMessage,
} from '../src/webview/protocol';
import { h } from './dom';
import { createYamlEditor, followTheme, setText, setUpMonaco, type Editor } from './editors';
import { renderDiff, renderEvents, renderHeader, renderScheduling, renderWhy, section } from './renderObject';
import { renderOverview } from './renderOverview';
import { renderTimeline } from './renderTimeline';

interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const root = document.getElementById('root')!;
const post = (m: WebviewMessage) => vscode.postMessage(m);

/** Kept across re-renders: the editors (re-creating Monaco on each state would lose scroll and edits). */
interface Page {
  desired?: Editor;
  live?: Editor;
  edit?: Editor;
  editing: boolean;
  showServer: boolean;
  nextEditId: number;
  last?: ObjectViewState;
  /** Timeline steps whose per-node results are folded open. */
  openNodes: Set<number>;
}
const page: Page = { editing: false, showServer: false, nextEditId: 1, openNodes: new Set() };
const uris = { editor: document.body.dataset.editorWorker ?? '', yaml: document.body.dataset.yamlWorker ?? '' };

function editorHost(label: string): HTMLElement {
  return h('div', { class: 'editor', role: 'region', 'aria-label': label });
}

/** The parts that are rebuilt on every state; the editor area is built once. */
function renderObject(state: ObjectViewState): void {
  page.last = state;
  let shell = document.getElementById('object-shell');
  if (!shell) {
    root.replaceChildren();
    shell = buildShell();
    root.append(shell);
  }
  document.getElementById('header')!.replaceChildren(
    renderHeader(state, {
      openManifest: () => post({ type: 'openManifest' }),
      refresh: () => post({ type: 'refresh' }),
      syncAction: (action) => post({ type: 'syncAction', action }),
    }),
  );
  document.getElementById('diff')!.replaceChildren(renderDiff(state.diff, page.showServer, isTemplate(state)));
  document.getElementById('events')!.replaceChildren(renderEvents(state.events));
  // The sandbox's objects have a timeline; a real context's do not (the section is hidden then).
  document.getElementById('timeline-section')!.hidden = state.timeline === undefined;
  if (state.timeline)
    document.getElementById('timeline')!.replaceChildren(
      renderTimeline(
        state.timeline,
        {
          openStep: (step) => post({ type: 'openStep', step }),
          toggled: (step, open) => (open ? page.openNodes.add(step) : page.openNodes.delete(step)),
        },
        page.openNodes,
      ),
    );
  // A Pending pod's "why" comes first, with numbers, before the desired and live YAML.
  const scheduling = document.getElementById('scheduling')!;
  const pending = state.why !== undefined || state.scheduling !== undefined;
  scheduling.hidden = !pending;
  scheduling.replaceChildren(
    ...(pending
      ? [
          h('h2', { id: 'scheduling-title' }, 'Why is this pod Pending?'),
          ...(state.why ? [renderWhy(state.why)] : []),
          ...(state.scheduling ? [renderScheduling(state.scheduling)] : []),
        ]
      : []),
  );
  document.getElementById('desired-title')!.textContent = isTemplate(state)
    ? `Desired (the pod template of ${(state.comparedWith as { owner: string }).owner})`
    : 'Desired (saved manifest)';
  if (page.desired) setText(page.desired, state.manifest?.yaml ?? '# No saved manifest declares this object.');
  if (page.live) setText(page.live, state.liveYaml ?? '# The object does not exist.');
  document.getElementById('edit-button')!.toggleAttribute('disabled', state.liveYaml === undefined);
}

function buildShell(): HTMLElement {
  const showServer = h('input', { type: 'checkbox', id: 'show-server' });
  showServer.addEventListener('change', () => {
    page.showServer = showServer.checked;
    if (page.last)
      document
        .getElementById('diff')!
        .replaceChildren(renderDiff(page.last.diff, page.showServer, isTemplate(page.last)));
  });
  const desiredHost = editorHost('Desired manifest (read-only)');
  const liveHost = editorHost('Live object (read-only)');
  const editHost = editorHost('Edit the live object');
  const editButton = h('button', { type: 'button', id: 'edit-button' }, 'Edit live object');
  const save = h('button', { type: 'button', id: 'save-button', hidden: true }, 'Save');
  const cancel = h('button', { type: 'button', class: 'secondary', hidden: true }, 'Cancel');
  const result = h('p', { id: 'edit-result', role: 'status', class: 'muted' });
  editButton.addEventListener('click', () => startEditing(editHost, [editButton, save, cancel]));
  cancel.addEventListener('click', () => stopEditing(editHost, [editButton, save, cancel]));
  save.addEventListener('click', () => {
    if (!page.edit) return;
    result.textContent = 'Saving…';
    post({ type: 'editLive', id: page.nextEditId++, yaml: page.edit.getValue() });
  });
  const shell = h(
    'div',
    { id: 'object-shell' },
    h('div', { id: 'header' }),
    h('section', { id: 'scheduling', 'aria-labelledby': 'scheduling-title', hidden: true }),
    section(
      'yaml-title',
      'Desired and live',
      h(
        'div',
        { class: 'panes' },
        h('div', { class: 'pane' }, h('h3', { id: 'desired-title' }, 'Desired (saved manifest)'), desiredHost),
        h(
          'div',
          { class: 'pane' },
          h('h3', { id: 'live-title' }, 'Live object'),
          liveHost,
          h('h3', { id: 'edit-title', hidden: true }, 'Editing the live object: Save replaces it in the cluster'),
          editHost,
          h('div', { class: 'actions' }, editButton, save, cancel),
          result,
        ),
      ),
    ),
    section(
      'diff-title',
      'Differences',
      h('label', { class: 'toggle' }, showServer, ' Show fields set by the server'),
      h('div', { id: 'diff' }),
    ),
    section('events-title', 'Events', h('div', { id: 'events' })),
    // Collapsible (its summary is the heading, reachable with Tab, toggled with Enter or Space); open at first.
    h(
      'section',
      { id: 'timeline-section', 'aria-labelledby': 'timeline-title', hidden: true },
      h(
        'details',
        { class: 'timeline-section', open: true },
        h('summary', {}, h('h2', { id: 'timeline-title' }, 'Timeline')),
        h('div', { id: 'timeline' }),
      ),
    ),
  );
  setUpMonaco(uris);
  followTheme();
  page.desired = createYamlEditor(desiredHost, '', true, 'Desired manifest, read-only YAML');
  page.live = createYamlEditor(liveHost, '', true, 'Live object, read-only YAML');
  editHost.hidden = true;
  return shell;
}

/** While editing, the editable copy replaces the read-only one under its own heading: one copy of the YAML shown. */
function showEditor(editing: boolean): void {
  for (const id of ['live-title', 'edit-title'])
    document.getElementById(id)!.hidden = (id === 'edit-title') !== editing;
  const live = document.querySelector<HTMLElement>('.editor[aria-label="Live object (read-only)"]');
  if (live) live.hidden = editing;
}

function startEditing(host: HTMLElement, [edit, save, cancel]: HTMLElement[]): void {
  page.editing = true;
  showEditor(true);
  host.hidden = false;
  edit.hidden = true;
  save.hidden = false;
  cancel.hidden = false;
  const text = page.last?.liveYaml ?? '';
  if (page.edit) page.edit.setValue(text);
  else page.edit = createYamlEditor(host, text, false, 'Edit the live object, YAML');
  page.edit.focus();
}

function stopEditing(host: HTMLElement, [edit, save, cancel]: HTMLElement[]): void {
  page.editing = false;
  showEditor(false);
  host.hidden = true;
  edit.hidden = false;
  save.hidden = true;
  cancel.hidden = true;
}

function isTemplate(state: ObjectViewState): boolean {
  return state.comparedWith?.kind === 'template';
}

function render(state: ViewState): void {
  if (state.view === 'overview')
    root.replaceChildren(renderOverview(state, (ref) => post({ type: 'openObject', ref })));
  else renderObject(state);
}

function onEditResult(m: Extract<HostMessage, { type: 'editResult' }>): void {
  const result = document.getElementById('edit-result');
  if (!result) return;
  result.textContent = m.ok
    ? `${m.message} — watch the differences: the sync loop may put the manifest back.`
    : m.message;
  result.className = m.ok ? 'ok' : 'error';
  if (m.ok) {
    const buttons = ['edit-button', 'save-button'].map((id) => document.getElementById(id)!);
    const cancel = document.getElementById('save-button')!.nextElementSibling as HTMLElement;
    stopEditing(document.querySelectorAll<HTMLElement>('.editor')[1], [buttons[0], buttons[1], cancel]);
  }
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const m = event.data;
  if (!isHostMessage(m)) {
    // Monaco posts its own scheduling messages to the window; only log what claims to be ours.
    if (typeof m === 'object' && m !== null && 'type' in m)
      console.warn('Kube Reconcile webview: ignored an invalid message', m);
    return;
  }
  if (m.type === 'state') render(m.state);
  else onEditResult(m);
});

post({ type: 'ready' });
