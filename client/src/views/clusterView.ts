/**
 * The Cluster view: a tree over the mirror cache, refreshed from the
 * sandbox's watch changes — at most about 5 times a second, the first change
 * after a quiet moment at once, or, while the sandbox is busy, as soon as it
 * settles, 150 ms at most (model/refreshPacer.ts: paced to VS Code's own
 * debounce of tree changes, so each refresh renders at once) —, and once a second of
 * sandbox time for its ages and countdowns (only the rows whose text changed
 * are sent to VS Code). Its title bar says when the sandbox is paused and
 * which filters are on; its options (grouping, filters) are kept in the
 * workspace state and mirrored into context keys for the menus.
 */
import { EventEmitter, MarkdownString, commands, window } from 'vscode';
import type { Event, ExtensionContext, TreeDataProvider, TreeItem, TreeView } from 'vscode';
import { ClusterTree } from '../model/clusterTree';
import { SyncStatuses } from '../model/syncStatuses';
import { FIRST_CHANGE_HOLD_MS, RefreshPacer } from '../model/refreshPacer';
import { RowRoundTrip } from '../model/rowRoundTrip';
import { systemTimer } from '../model/throttle';
import { tooltipText } from '../model/treeNode';
import type { TreeNode } from '../model/treeNode';
import { describeTreeOptions, readTreeOptions } from '../model/treeOptions';
import type { TreeOptions } from '../model/treeOptions';
import type { SandboxConnection } from '../sandbox/connection';
import { saveTraceFrom } from '../sandbox/saveTrace';
import { registerSyncDecorations } from './syncDecorations';
import type { ObjectRef } from '../sandbox/protocol';
import { toTreeItem } from './treeItem';

export const CLUSTER_VIEW = 'kubeReconcile.cluster';
/** Ages and countdowns in descriptions are refreshed when the sandbox clock has moved this far, even with no change. */
const AGE_REFRESH_MS = 1_000;
/** Where the tree's options are kept (workspace state). */
const OPTIONS_KEY = 'kubeReconcile.treeOptions';
/** bench/extension's trace (off unless KUBE_RECONCILE_TRACE names a file). */
const trace = saveTraceFrom('host');

export class ClusterTreeProvider implements TreeDataProvider<TreeNode> {
  private readonly changed = new EventEmitter<TreeNode | TreeNode[] | undefined>();
  readonly onDidChangeTreeData: Event<TreeNode | TreeNode[] | undefined> = this.changed.event;
  private readonly tree: ClusterTree;
  /** VS Code's round trip for a refreshed row's children: the pacer's first-change hold pays only while it is cheap. */
  private readonly roundTrip = new RowRoundTrip();
  /** Paced to VS Code's debounce; a busy sandbox's later changes wait for the state it settles into (one spacing). */
  private readonly pacer = new RefreshPacer(
    () => this.refresh(),
    systemTimer,
    () => this.connection.settled === false,
    () => (this.roundTrip.cheap ? FIRST_CHANGE_HOLD_MS : 0),
  );
  private renderedAt = 0;
  /** The node objects handed to VS Code, by id: kept stable so that VS Code's handles for them survive refreshes. */
  private readonly shown = new Map<string, TreeNode>();
  /** Child ids handed out per parent id ('' for the roots). */
  private readonly childIds = new Map<string, string[]>();

  constructor(
    private readonly connection: SandboxConnection,
    options: () => TreeOptions,
  ) {
    const sync = new SyncStatuses(connection.desired);
    this.tree = new ClusterTree(connection.cache, () => connection.status?.time ?? 0, {
      failedNodes: () => connection.status?.failedNodes ?? [],
      refusedDrains: () => connection.status?.refusedDrains ?? [],
      options,
      syncOf: (resource, o) => sync.of(resource, o),
    });
  }

  /** True once something has been applied (the tree is empty before, and the view shows its welcome content). */
  get hasContent(): boolean {
    return this.tree.hasUserObjects();
  }

  /** Rebuilds the whole tree (the options changed what it shows). */
  refreshAll(): void {
    this.tree.invalidate();
    this.shown.clear();
    this.childIds.clear();
    this.fire(undefined);
    this.pacer.fired();
  }

  /** Schedules a refresh; bursts coalesce. */
  scheduleRefresh(): void {
    if (trace.enabled) trace.mark('schedule');
    this.pacer.request();
  }

  /** The sandbox went quiet: a refresh held while it was busy runs now. */
  settled(): void {
    this.pacer.settled();
  }

  /** Refreshes when the clock has moved enough for the ages shown to be stale. */
  clockMoved(time: number): void {
    if (Math.abs(time - this.renderedAt) >= AGE_REFRESH_MS) this.pacer.request();
  }

  getTreeItem(node: TreeNode): TreeItem {
    // The tooltip (with ages) is resolved on hover, so that an age ticking over never refreshes a parent.
    return toTreeItem(node);
  }

  resolveTreeItem(item: TreeItem, node: TreeNode): TreeItem {
    const text = tooltipText(node);
    item.tooltip = text === undefined ? undefined : new MarkdownString(text);
    return item;
  }

  getChildren(node?: TreeNode): TreeNode[] {
    if (trace.enabled) trace.mark('children', { parent: node?.id ?? '' });
    this.roundTrip.childrenAsked(systemTimer.now());
    const fresh = node === undefined ? this.tree.roots() : this.tree.children(node);
    const kept = fresh.map((f) => this.keep(f));
    this.childIds.set(
      node?.id ?? '',
      kept.map((n) => n.id),
    );
    return kept;
  }

  dispose(): void {
    this.pacer.dispose();
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
   * tree, so a right-click during an age refresh would lose its target. Returns whether it fired a change.
   */
  private refresh(): boolean {
    if (trace.enabled) trace.mark('refreshStart');
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
    if (trace.enabled) trace.mark('refresh', { changed: changed.length, rootsChanged });
    if (rootsChanged) this.fire(undefined);
    else if (changed.length > 0) this.fire(changed);
    return rootsChanged || changed.length > 0;
  }

  /** Tells VS Code what changed (the whole tree: undefined), and starts timing its round trip for the children. */
  private fire(what: TreeNode[] | undefined): void {
    this.changed.fire(what);
    this.roundTrip.fired(systemTimer.now());
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

/** What the commands use of the view: its options and the row the keyboard is on. */
export interface ClusterViewHandle {
  options(): TreeOptions;
  setOptions(options: TreeOptions): Promise<void>;
  /** The object of the selected row (what a keybinding acts on), if the row shows one. */
  selected(): ObjectRef | undefined;
}

/** Context keys the title bar's Filter menu reads. */
const CONTEXT_KEYS = (o: TreeOptions): Record<string, unknown> => ({
  'kubeReconcile.tree.unhealthyOnly': o.unhealthyOnly,
  'kubeReconcile.tree.groupByNode': o.groupBy === 'node',
  'kubeReconcile.tree.hideEmptyReplicaSets': o.hideEmptyReplicaSets,
  'kubeReconcile.tree.namespaceFilter': o.namespace !== undefined,
});

/** The view's description: paused first (it changes what every row means), then the filters in force. */
export function viewDescription(paused: boolean, options: TreeOptions): string {
  return [paused ? '⏸ PAUSED' : '', describeTreeOptions(options)].filter(Boolean).join(' · ');
}

/**
 * The line above the tree (the title bar is too narrow to be relied on): paused first, then a filter that hides rows.
 */
export function viewMessage(paused: boolean, options: TreeOptions, hasContent: boolean): string {
  const lines: string[] = [];
  if (paused) lines.push('⏸ Sandbox paused: its clock stands still (Resume or Step in the title bar).');
  if (hasContent && options.unhealthyOnly)
    lines.push('Showing only what needs attention (Filter › Show Everything to see all).');
  else if (hasContent && options.namespace !== undefined)
    lines.push(`Showing namespace ${options.namespace} only (Filter › Show Everything to see all).`);
  return lines.join('\n');
}

/** Registers the view and feeds it the sandbox's changes. */
export function registerClusterView(context: ExtensionContext, connection: SandboxConnection): ClusterViewHandle {
  let options = readTreeOptions(context.workspaceState.get(OPTIONS_KEY));
  const provider = new ClusterTreeProvider(connection, () => options);
  const view: TreeView<TreeNode> = window.createTreeView(CLUSTER_VIEW, {
    treeDataProvider: provider,
    showCollapseAll: true,
  });
  let paused = connection.status?.paused ?? false;
  let hadContent = false;
  // A failed drain shows on its node's row: a change refreshes the tree even while the clock stands still.
  let refusedDrains = JSON.stringify(connection.status?.refusedDrains ?? []);
  const setContext = (o: TreeOptions) => {
    for (const [key, value] of Object.entries(CONTEXT_KEYS(o))) void commands.executeCommand('setContext', key, value);
  };
  const describe = () => {
    view.description = viewDescription(paused, options);
    view.title = paused ? 'Cluster (paused)' : 'Cluster';
    view.message = viewMessage(paused, options, provider.hasContent) || undefined;
  };
  setContext(options);
  describe();
  context.subscriptions.push(
    provider,
    view,
    // Enter reveals the manifest of an object's row (keybinding); on a folder it keeps expanding it.
    view.onDidChangeSelection((e) =>
      commands.executeCommand('setContext', 'kubeReconcile.tree.objectSelected', e.selection[0]?.ref !== undefined),
    ),
    connection.onDidChange(() => {
      provider.scheduleRefresh();
      // The first object applied turns the welcome content into the tree (and the last one pruned, back).
      if (provider.hasContent !== hadContent) {
        hadContent = !hadContent;
        provider.refreshAll();
      }
    }),
    connection.onDidChangeDesired(() => provider.scheduleRefresh()),
    ...(connection.onDidSettle ? [connection.onDidSettle(() => provider.settled())] : []),
    registerSyncDecorations(),
    connection.onDidStatus((s) => {
      provider.clockMoved(s.time);
      const refused = JSON.stringify(s.refusedDrains ?? []);
      if (refused !== refusedDrains) {
        refusedDrains = refused;
        provider.scheduleRefresh();
      }
      if (s.paused !== paused) {
        paused = s.paused;
        describe();
      }
    }),
  );
  return {
    options: () => options,
    async setOptions(next) {
      options = next;
      await context.workspaceState.update(OPTIONS_KEY, next);
      setContext(next);
      describe();
      provider.refreshAll();
    },
    selected: () => view.selection[0]?.ref,
  };
}
