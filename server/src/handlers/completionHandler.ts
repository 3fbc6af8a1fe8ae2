/**
 * Wire layer for completion: the open document and the cursor go to the pure
 * completion service, with the labels the workspace index knows for the
 * document's folder (for selectors).
 */
import type { Connection, TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { KubeObject } from '../../../sandbox/api/types';
import { completeAt } from '../services/completion/complete';
import { labelsOfObjects } from '../services/completion/labelItems';
import type { LabelIndex } from '../services/completion/labelItems';
import type { WorkspaceIndex } from '../services/workspace/index';
import { isYamlDocument } from './workspaceDiagnostics';
import { customSchemaLookup } from './customSchemas';

/** Characters after which editors ask for completion unprompted. */
export const COMPLETION_TRIGGER_CHARACTERS = [':', ' ', '-'];

/** Answers `textDocument/completion` for open YAML documents. */
export function registerCompletion(
  connection: Connection,
  documents: TextDocuments<TextDocument>,
  index: WorkspaceIndex,
  externalCrds: () => readonly KubeObject[] = () => [],
): void {
  connection.onCompletion((params) => {
    const doc = documents.get(params.textDocument.uri);
    if (doc === undefined || !isYamlDocument(doc)) return [];
    return completeAt(doc, params.position, {
      workspaceLabels: workspaceLabels(index, doc.uri),
      takenNames: (kind) => takenNames(index, doc.uri, kind),
      customSchema: customSchemaLookup(index, doc.uri, externalCrds()),
    });
  });
}

/** Names of the objects of `kind` in the document's folder (or in the document alone, outside every folder). */
function takenNames(index: WorkspaceIndex, uri: string, kind: string): Set<string> {
  const folder = index.folderFor(uri);
  const files = folder !== undefined ? index.filesIn(folder) : [index.get(uri)].filter((f) => f !== undefined);
  const names = new Set<string>();
  for (const f of files)
    for (const o of f.facts.objects) if (o.kind === kind && o.name !== undefined) names.add(o.name);
  return names;
}

function workspaceLabels(index: WorkspaceIndex, uri: string): LabelIndex {
  const folder = index.folderFor(uri);
  if (folder !== undefined) return index.labelsInWorkspace(folder);
  return labelsOfObjects(index.get(uri)?.facts.objects ?? []);
}
