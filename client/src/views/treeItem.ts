/** Turns the model's plain `TreeNode` into VS Code's `TreeItem` (its tooltip is resolved on hover: see the view). */
import { ThemeColor, ThemeIcon, TreeItem, TreeItemCollapsibleState } from 'vscode';
import type { Collapsible, TreeNode } from '../model/treeNode';
import { syncUri } from './syncDecorations';

/** The command run when an object is selected: reveal its manifest line. */
export const SELECT_COMMAND = 'kubeReconcile.revealManifest';

const COLLAPSIBLE: Record<Collapsible, TreeItemCollapsibleState> = {
  none: TreeItemCollapsibleState.None,
  collapsed: TreeItemCollapsibleState.Collapsed,
  expanded: TreeItemCollapsibleState.Expanded,
};

export function toTreeItem(node: TreeNode): TreeItem {
  const item = new TreeItem(node.label, COLLAPSIBLE[node.collapsible]);
  item.id = node.id;
  item.description = node.description;
  item.iconPath = new ThemeIcon(
    node.icon.id,
    node.icon.color === undefined ? undefined : new ThemeColor(node.icon.color),
  );
  item.contextValue = node.contextValue;
  if (node.sync) item.resourceUri = syncUri(node.sync, node.id);
  if (node.ref && node.revealsManifest)
    item.command = { command: SELECT_COMMAND, title: 'Reveal Manifest', arguments: [node.ref] };
  return item;
}
