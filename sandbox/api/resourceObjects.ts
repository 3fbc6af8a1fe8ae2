/**
 * Typed resources end to end: each resource the API server serves (by its
 * plural, as `api/resources.ts` lists them) mapped to its `kubernetes-types`
 * type. The API server's reads (`get`, `tryGet`, `list`, `watch`, `delete`,
 * `patch`), the shared informers and the printers take a resource name and
 * answer with that type, so components never cast what they read:
 *
 *     const pod = api.get('pods', 'default', 'web-1'); // Typed<Pod>
 *     informers.get('deployments').cache.list();        // Typed<Deployment>[]
 *
 * A name not in the map (`deploy`, `deployments.apps`, a string chosen at run
 * time) gives the untyped `KubeObject`, as before.
 */
import type {
  MutatingWebhookConfiguration,
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
  ValidatingWebhookConfiguration,
} from 'kubernetes-types/admissionregistration/v1';
import type { CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1';
import type { ControllerRevision, DaemonSet, Deployment, ReplicaSet, StatefulSet } from 'kubernetes-types/apps/v1';
import type { HorizontalPodAutoscaler } from 'kubernetes-types/autoscaling/v2';
import type { CronJob, Job } from 'kubernetes-types/batch/v1';
import type { CertificateSigningRequest } from 'kubernetes-types/certificates/v1';
import type { Lease } from 'kubernetes-types/coordination/v1';
import type {
  ConfigMap,
  Endpoints,
  Event,
  LimitRange,
  Namespace,
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  PodTemplate,
  ReplicationController,
  ResourceQuota,
  Secret,
  Service,
  ServiceAccount,
} from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import type { FlowSchema, PriorityLevelConfiguration } from 'kubernetes-types/flowcontrol/v1';
import type { Ingress, IngressClass, NetworkPolicy } from 'kubernetes-types/networking/v1';
import type { RuntimeClass } from 'kubernetes-types/node/v1';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from 'kubernetes-types/rbac/v1';
import type { PriorityClass } from 'kubernetes-types/scheduling/v1';
import type {
  CSIDriver,
  CSINode,
  CSIStorageCapacity,
  StorageClass,
  VolumeAttachment,
} from 'kubernetes-types/storage/v1';
import type { KubeObject, ObjectMeta, Typed } from './types';

/** apiregistration.k8s.io/v1 APIService (kubernetes-types has no apiregistration group): what the sandbox reads. */
export interface APIService {
  apiVersion?: 'apiregistration.k8s.io/v1';
  kind?: 'APIService';
  metadata?: ObjectMeta;
  spec?: {
    group?: string;
    version?: string;
    groupPriorityMinimum?: number;
    versionPriority?: number;
    service?: { namespace?: string; name?: string; port?: number };
    insecureSkipTLSVerify?: boolean;
    caBundle?: string;
  };
  status?: {
    conditions?: { type: string; status: string; lastTransitionTime?: string; reason?: string; message?: string }[];
  };
}

/** Every served resource (plural) → the objects it holds. */
export interface ObjectsByResource {
  namespaces: Typed<Namespace>;
  nodes: Typed<Node>;
  pods: Typed<Pod>;
  services: Typed<Service>;
  endpoints: Typed<Endpoints>;
  configmaps: Typed<ConfigMap>;
  secrets: Typed<Secret>;
  events: Typed<Event>;
  serviceaccounts: Typed<ServiceAccount>;
  persistentvolumeclaims: Typed<PersistentVolumeClaim>;
  persistentvolumes: Typed<PersistentVolume>;
  resourcequotas: Typed<ResourceQuota>;
  limitranges: Typed<LimitRange>;
  deployments: Typed<Deployment>;
  replicasets: Typed<ReplicaSet>;
  statefulsets: Typed<StatefulSet>;
  daemonsets: Typed<DaemonSet>;
  controllerrevisions: Typed<ControllerRevision>;
  jobs: Typed<Job>;
  cronjobs: Typed<CronJob>;
  horizontalpodautoscalers: Typed<HorizontalPodAutoscaler>;
  poddisruptionbudgets: Typed<PodDisruptionBudget>;
  ingresses: Typed<Ingress>;
  ingressclasses: Typed<IngressClass>;
  networkpolicies: Typed<NetworkPolicy>;
  endpointslices: Typed<EndpointSlice>;
  leases: Typed<Lease>;
  storageclasses: Typed<StorageClass>;
  roles: Typed<Role>;
  rolebindings: Typed<RoleBinding>;
  clusterroles: Typed<ClusterRole>;
  clusterrolebindings: Typed<ClusterRoleBinding>;
  validatingadmissionpolicies: Typed<ValidatingAdmissionPolicy>;
  validatingadmissionpolicybindings: Typed<ValidatingAdmissionPolicyBinding>;
  podtemplates: Typed<PodTemplate>;
  replicationcontrollers: Typed<ReplicationController>;
  csidrivers: Typed<CSIDriver>;
  csinodes: Typed<CSINode>;
  csistoragecapacities: Typed<CSIStorageCapacity>;
  volumeattachments: Typed<VolumeAttachment>;
  mutatingwebhookconfigurations: Typed<MutatingWebhookConfiguration>;
  validatingwebhookconfigurations: Typed<ValidatingWebhookConfiguration>;
  customresourcedefinitions: Typed<CustomResourceDefinition>;
  apiservices: Typed<APIService>;
  certificatesigningrequests: Typed<CertificateSigningRequest>;
  flowschemas: Typed<FlowSchema>;
  prioritylevelconfigurations: Typed<PriorityLevelConfiguration>;
  runtimeclasses: Typed<RuntimeClass>;
  priorityclasses: Typed<PriorityClass>;
}

/** A resource with a type of its own: `'pods'`, `'deployments'`, … */
export type ResourceName = keyof ObjectsByResource;

/** The objects of a resource: its type for a `ResourceName`, `KubeObject` for any other reference. */
export type ObjectOf<R> = R extends ResourceName ? ObjectsByResource[R] : KubeObject;

/** Any typed object. */
export type AnyTypedObject = ObjectsByResource[ResourceName];

/** The type of the objects of kind `K` (`'Pod'` → `Typed<Pod>`); `KubeObject` for a kind without one. */
export type ObjectOfKind<K> = [Extract<AnyTypedObject, { kind: K }>] extends [never]
  ? KubeObject
  : Extract<AnyTypedObject, { kind: K }>;

/**
 * What a write of `T` answers: the stored object of the same kind — typed when `T` is (`Typed<Pod>` in,
 * `Typed<Pod>` out), `KubeObject` when `T`'s kind is any string (an object literal, a decoded manifest).
 */
export type Written<T extends KubeObject> = string extends T['kind'] ? KubeObject : ObjectOfKind<T['kind']>;

/** Every key of `ObjectsByResource`, at run time (a test checks it against the served resources). */
export const TYPED_RESOURCES = [
  'namespaces',
  'nodes',
  'pods',
  'services',
  'endpoints',
  'configmaps',
  'secrets',
  'events',
  'serviceaccounts',
  'persistentvolumeclaims',
  'persistentvolumes',
  'resourcequotas',
  'limitranges',
  'deployments',
  'replicasets',
  'statefulsets',
  'daemonsets',
  'controllerrevisions',
  'jobs',
  'cronjobs',
  'horizontalpodautoscalers',
  'poddisruptionbudgets',
  'ingresses',
  'ingressclasses',
  'networkpolicies',
  'endpointslices',
  'leases',
  'storageclasses',
  'roles',
  'rolebindings',
  'clusterroles',
  'clusterrolebindings',
  'validatingadmissionpolicies',
  'validatingadmissionpolicybindings',
  'podtemplates',
  'replicationcontrollers',
  'csidrivers',
  'csinodes',
  'csistoragecapacities',
  'volumeattachments',
  'mutatingwebhookconfigurations',
  'validatingwebhookconfigurations',
  'customresourcedefinitions',
  'apiservices',
  'certificatesigningrequests',
  'flowschemas',
  'prioritylevelconfigurations',
  'runtimeclasses',
  'priorityclasses',
] as const satisfies readonly ResourceName[];

// Compile-time: TYPED_RESOURCES names every key of the map.
type Missing = Exclude<ResourceName, (typeof TYPED_RESOURCES)[number]>;
export const TYPED_RESOURCES_COMPLETE: [Missing] extends [never] ? true : Missing = true;

/**
 * The typed view of an object the caller knows, from where it came, to be one of `resource`'s (the store, admission
 * and patches hold untyped `KubeObject`s). The one place the untyped object model becomes a typed one.
 */
export function asResource<R extends ResourceName>(_resource: R, obj: KubeObject): ObjectsByResource[R] {
  return obj as ObjectsByResource[R];
}

/** True when `obj` is of `kind`, which types it as that kind: `if (isKind(obj, 'Pod')) obj.spec?.nodeName`. */
export function isKind<K extends AnyTypedObject['kind']>(obj: KubeObject, kind: K): obj is ObjectOfKind<K> {
  return obj.kind === kind;
}
