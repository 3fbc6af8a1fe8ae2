/**
 * The Cluster view: a tree over the mirror cache, refreshed from the
 * sandbox's watch changes at most 10 times a second.
 */
import { EventEmitter, MarkdownString, window } from 'vscode';
import type { Event, ExtensionContext, TreeDataProvider, TreeItem } from 'vscode';
import { ClusterTree } from '../model/clusterTree';
import { SyncStatuses } from '../model/syncStatuses';
import { Throttle } from '../model/throttle';
import type { TreeNode } from '../model/treeNode';
import type { SandboxConnection } from '../sandbox/connection';
import { registerSyncDecorations } from './syncDecorations';
import { toTreeItem } from './treeItem';

export const CLUSTER_VIEW = 'kubeReconcile.cluster';
/** At most 10 refreshes a second. */
const REFRESH_INTERVAL_MS = 100;
/** Ages in descriptions are refreshed when the sandbox clock has moved this far, even with no change. */
const AGE_REFRESH_MS = 10_000;

export class ClusterTreeProvider implements TreeDataProvider<TreeNode> {
  private readonly changed = new EventEmitter<TreeNode | TreeNode[] | undefined>();
  readonly onDidChangeTreeData: Event<TreeNode | TreeNode[] | undefined> = this.changed.event;
  private readonly tree: ClusterTree;
  private readonly throttle = new Throttle(() => this.refresh(), REFRESH_INTERVAL_MS);
  private renderedAt = 0;
  /** The node objects handed to VS Code, by id: kept stable so that VS Code's handles for them survive refreshes. */
  private readonly shown = new Map<string, TreeNode>();
  /** Child ids handed out per parent id ('' for the roots). */
  private readonly childIds = new Map<string, string[]>();

  constructor(private readonly connection: SandboxConnection) {
    const sync = new SyncStatuses(connection.desired);
    this.tree = new ClusterTree(
      connection.cache,
      () => connection.status?.time ?? 0,
      (resource, o) => sync.of(resource, o),
    );
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
    // The tooltip (with ages) is resolved on hover, so that an age ticking over never refreshes a parent.
    const item = toTreeItem(node);
    item.tooltip = undefined;
    return item;
  }

  resolveTreeItem(item: TreeItem, node: TreeNode): TreeItem {
    item.tooltip = node.tooltip === undefined ? undefined : new MarkdownString(node.tooltip);
    return item;
  }

  getChildren(node?: TreeNode): TreeNode[] {
    const fresh = node === undefined ? this.tree.roots() : this.tree.children(node);
    const kept = fresh.map((f) => this.keep(f));
    this.childIds.set(
      node?.id ?? '',
      kept.map((n) => n.id),
    );
    return kept;
  }

  dispose(): void {
    this.throttle.dispose();
    this.changed.dispose();
  }

  private keep(fresh: TreeNode): TreeNode {
    const old = this.shown.get(fresh.id);
    if (!old) {
      this.shown.set(fresh.id, fresh);
      return fresh;
    }
    overwrite(old, fresh);
    return old;
  }

  /** Drops a node that is no longer shown, and what was shown under it. */
  private forget(id: string): void {
    this.shown.delete(id);
    for (const child of this.childIds.get(id) ?? []) this.forget(child);
    this.childIds.delete(id);
  }

  /**
   * Refreshes only what changed: VS Code drops its handles for every item on a
   * whole-tree refresh and hands commands `undefined` until it has re-read the
   * tree, so a right-click during an age refresh would lose its target.
   */
  private refresh(): void {
    this.renderedAt = this.connection.status?.time ?? 0;
    this.tree.invalidate();
    const changed: TreeNode[] = [];
    let rootsChanged = false;
    const visit = (parent: TreeNode | undefined): void => {
      const before = this.childIds.get(parent?.id ?? '');
      if (!before) return;
      const fresh = parent === undefined ? this.tree.roots() : this.tree.children(parent);
      if (fresh.length !== before.length || fresh.some((f, i) => f.id !== before[i])) {
        const still = new Set(fresh.map((f) => f.id));
        for (const id of before) if (!still.has(id)) this.forget(id);
        if (parent) changed.push(parent);
        else rootsChanged = true;
        return;
      }
      for (const f of fresh) {
        const old = this.shown.get(f.id)!;
        if (!sameNode(old, f)) {
          overwrite(old, f);
          changed.push(old);
        } else visit(old);
      }
    };
    visit(undefined);
    if (rootsChanged) this.changed.fire(undefined);
    else if (changed.length > 0) this.changed.fire(changed);
  }
}

function sameNode(a: TreeNode, b: TreeNode): boolean {
  return JSON.stringify({ ...a, tooltip: undefined }) === JSON.stringify({ ...b, tooltip: undefined });
}

/** Makes `target` (the object VS Code holds a handle for) say what `from` says. */
function overwrite(target: TreeNode, from: TreeNode): void {
  for (const k of Object.keys(target)) if (!(k in from)) Reflect.set(target, k, undefined);
  Object.assign(target, from);
}

/** Registers the view and feeds it the sandbox's changes. */
export function registerClusterView(context: ExtensionContext, connection: SandboxConnection): void {
  const provider = new ClusterTreeProvider(connection);
  const view = window.createTreeView(CLUSTER_VIEW, { treeDataProvider: provider, showCollapseAll: true });
  context.subscriptions.push(
    provider,
    view,
    connection.onDidChange(() => provider.scheduleRefresh()),
    connection.onDidChangeDesired(() => provider.scheduleRefresh()),
    registerSyncDecorations(),
    connection.onDidStatus((s) => provider.clockMoved(s.time)),
  );
}
