/**
 * "Show the manifest behind this object": the tracked object itself, or the
 * nearest controller owner that is tracked (a Pod → its ReplicaSet → the
 * Deployment that web.yaml declares).
 */
import { resourceFor } from '../../../sandbox/api/resources';
import type { ObjectRef, Requests } from '../sandbox/protocol';
import type { SandboxSession } from './session';

const MAX_OWNER_HOPS = 5;

export function desiredFor(session: SandboxSession, ref: ObjectRef): Requests['desired']['result'] {
  const api = session.cluster.api;
  let current: ObjectRef | undefined = ref;
  for (let hop = 0; current && hop <= MAX_OWNER_HOPS; hop++) {
    const tracked = session.gitops.desired(current.resource, current.namespace, current.name);
    if (tracked) return { file: tracked.source, line: tracked.line, manifest: tracked.manifest };
    const live = api.tryGet(current.resource, current.namespace, current.name);
    const owner = live?.metadata.ownerReferences?.find((o) => o.controller);
    const r = owner ? resourceFor(owner.apiVersion, owner.kind) : undefined;
    current =
      owner && r
        ? { resource: r.plural, namespace: r.namespaced ? live?.metadata.namespace : undefined, name: owner.name }
        : undefined;
  }
  return {};
}
