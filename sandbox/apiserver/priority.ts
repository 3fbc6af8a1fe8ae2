/**
 * Pod priority in the API server: the two system PriorityClasses every
 * cluster has (upstream: pkg/registry/scheduling/rest/storage_scheduling.go,
 * the `scheduling/bootstrap-system-priority-classes` post-start hook), the
 * Priority admission plugin (upstream: plugin/pkg/admission/priority/
 * admission.go) that resolves a pod's `priorityClassName` into `priority` and
 * `preemptionPolicy`, refuses a second global default, and the registry's
 * refusal to delete a system class (pkg/registry/scheduling/priorityclass/
 * storage/storage.go: Delete).
 */
import { forbidden } from '../api/errors';
import type { ResourceType } from '../api/resources';
import { resourceFor } from '../api/resources';
import type { KubeObject } from '../api/types';
import type { ObjectStore } from '../store/objectStore';
import { kindKey } from './kindKey';

const PRIORITY_CLASSES = resourceFor('scheduling.k8s.io/v1', 'PriorityClass')!;
const PODS = resourceFor('v1', 'Pod')!;

/** upstream: pkg/apis/scheduling/types.go */
export const SYSTEM_CLUSTER_CRITICAL = 'system-cluster-critical';
export const SYSTEM_NODE_CRITICAL = 'system-node-critical';
export const SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;
export const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;
export const SYSTEM_PRIORITY_CLASS_PREFIX = 'system-';
/** `scheduling.DefaultPriorityWhenNoDefaultClassExists`. */
export const DEFAULT_PRIORITY = 0;

interface SystemClass {
  name: string;
  value: number;
  description: string;
}

/** upstream: pkg/apis/scheduling/helpers.go `systemPriorityClasses`. */
export const SYSTEM_PRIORITY_CLASSES: readonly SystemClass[] = [
  {
    name: SYSTEM_NODE_CRITICAL,
    value: SYSTEM_CRITICAL_PRIORITY + 1000,
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    name: SYSTEM_CLUSTER_CRITICAL,
    value: SYSTEM_CRITICAL_PRIORITY,
    description:
      'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
];

/** The PriorityClass objects of the system classes, as the bootstrap hook creates them. */
export function systemPriorityClassObjects(): KubeObject[] {
  return SYSTEM_PRIORITY_CLASSES.map((c) => ({
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: c.name },
    value: c.value,
    description: c.description,
    preemptionPolicy: 'PreemptLowerPriority',
  }));
}

/** The system class of that name, if it is one. */
export function systemPriorityClass(name: string): SystemClass | undefined {
  return SYSTEM_PRIORITY_CLASSES.find((c) => c.name === name);
}

interface StoredClass {
  name: string;
  value: number;
  globalDefault: boolean;
  preemptionPolicy: string | undefined;
}

function asClass(obj: KubeObject): StoredClass {
  const o = obj as KubeObject & { value?: number; globalDefault?: boolean; preemptionPolicy?: string };
  return {
    name: obj.metadata.name ?? '',
    value: typeof o.value === 'number' ? o.value : 0,
    globalDefault: o.globalDefault === true,
    preemptionPolicy: o.preemptionPolicy,
  };
}

/** `getDefaultPriorityClass`: the global default; with several (a race upstream), the one of lowest value. */
function defaultClass(store: ObjectStore): StoredClass | undefined {
  let found: StoredClass | undefined;
  for (const obj of store.list(kindKey(PRIORITY_CLASSES))) {
    const c = asClass(obj);
    if (c.globalDefault && (found === undefined || found.value > c.value)) found = c;
  }
  return found;
}

/** `extractResourceName`: admission runs before a generated name exists, so it names the object by generateName. */
function admissionName(obj: KubeObject): string {
  return obj.metadata.name || obj.metadata.generateName || 'Unknown';
}

interface PodSpecPriority {
  priorityClassName?: string;
  priority?: number;
  preemptionPolicy?: string;
}

/**
 * `admitPod` on CREATE: sets `spec.priority` (and `preemptionPolicy`, and the default class's name) from the pod's
 * `priorityClassName` or the global default class; a missing class, or a `priority` / `preemptionPolicy` the pod gives
 * that differs from the class's, is 403 Forbidden with upstream's words. On UPDATE it keeps what it set on create when
 * the new body omits it. Mutates `pod`.
 */
export function admitPodPriority(store: ObjectStore, pod: KubeObject, old?: KubeObject): void {
  const spec = pod.spec as PodSpecPriority | undefined;
  if (!spec || typeof spec !== 'object') return;
  if (old) {
    const before = old.spec as PodSpecPriority | undefined;
    if (spec.priority === undefined && before?.priority !== undefined) spec.priority = before.priority;
    if (spec.preemptionPolicy === undefined && before?.preemptionPolicy !== undefined)
      spec.preemptionPolicy = before.preemptionPolicy;
    return;
  }
  let priority: number;
  let policy: string | undefined;
  if (!spec.priorityClassName) {
    const dpc = defaultClass(store);
    if (dpc) {
      spec.priorityClassName = dpc.name;
      priority = dpc.value;
      policy = dpc.preemptionPolicy;
    } else {
      priority = DEFAULT_PRIORITY;
      policy = 'PreemptLowerPriority';
    }
  } else {
    const stored = store.get(kindKey(PRIORITY_CLASSES), '', spec.priorityClassName);
    if (!stored)
      throw forbidden(PODS, admissionName(pod), `no PriorityClass with name ${spec.priorityClassName} was found`);
    const c = asClass(stored);
    priority = c.value;
    policy = c.preemptionPolicy;
  }
  if (spec.priority !== undefined && spec.priority !== priority)
    throw forbidden(
      PODS,
      admissionName(pod),
      `the integer value of priority (${String(spec.priority)}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`,
    );
  spec.priority = priority;
  if (policy !== undefined) {
    if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== policy)
      throw forbidden(
        PODS,
        admissionName(pod),
        `the string value of PreemptionPolicy (${String(spec.preemptionPolicy)}) must not be provided in pod spec; priority admission controller computed ${policy} from the given PriorityClass name`,
      );
    spec.preemptionPolicy = policy;
  }
}

/** `validatePriorityClass` (CREATE and UPDATE): only one class may be the global default. */
export function admitPriorityClass(store: ObjectStore, r: ResourceType, pc: KubeObject, update: boolean): void {
  if (r !== PRIORITY_CLASSES || !asClass(pc).globalDefault) return;
  const dpc = defaultClass(store);
  if (!dpc) return;
  if (!update || dpc.name !== pc.metadata.name)
    throw forbidden(
      PRIORITY_CLASSES,
      admissionName(pc),
      `PriorityClass ${dpc.name} is already marked as default. Only one default can exist`,
    );
}

/** The registry refuses to delete a system class. */
export function refuseSystemClassDelete(r: ResourceType, name: string): void {
  if (r === PRIORITY_CLASSES && systemPriorityClass(name))
    throw forbidden(PRIORITY_CLASSES, name, 'this is a system priority class and cannot be deleted');
}

export function isPriorityClassResource(r: ResourceType): boolean {
  return r === PRIORITY_CLASSES;
}
