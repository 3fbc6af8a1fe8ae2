/**
 * The cluster tree as plain data: what VS Code's `TreeItem` needs, without
 * `vscode`, so that the shape of the tree is unit-tested.
 */
import type { SyncStatusCode } from '../health/syncStatus';
import type { ObjectRef } from '../sandbox/protocol';

/** A codicon and, optionally, a theme colour id (`charts.green`). */
export interface TreeIcon {
  id: string;
  color?: string;
}

export type Collapsible = 'none' | 'collapsed' | 'expanded';

/** Where a node's children come from. */
export type NodeSource =
  | { type: 'nodes' }
  | { type: 'namespaces' }
  | { type: 'namespace'; namespace: string }
  | { type: 'group'; namespace: string; resource: string }
  | { type: 'object'; resource: string; uid: string; name: string }
  | { type: 'node'; uid: string; name: string }
  /** Pods no node runs (Pending, not yet scheduled), when the tree is grouped by node. */
  | { type: 'unscheduled' };

/** The tooltip's Markdown, made now if it is made on demand. */
export function tooltipText(node: Pick<TreeNode, 'tooltip'>): string | undefined {
  return typeof node.tooltip === 'function' ? node.tooltip() : node.tooltip;
}

export interface TreeNode {
  /** Unique in the tree and stable across updates (built from uids), so expansion survives refreshes. */
  id: string;
  label: string;
  description?: string;
  /** Markdown; objects' tooltips are made when hovered (a function), so that a refresh never computes them. */
  tooltip?: string | (() => string);
  icon: TreeIcon;
  /** `pod`, `deployment`, `node`, … for objects; `group` for folders. */
  contextValue: string;
  collapsible: Collapsible;
  /** The object this node shows; absent on folders. */
  ref?: ObjectRef;
  /**
   * Whether selecting it should reveal its manifest: objects a controller
   * created (and nodes) never come from a file, and without a command a click
   * expands them instead.
   */
  revealsManifest?: boolean;
  /** Argo CD's sync status against the saved files (shown as a badge); absent for objects the cluster made. */
  sync?: SyncStatusCode;
  source: NodeSource;
}
