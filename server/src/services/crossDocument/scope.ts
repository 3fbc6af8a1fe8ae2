/**
 * Which namespace an object lives in, as `kubectl apply` without `-n` would
 * put it: `metadata.namespace` when written, otherwise `default` (the
 * namespace of a kubeconfig context without one). Cluster-scoped kinds have
 * no namespace: for them the field is ignored, as the API server ignores it.
 */
import { RESOURCES } from '../../../../sandbox/api/registry';
import { resourceFor } from '../../../../sandbox/api/resources';

/** The namespace of objects that do not name one. */
export const DEFAULT_NAMESPACE = 'default';

/**
 * Cluster-scoped kinds the sandbox does not serve, by `group/kind`. Any other
 * kind the sandbox does not serve (custom resources included) is taken as
 * namespaced, which is what most are.
 */
const CLUSTER_SCOPED: ReadonlySet<string> = new Set([
  'apiextensions.k8s.io/CustomResourceDefinition',
  'apiregistration.k8s.io/APIService',
  'admissionregistration.k8s.io/MutatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding',
  'certificates.k8s.io/CertificateSigningRequest',
  'flowcontrol.apiserver.k8s.io/FlowSchema',
  'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration',
  'node.k8s.io/RuntimeClass',
  'scheduling.k8s.io/PriorityClass',
  'storage.k8s.io/CSIDriver',
  'storage.k8s.io/CSINode',
  'storage.k8s.io/VolumeAttachment',
  '/ComponentStatus',
]);

/**
 * Served cluster-scoped kinds by group and kind, for other versions of the same group
 * (`rbac.authorization.k8s.io/v1beta1`).
 */
const SERVED_CLUSTER_SCOPED: ReadonlySet<string> = new Set(
  RESOURCES.filter((r) => !r.namespaced).map((r) => `${r.group}/${r.kind}`),
);

/** False for kinds that live outside namespaces (Namespace, Node, ClusterRole, StorageClass, CRDs…). */
export function isNamespaced(apiVersion: string, group: string, kind: string): boolean {
  const served = resourceFor(apiVersion, kind);
  if (served !== undefined) return served.namespaced;
  return !CLUSTER_SCOPED.has(`${group}/${kind}`) && !SERVED_CLUSTER_SCOPED.has(`${group}/${kind}`);
}

/** The namespace an object is created in, or `` for cluster-scoped kinds. */
export function effectiveNamespace(
  apiVersion: string,
  group: string,
  kind: string,
  namespace: string | undefined,
): string {
  if (!isNamespaced(apiVersion, group, kind)) return '';
  return namespace === undefined || namespace === '' ? DEFAULT_NAMESPACE : namespace;
}
