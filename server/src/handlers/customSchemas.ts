/**
 * The custom kinds a document's completion and hover know: those the CustomResourceDefinitions of its workspace
 * folder serve (every served version), or of its own file outside every folder — the same set the folder's
 * `custom-resource-validation` checks against.
 */
import { workspaceCrds } from '../../../sandbox/apiextensions/workspace';
import type { CustomSchemaLookup } from '../services/customSchema/customSchema';
import type { WorkspaceIndex } from '../services/workspace/index';

export function customSchemaLookup(index: WorkspaceIndex, uri: string): CustomSchemaLookup {
  const folder = index.folderFor(uri);
  const files = folder !== undefined ? index.filesIn(folder) : [index.get(uri)].filter((f) => f !== undefined);
  const crds = workspaceCrds(files.flatMap((f) => f.facts.objects.map((o) => o.object)));
  return (apiVersion, kind) => crds.schema(apiVersion, kind);
}
