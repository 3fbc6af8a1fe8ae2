/**
 * A file as the sandbox names it, as a `Uri`: a uri string (`file:///…`, `vscode-remote://…`), an absolute path, or
 * a path relative to the workspace (what save-to-apply records: `web.yaml`, or `folder/web.yaml` in a multi-root
 * workspace, as `workspace.asRelativePath` gives it).
 */
import { Uri, workspace } from 'vscode';

export function workspaceFileUri(file: string): Uri {
  if (/^[a-z][a-z0-9+.-]+:\/\//i.test(file)) return Uri.parse(file);
  if (/^(\/|[a-z]:[\\/]|\\\\)/i.test(file)) return Uri.file(file);
  const folders = workspace.workspaceFolders ?? [];
  const parts = file.split(/[\\/]/);
  if (folders.length > 1) {
    const folder = folders.find((f) => f.name === parts[0]);
    if (folder) return Uri.joinPath(folder.uri, ...parts.slice(1));
  }
  return folders.length > 0 ? Uri.joinPath(folders[0].uri, ...parts) : Uri.file(file);
}
