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
import { createYamlEditor, setText, setUpMonaco, type Editor } from './editors';
import { renderDiff, renderEvents, renderHeader, renderScheduling, section } from './renderObject';
import { renderOverview } from './renderOverview';

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
}
const page: Page = { editing: false, showServer: false, nextEditId: 1 };
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
  document.getElementById('diff')!.replaceChildren(renderDiff(state.diff, page.showServer));
  document.getElementById('events')!.replaceChildren(renderEvents(state.events));
  const scheduling = document.getElementById('scheduling')!;
  scheduling.hidden = !state.scheduling;
  scheduling.replaceChildren(
    ...(state.scheduling
      ? [h('h2', { id: 'scheduling-title' }, 'Why is this pod Pending?'), renderScheduling(state.scheduling)]
      : []),
  );
  if (page.desired) setText(page.desired, state.manifest?.yaml ?? '# This object did not come from a saved manifest.');
  if (page.live) setText(page.live, state.liveYaml ?? '# The object does not exist.');
  document.getElementById('edit-button')!.toggleAttribute('disabled', state.liveYaml === undefined);
}

function buildShell(): HTMLElement {
  const showServer = h('input', { type: 'checkbox', id: 'show-server' });
  showServer.addEventListener('change', () => {
    page.showServer = showServer.checked;
    if (page.last) document.getElementById('diff')!.replaceChildren(renderDiff(page.last.diff, page.showServer));
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
    section(
      'yaml-title',
      'Desired and live',
      h(
        'div',
        { class: 'panes' },
        h('div', { class: 'pane' }, h('h3', {}, 'Desired (saved manifest)'), desiredHost),
        h(
          'div',
          { class: 'pane' },
          h('h3', {}, 'Live object'),
          liveHost,
          h('div', { class: 'actions' }, editButton, save, cancel),
          editHost,
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
    h('section', { id: 'scheduling', 'aria-labelledby': 'scheduling-title', hidden: true }),
    section('events-title', 'Events', h('div', { id: 'events' })),
  );
  setUpMonaco(uris);
  page.desired = createYamlEditor(desiredHost, '', true, 'Desired manifest, read-only YAML');
  page.live = createYamlEditor(liveHost, '', true, 'Live object, read-only YAML');
  editHost.hidden = true;
  return shell;
}

function startEditing(host: HTMLElement, [edit, save, cancel]: HTMLElement[]): void {
  page.editing = true;
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
  host.hidden = true;
  edit.hidden = false;
  save.hidden = true;
  cancel.hidden = true;
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
