/**
 * The shape of the cluster tree, read from the mirror cache:
 *
 *   Nodes → node (status, pods count) → its pods
 *   Namespaces → namespace → group (Deployments, Services, Jobs…, only when
 *     non-empty) → object → objects it controls (ReplicaSets, Pods, Jobs)
 *
 * Objects nest under their controller by owner reference; objects whose
 * controller is not shown (bare pods, orphans) sit in their own group.
 */
import type { ObjectsByResource } from '../../../sandbox/api/resourceObjects';
import type { KubeObject } from '../../../sandbox/api/types';
import type { SyncStatus } from '../health/syncStatus';
import type { MirrorCache } from '../sandbox/mirror';
import type { ObjectRef } from '../sandbox/protocol';
import { activePods, nodeDescription, objectDescription } from './describe';
import { objectIcon } from './icons';
import { NAMESPACED_KINDS, NAMESPACE_KIND, NODE_KIND, kindView } from './kinds';
import type { KindView } from './kinds';
import { objectTooltip } from './tooltip';
import { TreeIndex } from './treeIndex';
import type { Collapsible, TreeNode } from './treeNode';

/** Namespaces shown expanded the first time they appear. */
const EXPANDED_NAMESPACES = new Set(['default']);
/** Kinds whose items start expanded when they have children (the workload → pods chain the lessons watch). */
const EXPANDED_KINDS = new Set(['deployments', 'replicasets', 'statefulsets', 'daemonsets']);

export class ClusterTree {
  private index: TreeIndex | undefined;

  /**
   * `now` gives the sandbox clock (epoch ms) that ages are measured against; `syncOf`, when given, the sync status of
   * an object against the saved files.
   */
  constructor(
    private readonly cache: MirrorCache,
    private readonly now: () => number,
    private readonly syncOf?: (resource: string, o: KubeObject) => SyncStatus | undefined,
  ) {}

  /** Forgets what was read from the cache; call when it changed. */
  invalidate(): void {
    this.index = undefined;
  }

  /** The two roots, Nodes and Namespaces. */
  roots(): TreeNode[] {
    return [
      {
        id: 'nodes',
        label: 'Nodes',
        icon: { id: 'server-environment' },
        contextValue: 'group',
        collapsible: 'expanded',
        source: { type: 'nodes' },
        description: String(this.cache.list('nodes').length),
      },
      {
        id: 'namespaces',
        label: 'Namespaces',
        icon: { id: NAMESPACE_KIND.icon },
        contextValue: 'group',
        collapsible: 'expanded',
        source: { type: 'namespaces' },
      },
    ];
  }

  /** The children of a node returned by `roots()` or an earlier `children()`. */
  children(parent: TreeNode): TreeNode[] {
    const index = this.currentIndex();
    const s = parent.source;
    switch (s.type) {
      case 'nodes':
        return this.cache.list('nodes').map((n) => this.nodeItem(n, index));
      case 'node':
        return index.podsOn(s.name).map((p) => this.objectItem('pods', p, index, `node/${s.uid}/`));
      case 'namespaces':
        return this.cache.list('namespaces').map((ns) => this.namespaceItem(ns, index));
      case 'namespace':
        return NAMESPACED_KINDS.filter((k) => index.topLevel(k.resource, s.namespace).length > 0).map((k) =>
          groupItem(k, s.namespace, index.topLevel(k.resource, s.namespace).length),
        );
      case 'group':
        return index.topLevel(s.resource, s.namespace).map((o) => this.objectItem(s.resource, o, index, ''));
      case 'object':
        return (kindView(s.resource)?.children ?? []).flatMap((r) =>
          index.ownedBy(s.uid, r).map((o) => this.objectItem(r, o, index, '')),
        );
    }
  }

  private currentIndex(): TreeIndex {
    return (this.index ??= new TreeIndex(this.cache));
  }

  private nodeItem(node: ObjectsByResource['nodes'], index: TreeIndex): TreeNode {
    const name = node.metadata.name!;
    const pods = index.podsOn(name);
    const uid = uidOf('nodes', node);
    const description = nodeDescription(node, pods);
    return {
      id: `node/${uid}`,
      label: name,
      description,
      tooltip: objectTooltip(node, this.now(), [`Pods: ${activePods(pods).length}`]),
      icon: objectIcon('nodes', node),
      contextValue: NODE_KIND.contextValue,
      collapsible: pods.length > 0 ? 'collapsed' : 'none',
      ref: { resource: 'nodes', name },
      source: { type: 'node', uid, name },
    };
  }

  private namespaceItem(ns: KubeObject, index: TreeIndex): TreeNode {
    const name = ns.metadata.name!;
    const hasChildren = NAMESPACED_KINDS.some((k) => index.topLevel(k.resource, name).length > 0);
    const description = objectDescription(ns, this.now());
    return {
      id: `ns/${name}`,
      label: name,
      ...(description ? { description } : {}),
      tooltip: objectTooltip(ns, this.now()),
      icon: { id: NAMESPACE_KIND.icon },
      contextValue: NAMESPACE_KIND.contextValue,
      collapsible: hasChildren ? (EXPANDED_NAMESPACES.has(name) ? 'expanded' : 'collapsed') : 'none',
      ref: { resource: 'namespaces', name },
      revealsManifest: true,
      source: { type: 'namespace', namespace: name },
    };
  }

  /**
   * `idPrefix` keeps ids unique where the same object shows twice (a pod under its node and under its owner); pods have
   * no children, so it stops there.
   */
  private objectItem(resource: string, o: KubeObject, index: TreeIndex, idPrefix: string): TreeNode {
    const view = kindView(resource);
    const uid = uidOf(resource, o);
    const hasChildren = (view?.children ?? []).some((r) => index.ownedBy(uid, r).length > 0);
    const now = this.now();
    const collapsible: Collapsible = hasChildren ? (EXPANDED_KINDS.has(resource) ? 'expanded' : 'collapsed') : 'none';
    const description = objectDescription(o, now);
    const sync = this.syncOf?.(resource, o);
    const tooltip = objectTooltip(o, now);
    return {
      id: `${idPrefix}${resource}/${uid}`,
      label: o.metadata.name!,
      ...(description ? { description } : {}),
      tooltip: sync ? `${tooltip}\n\n${sync.message}` : tooltip,
      icon: objectIcon(resource, o),
      contextValue: view?.contextValue ?? o.kind.toLowerCase(),
      collapsible,
      ref: refOf(resource, o),
      revealsManifest: !o.metadata.ownerReferences?.some((r) => r.controller),
      ...(sync ? { sync: sync.status } : {}),
      source: { type: 'object', resource, uid, name: o.metadata.name! },
    };
  }
}

function groupItem(k: KindView, namespace: string, n: number): TreeNode {
  return {
    id: `ns/${namespace}/${k.resource}`,
    label: k.title,
    description: String(n),
    icon: { id: k.icon },
    contextValue: 'group',
    collapsible: 'expanded',
    source: { type: 'group', namespace, resource: k.resource },
  };
}

function refOf(resource: string, o: KubeObject): ObjectRef {
  const name = o.metadata.name!;
  return o.metadata.namespace ? { resource, namespace: o.metadata.namespace, name } : { resource, name };
}

function uidOf(resource: string, o: KubeObject): string {
  return o.metadata.uid ?? `${resource}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
}
