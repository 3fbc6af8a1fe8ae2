/**
 * What the API server itself sets on writes (upstream `PrepareForCreate`,
 * `PrepareForUpdate`, `FillObjectMetaSystemFields`): uid, timestamps,
 * generation, and the status a new object starts with.
 */
import type { ResourceType } from '../api/resources';
import type { KubeObject, ObjectMeta } from '../api/types';
import { formatTimestamp } from '../clock/clock';
import { jsonEqual } from '../util/json';

/**
 * Initial status on create. Client-supplied status is dropped for kinds with a status subresource (Nodes keep theirs,
 * as upstream).
 */
export function initialStatus(obj: KubeObject, r: ResourceType, qosClass: (pod: KubeObject) => string): void {
  if (r.statusSubresource && r.kind !== 'Node') delete obj.status;
  switch (r.kind) {
    case 'Pod':
      obj.status = { phase: 'Pending', qosClass: qosClass(obj) };
      break;
    case 'Namespace':
      obj.status = { phase: 'Active' };
      break;
    case 'Service':
      obj.status = { loadBalancer: {} };
      break;
    case 'PersistentVolumeClaim':
      obj.status = { phase: 'Pending' };
      break;
    case 'PersistentVolume':
      obj.status = { phase: 'Pending' };
      break;
    case 'PodDisruptionBudget':
      // PodDisruptionBudgetStatus{}: its four counters have no omitempty, so they read 0 until the controller syncs.
      obj.status = { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
      break;
    default:
      if (r.statusSubresource && r.kind !== 'Node') obj.status = {};
  }
}

/**
 * A new pod with scheduling gates starts with `PodScheduled=False`, reason `SchedulingGated` (upstream:
 * pkg/registry/core/pod/strategy.go: applySchedulingGatedCondition), which kubectl shows as its STATUS.
 */
export function applySchedulingGatedCondition(pod: KubeObject, now: number): void {
  const spec = pod.spec as { schedulingGates?: unknown[] } | undefined;
  if (!Array.isArray(spec?.schedulingGates) || spec.schedulingGates.length === 0) return;
  const status = (pod.status ??= {}) as { conditions?: { type?: string }[] };
  if ((status.conditions ?? []).some((c) => c.type === 'PodScheduled')) return;
  status.conditions = [
    ...(status.conditions ?? []),
    {
      type: 'PodScheduled',
      status: 'False',
      lastProbeTime: null,
      lastTransitionTime: formatTimestamp(now),
      reason: 'SchedulingGated',
      message: 'Scheduling is blocked due to non-empty scheduling gates',
    } as { type: string },
  ];
}

const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

/** upstream pkg/api/pod/util.go ApparmorFieldForAnnotation, with ValidateAppArmorProfileField's checks: undefined
 * for a value it cannot read. */
function appArmorFieldForAnnotation(value: string): Record<string, unknown> | undefined {
  if (value === 'unconfined') return { type: 'Unconfined' };
  if (value === 'runtime/default') return { type: 'RuntimeDefault' };
  if (!value.startsWith('localhost/')) return undefined;
  const profile = value.slice('localhost/'.length);
  if (profile === '' || profile.trim() !== profile || Buffer.byteLength(profile) > 4095) return undefined;
  return { type: 'Localhost', localhostProfile: profile };
}

function sameProfile(a: Record<string, unknown>, b: unknown): boolean {
  if (typeof b !== 'object' || b === null) return false;
  const o = b as Record<string, unknown>;
  return a.type === o.type && (a.localhostProfile ?? undefined) === (o.localhostProfile ?? undefined);
}

/**
 * A new pod's deprecated AppArmor annotation of a container without an `appArmorProfile` becomes that field (unless
 * the pod-level profile is the same), with the API warning kubectl prints (upstream pkg/registry/core/pod/strategy.go:
 * applyAppArmorVersionSkew, from PrepareForCreate; Windows pods are left alone). An annotation that cannot be read is
 * not copied and warned about too.
 */
export function applyAppArmorVersionSkew(pod: KubeObject, warn?: (text: string) => void): void {
  const annotations = pod.metadata.annotations;
  if (!annotations) return;
  const spec = pod.spec as Record<string, unknown> | undefined;
  if (!spec || (spec.os as { name?: unknown } | undefined)?.name === 'windows') return;
  const podProfile = (spec.securityContext as { appArmorProfile?: unknown } | undefined)?.appArmorProfile;
  for (const key of ['initContainers', 'containers', 'ephemeralContainers']) {
    const list = spec[key];
    if (!Array.isArray(list)) continue;
    for (const c of list as Record<string, unknown>[]) {
      if (typeof c !== 'object' || c === null || typeof c.name !== 'string') continue;
      const annotationKey = APPARMOR_ANNOTATION_PREFIX + c.name;
      const value = annotations[annotationKey];
      const sc = c.securityContext as Record<string, unknown> | undefined;
      if (value === undefined || (sc?.appArmorProfile ?? undefined) !== undefined) continue;
      const field = appArmorFieldForAnnotation(value);
      let warning = field === undefined;
      if (field !== undefined && !sameProfile(field, podProfile)) {
        c.securityContext = { ...(sc ?? {}), appArmorProfile: field };
        warning = true;
      }
      if (warning)
        warn?.(
          `metadata.annotations[${annotationKey}]: deprecated since v1.30; use the "appArmorProfile" field instead`,
        );
    }
  }
}

/** Server-owned metadata that a client cannot set on update: copied from the stored object. */
export function keepSystemMetadata(meta: ObjectMeta, old: ObjectMeta): void {
  meta.uid = old.uid;
  meta.creationTimestamp = old.creationTimestamp;
  meta.generation = old.generation;
  if (old.deletionTimestamp !== undefined) {
    meta.deletionTimestamp = old.deletionTimestamp;
    meta.deletionGracePeriodSeconds = old.deletionGracePeriodSeconds;
  } else {
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
  }
  if (meta.generation === undefined) delete meta.generation;
}

/**
 * Whether an update changes what `generation` tracks: the spec (everything but
 * metadata and status), and for Deployments also annotations, which are
 * copied to their ReplicaSets.
 */
export function generationChanged(r: ResourceType, next: KubeObject, old: KubeObject): boolean {
  for (const key of new Set([...Object.keys(next), ...Object.keys(old)])) {
    if (key === 'metadata' || key === 'status' || key === 'apiVersion' || key === 'kind') continue;
    if (!jsonEqual(next[key], old[key])) return true;
  }
  return (
    r.kind === 'Deployment' &&
    r.group === 'apps' &&
    !jsonEqual(next.metadata.annotations ?? {}, old.metadata.annotations ?? {})
  );
}

/** Labels the API server adds to every Namespace (`kubernetes.io/metadata.name`). */
export function namespaceLabels(obj: KubeObject): void {
  obj.metadata.labels = { ...(obj.metadata.labels ?? {}), 'kubernetes.io/metadata.name': obj.metadata.name ?? '' };
}

/**
 * A Secret's `stringData` is write-only: the API server merges it into `data`
 * (base64, `stringData` winning on conflicts) and drops it, as the v1 → internal
 * conversion does upstream.
 */
export function mergeSecretStringData(obj: KubeObject): void {
  const stringData = obj.stringData;
  if (typeof stringData !== 'object' || stringData === null || Array.isArray(stringData)) return;
  const data: Record<string, unknown> =
    typeof obj.data === 'object' && obj.data !== null && !Array.isArray(obj.data)
      ? { ...(obj.data as Record<string, unknown>) }
      : {};
  for (const [k, v] of Object.entries(stringData as Record<string, unknown>)) {
    if (typeof v === 'string') data[k] = Buffer.from(v, 'utf8').toString('base64');
  }
  obj.data = data;
  delete obj.stringData;
}
