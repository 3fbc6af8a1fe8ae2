/**
 * The one place tests build Kubernetes objects. Every builder answers a typed object (`Typed<Pod>`, …) that the API
 * server accepts as it is (test/builders.test.ts creates each one under strict field validation), with options for
 * what tests vary: names, namespaces, labels, owners, requests, node conditions, status. The fixture families of the
 * different suites (`test/sandbox/fixtures.ts`, `scheduler/fixtures.ts`, `http/helpers.ts`, `kubelet/setup.ts`,
 * `client/model/fixtures.ts`) keep their short signatures and build through these.
 *
 * Also shared: `statusOf`, the Status of a refused call.
 */
import type { Deployment, DeploymentStatus, ReplicaSet, ReplicaSetStatus } from 'kubernetes-types/apps/v1';
import type { LabelSelector } from 'kubernetes-types/meta/v1';
import type {
  ConfigMap,
  Container,
  Event,
  EventSource,
  Namespace,
  Node,
  NodeCondition,
  Pod,
  PodSpec,
  PodStatus,
  PodTemplateSpec,
  Secret,
  Service,
  Taint,
} from 'kubernetes-types/core/v1';
import { isApiError } from '../sandbox/api/errors';
import type { Status } from '../sandbox/api/errors';
import type { OwnerReference, Typed, TypedObjectMeta } from '../sandbox/api/types';

/** The image every built container runs unless told otherwise. */
export const IMAGE = 'nginx:1.27';

/** What every builder's metadata can carry. `namespace: null` leaves it out (the request's namespace applies). */
export interface MetaOptions {
  namespace?: string | null;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  /** A controller (or plain) owner reference. */
  owner?: OwnerReference;
  /** Any further metadata (uid, creationTimestamp, resourceVersion, …), merged last. */
  metadata?: Partial<TypedObjectMeta>;
}

/** Object metadata from `MetaOptions`; `namespaced: false` for cluster-scoped kinds. */
export function objectMeta(name: string, o: MetaOptions = {}, namespaced = true): TypedObjectMeta {
  const namespace = o.namespace === undefined ? 'default' : o.namespace;
  return {
    name,
    ...(namespaced && namespace !== null ? { namespace } : {}),
    ...(o.labels ? { labels: o.labels } : {}),
    ...(o.annotations ? { annotations: o.annotations } : {}),
    ...(o.owner ? { ownerReferences: [o.owner] } : {}),
    ...(o.metadata ?? {}),
  };
}

/** An owner reference marking `kind/name` as the controller. */
export function controllerRef(kind: string, name: string, uid: string, apiVersion = 'apps/v1'): OwnerReference {
  return { apiVersion, kind, name, uid, controller: true };
}

export interface ContainerOptions {
  name?: string;
  image?: string;
  /** Resource requests, e.g. `{ cpu: '500m', memory: '1Gi' }`. */
  requests?: Record<string, string>;
  limits?: Record<string, string>;
}

export function container(o: ContainerOptions = {}): Container {
  const resources = {
    ...(o.requests ? { requests: o.requests } : {}),
    ...(o.limits ? { limits: o.limits } : {}),
  };
  return {
    name: o.name ?? 'app',
    image: o.image ?? IMAGE,
    ...(o.requests || o.limits ? { resources } : {}),
  };
}

export interface PodOptions extends MetaOptions, ContainerOptions {
  nodeName?: string;
  /** Spec fields merged over the one-container spec (containers given here replace it). */
  spec?: Partial<PodSpec>;
  status?: PodStatus;
}

export function aPod(name: string, o: PodOptions = {}): Typed<Pod> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: objectMeta(name, o),
    spec: { containers: [container(o)], ...(o.nodeName ? { nodeName: o.nodeName } : {}), ...(o.spec ?? {}) },
    ...(o.status ? { status: o.status } : {}),
  };
}

export interface WorkloadOptions<S = unknown> extends MetaOptions, ContainerOptions {
  replicas?: number;
  /** The selector's and template's labels; `{ app: name }` by default. */
  selector?: Record<string, string>;
  /** Whether the template repeats the selector's labels (a template without them is invalid; client fixtures omit). */
  templateLabels?: boolean;
  status?: S;
}

function workloadSpec(
  name: string,
  o: WorkloadOptions,
): {
  replicas: number;
  selector: LabelSelector;
  template: PodTemplateSpec;
} {
  const labels = o.selector ?? { app: name };
  return {
    replicas: o.replicas ?? 1,
    selector: { matchLabels: labels },
    template: {
      ...(o.templateLabels === false ? {} : { metadata: { labels } }),
      spec: { containers: [container(o)] },
    },
  };
}

export function aDeployment(name: string, o: WorkloadOptions<DeploymentStatus> = {}): Typed<Deployment> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: objectMeta(name, o),
    spec: workloadSpec(name, o),
    ...(o.status ? { status: o.status } : {}),
  };
}

export function aReplicaSet(name: string, o: WorkloadOptions<ReplicaSetStatus> = {}): Typed<ReplicaSet> {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: objectMeta(name, o),
    spec: workloadSpec(name, o),
    ...(o.status ? { status: o.status } : {}),
  };
}

export interface NodeOptions extends MetaOptions {
  /** Allocatable (and capacity) CPU, memory and pods; no status at all when none of them and no `ready` is given. */
  cpu?: string;
  memory?: string;
  pods?: string;
  taints?: Taint[];
  unschedulable?: boolean;
  /** The Ready condition: true → True, false → Unknown (the node controller's word for a silent kubelet). */
  ready?: boolean;
  /** Leave out the `kubernetes.io/hostname` label the kubelet sets. */
  noHostnameLabel?: boolean;
}

export function aNode(name: string, o: NodeOptions = {}): Typed<Node> {
  const resources = o.cpu !== undefined || o.memory !== undefined || o.pods !== undefined;
  const allocatable: Record<string, string> = {
    ...(o.cpu !== undefined ? { cpu: o.cpu } : {}),
    ...(o.memory !== undefined ? { memory: o.memory } : {}),
    ...(o.pods !== undefined ? { pods: o.pods } : {}),
  };
  const conditions: NodeCondition[] | undefined =
    o.ready === undefined ? undefined : [{ type: 'Ready', status: o.ready ? 'True' : 'Unknown' }];
  const labels = o.noHostnameLabel ? o.labels : { 'kubernetes.io/hostname': name, ...(o.labels ?? {}) };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: objectMeta(name, { ...o, ...(labels ? { labels } : {}) }, false),
    spec: { ...(o.taints ? { taints: o.taints } : {}), ...(o.unschedulable ? { unschedulable: true } : {}) },
    ...(resources || conditions
      ? {
          status: {
            ...(resources ? { capacity: allocatable, allocatable } : {}),
            ...(conditions ? { conditions } : {}),
          },
        }
      : {}),
  };
}

export function aNamespace(name: string, o: MetaOptions & { active?: boolean } = {}): Typed<Namespace> {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: objectMeta(name, o, false),
    ...(o.active ? { status: { phase: 'Active' } } : {}),
  };
}

export function aConfigMap(name: string, data: Record<string, string> = {}, o: MetaOptions = {}): Typed<ConfigMap> {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: objectMeta(name, o), data };
}

export function aSecret(name: string, stringData: Record<string, string> = {}, o: MetaOptions = {}): Typed<Secret> {
  return { apiVersion: 'v1', kind: 'Secret', metadata: objectMeta(name, o), type: 'Opaque', stringData };
}

/** A core Event about pod `p` (the kubelet's `Pulled`), with `source` as given (default the kubelet on node-1). */
export function anEvent(
  name: string,
  source: EventSource = { component: 'kubelet', host: 'node-1' },
  o: MetaOptions = {},
): Typed<Event> {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: objectMeta(name, o),
    involvedObject: { kind: 'Pod', name: 'p', namespace: o.namespace ?? 'default' },
    reason: 'Pulled',
    message: 'm',
    type: 'Normal',
    source,
  };
}

export function aService(
  name: string,
  o: MetaOptions & { selector?: Record<string, string>; port?: number } = {},
): Typed<Service> {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: objectMeta(name, o),
    spec: { selector: o.selector ?? { app: name }, ports: [{ port: o.port ?? 80 }] },
  };
}

/** Runs `fn`, expecting the API server to refuse it; answers the refusal's Status. */
export function statusOf(fn: () => unknown): Status {
  try {
    fn();
  } catch (e) {
    if (isApiError(e)) return e.status;
    throw e;
  }
  throw new Error('expected an ApiError, but the call succeeded');
}
