/**
 * One garbage-collection decision for one object (`attemptToDeleteItem`,
 * `processDeletingDependentsItem` and `attemptToOrphanWorker` in
 * pkg/controller/garbagecollector/garbagecollector.go).
 */
import type { ApiServer } from '../../apiserver/apiServer';
import { FINALIZER_FOREGROUND, FINALIZER_ORPHAN } from '../../apiserver/apiServer';
import type { PropagationPolicy } from '../../apiserver/options';
import type { ResourceType } from '../../api/resources';
import type { KubeObject } from '../../api/types';
import type { Recorder } from '../../client/component';
import { classifyReferences, hasFinalizer, isDeletingDependents } from './references';
import { deleteObject, removeFinalizer, removeOwnerReferences } from './writes';

/** An object the collector watches, with its resource. */
export interface Node {
  resource: ResourceType;
  obj: KubeObject;
}

/** What the decisions need from the collector's graph. */
export interface Graph {
  api: ApiServer;
  recorder: Recorder;
  /** Watched objects with an owner reference to `uid`, in a deterministic order. */
  dependentsOf(uid: string): Node[];
  enqueueDelete(node: Node): void;
}

function describe(n: Node): string {
  const ns = n.obj.metadata.namespace;
  return `${n.resource.plural} ${ns ? `${ns}/` : ''}${n.obj.metadata.name}`;
}

/** Decides whether `item` (as cached) is garbage, and acts. */
export function attemptToDelete(g: Graph, item: Node): void {
  const live = g.api.tryGet(item.resource, item.obj.metadata.namespace, item.obj.metadata.name!);
  if (!live || live.metadata.uid !== item.obj.metadata.uid) return;
  const node: Node = { resource: item.resource, obj: live };
  if (isDeletingDependents(live)) return processDeletingDependents(g, node);
  if (live.metadata.deletionTimestamp) return;
  if ((live.metadata.ownerReferences ?? []).length === 0) return;
  const c = classifyReferences(g.api, live);
  for (const u of c.unresolvable)
    g.recorder.logOnly(
      live,
      'Warning',
      'OwnerRefInvalid',
      `ignoring ownerReference to ${u.ref.kind} ${u.ref.name}: ${u.why}`,
    );
  if (c.unresolvable.length > 0) return;
  if (c.solid.length > 0) {
    if (c.dangling.length === 0 && c.waitingForDependentsDeletion.length === 0) return;
    const uids = new Set([...c.dangling, ...c.waitingForDependentsDeletion].map((r) => r.uid));
    if (removeOwnerReferences(g.api, node.resource, live, uids)) {
      g.recorder.logOnly(
        live,
        'Normal',
        'OwnerRefsRemoved',
        `removed ownerReferences to absent or deleting owners ${[...uids].join(', ')} from ${describe(node)}; it still has live owners`,
      );
    }
    return;
  }
  let policy: PropagationPolicy;
  if (c.waitingForDependentsDeletion.length > 0 && g.dependentsOf(live.metadata.uid!).length > 0) policy = 'Foreground';
  else if (hasFinalizer(live, FINALIZER_ORPHAN)) policy = 'Orphan';
  else if (hasFinalizer(live, FINALIZER_FOREGROUND)) policy = 'Foreground';
  else policy = 'Background';
  if (deleteObject(g.api, node.resource, live, policy)) {
    g.recorder.logOnly(
      live,
      'Normal',
      'GarbageCollected',
      `deleting ${describe(node)} (propagationPolicy=${policy}): none of its owners remain`,
    );
  }
}

/** A foreground deletion: once no dependent blocks it, the `foregroundDeletion` finalizer goes. */
function processDeletingDependents(g: Graph, owner: Node): void {
  const uid = owner.obj.metadata.uid!;
  const blocking = g
    .dependentsOf(uid)
    .filter((d) => (d.obj.metadata.ownerReferences ?? []).some((r) => r.uid === uid && r.blockOwnerDeletion === true));
  if (blocking.length === 0) {
    if (removeFinalizer(g.api, owner.resource, owner.obj, FINALIZER_FOREGROUND)) {
      g.recorder.logOnly(
        owner.obj,
        'Normal',
        'FinalizerRemoved',
        `removed finalizer ${FINALIZER_FOREGROUND} from ${describe(owner)}: no dependent blocks its deletion`,
      );
    }
    return;
  }
  for (const d of blocking) if (!isDeletingDependents(d.obj)) g.enqueueDelete(d);
}

/** An orphaning deletion: the dependents lose their references to the owner, then the `orphan` finalizer goes. */
export function attemptToOrphan(g: Graph, item: Node): void {
  const live = g.api.tryGet(item.resource, item.obj.metadata.namespace, item.obj.metadata.name!);
  if (!live || live.metadata.uid !== item.obj.metadata.uid) return;
  if (!live.metadata.deletionTimestamp || !hasFinalizer(live, FINALIZER_ORPHAN)) return;
  const uid = new Set([live.metadata.uid!]);
  for (const d of g.dependentsOf(live.metadata.uid!)) {
    if (removeOwnerReferences(g.api, d.resource, d.obj, uid))
      g.recorder.logOnly(
        d.obj,
        'Normal',
        'Orphaned',
        `removed ownerReference to ${live.kind} ${live.metadata.name} from ${describe(d)}`,
      );
  }
  if (removeFinalizer(g.api, item.resource, live, FINALIZER_ORPHAN)) {
    g.recorder.logOnly(
      live,
      'Normal',
      'FinalizerRemoved',
      `removed finalizer ${FINALIZER_ORPHAN} from ${describe({ resource: item.resource, obj: live })}: its dependents are orphaned`,
    );
  }
}
