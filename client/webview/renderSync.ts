/**
 * The sync line of Desired vs Actual: Argo CD's status of the object against
 * its saved file, and the actions that fit it — Sync (apply the file), and
 * while it is out of sync, Revert Live to Manifest and Update Manifest from Live.
 */
import type { SyncAction, SyncViewState } from '../src/webview/protocol';
import { h } from './dom';

const BADGE: Record<SyncViewState['status'], string> = { Synced: '✓', OutOfSync: '≠', Missing: '!', Extra: '+' };

const LABELS: Record<SyncAction, string> = {
  sync: 'Sync',
  revertLive: 'Revert Live to Manifest',
  updateManifestFromLive: 'Update Manifest from Live',
};

function actionsFor(status: SyncViewState['status']): SyncAction[] {
  if (status === 'OutOfSync') return ['sync', 'revertLive', 'updateManifestFromLive'];
  if (status === 'Missing') return ['sync', 'revertLive'];
  if (status === 'Synced') return ['sync'];
  return [];
}

export function renderSync(sync: SyncViewState, run: (action: SyncAction) => void): HTMLElement {
  const buttons = actionsFor(sync.status).map((a, i) => {
    const b = h('button', { type: 'button', class: i === 0 ? undefined : 'secondary', 'data-action': a }, LABELS[a]);
    b.addEventListener('click', () => run(a));
    return b;
  });
  return h(
    'div',
    { class: `sync sync-${sync.status.toLowerCase()}` },
    h(
      'p',
      { class: 'sync-status', role: 'status', 'aria-label': `Sync status: ${sync.message}` },
      h('span', { class: 'sync-badge', 'aria-hidden': 'true' }, BADGE[sync.status]),
      sync.message,
    ),
    buttons.length > 0 ? h('div', { class: 'actions' }, ...buttons) : null,
  );
}
