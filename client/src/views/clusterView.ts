/**
 * The Cluster view: a tree over the mirror cache, refreshed from the
 * sandbox's watch changes at most 10 times a second.
 */
import { EventEmitter, window } from 'vscode';
import type { Event, ExtensionContext, TreeDataProvider, TreeItem } from 'vscode';
import { ClusterTree } from '../model/clusterTree';
import { Throttle } from '../model/throttle';
import type { TreeNode } from '../model/treeNode';
import type { SandboxConnection } from '../sandbox/connection';
import { toTreeItem } from './treeItem';

export const CLUSTER_VIEW = 'kubeReconcile.cluster';
/** At most 10 refreshes a second. */
const REFRESH_INTERVAL_MS = 100;
/** Ages in descriptions are refreshed when the sandbox clock has moved this far, even with no change. */
const AGE_REFRESH_MS = 10_000;

export class ClusterTreeProvider implements TreeDataProvider<TreeNode> {
  private readonly changed = new EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData: Event<TreeNode | undefined> = this.changed.event;
  private readonly tree: ClusterTree;
  private readonly throttle = new Throttle(() => this.refresh(), REFRESH_INTERVAL_MS);
  private renderedAt = 0;

  constructor(private readonly connection: SandboxConnection) {
    this.tree = new ClusterTree(connection.cache, () => connection.status?.time ?? 0);
  }

  /** Schedules a refresh; bursts coalesce. */
  scheduleRefresh(): void {
    this.throttle.schedule();
  }

  /** Refreshes when the clock has moved enough for the ages shown to be stale. */
  clockMoved(time: number): void {
    if (Math.abs(time - this.renderedAt) >= AGE_REFRESH_MS) this.throttle.schedule();
  }

  getTreeItem(node: TreeNode): TreeItem {
    return toTreeItem(node);
  }

  getChildren(node?: TreeNode): TreeNode[] {
    return node === undefined ? this.tree.roots() : this.tree.children(node);
  }

  dispose(): void {
    this.throttle.dispose();
    this.changed.dispose();
  }

  private refresh(): void {
    this.renderedAt = this.connection.status?.time ?? 0;
    this.tree.invalidate();
    this.changed.fire(undefined);
  }
}

/** Registers the view and feeds it the sandbox's changes. */
export function registerClusterView(context: ExtensionContext, connection: SandboxConnection): void {
  const provider = new ClusterTreeProvider(connection);
  const view = window.createTreeView(CLUSTER_VIEW, { treeDataProvider: provider, showCollapseAll: true });
  context.subscriptions.push(
    provider,
    view,
    connection.onDidChange(() => provider.scheduleRefresh()),
    connection.onDidStatus((s) => provider.clockMoved(s.time)),
  );
}
