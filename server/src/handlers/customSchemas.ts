/**
 * The custom kinds a document's completion and hover know: those the CustomResourceDefinitions of its workspace
 * folder serve (every served version), or of its own file outside every folder, then those of `externalCrds` (the
 * `kubeReconcile.crdFolders` catalogue, the running sandbox's) — the same set the folder's
 * `custom-resource-validation` checks against.
 */
import type { KubeObject } from '../../../sandbox/api/types';
import { workspaceCrds } from '../../../sandbox/apiextensions/workspace';
import type { CustomSchemaLookup } from '../services/customSchema/customSchema';
import type { WorkspaceIndex } from '../services/workspace/index';

export function customSchemaLookup(
  index: WorkspaceIndex,
  uri: string,
  externalCrds: readonly KubeObject[] = [],
): CustomSchemaLookup {
  const folder = index.folderFor(uri);
  const files = folder !== undefined ? index.filesIn(folder) : [index.get(uri)].filter((f) => f !== undefined);
  const crds = workspaceCrds([...files.flatMap((f) => f.facts.objects.map((o) => o.object)), ...externalCrds]);
  return (apiVersion, kind) => crds.schema(apiVersion, kind);
}
