/**
 * The `/scale` subresource of Deployments, ReplicaSets and StatefulSets
 * (upstream `ScaleREST` of pkg/registry/apps/deployment, replicaset and statefulset): an `autoscaling/v1` Scale built
 * from the parent (spec.replicas; status.replicas and the selector as a
 * string); writing one sets the parent's `spec.replicas`, with the Scale's
 * resourceVersion as the precondition.
 */
import { badRequest, invalid } from '../api/errors';
import { formatLabelSelector } from '../api/selectors/labelSelector';
import type { LabelSelector } from '../api/selectors/labelSelector';
import type { ResourceType } from '../api/resources';
import type { KubeObject } from '../api/types';

/** How 422s on a Scale name it (`Scale.autoscaling "web" is invalid: …`). */
const SCALE_RESOURCE: ResourceType = {
  group: 'autoscaling',
  version: 'v1',
  kind: 'Scale',
  plural: 'scale',
  singular: 'scale',
  namespaced: true,
  shortNames: [],
  categories: [],
  statusSubresource: false,
  scaleSubresource: false,
  hasGeneration: false,
};

interface Spec {
  replicas?: number;
  selector?: LabelSelector;
}

/** The Scale of a parent object, as upstream's scaleFromDeployment (scaleFromRC for an RC) builds it. */
export function scaleOf(parent: KubeObject): KubeObject {
  const spec = (parent.spec ?? {}) as Spec;
  const status = (parent.status ?? {}) as { replicas?: number };
  const m = parent.metadata;
  // A ReplicationController's selector is a plain label map (upstream's scaleFromRC: labels.SelectorFromSet).
  const selector = formatLabelSelector(
    parent.kind === 'ReplicationController'
      ? { matchLabels: (spec.selector ?? {}) as Record<string, string> }
      : spec.selector,
  );
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: m.name,
      namespace: m.namespace,
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      creationTimestamp: m.creationTimestamp,
    },
    spec: spec.replicas ? { replicas: spec.replicas } : {},
    status: {
      replicas: status.replicas ?? 0,
      ...(selector === '<none>' || selector === '<error>' ? {} : { selector }),
    },
  };
}

/**
 * The parent with the Scale's `spec.replicas`, its resourceVersion the Scale's (or the parent's when the Scale has
 * none). 400 for a non-integer, 422 for a negative count.
 */
export function scaledParent(parent: KubeObject, scale: KubeObject): KubeObject {
  const replicas = (scale.spec as Spec | undefined)?.replicas ?? 0;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas)) {
    throw badRequest(
      `Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal ${typeof replicas} into Go struct field ScaleSpec.spec.replicas of type int32`,
    );
  }
  if (replicas < 0)
    throw invalid(SCALE_RESOURCE, parent.metadata.name!, [
      {
        reason: 'FieldValueInvalid',
        field: 'spec.replicas',
        message: `Invalid value: ${replicas}: must be greater than or equal to 0`,
      },
    ]);
  const rv = scale.metadata?.resourceVersion || parent.metadata.resourceVersion;
  return {
    ...parent,
    metadata: { ...parent.metadata, resourceVersion: rv },
    spec: { ...(parent.spec as object), replicas },
  };
}
