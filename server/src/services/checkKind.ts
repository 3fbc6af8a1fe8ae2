/**
 * Is this apiVersion/kind a Kubernetes kind? Every kind of the generated
 * schema is (the sandbox serves fewer: a kind it does not serve is still
 * valid in the editor, it is just not simulated), and so is every kind the
 * sandbox serves. The answer carries the sandbox resource and the schema
 * entry when there are any, or the diagnostic explaining why not.
 */
import type { Diagnostic } from 'vscode-languageserver-types';
import type { LineCounter, YAMLMap } from 'yaml';
import { resourceFor } from '../../../sandbox/api/resources';
import type { ResourceType } from '../../../sandbox/api/resources';
import { parseApiVersion } from '../../../sandbox/api/types';
import { getSchema, kindEntry } from '../schema/schema';
import type { KindEntry } from '../schema/types';
import { makeDiagnostic } from './diagnostic';
import { fieldRange } from './pathToRange';
import { removedApi, removedApiMessage } from './removedApis';

/**
 * A recognised kind: the sandbox's resource type (when it serves the kind) and the schema's entry (when it has one).
 */
export interface KnownKind {
  readonly resource?: ResourceType;
  readonly entry?: KindEntry;
}

/**
 * The kind of the manifest's apiVersion/kind, or a diagnostic:
 * `removed-api-version` on the apiVersion value for a removed API (with the
 * replacement: from the removed-API table, else the kind's current version),
 * otherwise `unknown-kind` on the kind value. Unknown kinds in groups that are
 * not Kubernetes' own (custom resources such as `cert-manager.io/v1`) are only
 * warnings: a real cluster may have their CRD installed.
 */
export function checkKind(
  root: YAMLMap,
  apiVersion: string,
  kind: string,
  lc: LineCounter,
): KnownKind | { diagnostic: Diagnostic } {
  const removed = removedApi(apiVersion, kind);
  if (removed !== undefined) {
    return {
      diagnostic: makeDiagnostic(fieldRange(root, 'apiVersion', lc), 'removed-api-version', removedApiMessage(removed)),
    };
  }
  const resource = resourceFor(apiVersion, kind);
  const entry = kindEntry(apiVersion, kind);
  if (entry?.removed === true && resource === undefined) {
    const current = currentEntry(kind);
    const message = `${apiVersion} ${kind} is no longer served by Kubernetes${current === undefined ? '' : `; use ${current.apiVersion}`}`;
    return { diagnostic: makeDiagnostic(fieldRange(root, 'apiVersion', lc), 'removed-api-version', message) };
  }
  if (resource !== undefined || entry !== undefined)
    return { ...(resource === undefined ? {} : { resource }), ...(entry === undefined ? {} : { entry }) };
  const message = `Unknown kind "${kind}" for apiVersion "${apiVersion}"${hint(apiVersion, kind)}`;
  const warning = !isKubernetesGroup(parseApiVersion(apiVersion).group);
  return { diagnostic: makeDiagnostic(fieldRange(root, 'kind', lc), 'unknown-kind', message, warning) };
}

/** Core, the dot-less built-in groups (`apps`, `batch`, …) and `*.k8s.io` belong to Kubernetes itself. */
function isKubernetesGroup(group: string): boolean {
  return !group.includes('.') || group.endsWith('.k8s.io');
}

/**
 * The served version of a kind matched ignoring case: the last in the schema's order (`autoscaling/v2` over
 * `autoscaling/v1`).
 */
function currentEntry(kind: string, apiVersion?: string): KindEntry | undefined {
  const lower = kind.toLowerCase();
  let found: KindEntry | undefined;
  for (const k of getSchema().kinds) {
    if (k.removed === true || k.kind.toLowerCase() !== lower) continue;
    if (apiVersion !== undefined && k.apiVersion === apiVersion) return k;
    found = k;
  }
  return found;
}

function hint(apiVersion: string, kind: string): string {
  const same = currentEntry(kind, apiVersion);
  if (same === undefined) return '';
  if (same.apiVersion === apiVersion) return `; did you mean "${same.kind}"?`;
  return `; ${same.kind} is served as apiVersion "${same.apiVersion}"`;
}
