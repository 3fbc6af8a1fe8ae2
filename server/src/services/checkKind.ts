/**
 * Is this apiVersion/kind something the sandbox API server serves? The
 * answer is the resource type, or the diagnostic explaining why not.
 */
import type { Diagnostic } from 'vscode-languageserver-types';
import type { LineCounter, YAMLMap } from 'yaml';
import { RESOURCES, apiVersionOf, resourceFor } from '../../../sandbox/api/resources';
import type { ResourceType } from '../../../sandbox/api/resources';
import { parseApiVersion } from '../../../sandbox/api/types';
import { makeDiagnostic } from './diagnostic';
import { fieldRange } from './pathToRange';
import { removedApi, removedApiMessage } from './removedApis';

/**
 * The resource for the manifest's apiVersion/kind, or a diagnostic:
 * `removed-api-version` on the apiVersion value for a well-known removed API,
 * otherwise `unknown-kind` on the kind value. Unknown kinds in groups that are
 * not Kubernetes' own (custom resources such as `cert-manager.io/v1`) are only
 * warnings: a real cluster may have their CRD installed.
 */
export function checkKind(root: YAMLMap, apiVersion: string, kind: string, lc: LineCounter): { resource: ResourceType } | { diagnostic: Diagnostic } {
  const resource = resourceFor(apiVersion, kind);
  if (resource !== undefined) return { resource };
  const removed = removedApi(apiVersion, kind);
  if (removed !== undefined) {
    return { diagnostic: makeDiagnostic(fieldRange(root, 'apiVersion', lc), 'removed-api-version', removedApiMessage(removed)) };
  }
  const message = `Unknown kind "${kind}" for apiVersion "${apiVersion}"${hint(apiVersion, kind)}`;
  const warning = !isKubernetesGroup(parseApiVersion(apiVersion).group);
  return { diagnostic: makeDiagnostic(fieldRange(root, 'kind', lc), 'unknown-kind', message, warning) };
}

/** Core, the dot-less built-in groups (`apps`, `batch`, …) and `*.k8s.io` belong to Kubernetes itself. */
function isKubernetesGroup(group: string): boolean {
  return !group.includes('.') || group.endsWith('.k8s.io');
}

function hint(apiVersion: string, kind: string): string {
  const lower = kind.toLowerCase();
  const sameKind = RESOURCES.filter((r) => r.kind.toLowerCase() === lower);
  const here = sameKind.find((r) => apiVersionOf(r) === apiVersion);
  if (here !== undefined) return `; did you mean "${here.kind}"?`;
  if (sameKind.length > 0) return `; ${sameKind[0].kind} is served as apiVersion "${apiVersionOf(sameKind[0])}"`;
  return '';
}
