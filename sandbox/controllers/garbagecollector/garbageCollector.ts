/**
 * The garbage collector (pkg/controller/garbagecollector/): watches every
 * kind that can own or be owned, and
 * - deletes a dependent once none of its owners exists (an owner re-created
 *   under the same name has another uid, so it does not count);
 * - removes only the absent owners' references when some owners remain;
 * - for an owner deleted in the foreground, deletes its dependents, then
 *   removes `foregroundDeletion` once no `blockOwnerDeletion` dependent is left;
 * - for an owner deleted with Orphan, removes its references from the
 *   dependents, then the `orphan` finalizer.
 * Informer handlers only enqueue; the decisions read the live API.
 */
import type { ResourceType } from '../../api/resources';
import type { KubeObject, OwnerReference } from '../../api/types';
import type { Informer } from '../../client/informer';
import { objectKey } from '../../client/cache';
import type { ComponentContext } from '../../client/component';
import { FINALIZER_ORPHAN } from '../../apiserver/apiServer';
import { jsonEqual } from '../../util/json';
import { Controller, type FailureSubject, type Watches } from '../framework/controller';
import type { Graph, Node } from './attemptToDelete';
import { attemptToDelete, attemptToOrphan } from './attemptToDelete';
import { hasFinalizer, isDeletingDependents, liveOwner } from './references';

/**
 * The kinds watched by default: every namespaced workload kind and what they
 * own, nodes (which own leases), and namespaces (so a foreground deletion of
 * one loses its `foregroundDeletion` finalizer). Events are left out: nothing
 * owns them and they are the most written kind.
 */
export const DEFAULT_GC_RESOURCES: readonly string[] = [
  'pods',
  'replicasets',
  'deployments',
  'statefulsets',
  'daemonsets',
  'controllerrevisions',
  'jobs',
  'cronjobs',
  'services',
  'endpointslices',
  'configmaps',
  'secrets',
  'persistentvolumeclaims',
  'serviceaccounts',
  'leases',
  'nodes',
  'namespaces',
];

const OWNER_INDEX = 'garbagecollector/ownerUID';

export interface GarbageCollectorOptions {
  /** Resources to watch (plural names); default `DEFAULT_GC_RESOURCES`. */
  resources?: readonly string[];
}

type Action = 'delete' | 'orphan';

export class GarbageCollector extends Controller {
  private readonly watched: { resource: ResourceType; informer: Informer }[] = [];
  private readonly graph: Graph;

  constructor(
    ctx: ComponentContext,
    private readonly options: GarbageCollectorOptions = {},
  ) {
    super(ctx, { name: 'garbage-collector-controller' });
    this.graph = {
      api: ctx.api,
      recorder: this.recorder,
      dependentsOf: (uid) => this.dependentsOf(uid),
      enqueueDelete: (n) => this.enqueue('delete', n),
    };
  }

  /**
   * Every watched resource, indexed by owner uid; handlers run after every cache is filled, so owners are known when
   * their dependents are replayed.
   */
  protected watch(w: Watches): void {
    for (const name of this.options.resources ?? DEFAULT_GC_RESOURCES) {
      const resource = this.ctx.api.resolve(name);
      const informer = w.informer(resource.plural);
      w.index(informer, OWNER_INDEX, (o) => (o.metadata.ownerReferences ?? []).map((r) => r.uid));
      this.watched.push({ resource, informer });
    }
    for (const { resource, informer } of this.watched) {
      w.handle(informer, {
        onAdd: (o) => this.observe(resource, undefined, o),
        onUpdate: (old, o) => this.observe(resource, old, o),
        onDelete: (o) => this.removed(o),
      });
    }
  }

  /** Keys are `<action>|<resource>|<namespace/name>|<uid>`: the log line names the object and the action. */
  protected override describeFailure(key: string): FailureSubject {
    const parts = key.split('|');
    return { object: parts[2] ?? key, what: parts[0] };
  }

  private enqueue(action: Action, n: Node): void {
    this.queue.add(`${action}|${n.resource.plural}|${objectKey(n.obj)}|${n.obj.metadata.uid}`);
  }

  protected reconcile(key: string): void {
    const [action, plural, objKey, uid] = key.split('|');
    const entry = this.watched.find((w) => w.resource.plural === plural);
    const obj = entry?.informer.cache.get(objKey);
    if (!entry || !obj || obj.metadata.uid !== uid) return;
    const node = { resource: entry.resource, obj };
    if (action === 'orphan') attemptToOrphan(this.graph, node);
    else attemptToDelete(this.graph, node);
  }

  private dependentsOf(uid: string): Node[] {
    const out: Node[] = [];
    for (const { resource, informer } of this.watched)
      for (const obj of informer.cache.byIndex(OWNER_INDEX, uid)) out.push({ resource, obj });
    return out;
  }

  private cachedOwner(dependent: KubeObject, uid: string): Node | undefined {
    for (const { resource, informer } of this.watched) {
      const ref = dependent.metadata.ownerReferences?.find((r) => r.uid === uid);
      if (!ref || ref.kind !== resource.kind) continue;
      const key = resource.namespaced ? `${dependent.metadata.namespace}/${ref.name}` : ref.name;
      const obj = informer.cache.get(key);
      if (obj?.metadata.uid === uid) return { resource, obj };
    }
    return undefined;
  }

  /** `processGraphChanges` for an add or update. */
  private observe(resource: ResourceType, old: KubeObject | undefined, obj: KubeObject): void {
    const node = { resource, obj };
    const refs = obj.metadata.ownerReferences ?? [];
    const oldRefs = old?.metadata.ownerReferences ?? [];
    if (!old || !jsonEqual(refs, oldRefs)) {
      if (refs.length > 0 && !this.ownersAllPresent(obj)) {
        this.reportInvalidNamespaceOwnerRefs(obj, oldRefs);
        this.enqueue('delete', node);
      }
      // An owner waiting for its dependents may be unblocked by a reference going away.
      const now = new Set(refs.map((r) => r.uid));
      for (const r of oldRefs) {
        if (now.has(r.uid)) continue;
        const owner = this.cachedOwner(old!, r.uid);
        if (owner && isDeletingDependents(owner.obj)) this.enqueue('delete', owner);
      }
    }
    const deleting = obj.metadata.deletionTimestamp !== undefined;
    if (
      deleting &&
      hasFinalizer(obj, FINALIZER_ORPHAN) &&
      !(old && old.metadata.deletionTimestamp && hasFinalizer(old, FINALIZER_ORPHAN))
    )
      this.enqueue('orphan', node);
    if (isDeletingDependents(obj) && !(old && isDeletingDependents(old))) {
      for (const d of this.dependentsOf(obj.metadata.uid!)) this.enqueue('delete', d);
      this.enqueue('delete', node);
    }
  }

  /**
   * `addDependentToOwners` and `reportInvalidNamespaceOwnerRef` (graph_builder.go): a reference (new on this object)
   * whose owner exists, but is namespaced and lives in another namespace than the dependent, gets a Warning
   * `OwnerRefInvalidNamespace` on the dependent; the collector then treats the owner as absent (the dependent's own
   * namespace has no such owner), as upstream. Upstream finds the owner by uid in its graph; here the owner is
   * looked up by the reference's kind and name in each watched namespace, which finds the same object unless the
   * reference's name does not match its uid.
   */
  private reportInvalidNamespaceOwnerRefs(obj: KubeObject, oldRefs: readonly OwnerReference[]): void {
    const ns = obj.metadata.namespace ?? '';
    const namespaces = this.watched.find((w) => w.resource.plural === 'namespaces')?.informer;
    if (!namespaces) return;
    for (const r of obj.metadata.ownerReferences ?? []) {
      if (oldRefs.some((o) => o.uid === r.uid) || this.cachedOwner(obj, r.uid)) continue;
      const owners = this.watched.find((w) => w.resource.kind === r.kind && w.resource.namespaced)?.informer;
      const elsewhere = namespaces.cache
        .list()
        .some(
          (n) => n.metadata.name !== ns && owners?.cache.getByName(n.metadata.name!, r.name)?.metadata.uid === r.uid,
        );
      if (!elsewhere) continue;
      this.recorder.event(
        obj,
        'Warning',
        'OwnerRefInvalidNamespace',
        `ownerRef [${r.apiVersion}/${r.kind}, namespace: ${ns}, name: ${r.name}, uid: ${r.uid}] does not exist in namespace ${JSON.stringify(ns)}`,
      );
    }
  }

  /** `processGraphChanges` for a deletion: dependents may now be garbage; a foreground owner may be done. */
  private removed(obj: KubeObject): void {
    for (const d of this.dependentsOf(obj.metadata.uid!)) this.enqueue('delete', d);
    for (const r of obj.metadata.ownerReferences ?? []) {
      const owner = this.cachedOwner(obj, r.uid);
      if (owner && isDeletingDependents(owner.obj)) this.enqueue('delete', owner);
    }
  }

  /** Cheap pre-check from the caches: every owner is watched and present with its uid (then nothing to do). */
  private ownersAllPresent(obj: KubeObject): boolean {
    for (const r of obj.metadata.ownerReferences ?? []) {
      const cached = this.cachedOwner(obj, r.uid);
      if (cached) continue;
      // Owners of kinds not watched are checked live.
      try {
        if (!liveOwner(this.ctx.api, obj, r)) return false;
      } catch {
        return false;
      }
    }
    return true;
  }
}
