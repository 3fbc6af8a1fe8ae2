/**
 * The kinds this API server serves, described the way discovery describes them
 * (`kubectl api-resources`): group, version, plural, scope, short names,
 * categories and subresources. Anything not listed here is answered with 404
 * "the server could not find the requested resource".
 */
import { formatApiVersion, parseApiVersion } from './types';
import { GvkIndex } from './gvkIndex';

/**
 * Who acts on objects of a kind in the sandbox — the one place the settled report (and later the tree) reads to say
 * that a kind is stored but not acted on.
 * - `sandbox`: a component of the sandbox reconciles it (or the API server itself does).
 * - `data`: nothing acts on it upstream either; other objects read it (ConfigMaps, ControllerRevisions…).
 * - a `note`: a real cluster would act on it and the sandbox does not; the note says so, in the words shown to users.
 */
export type Reconciliation = { readonly by: 'sandbox' } | { readonly by: 'data' } | { readonly note: string };

/** How the sandbox serves a resource beyond storing it. */
export type Serving =
  /** Stored, with every verb. */
  | 'stored'
  /** Only `create`, answered at once and never stored (reviews, `bindings`). */
  | 'create-only'
  /** Only `get` and `list`, computed when asked (ComponentStatus). */
  | 'read-only';

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
  /**
   * The version objects of this kind are stored as (the same store serves every version of a group and kind; reads
   * convert). Equal to `version` for kinds served in one version.
   */
  readonly storageVersion?: string;
  /** See `Serving`; undefined is `stored`. */
  readonly serving?: Serving;
  /** See `Reconciliation`; undefined is `{ by: 'sandbox' }`. */
  readonly reconciliation?: Reconciliation;
  /** Set for the resources of a CustomResourceDefinition (sandbox/apiextensions). */
  readonly custom?: CustomResourceInfo;
}

/**
 * What serving a custom resource needs from its CustomResourceDefinition, for one version. The schema types live in
 * sandbox/apiextensions; this side keeps them opaque so that the table does not depend on them.
 */
export interface CustomResourceInfo {
  /** The CRD's `metadata.name`: `servicemonitors.monitoring.coreos.com`. */
  readonly crdName: string;
  /** The CRD's uid, so that a re-created CRD is a new registration. */
  readonly crdUid: string;
  readonly listKind: string;
  /** The validation schema of this version (`spec.versions[].schema.openAPIV3Schema`), or undefined. */
  readonly schema: unknown;
  /** `additionalPrinterColumns` of this version. */
  readonly printerColumns: readonly PrinterColumn[];
  /** `selectableFields` of this version: JSONPaths like `.spec.color`. */
  readonly selectableFields: readonly string[];
  /** `subresources.scale` of this version. */
  readonly scale?: {
    readonly specReplicasPath: string;
    readonly statusReplicasPath: string;
    readonly labelSelectorPath?: string;
  };
  /** `deprecated` / `deprecationWarning` of this version. */
  readonly deprecationWarning?: string;
  /** Every served version, preferred first (the discovery order). */
  readonly servedVersions: readonly string[];
}

export interface PrinterColumn {
  readonly name: string;
  readonly type: string;
  readonly format?: string;
  readonly description?: string;
  readonly priority: number;
  readonly jsonPath: string;
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
  storage?: string;
  serving?: Serving;
  /** Undefined: acted on by the sandbox; `data`; or the note saying what is not done. */
  acted?: 'data' | string;
}

// What the settled report says of the kinds a real cluster would act on and the sandbox does not.
const NO_INGRESS_CONTROLLER = 'no Ingress controller runs in this sandbox (as on a cluster without one)';
const NO_RBAC = 'the sandbox does not enforce RBAC: every request is allowed';
// sandbox/apiserver/webhooks.ts: a call that would fail (no Service, no ready endpoint) fails as on a real cluster.
const NO_WEBHOOKS =
  'the API server calls no webhook server in this sandbox: a webhook with no ready endpoint fails as its failurePolicy says, one that a real cluster would reach is skipped (the write is admitted, with a warning)';
const NO_CSI = 'no CSI drivers run in this sandbox';
const NO_APF = 'the API server does not apply priority and fairness in this sandbox';

const SPECS: Spec[] = [
  { gv: 'v1', kind: 'Namespace', plural: 'namespaces', namespaced: false, short: ['ns'], status: true },
  { gv: 'v1', kind: 'Node', plural: 'nodes', namespaced: false, short: ['no'], status: true },
  { gv: 'v1', kind: 'Pod', plural: 'pods', short: ['po'], all: true, status: true },
  { gv: 'v1', kind: 'Service', plural: 'services', short: ['svc'], all: true, status: true },
  { gv: 'v1', kind: 'Endpoints', plural: 'endpoints', short: ['ep'] },
  { gv: 'v1', kind: 'ConfigMap', plural: 'configmaps', short: ['cm'], acted: 'data' },
  { gv: 'v1', kind: 'Secret', plural: 'secrets', acted: 'data' },
  { gv: 'v1', kind: 'Event', plural: 'events', short: ['ev'], acted: 'data' },
  { gv: 'v1', kind: 'ServiceAccount', plural: 'serviceaccounts', short: ['sa'], acted: 'data' },
  {
    gv: 'v1',
    kind: 'PersistentVolumeClaim',
    plural: 'persistentvolumeclaims',
    short: ['pvc'],
    status: true,
  },
  {
    gv: 'v1',
    kind: 'PersistentVolume',
    plural: 'persistentvolumes',
    namespaced: false,
    short: ['pv'],
    status: true,
  },
  {
    gv: 'v1',
    kind: 'ResourceQuota',
    plural: 'resourcequotas',
    short: ['quota'],
    status: true,
  },
  {
    gv: 'v1',
    kind: 'LimitRange',
    plural: 'limitranges',
    short: ['limits'],
  },
  { gv: 'v1', kind: 'PodTemplate', plural: 'podtemplates', acted: 'data' },
  { gv: 'v1', kind: 'Binding', plural: 'bindings', serving: 'create-only' },
  {
    gv: 'v1',
    kind: 'ComponentStatus',
    plural: 'componentstatuses',
    namespaced: false,
    short: ['cs'],
    serving: 'read-only',
  },
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
  {
    gv: 'apps/v1',
    kind: 'DaemonSet',
    plural: 'daemonsets',
    short: ['ds'],
    all: true,
    status: true,
    generation: true,
  },
  { gv: 'apps/v1', kind: 'ControllerRevision', plural: 'controllerrevisions', acted: 'data' },
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
    gv: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    plural: 'horizontalpodautoscalers',
    short: ['hpa'],
    all: true,
    status: true,
    generation: true,
    storage: 'v2',
  },
  {
    gv: 'policy/v1',
    kind: 'PodDisruptionBudget',
    plural: 'poddisruptionbudgets',
    short: ['pdb'],
    status: true,
    generation: true,
  },
  {
    gv: 'networking.k8s.io/v1',
    kind: 'Ingress',
    plural: 'ingresses',
    short: ['ing'],
    status: true,
    generation: true,
    acted: NO_INGRESS_CONTROLLER,
  },
  {
    gv: 'networking.k8s.io/v1',
    kind: 'IngressClass',
    plural: 'ingressclasses',
    namespaced: false,
    generation: true,
    acted: 'data',
  },
  {
    gv: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    plural: 'networkpolicies',
    short: ['netpol'],
    generation: true,
    acted: 'network policies are not enforced in this sandbox (no network plugin)',
  },
  {
    gv: 'networking.k8s.io/v1',
    kind: 'IPAddress',
    plural: 'ipaddresses',
    namespaced: false,
    short: ['ip'],
    acted: 'data',
  },
  {
    gv: 'networking.k8s.io/v1',
    kind: 'ServiceCIDR',
    plural: 'servicecidrs',
    namespaced: false,
    status: true,
    acted: 'the sandbox allocates ClusterIPs from its own fixed range',
  },
  { gv: 'discovery.k8s.io/v1', kind: 'EndpointSlice', plural: 'endpointslices' },
  { gv: 'events.k8s.io/v1', kind: 'Event', plural: 'events', short: ['ev'], acted: 'data' },
  { gv: 'coordination.k8s.io/v1', kind: 'Lease', plural: 'leases', acted: 'data' },
  {
    gv: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    plural: 'storageclasses',
    namespaced: false,
    short: ['sc'],
    acted: 'data',
  },
  { gv: 'storage.k8s.io/v1', kind: 'CSIDriver', plural: 'csidrivers', namespaced: false, acted: NO_CSI },
  { gv: 'storage.k8s.io/v1', kind: 'CSINode', plural: 'csinodes', namespaced: false, acted: NO_CSI },
  { gv: 'storage.k8s.io/v1', kind: 'CSIStorageCapacity', plural: 'csistoragecapacities', acted: NO_CSI },
  {
    gv: 'storage.k8s.io/v1',
    kind: 'VolumeAttachment',
    plural: 'volumeattachments',
    namespaced: false,
    status: true,
    acted: NO_CSI,
  },
  {
    gv: 'storage.k8s.io/v1',
    kind: 'VolumeAttributesClass',
    plural: 'volumeattributesclasses',
    namespaced: false,
    short: ['vac'],
    acted: 'data',
  },
  { gv: 'rbac.authorization.k8s.io/v1', kind: 'Role', plural: 'roles', acted: NO_RBAC },
  { gv: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', plural: 'rolebindings', acted: NO_RBAC },
  {
    gv: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    plural: 'clusterroles',
    namespaced: false,
    acted: NO_RBAC,
  },
  {
    gv: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    plural: 'clusterrolebindings',
    namespaced: false,
    acted: NO_RBAC,
  },
  {
    gv: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    plural: 'mutatingwebhookconfigurations',
    namespaced: false,
    generation: true,
    acted: NO_WEBHOOKS,
  },
  {
    gv: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    plural: 'validatingwebhookconfigurations',
    namespaced: false,
    generation: true,
    acted: NO_WEBHOOKS,
  },
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
  {
    gv: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    plural: 'customresourcedefinitions',
    namespaced: false,
    short: ['crd', 'crds'],
    status: true,
    generation: true,
  },
  {
    gv: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    plural: 'apiservices',
    namespaced: false,
    status: true,
    acted: 'the API server does not proxy aggregated APIs in this sandbox',
  },
  {
    gv: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    plural: 'certificatesigningrequests',
    namespaced: false,
    short: ['csr'],
    status: true,
    acted: 'no certificate approver or signer runs in this sandbox',
  },
  {
    gv: 'flowcontrol.apiserver.k8s.io/v1',
    kind: 'FlowSchema',
    plural: 'flowschemas',
    namespaced: false,
    status: true,
    generation: true,
    acted: NO_APF,
  },
  {
    gv: 'flowcontrol.apiserver.k8s.io/v1',
    kind: 'PriorityLevelConfiguration',
    plural: 'prioritylevelconfigurations',
    namespaced: false,
    status: true,
    generation: true,
    acted: NO_APF,
  },
  {
    gv: 'node.k8s.io/v1',
    kind: 'RuntimeClass',
    plural: 'runtimeclasses',
    namespaced: false,
    acted: 'the sandbox’s kubelets run every pod the same way, whatever its runtime class',
  },
  {
    gv: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    plural: 'priorityclasses',
    namespaced: false,
    short: ['pc'],
  },
  {
    gv: 'authentication.k8s.io/v1',
    kind: 'TokenReview',
    plural: 'tokenreviews',
    namespaced: false,
    serving: 'create-only',
  },
  {
    gv: 'authentication.k8s.io/v1',
    kind: 'SelfSubjectReview',
    plural: 'selfsubjectreviews',
    namespaced: false,
    serving: 'create-only',
  },
  {
    gv: 'authorization.k8s.io/v1',
    kind: 'LocalSubjectAccessReview',
    plural: 'localsubjectaccessreviews',
    serving: 'create-only',
  },
  {
    gv: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectAccessReview',
    plural: 'selfsubjectaccessreviews',
    namespaced: false,
    serving: 'create-only',
  },
  {
    gv: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectRulesReview',
    plural: 'selfsubjectrulesreviews',
    namespaced: false,
    serving: 'create-only',
  },
  {
    gv: 'authorization.k8s.io/v1',
    kind: 'SubjectAccessReview',
    plural: 'subjectaccessreviews',
    namespaced: false,
    serving: 'create-only',
  },
];

function build(spec: Spec): ResourceType {
  const { group, version } = parseApiVersion(spec.gv);
  const reconciliation: Reconciliation =
    spec.acted === undefined ? { by: 'sandbox' } : spec.acted === 'data' ? { by: 'data' } : { note: spec.acted };
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
    storageVersion: spec.storage ?? version,
    serving: spec.serving ?? 'stored',
    reconciliation,
  });
}

/**
 * Every resource of the table, in discovery order: each version of a kind served in several (the preferred one
 * first), and the create-only and computed ones. A server serves those its release has (sandbox/api/registry.ts).
 */
export const ALL_RESOURCES: readonly ResourceType[] = Object.freeze(SPECS.map(build));

const byGvk = new GvkIndex<ResourceType>();
const byPlural = new Map<string, ResourceType>();
for (const r of ALL_RESOURCES) {
  byGvk.set(formatApiVersion(r.group, r.version), r.kind, r);
  byPlural.set(`${r.group}|${r.version}|${r.plural}`, r);
}

/** The resource for an object's `apiVersion` + `kind`, or undefined when the server does not serve it. */
export function resourceFor(apiVersion: string, kind: string): ResourceType | undefined {
  return byGvk.get(apiVersion, kind);
}

/** The resource for a URL path segment: `(apps, v1, deployments)`. */
export function resourceByPlural(group: string, version: string, plural: string): ResourceType | undefined {
  return byPlural.get(`${group}|${version}|${plural}`);
}

/** `apiVersionOf` of each resource asked (resources are immutable): every write asks for its own several times. */
const apiVersions = new WeakMap<ResourceType, string>();

/** `apps/v1` for a resource. */
export function apiVersionOf(r: ResourceType): string {
  let v = apiVersions.get(r);
  if (v === undefined) {
    v = formatApiVersion(r.group, r.version);
    apiVersions.set(r, v);
  }
  return v;
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
  return findByName(ALL_RESOURCES, name);
}

/** `resourceByName` over a given list (a registry's, custom resources included), first match wins. */
export function findByName(list: readonly ResourceType[], name: string): ResourceType | undefined {
  const n = name.toLowerCase();
  const dot = n.indexOf('.');
  const base = dot < 0 ? n : n.slice(0, dot);
  const group = dot < 0 ? undefined : n.slice(dot + 1);
  return list.find(
    (r) =>
      (group === undefined || r.group === group) &&
      (r.plural === base || r.singular === base || r.shortNames.includes(base) || r.kind.toLowerCase() === base),
  );
}

/** The version a kind's objects are stored as. */
export function storageVersionOf(r: ResourceType): string {
  return r.storageVersion ?? r.version;
}

/** Whether the resource is stored (every verb), rather than create-only or computed when read. */
export function isStored(r: ResourceType): boolean {
  return (r.serving ?? 'stored') === 'stored';
}

/** The note the settled report shows for objects of this kind, or undefined when the sandbox acts on them. */
export function notReconciledNote(r: ResourceType): string | undefined {
  const rec = r.reconciliation;
  return rec !== undefined && 'note' in rec ? rec.note : undefined;
}
