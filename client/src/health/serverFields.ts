/**
 * Fields the API server and controllers own: never part of a manifest's
 * intent, so never drift. Mirrors what Argo CD and `kubectl diff` leave out.
 */
import type { PathSegment } from './flatten';

const SERVER_METADATA = new Set([
  'uid',
  'resourceVersion',
  'creationTimestamp',
  'generation',
  'managedFields',
  'selfLink',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
]);

/** Annotations written by kubectl and by controllers rather than by the user. */
const SERVER_ANNOTATIONS = [
  'kubectl.kubernetes.io/last-applied-configuration',
  'deployment.kubernetes.io/',
  'autoscaling.alpha.kubernetes.io/',
];

/** True for `status…`, server-set metadata, and kubectl/controller annotations. */
export function isServerManaged(segments: readonly PathSegment[]): boolean {
  const [top, field, key] = segments;
  if (top === 'status') return true;
  if (top !== 'metadata') return false;
  if (typeof field === 'string' && SERVER_METADATA.has(field)) return true;
  return (
    field === 'annotations' &&
    typeof key === 'string' &&
    SERVER_ANNOTATIONS.some((a) => key === a || (a.endsWith('/') && key.startsWith(a)))
  );
}
