/**
 * The sync badge of the Cluster tree: an object's tree item carries a
 * `kube-reconcile-sync:/<status>/<id>` resource URI, and this provider
 * decorates such URIs with the status's badge and colour (as the Explorer
 * decorates Git changes). The status is in the URI, so the provider keeps no
 * state and a changed status is a new URI.
 */
import { ThemeColor, Uri, window } from 'vscode';
import type { Disposable, FileDecoration, FileDecorationProvider } from 'vscode';
import type { SyncStatusCode } from '../health/syncStatus';

export const SYNC_SCHEME = 'kube-reconcile-sync';

const DECORATIONS: Record<SyncStatusCode, FileDecoration> = {
  Synced: { badge: '✓', tooltip: 'Synced with its saved file' },
  OutOfSync: {
    badge: '≠',
    tooltip: 'OutOfSync: the live object differs from its saved file',
    color: new ThemeColor('gitDecoration.modifiedResourceForeground'),
  },
  Missing: {
    badge: '!',
    tooltip: 'Missing: declared in a saved file, not in the cluster',
    color: new ThemeColor('gitDecoration.deletedResourceForeground'),
  },
  Extra: {
    badge: '+',
    tooltip: 'Extra: applied, but no saved file declares it',
    color: new ThemeColor('gitDecoration.untrackedResourceForeground'),
  },
};

/** The resource URI that gives a tree item the badge of `status` (`id` keeps it unique per item). */
export function syncUri(status: SyncStatusCode, id: string): Uri {
  return Uri.from({ scheme: SYNC_SCHEME, path: `/${status}/${encodeURIComponent(id)}` });
}

const provider: FileDecorationProvider = {
  provideFileDecoration(uri) {
    if (uri.scheme !== SYNC_SCHEME) return undefined;
    const status = uri.path.split('/')[1] as SyncStatusCode;
    return Object.hasOwn(DECORATIONS, status) ? DECORATIONS[status] : undefined;
  },
};

export function registerSyncDecorations(): Disposable {
  return window.registerFileDecorationProvider(provider);
}
