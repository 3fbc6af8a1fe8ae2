/**
 * Annotation keys that mean something to more than one layer (the API server and kubectl-style clients).
 * upstream: staging/src/k8s.io/api/core/v1/annotation_key_constants.go
 */

/** `kubectl apply`'s record of the configuration it last applied (LastAppliedConfigAnnotation). */
export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
