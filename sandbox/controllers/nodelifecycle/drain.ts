/**
 * `kubectl cordon`, `uncordon` and `drain` (staging/src/k8s.io/kubectl/pkg/drain):
 * cordoning sets `spec.unschedulable` (the node lifecycle controller then
 * adds the `unschedulable` taint); draining cordons, checks every pod on the
 * node against kubectl's filters, and — only if none refuses — deletes them.
 *
 * The sandbox has no eviction subresource, so pods are deleted directly:
 * PodDisruptionBudgets are not consulted.
 */
import type { Pod } from 'kubernetes-types/core/v1';
import type { ApiServer } from '../../apiserver/apiServer';
import { isApiError } from '../../api/errors';
import type { KubeObject, Typed } from '../../api/types';
import { controllerRefOf } from '../util/owners';

export interface DrainOptions {
  /** `--ignore-daemonsets`: leave DaemonSet pods (otherwise they make the drain fail). */
  ignoreDaemonSets?: boolean;
  /** `--delete-emptydir-data`: delete pods with emptyDir volumes (otherwise they make the drain fail). */
  deleteEmptyDirData?: boolean;
  /** `--force`: delete pods without a controller (otherwise they make the drain fail). */
  force?: boolean;
  /** `--grace-period`: seconds each pod gets; negative or absent = the pod's own. */
  gracePeriodSeconds?: number;
}

export interface DrainResult {
  /** The node after cordoning. */
  node: KubeObject;
  /** `ns/name` of every pod deleted, in order. */
  evicted: string[];
  /** kubectl's warnings: `ignoring DaemonSet-managed Pods: kube-system/x`, … */
  warnings: string[];
}

/**
 * What stops a drain: kubectl's aggregated message, e.g. `cannot delete Pods that declare no controller (use --force to
 * override): default/x`.
 */
export class DrainError extends Error {
  constructor(
    readonly node: string,
    readonly reasons: string[],
  ) {
    super(reasons.length === 1 ? reasons[0] : `[${reasons.join(', ')}]`);
    this.name = 'DrainError';
  }
}

const MIRROR_ANNOTATION = 'kubernetes.io/config.mirror';

const ERR_DAEMONSET = 'cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore)';
const WARN_DAEMONSET = 'ignoring DaemonSet-managed Pods';
const ERR_LOCAL_STORAGE = 'cannot delete Pods with local storage (use --delete-emptydir-data to override)';
const WARN_LOCAL_STORAGE = 'deleting Pods with local storage';
const ERR_UNREPLICATED = 'cannot delete Pods that declare no controller (use --force to override)';
const WARN_UNREPLICATED = 'deleting Pods that declare no controller';

function setUnschedulable(api: ApiServer, name: string, value: boolean): KubeObject {
  const node = api.get('nodes', undefined, name);
  const current = (node.spec as { unschedulable?: boolean } | undefined)?.unschedulable === true;
  if (current === value) return node;
  const spec: Record<string, unknown> = { ...(node.spec as object) };
  if (value) spec.unschedulable = true;
  else delete spec.unschedulable;
  return api.update({ ...node, spec });
}

/**
 * `kubectl cordon`: marks the node unschedulable. Returns the node (unchanged when already cordoned). 404 for an
 * unknown node.
 */
export function cordon(api: ApiServer, name: string): KubeObject {
  return setUnschedulable(api, name, true);
}

/** `kubectl uncordon`: makes the node schedulable again. */
export function uncordon(api: ApiServer, name: string): KubeObject {
  return setUnschedulable(api, name, false);
}

type Verdict = { delete: true; warning?: string } | { delete: false; error?: string };

/**
 * kubectl's filters, in its order: DaemonSet, mirror, local storage, unreplicated. Returns the verdict and warnings met
 * on the way.
 */
function judge(api: ApiServer, pod: Typed<Pod>, options: DrainOptions): { verdict: Verdict; warnings: string[] } {
  const warnings: string[] = [];
  const owner = controllerRefOf(pod);
  const terminal = pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
  if (owner?.kind === 'DaemonSet' && !terminal) {
    if (api.tryGet('daemonsets', pod.metadata?.namespace, owner.name)) {
      if (!options.ignoreDaemonSets) return { verdict: { delete: false, error: ERR_DAEMONSET }, warnings };
      return { verdict: { delete: false }, warnings: [WARN_DAEMONSET] };
    }
    // An orphaned DaemonSet pod goes only with --force.
    const missing = `daemonsets.apps "${owner.name}" not found`;
    if (!options.force) return { verdict: { delete: false, error: missing }, warnings };
    warnings.push(missing);
  }
  if (pod.metadata?.annotations?.[MIRROR_ANNOTATION] !== undefined) return { verdict: { delete: false }, warnings };
  if (!terminal && (pod.spec?.volumes ?? []).some((v) => v.emptyDir)) {
    if (!options.deleteEmptyDirData) return { verdict: { delete: false, error: ERR_LOCAL_STORAGE }, warnings };
    warnings.push(WARN_LOCAL_STORAGE);
  }
  if (!owner && !terminal) {
    if (!options.force) return { verdict: { delete: false, error: ERR_UNREPLICATED }, warnings };
    warnings.push(WARN_UNREPLICATED);
  }
  return { verdict: { delete: true }, warnings };
}

/** `reason: ns/a, ns/b` lines, one per reason, in first-seen order. */
function grouped(entries: readonly [string, string][]): string[] {
  const byReason = new Map<string, string[]>();
  for (const [reason, pod] of entries) {
    let pods = byReason.get(reason);
    if (!pods) byReason.set(reason, (pods = []));
    pods.push(pod);
  }
  return [...byReason].map(([reason, pods]) => `${reason}: ${pods.join(', ')}`);
}

/**
 * `kubectl drain`: cordons the node, then deletes every pod on it except
 * mirror pods and (with `ignoreDaemonSets`) DaemonSet pods. When any pod is
 * refused (no controller without `force`, emptyDir without
 * `deleteEmptyDirData`, DaemonSet without `ignoreDaemonSets`) nothing is
 * deleted and a DrainError lists them; the node stays cordoned, as with kubectl.
 */
export function drain(api: ApiServer, name: string, options: DrainOptions = {}): DrainResult {
  const node = cordon(api, name);
  const pods = api.list('pods', { fieldSelector: `spec.nodeName=${name}` }).items;
  pods.sort((a, b) =>
    `${a.metadata?.namespace}/${a.metadata?.name}`.localeCompare(`${b.metadata?.namespace}/${b.metadata?.name}`),
  );
  const errors: [string, string][] = [];
  const warnings: [string, string][] = [];
  const toDelete: Pod[] = [];
  for (const pod of pods) {
    const key = `${pod.metadata?.namespace}/${pod.metadata?.name}`;
    const { verdict, warnings: w } = judge(api, pod, options);
    for (const text of w) warnings.push([text, key]);
    if (verdict.delete) toDelete.push(pod);
    else if (verdict.error) errors.push([verdict.error, key]);
  }
  if (errors.length > 0) throw new DrainError(name, grouped(errors));
  const evicted: string[] = [];
  const grace =
    options.gracePeriodSeconds !== undefined && options.gracePeriodSeconds >= 0
      ? { gracePeriodSeconds: options.gracePeriodSeconds }
      : {};
  for (const pod of toDelete) {
    try {
      api.delete('pods', pod.metadata?.namespace, pod.metadata!.name!, grace);
      evicted.push(`${pod.metadata?.namespace}/${pod.metadata?.name}`);
    } catch (e) {
      if (!isApiError(e, 404)) throw e;
    }
  }
  return { node, evicted, warnings: grouped(warnings) };
}
