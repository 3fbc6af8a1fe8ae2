/**
 * What an owned object is compared with: not its owner's manifest (a pod
 * against a Deployment's manifest is "35 fields out of sync": apiVersion, kind,
 * name…) but the template its controller stamped it from — a pod against its
 * ReplicaSet's, StatefulSet's, DaemonSet's or Job's pod template, as the
 * controller built it (upstream: pkg/controller/controller_utils.go:
 * GetPodFromTemplate: the template's labels, annotations and spec), defaulted
 * as the API server defaults a new pod.
 */
import type { KubeObject } from '../../../sandbox/api/types';
import { resourceFor } from '../../../sandbox/api/resources';
import type { MirrorCache } from '../sandbox/mirror';
import type { ObjectRef } from '../sandbox/protocol';

export interface OwnerTemplate {
  /** The controller that made the object: `replicaset/web-7d9f`. */
  owner: ObjectRef;
  ownerKind: string;
  /** The pod the owner's template describes, as the controller would create it (not yet defaulted). */
  desired: KubeObject;
  /** The owner's own controller chain up to what a user declares: `deployment/web`. */
  managedBy: { ref: ObjectRef; kind: string }[];
}

interface TemplateSpec {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
}

function controllerRef(obj: KubeObject, cache: MirrorCache): { ref: ObjectRef; kind: string } | undefined {
  const owner = obj.metadata.ownerReferences?.find((r) => r.controller);
  const resource = owner ? resourceFor(owner.apiVersion, owner.kind) : undefined;
  if (!owner || !resource) return undefined;
  const ref: ObjectRef = resource.namespaced
    ? { resource: resource.plural, namespace: obj.metadata.namespace, name: owner.name }
    : { resource: resource.plural, name: owner.name };
  return cache.get(ref.resource, ref.namespace, ref.name) ? { ref, kind: owner.kind } : undefined;
}

/** The template an owned pod was made from, or undefined when the pod has no controller with a pod template. */
export function ownerTemplate(live: KubeObject | undefined, cache: MirrorCache): OwnerTemplate | undefined {
  if (live?.kind !== 'Pod') return undefined;
  const owner = controllerRef(live, cache);
  if (!owner) return undefined;
  const ownerObj = cache.get(owner.ref.resource, owner.ref.namespace, owner.ref.name)!;
  const template = (ownerObj.spec as { template?: TemplateSpec } | undefined)?.template;
  if (!template?.spec) return undefined;
  const metadata: KubeObject['metadata'] = {};
  if (template.metadata?.labels) metadata.labels = { ...template.metadata.labels };
  if (template.metadata?.annotations) metadata.annotations = { ...template.metadata.annotations };
  const desired: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata, spec: structuredClone(template.spec) };
  const managedBy: { ref: ObjectRef; kind: string }[] = [];
  for (let next = controllerRef(ownerObj, cache); next && managedBy.length < 5; ) {
    managedBy.push(next);
    const obj = cache.get(next.ref.resource, next.ref.namespace, next.ref.name)!;
    next = controllerRef(obj, cache);
  }
  return { owner: owner.ref, ownerKind: owner.kind, desired, managedBy };
}
