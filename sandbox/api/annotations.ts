/**
 * Annotation keys that mean something to more than one layer (the API server and kubectl-style clients).
 * upstream: staging/src/k8s.io/api/core/v1/annotation_key_constants.go
 */

/** `kubectl apply`'s record of the configuration it last applied (LastAppliedConfigAnnotation). */
export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * The workspace file an object was applied from by the GitOps sync (Argo CD keeps its tracking id in an annotation the
 * same way): the sync loop writes it, the extension reads it to tell an object applied from a file from one the
 * cluster made.
 */
export const SOURCE_ANNOTATION = 'kube-reconcile.dev/source';
