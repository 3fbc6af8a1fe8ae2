/**
 * Is this apiVersion/kind a Kubernetes kind of the active release? Every kind
 * of its generated schema is (the sandbox serves fewer: a kind it does not
 * serve is still valid in the editor, it is just not simulated), and so is
 * every kind the sandbox serves. The answer carries the sandbox resource and the schema
 * entry when there are any, or the diagnostic explaining why not.
 */
import type { Diagnostic } from 'vscode-languageserver-types';
import type { LineCounter, YAMLMap } from 'yaml';
import { resourceFor } from '../../../sandbox/api/resources';
import type { ResourceType } from '../../../sandbox/api/resources';
import { parseApiVersion } from '../../../sandbox/api/types';
import {
  KUBERNETES_VERSIONS,
  builtInGroups,
  compareKubernetesVersions,
  getSchema,
  kindEntry,
  kindVersions,
  kubernetesVersion,
} from '../schema/schema';
import type { KindEntry } from '../schema/types';
import { makeDiagnostic } from './diagnostic';
import { fieldRange } from '../../../sandbox/manifests/pathToRange';
import { removedApi, removedApiMessage } from './removedApis';

/**
 * A recognised kind: the sandbox's resource type (when it serves the kind) and the schema's entry (when it has one).
 */
export interface KnownKind {
  readonly resource?: ResourceType;
  readonly entry?: KindEntry;
}

/**
 * The kind of the manifest's apiVersion/kind, or a diagnostic, for the active Kubernetes release:
 * - `removed-api-version` on the apiVersion value for an API the release no longer serves (with the
 *   replacement): older releases' removals from the removed-API table, the supported releases' own from
 *   their schemas (`flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema was removed in Kubernetes 1.32`);
 * - `unknown-kind` (error) for a kind the release does not serve yet (`… is not in Kubernetes 1.32 (added
 *   in 1.34)`) or does not have in one of its own API groups;
 * - `unknown-kind` (warning) for a kind of any other group: a custom resource, whose CustomResourceDefinition
 *   is not in the workspace (a real cluster may have it installed).
 * Configuration files of Kubernetes' tools that share the apiVersion/kind shape (kustomization.yaml,
 * kubeconfig, kubeadm and component configs) are not manifests: `{}`, nothing to check.
 */
export function checkKind(
  root: YAMLMap,
  apiVersion: string,
  kind: string,
  lc: LineCounter,
): KnownKind | { diagnostic: Diagnostic } {
  if (isToolConfiguration(apiVersion, kind)) return {};
  const version = kubernetesVersion();
  const removed = removedApi(apiVersion, kind);
  if (removed !== undefined) {
    return {
      diagnostic: makeDiagnostic(fieldRange(root, 'apiVersion', lc), 'removed-api-version', removedApiMessage(removed)),
    };
  }
  const resource = resourceFor(apiVersion, kind);
  const entry = kindEntry(apiVersion, kind);
  // The same object as spreading the defined ones in, without the spreads (a slow path, once per document).
  if (resource !== undefined && entry !== undefined) return { resource, entry };
  if (resource !== undefined) return { resource };
  if (entry !== undefined && offByDefault(apiVersion, version)) {
    const current = currentEntry(kind);
    const ga = current !== undefined && !isPreRelease(current.apiVersion) ? `; use ${current.apiVersion}` : '';
    const message =
      `${apiVersion} ${kind} is off by default in Kubernetes ${version}: a cluster answers \`no matches for kind ` +
      `"${kind}" in version "${apiVersion}"\` unless kube-apiserver runs with --runtime-config=${apiVersion}=true${ga}`;
    return { diagnostic: makeDiagnostic(fieldRange(root, 'apiVersion', lc), 'unknown-kind', message) };
  }
  if (entry !== undefined) return { entry };
  const served = kindVersions(apiVersion, kind);
  if (served.length > 0) {
    const later = served.filter((v) => compareKubernetesVersions(v, version) > 0);
    if (later.length === 0) {
      const last = served[served.length - 1];
      const removedIn = KUBERNETES_VERSIONS[KUBERNETES_VERSIONS.indexOf(last) + 1];
      const current = currentEntry(kind);
      const message = removedApiMessage({
        apiVersion,
        kind,
        removedIn,
        replacement: current?.apiVersion ?? '',
      });
      return { diagnostic: makeDiagnostic(fieldRange(root, 'apiVersion', lc), 'removed-api-version', message) };
    }
    const message = `${apiVersion} ${kind} is not in Kubernetes ${version} (added in ${later[0]})`;
    return { diagnostic: makeDiagnostic(fieldRange(root, 'apiVersion', lc), 'unknown-kind', message) };
  }
  const group = parseApiVersion(apiVersion).group;
  if (!builtInGroups().has(group)) {
    const message = `No CustomResourceDefinition for "${apiVersion} ${kind}" in the workspace: it is not checked`;
    return { diagnostic: makeDiagnostic(fieldRange(root, 'kind', lc), 'unknown-kind', message, true) };
  }
  const message = `Unknown kind "${kind}" for apiVersion "${apiVersion}"${hint(apiVersion, kind)}`;
  return { diagnostic: makeDiagnostic(fieldRange(root, 'kind', lc), 'unknown-kind', message) };
}

/**
 * Files of Kubernetes' own tools that look like manifests but are never sent to an API server: kustomize's
 * kustomization.yaml (`kustomize.config.k8s.io`), component configurations (`kubelet.config.k8s.io`,
 * `kubescheduler.config.k8s.io`…), kubeadm's, audit policies, exec credentials and kubeconfig (`v1 Config`).
 */
export function isToolConfiguration(apiVersion: string, kind: string): boolean {
  const group = parseApiVersion(apiVersion).group;
  if (group === '') return kind === 'Config' && apiVersion === 'v1';
  return (
    group.endsWith('.config.k8s.io') ||
    ['kubeadm.k8s.io', 'audit.k8s.io', 'client.authentication.k8s.io', 'apiserver.k8s.io'].includes(group)
  );
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
    // A GA version over pre-release ones.
    if (found !== undefined && isPreRelease(k.apiVersion) && !isPreRelease(found.apiVersion)) continue;
    found = k;
  }
  return found;
}

/**
 * An alpha or beta API of the release's schema that kube-apiserver does not serve unless asked
 * (pkg/controlplane/apiserver/options `DefaultAPIResourceConfigSource`: `alphaAPIGroupVersionsDisabledByDefault`,
 * `betaAPIGroupVersionsDisabledByDefault` — every beta since KEP-3136, Kubernetes 1.24). Up to 1.32 every pre-release
 * version the schema lists is off, but for `legacyBetaEnabledByDefaultResources` (flowcontrol v1beta3, removed in
 * 1.32); the lists of 1.33 and 1.34 are not checked here, so those releases say nothing.
 */
function offByDefault(apiVersion: string, version: string): boolean {
  if (!isPreRelease(apiVersion) || compareKubernetesVersions(version, '1.32') > 0) return false;
  if (apiVersion === 'flowcontrol.apiserver.k8s.io/v1beta3') return false;
  return builtInGroups().has(parseApiVersion(apiVersion).group);
}

function isPreRelease(apiVersion: string): boolean {
  return /^v\d+(alpha|beta)\d+$/.test(apiVersion.slice(apiVersion.indexOf('/') + 1));
}

function hint(apiVersion: string, kind: string): string {
  const same = currentEntry(kind, apiVersion);
  if (same === undefined) return '';
  if (same.apiVersion === apiVersion) return `; did you mean "${same.kind}"?`;
  return `; ${same.kind} is served as apiVersion "${same.apiVersion}"`;
}
