/**
 * The kinds this API server serves, described the way discovery describes them
 * (`kubectl api-resources`): group, version, plural, scope, short names,
 * categories and subresources. Anything not listed here is answered with 404
 * "the server could not find the requested resource".
 */
import { formatApiVersion, parseApiVersion } from './types';

export interface ResourceType {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** Lower-case plural used in URLs and messages: `deployments`. */
  readonly plural: string;
  readonly singular: string;
  readonly namespaced: boolean;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  /**
   * Has a `/status` subresource: the main resource cannot change `status`, and `/status` cannot change anything else.
   */
  readonly statusSubresource: boolean;
  /** Has a `/scale` subresource (`spec.replicas`). */
  readonly scaleSubresource: boolean;
  /** The API server keeps `metadata.generation` for this kind. */
  readonly hasGeneration: boolean;
}

interface Spec {
  gv: string;
  kind: string;
  plural: string;
  namespaced?: boolean;
  short?: string[];
  all?: boolean;
  status?: boolean;
  scale?: boolean;
  generation?: boolean;
}

const SPECS: Spec[] = [
  { gv: 'v1', kind: 'Namespace', plural: 'namespaces', namespaced: false, short: ['ns'], status: true },
  { gv: 'v1', kind: 'Node', plural: 'nodes', namespaced: false, short: ['no'], status: true },
  { gv: 'v1', kind: 'Pod', plural: 'pods', short: ['po'], all: true, status: true },
  { gv: 'v1', kind: 'Service', plural: 'services', short: ['svc'], all: true, status: true },
  { gv: 'v1', kind: 'Endpoints', plural: 'endpoints', short: ['ep'] },
  { gv: 'v1', kind: 'ConfigMap', plural: 'configmaps', short: ['cm'] },
  { gv: 'v1', kind: 'Secret', plural: 'secrets' },
  { gv: 'v1', kind: 'Event', plural: 'events', short: ['ev'] },
  { gv: 'v1', kind: 'ServiceAccount', plural: 'serviceaccounts', short: ['sa'] },
  { gv: 'v1', kind: 'PersistentVolumeClaim', plural: 'persistentvolumeclaims', short: ['pvc'], status: true },
  { gv: 'v1', kind: 'PersistentVolume', plural: 'persistentvolumes', namespaced: false, short: ['pv'], status: true },
  { gv: 'v1', kind: 'ResourceQuota', plural: 'resourcequotas', short: ['quota'], status: true },
  { gv: 'v1', kind: 'LimitRange', plural: 'limitranges', short: ['limits'] },
  {
    gv: 'apps/v1',
    kind: 'Deployment',
    plural: 'deployments',
    short: ['deploy'],
    all: true,
    status: true,
    scale: true,
    generation: true,
  },
  {
    gv: 'v1',
    kind: 'ReplicationController',
    plural: 'replicationcontrollers',
    short: ['rc'],
    all: true,
    status: true,
    scale: true,
    generation: true,
  },
  {
    gv: 'apps/v1',
    kind: 'ReplicaSet',
    plural: 'replicasets',
    short: ['rs'],
    all: true,
    status: true,
    scale: true,
    generation: true,
  },
  {
    gv: 'apps/v1',
    kind: 'StatefulSet',
    plural: 'statefulsets',
    short: ['sts'],
    all: true,
    status: true,
    scale: true,
    generation: true,
  },
  { gv: 'apps/v1', kind: 'DaemonSet', plural: 'daemonsets', short: ['ds'], all: true, status: true, generation: true },
  { gv: 'apps/v1', kind: 'ControllerRevision', plural: 'controllerrevisions' },
  { gv: 'batch/v1', kind: 'Job', plural: 'jobs', all: true, status: true, generation: true },
  { gv: 'batch/v1', kind: 'CronJob', plural: 'cronjobs', short: ['cj'], all: true, status: true, generation: true },
  {
    gv: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    plural: 'horizontalpodautoscalers',
    short: ['hpa'],
    all: true,
    status: true,
    generation: true,
  },
  {
    gv: 'policy/v1',
    kind: 'PodDisruptionBudget',
    plural: 'poddisruptionbudgets',
    short: ['pdb'],
    status: true,
    generation: true,
  },
  { gv: 'networking.k8s.io/v1', kind: 'Ingress', plural: 'ingresses', short: ['ing'], status: true, generation: true },
  { gv: 'networking.k8s.io/v1', kind: 'IngressClass', plural: 'ingressclasses', namespaced: false, generation: true },
  { gv: 'networking.k8s.io/v1', kind: 'NetworkPolicy', plural: 'networkpolicies', short: ['netpol'], generation: true },
  { gv: 'discovery.k8s.io/v1', kind: 'EndpointSlice', plural: 'endpointslices' },
  { gv: 'coordination.k8s.io/v1', kind: 'Lease', plural: 'leases' },
  { gv: 'storage.k8s.io/v1', kind: 'StorageClass', plural: 'storageclasses', namespaced: false, short: ['sc'] },
  { gv: 'scheduling.k8s.io/v1', kind: 'PriorityClass', plural: 'priorityclasses', namespaced: false, short: ['pc'] },
  { gv: 'rbac.authorization.k8s.io/v1', kind: 'Role', plural: 'roles' },
  { gv: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', plural: 'rolebindings' },
  { gv: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', plural: 'clusterroles', namespaced: false },
  { gv: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', plural: 'clusterrolebindings', namespaced: false },
  // Enforced by sandbox/admission/policy (h/cel); h/crd serves the other built-in kinds.
  {
    gv: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    plural: 'validatingadmissionpolicies',
    namespaced: false,
    status: true,
    generation: true,
  },
  {
    gv: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    plural: 'validatingadmissionpolicybindings',
    namespaced: false,
    generation: true,
  },
];

function build(spec: Spec): ResourceType {
  const { group, version } = parseApiVersion(spec.gv);
  return Object.freeze({
    group,
    version,
    kind: spec.kind,
    plural: spec.plural,
    singular: spec.kind.toLowerCase(),
    namespaced: spec.namespaced ?? true,
    shortNames: Object.freeze(spec.short ?? []),
    categories: Object.freeze(spec.all ? ['all'] : []),
    statusSubresource: spec.status ?? false,
    scaleSubresource: spec.scale ?? false,
    hasGeneration: spec.generation ?? false,
  });
}

/** Every kind the sandbox serves, in discovery order. */
export const RESOURCES: readonly ResourceType[] = Object.freeze(SPECS.map(build));

const byGvk = new Map<string, ResourceType>();
const byPlural = new Map<string, ResourceType>();
for (const r of RESOURCES) {
  byGvk.set(`${formatApiVersion(r.group, r.version)}|${r.kind}`, r);
  byPlural.set(`${r.group}|${r.version}|${r.plural}`, r);
}

/** The resource for an object's `apiVersion` + `kind`, or undefined when the server does not serve it. */
export function resourceFor(apiVersion: string, kind: string): ResourceType | undefined {
  return byGvk.get(`${apiVersion}|${kind}`);
}

/** The resource for a URL path segment: `(apps, v1, deployments)`. */
export function resourceByPlural(group: string, version: string, plural: string): ResourceType | undefined {
  return byPlural.get(`${group}|${version}|${plural}`);
}

/** `apps/v1` for a resource. */
export function apiVersionOf(r: ResourceType): string {
  return formatApiVersion(r.group, r.version);
}

/** The `group resource` name used in messages: `deployments.apps`, or just `pods` for the core group. */
export function qualifiedResource(r: ResourceType): string {
  return r.group === '' ? r.plural : `${r.plural}.${r.group}`;
}

/** The `Kind.group` name used in 422 messages: `Deployment.apps`, or just `Pod`. */
export function qualifiedKind(r: ResourceType): string {
  return r.group === '' ? r.kind : `${r.kind}.${r.group}`;
}

/** Looks a resource up by any name kubectl accepts: plural, singular, kind or short name (case-insensitive). */
export function resourceByName(name: string): ResourceType | undefined {
  const n = name.toLowerCase();
  const dot = n.indexOf('.');
  const base = dot < 0 ? n : n.slice(0, dot);
  const group = dot < 0 ? undefined : n.slice(dot + 1);
  return RESOURCES.find(
    (r) =>
      (group === undefined || r.group === group) &&
      (r.plural === base || r.singular === base || r.shortNames.includes(base)),
  );
}
