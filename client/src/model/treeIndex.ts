/**
 * One pass over the mirror cache that the tree reads from: objects by uid,
 * children by controller owner, pods by node. Rebuilt when the cache changes.
 */
import type { ObjectsByResource, ResourceName } from '../../../sandbox/api/resourceObjects';
import type { KubeObject } from '../../../sandbox/api/types';
import type { MirrorCache } from '../sandbox/mirror';
import { CHILD_RESOURCES, PARENT_RESOURCES, kindView } from './kinds';

export class TreeIndex {
  /** Resource of each object that can be a parent, by uid. */
  private readonly parents = new Map<string, string>();
  private readonly byOwner = new Map<string, Map<string, KubeObject[]>>();
  private readonly byNode = new Map<string, ObjectsByResource['pods'][]>();
  private readonly unscheduled: ObjectsByResource['pods'][] = [];

  constructor(readonly cache: MirrorCache) {
    for (const resource of PARENT_RESOURCES)
      for (const o of cache.list(resource)) if (o.metadata.uid) this.parents.set(o.metadata.uid, resource);
    for (const resource of CHILD_RESOURCES) {
      for (const o of cache.list(resource)) {
        const owner = controllerUid(o);
        if (owner === undefined) continue;
        let m = this.byOwner.get(owner);
        if (!m) this.byOwner.set(owner, (m = new Map()));
        push(m, resource, o);
      }
    }
    for (const pod of cache.list('pods')) {
      const node = pod.spec?.nodeName;
      if (node) push(this.byNode, node, pod);
      else this.unscheduled.push(pod);
    }
  }

  /** Objects of `resource` whose controller is the object with `uid`, sorted by name. */
  ownedBy(uid: string, resource: string): KubeObject[] {
    return this.byOwner.get(uid)?.get(resource) ?? [];
  }

  /**
   * True when the object's controller is in the cache and nests objects of `resource`, so the object is shown under it.
   */
  hasShownController(o: KubeObject, resource: string): boolean {
    const owner = controllerUid(o);
    const parent = owner === undefined ? undefined : this.parents.get(owner);
    return parent !== undefined && (kindView(parent)?.children.includes(resource) ?? false);
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

function controllerUid(o: KubeObject): string | undefined {
  return o.metadata.ownerReferences?.find((r) => r.controller)?.uid;
}

function push<K>(m: Map<K, KubeObject[]>, key: K, o: KubeObject): void {
  const list = m.get(key);
  if (list) list.push(o);
  else m.set(key, [o]);
}
