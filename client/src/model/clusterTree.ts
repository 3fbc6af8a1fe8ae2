/**
 * The shape of the cluster tree, read from the mirror cache:
 *
 *   by namespace (the default):
 *     Nodes → node (status, pods count) → its pods
 *     Namespaces → namespace → group (Deployments, Services, Jobs…, only when
 *       non-empty) → object → objects it controls (ReplicaSets, Pods, Jobs)
 *   by node:
 *     node → its pods; Unscheduled → pods no node runs; Namespaces as above
 *
 * Objects nest under their controller by owner reference (any kind under a
 * custom resource: an operator's CR → its Deployment → ReplicaSet → Pods); objects whose
 * controller is not shown (bare pods, orphans) sit in their own group. The
 * options filter what is shown (only what needs attention, one namespace, old
 * 0/0 ReplicaSets hidden). With nothing applied yet the tree is empty, so that
 * the view shows its welcome content instead.
 */
import { isKind } from '../../../sandbox/api/resourceObjects';
import type { ObjectsByResource } from '../../../sandbox/api/resourceObjects';
import type { KubeObject } from '../../../sandbox/api/types';
import type { SyncStatus } from '../health/syncStatus';
import type { MirrorCache } from '../sandbox/mirror';
import type { FailedNode, ObjectRef, RefusedDrain } from '../sandbox/protocol';
import { customResourceHealth } from '../health/resourceHealth';
import { customDescription, customKindView, isCustomResource } from './customResources';
import { activePods, nodeDescription, objectDescription } from './describe';
import { objectIcon } from './icons';
import { NAMESPACED_KINDS, NAMESPACE_KIND, kindView } from './kinds';
import type { KindView } from './kinds';
import { lastTerminations, needsAttention, nodeContextValue, nodeFailureText, podContextValue } from './liveState';
import { objectTooltip } from './tooltip';
import { TreeIndex } from './treeIndex';
import type { Collapsible, TreeNode } from './treeNode';
import { DEFAULT_TREE_OPTIONS, isEmptyReplicaSet } from './treeOptions';
import type { TreeOptions } from './treeOptions';

/** Namespaces shown expanded the first time they appear. */
const EXPANDED_NAMESPACES = new Set(['default']);
/** Kinds whose items start expanded when they have children (the workload → pods chain the lessons watch). */
const EXPANDED_KINDS = new Set(['deployments', 'replicasets', 'statefulsets', 'daemonsets']);
/** Namespaces the cluster makes for itself: what is there is not something the user applied. */
const SYSTEM_NAMESPACES = new Set(['kube-system', 'kube-public', 'kube-node-lease']);

/** What the tree reads besides the cache. */
export interface TreeInputs {
  /** Nodes whose kubelet Fail Node stopped (the sandbox's status). */
  failedNodes?: () => readonly FailedNode[];
  /** Drains that failed on nodes still cordoned (the sandbox's status). */
  refusedDrains?: () => readonly RefusedDrain[];
  options?: () => TreeOptions;
  /** The sync status of an object against the saved files. */
  syncOf?: (resource: string, o: KubeObject) => SyncStatus | undefined;
}

export class ClusterTree {
  private index: TreeIndex | undefined;
  private readonly attention = new Map<string, boolean>();

  /**
   * `now` gives the sandbox clock (epoch ms) that ages are measured against; `inputs` what else the rows show (failed
   * nodes, the view's options, sync status).
   */
  constructor(
    private readonly cache: MirrorCache,
    private readonly now: () => number,
    private readonly inputs: TreeInputs = {},
  ) {}

  /** Forgets what was read from the cache; call when it changed. */
  invalidate(): void {
    this.index = undefined;
    this.attention.clear();
  }

  private get options(): TreeOptions {
    return this.inputs.options?.() ?? DEFAULT_TREE_OPTIONS;
  }

  /**
   * False until something has been applied: the cluster holds only its nodes, its own namespaces and the `kubernetes`
   * Service.
   */
  hasUserObjects(): boolean {
    const index = this.currentIndex();
    if (this.cache.resources().some(isCustomResource)) return true;
    return NAMESPACED_KINDS.some((k) =>
      index
        .list(k.resource)
        .some(
          (o) =>
            !SYSTEM_NAMESPACES.has(o.metadata.namespace ?? '') &&
            !(k.resource === 'services' && o.metadata.namespace === 'default' && o.metadata.name === 'kubernetes'),
        ),
    );
  }

  /** The top level: Nodes and Namespaces, or each node, Unscheduled and Namespaces; none before anything is applied. */
  roots(): TreeNode[] {
    if (!this.hasUserObjects()) return [];
    const index = this.currentIndex();
    const namespaces: TreeNode = {
      id: 'namespaces',
      label: 'Namespaces',
      icon: { id: NAMESPACE_KIND.icon },
      contextValue: 'group',
      collapsible: this.options.groupBy === 'node' ? 'collapsed' : 'expanded',
      source: { type: 'namespaces' },
    };
    if (this.options.groupBy === 'node') {
      const unscheduled = this.unscheduledPods(index);
      return [
        ...this.shownNodes(index).map((n) => this.nodeItem(n, index, 'expanded')),
        ...(unscheduled.length > 0
          ? [
              {
                id: 'unscheduled',
                label: 'Unscheduled',
                description: String(unscheduled.length),
                tooltip: 'Pods the scheduler has not placed on a node yet',
                icon: { id: 'question' },
                contextValue: 'group',
                collapsible: 'expanded' as const,
                source: { type: 'unscheduled' as const },
              },
            ]
          : []),
        namespaces,
      ];
    }
    return [
      {
        id: 'nodes',
        label: 'Nodes',
        icon: { id: 'server-environment' },
        contextValue: 'group',
        collapsible: 'expanded',
        source: { type: 'nodes' },
        description: String(this.shownNodes(index).length),
      },
      namespaces,
    ];
  }

  /** The children of a node returned by `roots()` or an earlier `children()`. */
  children(parent: TreeNode): TreeNode[] {
    const index = this.currentIndex();
    const s = parent.source;
    switch (s.type) {
      case 'nodes':
        return this.shownNodes(index).map((n) => this.nodeItem(n, index, 'collapsed'));
      case 'node':
        return this.shownPods(index.podsOn(s.name)).map((p) => this.objectItem('pods', p, index, `${parent.id}/`));
      case 'unscheduled':
        return this.unscheduledPods(index).map((p) => this.objectItem('pods', p, index, `${parent.id}/`));
      case 'namespaces':
        return index
          .list('namespaces')
          .filter((ns) => this.options.namespace === undefined || ns.metadata.name === this.options.namespace)
          .filter((ns) => !this.options.unhealthyOnly || this.groupsOf(ns.metadata.name!, index).length > 0)
          .map((ns) => this.namespaceItem(ns, index));
      case 'namespace':
        return this.groupsOf(s.namespace, index).map(({ kind, objects }) =>
          groupItem(kind, s.namespace, objects.length),
        );
      case 'group':
        return this.topLevel(s.resource, s.namespace, index).map((o) => this.objectItem(s.resource, o, index, ''));
      case 'object':
        return index
          .childResources(s.resource)
          .flatMap((r) =>
            this.shown(r, index.ownedBy(s.uid, r), index).map((o) => this.objectItem(r, o, index, `${parent.id}/`)),
          );
    }
  }

  private currentIndex(): TreeIndex {
    return (this.index ??= new TreeIndex(this.cache));
  }

  /** The objects of `resource` the options let through. */
  private shown<T extends KubeObject>(resource: string, objects: readonly T[], index: TreeIndex): T[] {
    const o = this.options;
    return objects.filter(
      (obj) =>
        !(o.hideEmptyReplicaSets && resource === 'replicasets' && isEmptyReplicaSet(obj)) &&
        (!o.unhealthyOnly || this.wantsAttention(resource, obj, index)),
    );
  }

  private shownPods(pods: readonly ObjectsByResource['pods'][]): ObjectsByResource['pods'][] {
    const ns = this.options.namespace;
    return this.shown(
      'pods',
      pods.filter((p) => ns === undefined || p.metadata.namespace === ns),
      this.currentIndex(),
    );
  }

  private shownNodes(index: TreeIndex): ObjectsByResource['nodes'][] {
    const nodes = index.list('nodes');
    if (!this.options.unhealthyOnly) return nodes;
    return nodes.filter((n) => needsAttention(n) || this.shownPods(index.podsOn(n.metadata.name!)).length > 0);
  }

  private unscheduledPods(index: TreeIndex): ObjectsByResource['pods'][] {
    return this.shownPods(index.unscheduledPods());
  }

  /** The object, or something under it, needs attention. */
  private wantsAttention(resource: string, obj: KubeObject, index: TreeIndex): boolean {
    const uid = obj.metadata.uid ?? `${resource}/${obj.metadata.namespace}/${obj.metadata.name}`;
    let known = this.attention.get(uid);
    if (known === undefined) {
      this.attention.set(uid, false);
      known =
        needsAttention(obj) ||
        index
          .childResources(resource)
          .some((r) => index.ownedBy(uid, r).some((child) => this.wantsAttention(r, child, index)));
      this.attention.set(uid, known);
    }
    return known;
  }

  private topLevel(resource: string, namespace: string, index: TreeIndex): KubeObject[] {
    return this.shown(resource, index.topLevel(resource, namespace), index);
  }

  private groupsOf(namespace: string, index: TreeIndex): { kind: KindView; objects: KubeObject[] }[] {
    const builtIn = NAMESPACED_KINDS.map((kind) => ({ kind, objects: this.topLevel(kind.resource, namespace, index) }));
    // Custom resources, a group per kind, after the built-in kinds.
    const custom = this.cache
      .resources()
      .filter(isCustomResource)
      .map((resource) => {
        const objects = this.topLevel(resource, namespace, index);
        return { kind: objects[0] ? customKindView(resource, objects[0]) : undefined, objects };
      })
      .filter((g): g is { kind: KindView; objects: KubeObject[] } => g.kind !== undefined);
    return [...builtIn, ...custom].filter((g) => g.objects.length > 0);
  }

  private failure(name: string): FailedNode | undefined {
    return this.inputs.failedNodes?.().find((f) => f.name === name);
  }

  private nodeItem(node: ObjectsByResource['nodes'], index: TreeIndex, open: Collapsible): TreeNode {
    const name = node.metadata.name!;
    const pods = index.podsOn(name);
    const shownPods = this.shownPods(pods);
    const uid = uidOf('nodes', node);
    const failed = this.failure(name);
    const now = this.now();
    const failure = failed ? nodeFailureText(node, pods, failed, now) : undefined;
    const refused = this.inputs.refusedDrains?.().find((r) => r.node === name);
    const description = [
      nodeDescription(node, pods),
      ...(failure ? [failure] : []),
      ...(refused ? ['drain failed'] : []),
    ].join(' · ');
    const notes = [
      `Pods: ${activePods(pods).length}`,
      ...(failure ? [failure] : []),
      ...(refused
        ? [`Drain failed: ${refused.message}. The node stays cordoned: Uncordon it, or drain it again.`]
        : []),
    ];
    return {
      id: `node/${uid}`,
      label: name,
      description,
      tooltip: () => objectTooltip(node, now, notes),
      icon: objectIcon('nodes', node),
      contextValue: nodeContextValue(node, failed),
      collapsible: shownPods.length > 0 ? open : 'none',
      ref: { resource: 'nodes', name },
      source: { type: 'node', uid, name },
    };
  }

  private namespaceItem(ns: KubeObject, index: TreeIndex): TreeNode {
    const name = ns.metadata.name!;
    const hasChildren = this.groupsOf(name, index).length > 0;
    const description = objectDescription(ns, this.now());
    return {
      id: `ns/${name}`,
      label: name,
      ...(description ? { description } : {}),
      tooltip: () => objectTooltip(ns, this.now()),
      icon: { id: NAMESPACE_KIND.icon },
      contextValue: NAMESPACE_KIND.contextValue,
      collapsible: hasChildren ? (EXPANDED_NAMESPACES.has(name) ? 'expanded' : 'collapsed') : 'none',
      ref: { resource: 'namespaces', name },
      revealsManifest: true,
      source: { type: 'namespace', namespace: name },
    };
  }

  /**
   * `idPrefix` is the parent's id for nested objects, so that an object shown in two places (a pod under its node and
   * under its owner) or moving (a ReplicaSet whose Deployment is deleted goes to the ReplicaSets group until the
   * garbage collector removes it) never shows one id in two places.
   */
  private objectItem(resource: string, o: KubeObject, index: TreeIndex, idPrefix: string): TreeNode {
    const view = kindView(resource);
    const uid = uidOf(resource, o);
    const hasChildren = index
      .childResources(resource)
      .some((r) => this.shown(r, index.ownedBy(uid, r), index).length > 0);
    const now = this.now();
    const collapsible: Collapsible = hasChildren ? (EXPANDED_KINDS.has(resource) ? 'expanded' : 'collapsed') : 'none';
    const custom = isCustomResource(resource);
    const description = custom ? customDescription(this.cache, resource, o, now) : objectDescription(o, now);
    const sync = this.inputs.syncOf?.(resource, o);
    return {
      id: `${idPrefix}${resource}/${uid}`,
      label: o.metadata.name!,
      ...(description ? { description } : {}),
      tooltip: () => {
        const tooltip = objectTooltip(o, now, this.tooltipExtra(resource, o, index));
        return sync ? `${tooltip}\n\n${sync.message}` : tooltip;
      },
      icon: custom ? customIcon(o) : objectIcon(resource, o),
      contextValue: custom
        ? 'customresource'
        : isKind(o, 'Pod')
          ? podContextValue(o)
          : (view?.contextValue ?? o.kind.toLowerCase()),
      collapsible,
      ref: refOf(resource, o),
      revealsManifest: !o.metadata.ownerReferences?.some((r) => r.controller),
      ...(sync ? { sync: sync.status } : {}),
      source: { type: 'object', resource, uid, name: o.metadata.name! },
    };
  }

  private tooltipExtra(resource: string, o: KubeObject, index: TreeIndex): string[] {
    if (isKind(o, 'Pod')) return lastTerminations(o, this.now()).map((t) => `Last termination of ${t}`);
    if (resource === 'deployments' && this.options.hideEmptyReplicaSets) {
      const hidden = index.ownedBy(uidOf(resource, o), 'replicasets').filter(isEmptyReplicaSet).length;
      if (hidden > 0) return [`${hidden} old ReplicaSet${hidden === 1 ? '' : 's'} at 0/0 hidden (the tree's filter)`];
    }
    return [];
  }
}

/** A custom resource's icon: coloured by its Ready/Available condition, plain while its health is Unknown. */
function customIcon(o: KubeObject): TreeNode['icon'] {
  const status = customResourceHealth(o).status;
  if (status === 'Healthy') return { id: 'symbol-class', color: 'charts.green' };
  if (status === 'Degraded') return { id: 'symbol-class', color: 'charts.red' };
  return { id: 'symbol-class' };
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
