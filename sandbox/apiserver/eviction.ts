/**
 * The `pods/eviction` subresource (pkg/registry/core/pod/storage/eviction.go,
 * `EvictionREST.Create`): a delete that asks the pod's PodDisruptionBudget
 * first. The budget's numbers are its **status**, kept by the disruption
 * controller (sandbox/controllers/disruption); eviction only checks them and
 * takes one disruption (`disruptionsAllowed - 1`, the pod recorded in
 * `status.disruptedPods`), never recomputes them from the pods.
 *
 * Order, as upstream: terminal, pending and terminating pods are deleted
 * without a budget; more than one budget is a 500; an unready pod may go
 * without taking a disruption when the budget is healthy (IfHealthyBudget) or
 * always (AlwaysAllow); a budget the controller has not seen at its current
 * generation, or one allowing no disruption, answers 429 TooManyRequests.
 * Before the delete the pod gets `DisruptionTarget=True`
 * (`EvictionByEvictionAPI`).
 */
import type { Pod, PodCondition } from 'kubernetes-types/core/v1';
import type { PodDisruptionBudget, PodDisruptionBudgetStatus } from 'kubernetes-types/policy/v1';
import { badRequest, isApiError, statusFailure, tooManyRequests } from '../api/errors';
import type { ApiError } from '../api/errors';
import { DISRUPTION_BUDGET_CAUSE, updateDisruptionAllowedCondition } from '../api/podDisruptionBudget';
import { labelSelectorMatches } from '../api/selectors/labelSelector';
import type { LabelSelector } from '../api/selectors/labelSelector';
import type { KubeList, KubeObject } from '../api/types';
import { formatTimestamp } from '../clock/clock';
import { cloneJson } from '../util/json';
import type { DeleteOptions, ListOptions, WriteOptions } from './options';

/** The body of `POST …/pods/<name>/eviction` (`policy/v1` Eviction), decoded. */
export interface Eviction {
  /** Must name the pod; a namespace, when given, must be the pod's. */
  metadata?: { name?: string; namespace?: string };
  deleteOptions?: DeleteOptions;
}

/** The CreateOptions of the eviction request (`?dryRun=All`). */
export interface EvictionOptions {
  dryRun?: boolean;
}

/** The verbs eviction is made of (the API server's own, on pods and PodDisruptionBudgets). */
export interface EvictionVerbs {
  get(resource: string, namespace: string, name: string): KubeObject;
  list(resource: string, options: ListOptions): KubeList;
  updateStatus(obj: KubeObject, options?: WriteOptions): KubeObject;
  delete(resource: string, namespace: string, name: string, options?: DeleteOptions): KubeObject;
}

/** Upstream `MaxDisruptedPodSize`: evictions approved but not yet seen by the disruption controller. */
export const MAX_DISRUPTED_POD_SIZE = 2000;

export const EVICTION_VIOLATION = "Cannot evict pod as it would violate the pod's disruption budget.";
const MULTIPLE_BUDGETS =
  'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.';

/** `propagateDryRun`: the request's dryRun goes into the Eviction's deleteOptions unless they say otherwise. */
function propagateDryRun(deleteOptions: DeleteOptions | undefined, options: EvictionOptions): DeleteOptions {
  if (!deleteOptions) return options.dryRun ? { dryRun: true } : {};
  if (deleteOptions.dryRun === undefined && options.dryRun) return { ...deleteOptions, dryRun: true };
  return { ...deleteOptions };
}

function phaseOf(pod: Pod): string | undefined {
  return pod.status?.phase;
}

/** `canIgnorePDB`: finished, not started, or already going. */
function canIgnorePDB(pod: Pod): boolean {
  const phase = phaseOf(pod);
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || !!pod.metadata?.deletionTimestamp;
}

/** `shouldEnforceResourceVersion`: every pod but terminal and terminating ones. */
function shouldEnforceResourceVersion(pod: Pod): boolean {
  const phase = phaseOf(pod);
  return !(phase === 'Succeeded' || phase === 'Failed' || !!pod.metadata?.deletionTimestamp);
}

function isPodReady(pod: Pod): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

function withResourceVersion(options: DeleteOptions, resourceVersion: string | undefined): DeleteOptions {
  return { ...options, preconditions: { ...options.preconditions, resourceVersion } };
}

/** `createTooManyRequestsError`: the budget has not been processed yet (or the pod changed under us). */
function stillProcessing(pdbName: string): ApiError {
  return tooManyRequests(EVICTION_VIOLATION, 10, [
    {
      reason: DISRUPTION_BUDGET_CAUSE,
      message: `The disruption budget ${pdbName} is still being processed by the server.`,
    },
  ]);
}

/** `errors.NewForbidden(policy.Resource("poddisruptionbudget"), name, err)`. */
function pdbForbidden(name: string, why: string): ApiError {
  return statusFailure(403, 'Forbidden', `poddisruptionbudget.policy "${name}" is forbidden: ${why}`, {
    name,
    group: 'policy',
    kind: 'poddisruptionbudget',
  });
}

/** `errors.NewConflict(schema.GroupResource{Resource: "Pod"}, name, err)`. */
function podConflict(name: string, why: string): ApiError {
  return statusFailure(409, 'Conflict', `Operation cannot be fulfilled on Pod "${name}": ${why}`, {
    name,
    group: '',
    kind: 'Pod',
  });
}

/** A copy of the budget's status, with the zero values Go reads for absent fields. */
function statusOf(pdb: PodDisruptionBudget): PodDisruptionBudgetStatus {
  return {
    currentHealthy: 0,
    desiredHealthy: 0,
    disruptionsAllowed: 0,
    expectedPods: 0,
    ...cloneJson(pdb.status ?? {}),
  };
}

/** `getPodDisruptionBudgets`: the budgets of the pod's namespace whose selector matches it (a nil selector none). */
function podDisruptionBudgets(verbs: EvictionVerbs, pod: Pod): PodDisruptionBudget[] {
  const labels = pod.metadata?.labels ?? {};
  return (
    verbs.list('poddisruptionbudgets', { namespace: pod.metadata?.namespace }).items as PodDisruptionBudget[]
  ).filter((pdb) => labelSelectorMatches(pdb.spec?.selector as LabelSelector | undefined, labels));
}

/**
 * `checkAndDecrement`: refuses when the budget is stale (429), negative or overfull (403) or exhausted (429 with a
 * DisruptionBudget cause); otherwise takes one disruption and, unless dry run, records the pod in `disruptedPods`.
 */
function checkAndDecrement(
  verbs: EvictionVerbs,
  podName: string,
  pdb: PodDisruptionBudget,
  dryRun: boolean,
  now: number,
): void {
  const name = pdb.metadata?.name ?? '';
  const status = statusOf(pdb);
  if ((status.observedGeneration ?? 0) < (pdb.metadata?.generation ?? 0)) throw stillProcessing(name);
  if (status.disruptionsAllowed < 0) throw pdbForbidden(name, 'pdb disruptions allowed is negative');
  if (Object.keys(status.disruptedPods ?? {}).length > MAX_DISRUPTED_POD_SIZE)
    throw pdbForbidden(name, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
  if (status.disruptionsAllowed === 0) {
    throw tooManyRequests(EVICTION_VIOLATION, 0, [
      {
        reason: DISRUPTION_BUDGET_CAUSE,
        message: `The disruption budget ${name} needs ${status.desiredHealthy} healthy pods and has ${status.currentHealthy} currently`,
      },
    ]);
  }
  status.disruptionsAllowed--;
  if (status.disruptionsAllowed === 0) updateDisruptionAllowedCondition(status, now);
  if (dryRun) return;
  status.disruptedPods = { ...status.disruptedPods, [podName]: formatTimestamp(now) };
  // Upstream retries conflicts here (RetryOnConflict); the in-process store has no concurrent writer.
  verbs.updateStatus({ ...(pdb as KubeObject), status } as KubeObject);
}

/** `UpdatePodCondition` with DisruptionTarget=True: the status to write, the transition time kept when unchanged. */
function withDisruptionTarget(pod: Pod, now: number): Pod['status'] {
  const status = cloneJson(pod.status ?? {});
  const next: PodCondition = {
    type: 'DisruptionTarget',
    status: 'True',
    reason: 'EvictionByEvictionAPI',
    message: 'Eviction API: evicting',
    lastTransitionTime: formatTimestamp(now),
  };
  const conditions = status.conditions ?? [];
  const i = conditions.findIndex((c) => c.type === next.type);
  if (i < 0) conditions.push(next);
  else {
    if (conditions[i].status === next.status) next.lastTransitionTime = conditions[i].lastTransitionTime;
    conditions[i] = next;
  }
  status.conditions = conditions;
  return status;
}

/**
 * `addConditionAndDeletePod`: unless dry run, marks the latest pod a disruption target (checking the preconditions
 * against it) and carries a resourceVersion precondition over to the pod that write produced; then deletes.
 */
function addConditionAndDeletePod(
  verbs: EvictionVerbs,
  namespace: string,
  name: string,
  options: DeleteOptions,
  now: number,
): void {
  let del = options;
  if (!options.dryRun) {
    const latest = verbs.get('pods', namespace, name) as Pod;
    const pre = options.preconditions;
    const uid = latest.metadata?.uid;
    const rv = latest.metadata?.resourceVersion;
    if (pre?.uid && pre.uid !== uid)
      throw podConflict(
        name,
        `the UID in the precondition (${pre.uid}) does not match the UID in record (${uid}). The object might have been deleted and then recreated`,
      );
    if (pre?.resourceVersion && pre.resourceVersion !== rv)
      throw podConflict(
        name,
        `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${rv}). The object might have been modified`,
      );
    const updated = verbs.updateStatus({ ...(latest as KubeObject), status: withDisruptionTarget(latest, now) });
    if (pre?.resourceVersion !== undefined) del = withResourceVersion(options, updated.metadata.resourceVersion);
  }
  verbs.delete('pods', namespace, name, del);
}

/**
 * Evicts pod `namespace/name` (see the file comment). Throws the API server's errors: 400 for an Eviction naming
 * another pod, 404 for a missing pod, 429/403/500 for the budget, 409 for failed preconditions.
 */
export function evictPod(
  verbs: EvictionVerbs,
  namespace: string,
  name: string,
  eviction: Eviction,
  options: EvictionOptions,
  now: number,
): void {
  const meta = eviction.metadata ?? {};
  if (meta.name !== name) throw badRequest('name in URL does not match name in Eviction object');
  if (meta.namespace && meta.namespace !== namespace)
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  const original = propagateDryRun(eviction.deleteOptions, options);
  const rvUnset = original.preconditions?.resourceVersion === undefined;
  const pod = verbs.get('pods', namespace, name) as Pod;

  if (canIgnorePDB(pod)) {
    const del =
      shouldEnforceResourceVersion(pod) && rvUnset
        ? withResourceVersion(original, pod.metadata?.resourceVersion)
        : original;
    addConditionAndDeletePod(verbs, namespace, name, del, now);
    return;
  }

  const pdbs = podDisruptionBudgets(verbs, pod);
  if (pdbs.length > 1) throw statusFailure(500, '', MULTIPLE_BUDGETS);
  let pdbName = '';
  let updateDeletionOptions = false;
  if (pdbs.length === 1) {
    const pdb = pdbs[0];
    pdbName = pdb.metadata?.name ?? '';
    if (!isPodReady(pod)) {
      const status = statusOf(pdb);
      // An unhealthy pod does not count towards the budget: it may go without taking a disruption.
      if (pdb.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow') updateDeletionOptions = true;
      else if (status.currentHealthy >= status.desiredHealthy && status.desiredHealthy > 0)
        updateDeletionOptions = true;
    }
    if (!updateDeletionOptions) checkAndDecrement(verbs, name, pdb, original.dryRun === true, now);
  }

  // The pod must not have become ready since it was judged unhealthy: delete it at the version seen.
  const del = updateDeletionOptions ? withResourceVersion(original, pod.metadata?.resourceVersion) : original;
  try {
    addConditionAndDeletePod(verbs, namespace, name, del, now);
  } catch (e) {
    if (isApiError(e, 409) && updateDeletionOptions && rvUnset) throw stillProcessing(pdbName);
    throw e;
  }
}
