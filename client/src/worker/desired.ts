/**
 * "Show the manifest behind this object": the tracked object itself, or the
 * nearest controller owner that is tracked (a Pod → its ReplicaSet → the
 * Deployment that web.yaml declares).
 */
import type { KubeObject, OwnerReference } from '../../../sandbox/api/types';
import { resourceFor, type ResourceType } from '../../../sandbox/api/resources';
import type { ObjectRef, Requests } from '../sandbox/protocol';
import type { SandboxSession } from './session';

const MAX_OWNER_HOPS = 5;

export function desiredFor(session: SandboxSession, ref: ObjectRef): Requests['desired']['result'] {
  const api = session.cluster.api;
  let current: ObjectRef | undefined = ref;
  for (let hop = 0; current && hop <= MAX_OWNER_HOPS; hop++) {
    const tracked = session.gitops.desired(current.resource, current.namespace, current.name);
    if (tracked) return { file: tracked.source, line: tracked.line, manifest: tracked.manifest };
    const live: KubeObject | undefined = api.tryGet(current.resource, current.namespace, current.name);
    const owner: OwnerReference | undefined = live?.metadata.ownerReferences?.find((o) => o.controller);
    const r: ResourceType | undefined = owner ? resourceFor(owner.apiVersion, owner.kind) : undefined;
    current =
      owner && r
        ? { resource: r.plural, namespace: r.namespaced ? live?.metadata.namespace : undefined, name: owner.name }
        : undefined;
  }
  return {};
}
