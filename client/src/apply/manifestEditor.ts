/**
 * VS Code glue for "Update Manifest from Live": the edits of model/manifestEdits.ts applied to the file's document as
 * a WorkspaceEdit (one undo step), shown at the first changed line and left unsaved for the user to review and save.
 */
import * as vscode from 'vscode';
import { manifestEditsFromLive } from '../model/manifestEdits';
import type { LiveValue, ManifestEdits } from '../model/manifestEdits';
import { uriOfSource } from '../workspaceUris';

export async function editManifest(
  source: string,
  line: number,
  values: readonly LiveValue[],
): Promise<ManifestEdits | undefined> {
  const uri = uriOfSource(source);
  if (!uri) throw new Error(`${source} is not in an open workspace folder`);
  const doc = await vscode.workspace.openTextDocument(uri);
  const result = manifestEditsFromLive(doc.getText(), line, values);
  if (!result) return undefined;
  const range = (r: (typeof result.edits)[number]['range']) =>
    new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
  if (result.edits.length > 0) {
    const edit = new vscode.WorkspaceEdit();
    for (const e of result.edits) edit.replace(uri, range(e.range), e.newText);
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`${source} could not be edited`);
  }
  const editor = await vscode.window.showTextDocument(doc, { preview: false });
  const first = result.edits[0];
  if (first) {
    const at = new vscode.Position(first.range.start.line + (first.newText.startsWith('\n') ? 1 : 0), 0);
    editor.selection = new vscode.Selection(at, at);
    editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }
  return result;
}
