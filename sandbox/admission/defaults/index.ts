/**
 * Upstream defaulting (pkg/apis/<group>/v1/defaults.go) plus the defaulting
 * admission plugins the sandbox models, applied in place to the API server's
 * private copy of a request body before validation.
 */
import type { ResourceType } from '../../api/resources';
import type { KubeObject } from '../../api/types';
import { containersOf, podSpecOf } from '../podSpecs';
import { isObj, type Obj } from '../validation/access';
import { defaultRequestsFromLimits } from './container';
import {
  defaultHpa,
  defaultLimitRange,
  defaultNamespace,
  defaultNetworkPolicy,
  defaultNode,
  defaultPersistentVolume,
  defaultPvc,
  defaultResourceQuota,
  defaultSecret,
} from './other';
import { defaultPodSpec } from './podSpec';
import { defaultService } from './service';
import { applyDefaultTolerations } from './tolerations';
import { defaultStoredKind } from './storedKinds';
import { defaultBindingSpec, defaultPolicySpec } from '../policy/defaults';
import {
  defaultCronJob,
  defaultDaemonSet,
  defaultDeployment,
  defaultJob,
  defaultReplicaSet,
  defaultReplicationController,
  defaultStatefulSet,
} from './workloads';

export { podQosClass, type QosClass } from './podQos';
export { applyDefaultTolerations } from './tolerations';
export { defaultPullPolicy } from './container';

type SpecDefaulter = (spec: Obj, obj: KubeObject) => void;

/** By kind, in a `Map`: a kind is looked up as a key only (a custom kind named `toString` finds nothing). */
const SPEC_DEFAULTERS = new Map<string, SpecDefaulter>(
  Object.entries({
    Deployment: defaultDeployment,
    ReplicaSet: defaultReplicaSet,
    ReplicationController: defaultReplicationController,
    StatefulSet: defaultStatefulSet,
    DaemonSet: defaultDaemonSet,
    Job: defaultJob,
    CronJob: defaultCronJob,
    Service: defaultService,
    PersistentVolumeClaim: defaultPvc,
    HorizontalPodAutoscaler: defaultHpa,
    NetworkPolicy: defaultNetworkPolicy,
    LimitRange: defaultLimitRange,
    ResourceQuota: defaultResourceQuota,
    PersistentVolume: defaultPersistentVolume,
    ValidatingAdmissionPolicy: defaultPolicySpec,
    ValidatingAdmissionPolicyBinding: defaultBindingSpec,
  }),
);

function defaultPod(pod: KubeObject): void {
  const spec = pod.spec;
  if (!isObj(spec)) return;
  for (const c of containersOf(spec, 'spec')) defaultRequestsFromLimits(c.container);
  if (spec.enableServiceLinks === undefined || spec.enableServiceLinks === null) spec.enableServiceLinks = true;
  applyDefaultTolerations(pod);
}

/**
 * Applies upstream defaults in place (the object is a private copy). Unknown shapes are left alone for validation to
 * report.
 */
export function applyDefaults(obj: KubeObject, resource: ResourceType): void {
  const kind = resource.kind;
  if (!isObj(obj.metadata)) return;
  if (kind === 'Pod') defaultPod(obj);
  const spec = obj.spec;
  if (isObj(spec)) SPEC_DEFAULTERS.get(kind)?.(spec, obj);
  const at = podSpecOf(obj);
  if (at) defaultPodSpec(at.spec, at.path);
  if (kind === 'Namespace') defaultNamespace(obj);
  else if (kind === 'Node') defaultNode(obj);
  else if (kind === 'Secret') defaultSecret(obj);
  defaultStoredKind(obj, resource.group, kind);
}
