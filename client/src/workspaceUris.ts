/**
 * Workspace files by the names the sandbox gives them (see model/workspacePaths.ts), as URIs joined onto their
 * workspace folder's URI — whatever its scheme (`file`, `vscode-remote`, `vscode-vfs`).
 */
import { Uri, workspace } from 'vscode';
import type { WorkspaceFolder } from 'vscode';
import { sourceLocation, sourceOfPath } from './model/workspacePaths';
import type { FolderLike } from './model/workspacePaths';

function folders(): readonly WorkspaceFolder[] {
  return workspace.workspaceFolders ?? [];
}

function like(fs: readonly WorkspaceFolder[]): FolderLike[] {
  return fs.map((f) => ({ name: f.name, path: f.uri.path }));
}

/** The URI of a source (`web.yaml`, `app/web.yaml` in a multi-root workspace), or undefined outside every folder. */
export function uriOfSource(source: string): Uri | undefined {
  const fs = folders();
  const where = sourceLocation(like(fs), source);
  if (where === undefined) return undefined;
  return Uri.joinPath(fs[where.folder].uri, ...where.path.split('/'));
}

/** The source name of a file of the workspace (undefined for a file outside every workspace folder). */
export function sourceOfUri(uri: Uri): string | undefined {
  const fs = folders();
  return sourceOfPath(
    like(fs),
    uri.path,
    (i) => fs[i].uri.scheme === uri.scheme && fs[i].uri.authority === uri.authority,
  );
}
