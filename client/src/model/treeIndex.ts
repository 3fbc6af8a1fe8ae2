/**
 * One pass over the mirror cache that the tree reads from: objects by uid,
 * children by controller owner, pods by node. Rebuilt when the cache changes.
 * A namespaced custom resource is a parent of any kind the tree shows (an operator's CR controlling a Deployment,
 * a Service, another custom resource…), as the built-in controllers are of the kinds they make.
 */
import type { ObjectsByResource, ResourceName } from '../../../sandbox/api/resourceObjects';
import type { KubeObject } from '../../../sandbox/api/types';
import type { MirrorCache } from '../sandbox/mirror';
import { isCustomResource } from './customResources';
import { CHILD_RESOURCES, NAMESPACED_KINDS, PARENT_RESOURCES, kindView } from './kinds';

export class TreeIndex {
  /** Resource of each object that can be a parent, by uid. */
  private readonly parents = new Map<string, string>();
  private readonly byOwner = new Map<string, Map<string, KubeObject[]>>();
  private readonly byNode = new Map<string, ObjectsByResource['pods'][]>();
  private readonly unscheduled: ObjectsByResource['pods'][] = [];
  /** Objects nested by what they name rather than by controller reference: a StatefulSet's PVCs, HPAs. */
  private readonly nestedByName = new Set<KubeObject>();

  /** What may nest under a custom resource: every namespaced kind the tree shows, then the custom resources. */
  private readonly customChildren: readonly string[];

  constructor(readonly cache: MirrorCache) {
    for (const resource of PARENT_RESOURCES)
      for (const o of cache.list(resource)) if (o.metadata.uid) this.parents.set(o.metadata.uid, resource);
    const customResources = cache.resources().filter(isCustomResource);
    this.customChildren = [...NAMESPACED_KINDS.map((k) => k.resource), ...customResources];
    // Only namespaced custom resources are rows of the tree (under their namespace): a cluster-scoped owner's
    // children stay in their own groups.
    const customParents = new Set<string>();
    for (const resource of customResources)
      for (const o of cache.list(resource))
        if (o.metadata.uid && o.metadata.namespace) {
          this.parents.set(o.metadata.uid, resource);
          customParents.add(o.metadata.uid);
        }
    for (const resource of CHILD_RESOURCES) {
      for (const o of cache.list(resource)) {
        const owner = controllerUid(o);
        if (owner === undefined) continue;
        let m = this.byOwner.get(owner);
        if (!m) this.byOwner.set(owner, (m = new Map()));
        push(m, resource, o);
      }
    }
    // The kinds no built-in controller nests, and custom resources, under a custom resource controlling them (the
    // kinds of CHILD_RESOURCES are indexed by any controller above).
    if (customParents.size > 0)
      for (const resource of this.customChildren) {
        if (CHILD_RESOURCES.includes(resource)) continue;
        for (const o of cache.list(resource)) {
          const owner = controllerUid(o);
          if (owner === undefined || !customParents.has(owner)) continue;
          let m = this.byOwner.get(owner);
          if (!m) this.byOwner.set(owner, (m = new Map()));
          push(m, resource, o);
        }
      }
    this.nestStatefulSetClaims(cache);
    this.nestAutoscalers(cache);
    for (const pod of cache.list('pods')) {
      const node = pod.spec?.nodeName;
      if (node) push(this.byNode, node, pod);
      else this.unscheduled.push(pod);
    }
  }

  /**
   * A StatefulSet's claims are named `<claim>-<set>-<ordinal>` (upstream: pkg/controller/statefulset/
   * stateful_set_utils.go: getPersistentVolumeClaimName) and are kept after the set scales down or is deleted (the
   * default `Retain` policy gives them no controller), so they nest under the set by name.
   */
  private nestStatefulSetClaims(cache: MirrorCache): void {
    const sets = cache.list('statefulsets');
    if (sets.length === 0) return;
    for (const claim of cache.list('persistentvolumeclaims')) {
      if (controllerUid(claim) !== undefined) continue;
      const name = claim.metadata.name!;
      const set = sets.find(
        (s) =>
          s.metadata.uid !== undefined &&
          s.metadata.namespace === claim.metadata.namespace &&
          (s.spec?.volumeClaimTemplates ?? []).some((t) => {
            const prefix = `${t.metadata?.name ?? ''}-${s.metadata.name}-`;
            return name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length));
          }),
      );
      if (set) this.nestByName(set.metadata.uid!, 'persistentvolumeclaims', claim);
    }
  }

  /** An HPA nests under the workload its `scaleTargetRef` names when that workload is in the cache. */
  private nestAutoscalers(cache: MirrorCache): void {
    for (const hpa of cache.list('horizontalpodautoscalers')) {
      const ref = hpa.spec?.scaleTargetRef;
      const resource = ref ? SCALE_TARGETS[ref.kind] : undefined;
      if (!ref || !resource) continue;
      const target = cache.get(resource, hpa.metadata.namespace, ref.name);
      const group = (ref.apiVersion ?? '').includes('/') ? ref.apiVersion!.split('/')[0] : '';
      if (target?.metadata.uid && target.apiVersion.startsWith(group))
        this.nestByName(target.metadata.uid, 'horizontalpodautoscalers', hpa);
    }
  }

  private nestByName(uid: string, resource: string, o: KubeObject): void {
    let m = this.byOwner.get(uid);
    if (!m) this.byOwner.set(uid, (m = new Map()));
    push(m, resource, o);
    this.nestedByName.add(o);
  }

  /** Objects of `resource` whose controller is the object with `uid`, sorted by name. */
  ownedBy(uid: string, resource: string): KubeObject[] {
    return this.byOwner.get(uid)?.get(resource) ?? [];
  }

  /** The resources whose objects nest under an object of `resource` it controls, in display order. */
  childResources(resource: string): readonly string[] {
    return isCustomResource(resource) ? this.customChildren : (kindView(resource)?.children ?? []);
  }

  /**
   * True when the object's controller is in the cache and nests objects of `resource`, so the object is shown under it.
   */
  hasShownController(o: KubeObject, resource: string): boolean {
    if (this.nestedByName.has(o)) return true;
    const owner = controllerUid(o);
    const parent = owner === undefined ? undefined : this.parents.get(owner);
    return parent !== undefined && this.childResources(parent).includes(resource);
  }

  private readonly lists = new Map<string, KubeObject[]>();

  /** `cache.list`, read once per index: the tree asks for the same lists many times in one refresh. */
  list<R extends ResourceName>(resource: R, namespace?: string): ObjectsByResource[R][];
  list(resource: string, namespace?: string): KubeObject[];
  list(resource: string, namespace?: string): KubeObject[] {
    const key = `${resource}/${namespace ?? ''}`;
    let l = this.lists.get(key);
    if (!l) this.lists.set(key, (l = this.cache.list(resource, namespace)));
    return l;
  }

  private readonly topLevels = new Map<string, KubeObject[]>();

  /** Objects of `resource` in `namespace` that are not nested under a controller. */
  topLevel(resource: string, namespace: string): KubeObject[] {
    const key = `${resource}/${namespace}`;
    let l = this.topLevels.get(key);
    if (!l)
      this.topLevels.set(
        key,
        (l = this.list(resource, namespace).filter((o) => !this.hasShownController(o, resource))),
      );
    return l;
  }

  /** Pods bound to no node, sorted by namespace and name. */
  unscheduledPods(): ObjectsByResource['pods'][] {
    return this.unscheduled;
  }

  /** Pods bound to the node, sorted by namespace and name. */
  podsOn(node: string): ObjectsByResource['pods'][] {
    return this.byNode.get(node) ?? [];
  }
}

/** The kinds an HPA scales that the tree shows, by `scaleTargetRef.kind`. */
const SCALE_TARGETS: Readonly<Record<string, string>> = {
  Deployment: 'deployments',
  StatefulSet: 'statefulsets',
  ReplicaSet: 'replicasets',
  ReplicationController: 'replicationcontrollers',
};

function controllerUid(o: KubeObject): string | undefined {
  return o.metadata.ownerReferences?.find((r) => r.controller)?.uid;
}

function push<K>(m: Map<K, KubeObject[]>, key: K, o: KubeObject): void {
  const list = m.get(key);
  if (list) list.push(o);
  else m.set(key, [o]);
}
