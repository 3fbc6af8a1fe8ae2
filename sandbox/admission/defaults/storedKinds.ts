/**
 * Defaults of the kinds the sandbox stores without a controller acting on them, as kube-apiserver sets them
 * (upstream: pkg/apis/scheduling/v1, storage/v1, admissionregistration/v1, flowcontrol/v1 and core/v1
 * defaults.go: `SetDefaults_PriorityClass`, `SetDefaults_StorageClass`, `SetDefaults_CSIDriver`,
 * `SetDefaults_ValidatingWebhook`, `SetDefaults_MutatingWebhook`, `SetDefaults_Rule`, `SetDefaults_ServiceReference`,
 * `SetDefaults_ValidatingAdmissionPolicySpec`, `SetDefaults_MatchResources`, `SetDefaults_ParamRef`,
 * `SetDefaults_FlowSchemaSpec`, `SetDefaults_PriorityLevelConfiguration`, `SetDefaults_PersistentVolume`,
 * `SetDefaults_ReplicationController`). In place, on the API server's private copy.
 */
import type { KubeObject } from '../../api/types';
import { isObj, type Obj } from '../validation/access';
import { defaultReplicationController } from './workloads';

function defaultRules(rules: unknown): void {
  if (!Array.isArray(rules)) return;
  for (const r of rules) if (isObj(r)) r.scope ??= '*';
}

function defaultMatchResources(m: unknown): void {
  if (!isObj(m)) return;
  m.namespaceSelector ??= {};
  m.objectSelector ??= {};
  m.matchPolicy ??= 'Equivalent';
  defaultRules(m.resourceRules);
  defaultRules(m.excludeResourceRules);
}

function defaultWebhooks(obj: KubeObject, mutating: boolean): void {
  const hooks = (obj as { webhooks?: unknown }).webhooks;
  if (!Array.isArray(hooks)) return;
  for (const h of hooks) {
    if (!isObj(h)) continue;
    h.failurePolicy ??= 'Fail';
    h.matchPolicy ??= 'Equivalent';
    h.namespaceSelector ??= {};
    h.objectSelector ??= {};
    h.timeoutSeconds ??= 10;
    if (mutating) h.reinvocationPolicy ??= 'Never';
    defaultRules(h.rules);
    const service = isObj(h.clientConfig) ? h.clientConfig.service : undefined;
    if (isObj(service)) service.port ??= 443;
  }
}

function defaultPriorityLevel(spec: Obj): void {
  if (spec.type === 'Limited') {
    if (!isObj(spec.limited)) spec.limited = {};
    const l = spec.limited as Obj;
    l.nominalConcurrencyShares ??= 30;
    l.lendablePercent ??= 0;
    if (isObj(l.limitResponse) && l.limitResponse.type === 'Queue') {
      if (!isObj(l.limitResponse.queuing)) l.limitResponse.queuing = {};
      const q = l.limitResponse.queuing as Obj;
      q.queues ??= 64;
      q.handSize ??= 8;
      q.queueLengthLimit ??= 50;
    }
  } else if (spec.type === 'Exempt') {
    if (!isObj(spec.exempt)) spec.exempt = {};
    const e = spec.exempt as Obj;
    e.nominalConcurrencyShares ??= 0;
    e.lendablePercent ??= 0;
  }
}

/** Applies the defaults of `group/kind` (`scheduling.k8s.io/PriorityClass`) when it has any here. */
export function defaultStoredKind(obj: KubeObject, group: string, kind: string): void {
  const o = obj as unknown as Obj;
  const spec = isObj(o.spec) ? o.spec : undefined;
  switch (`${group}/${kind}`) {
    case 'scheduling.k8s.io/PriorityClass':
      o.preemptionPolicy ??= 'PreemptLowerPriority';
      break;
    case 'storage.k8s.io/StorageClass':
      o.reclaimPolicy ??= 'Delete';
      o.volumeBindingMode ??= 'Immediate';
      break;
    case 'storage.k8s.io/CSIDriver':
      if (spec === undefined) break;
      spec.attachRequired ??= true;
      spec.podInfoOnMount ??= false;
      spec.storageCapacity ??= false;
      spec.fsGroupPolicy ??= 'ReadWriteOnceWithFSType';
      spec.requiresRepublish ??= false;
      spec.seLinuxMount ??= false;
      if (spec.volumeLifecycleModes === undefined || spec.volumeLifecycleModes === null)
        spec.volumeLifecycleModes = ['Persistent'];
      break;
    case 'admissionregistration.k8s.io/ValidatingWebhookConfiguration':
      defaultWebhooks(obj, false);
      break;
    case 'admissionregistration.k8s.io/MutatingWebhookConfiguration':
      defaultWebhooks(obj, true);
      break;
    case 'admissionregistration.k8s.io/ValidatingAdmissionPolicy':
      if (spec === undefined) break;
      spec.failurePolicy ??= 'Fail';
      defaultMatchResources(spec.matchConstraints);
      break;
    case 'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding':
      if (spec === undefined) break;
      defaultMatchResources(spec.matchResources);
      if (isObj(spec.paramRef)) spec.paramRef.parameterNotFoundAction ??= 'Deny';
      break;
    case 'flowcontrol.apiserver.k8s.io/FlowSchema':
      if (spec !== undefined) spec.matchingPrecedence ??= 1000;
      break;
    case 'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration':
      if (spec !== undefined) defaultPriorityLevel(spec);
      break;
    case '/PersistentVolume':
      if (spec !== undefined) {
        spec.persistentVolumeReclaimPolicy ??= 'Retain';
        spec.volumeMode ??= 'Filesystem';
      }
      if (!isObj(o.status)) o.status = {};
      (o.status as Obj).phase ??= 'Pending';
      break;
    case '/ReplicationController':
      if (spec !== undefined) defaultReplicationController(spec, obj);
      break;
    case 'apiregistration.k8s.io/APIService':
      if (spec !== undefined && isObj(spec.service)) spec.service.port ??= 443;
      break;
    default:
      break;
  }
}
