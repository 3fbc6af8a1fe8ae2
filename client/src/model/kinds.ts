/**
 * How the cluster tree shows each resource: the group title, the codicon, the
 * `contextValue` the menus match on, and which resources nest under it by
 * controller owner reference.
 */

export interface KindView {
  /** Plural resource name, as in the mirror cache: `deployments`. */
  resource: string;
  kind: string;
  /** Title of the group under a namespace: `Deployments`. */
  title: string;
  /** Codicon id. */
  icon: string;
  /** `contextValue` of its tree items: the kind in lower case (`deployment`). */
  contextValue: string;
  /** Resources whose objects are shown under an object of this kind when it is their controller. */
  children: readonly string[];
}

function view(resource: string, kind: string, title: string, icon: string, children: readonly string[] = []): KindView {
  return { resource, kind, title, icon, contextValue: kind.toLowerCase(), children };
}

/** Groups under a namespace, in display order; each is shown only when it has top-level objects. */
export const NAMESPACED_KINDS: readonly KindView[] = [
  // An HPA nests under the workload its scaleTargetRef names (TreeIndex), first: it says how many replicas there are.
  view('deployments', 'Deployment', 'Deployments', 'layers', ['horizontalpodautoscalers', 'replicasets']),
  view('replicasets', 'ReplicaSet', 'ReplicaSets', 'copy', ['horizontalpodautoscalers', 'pods']),
  view('pods', 'Pod', 'Pods', 'vm'),
  view('services', 'Service', 'Services', 'plug'),
  view('jobs', 'Job', 'Jobs', 'checklist', ['pods']),
  view('cronjobs', 'CronJob', 'CronJobs', 'watch', ['jobs']),
  // A StatefulSet's PVCs (`<claim>-<set>-<ordinal>`) nest under it by name: TreeIndex.
  view('statefulsets', 'StatefulSet', 'StatefulSets', 'database', [
    'horizontalpodautoscalers',
    'pods',
    'persistentvolumeclaims',
  ]),
  view('daemonsets', 'DaemonSet', 'DaemonSets', 'server-process', ['pods']),
  view('replicationcontrollers', 'ReplicationController', 'ReplicationControllers', 'copy', [
    'horizontalpodautoscalers',
    'pods',
  ]),
  view('persistentvolumeclaims', 'PersistentVolumeClaim', 'PersistentVolumeClaims', 'save'),
  // HPAs whose target is not in the cluster.
  view('horizontalpodautoscalers', 'HorizontalPodAutoscaler', 'HorizontalPodAutoscalers', 'pulse'),
  view('configmaps', 'ConfigMap', 'ConfigMaps', 'settings-gear'),
  view('secrets', 'Secret', 'Secrets', 'key'),
];

export const NODE_KIND: KindView = view('nodes', 'Node', 'Nodes', 'server', ['pods']);
export const NAMESPACE_KIND: KindView = view('namespaces', 'Namespace', 'Namespaces', 'symbol-namespace');

const BY_RESOURCE: ReadonlyMap<string, KindView> = new Map(
  [NODE_KIND, NAMESPACE_KIND, ...NAMESPACED_KINDS].map((k) => [k.resource, k]),
);

/** The view of a resource shown in the tree, or undefined for resources the tree leaves out. */
export function kindView(resource: string): KindView | undefined {
  return BY_RESOURCE.get(resource);
}

/** Resources that can be a parent in the tree (have `children`). */
export const PARENT_RESOURCES: readonly string[] = NAMESPACED_KINDS.filter((k) => k.children.length > 0).map(
  (k) => k.resource,
);

/** Resources that can nest under a parent. */
export const CHILD_RESOURCES: readonly string[] = [...new Set(NAMESPACED_KINDS.flatMap((k) => k.children))];
