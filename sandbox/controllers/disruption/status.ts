/**
 * The status a PodDisruptionBudget should have (pkg/controller/disruption:
 * `buildDisruptedPodMap`, `countHealthyPods`, `updatePdbStatus`, `failSafe`).
 */
import type { Pod } from 'kubernetes-types/core/v1';
import type { PodDisruptionBudget, PodDisruptionBudgetStatus } from 'kubernetes-types/policy/v1';
import {
  DISRUPTION_ALLOWED,
  SYNC_FAILED,
  conditionsAreUpToDate,
  setStatusCondition,
  updateDisruptionAllowedCondition,
} from '../../api/podDisruptionBudget';
import { parseTimestamp } from '../../clock/clock';
import { cloneJson, jsonEqual } from '../../util/json';
import { isPodReady } from '../util/pods';

/** `DeletionTimeout`: how long an approved eviction keeps its pod out of the healthy count. */
export const DELETION_TIMEOUT_MS = 2 * 60_000;

export interface DisruptedPods {
  /** Pod name → when its eviction was approved (RFC 3339), for pods not yet deleting and not expired. */
  pods: Record<string, string>;
  /** The earliest expiry among them (ms), when the budget must be looked at again. */
  recheckAt?: number;
  /** Pods whose entry expired without a deletion (a `NotDeleted` warning each). */
  notDeleted: Pod[];
}

/** `buildDisruptedPodMap`: keeps the entries of pods still there, not yet deleting, and not expired. */
export function buildDisruptedPodMap(pods: readonly Pod[], pdb: PodDisruptionBudget, now: number): DisruptedPods {
  const recorded = pdb.status?.disruptedPods ?? {};
  const result: DisruptedPods = { pods: {}, notDeleted: [] };
  for (const pod of pods) {
    if (pod.metadata?.deletionTimestamp) continue;
    const at = recorded[pod.metadata?.name ?? ''];
    if (at === undefined) continue;
    const expected = parseTimestamp(at) + DELETION_TIMEOUT_MS;
    // Upstream keeps an entry due exactly now and rechecks at once; on a virtual clock that instant never passes.
    if (expected <= now) result.notDeleted.push(pod);
    else {
      if (result.recheckAt === undefined || expected < result.recheckAt) result.recheckAt = expected;
      result.pods[pod.metadata!.name!] = at;
    }
  }
  return result;
}

/** `countHealthyPods`: Ready pods that are neither deleting nor about to be (an approved eviction). */
export function countHealthyPods(pods: readonly Pod[], disrupted: Record<string, string>, now: number): number {
  let healthy = 0;
  for (const pod of pods) {
    if (pod.metadata?.deletionTimestamp) continue;
    const at = disrupted[pod.metadata?.name ?? ''];
    if (at !== undefined && parseTimestamp(at) + DELETION_TIMEOUT_MS > now) continue;
    if (isPodReady(pod)) healthy++;
  }
  return healthy;
}

export interface Counts {
  currentHealthy: number;
  desiredHealthy: number;
  expectedCount: number;
  disruptedPods: Record<string, string>;
}

/**
 * `updatePdbStatus`: the new status, or undefined when the stored one already says all of it. No disruption is allowed
 * while the budget expects no pods (its first pods may appear before it is synced again).
 */
export function nextStatus(
  pdb: PodDisruptionBudget,
  counts: Counts,
  now: number,
): PodDisruptionBudgetStatus | undefined {
  const { currentHealthy, desiredHealthy, expectedCount, disruptedPods } = counts;
  let disruptionsAllowed = currentHealthy - desiredHealthy;
  if (expectedCount <= 0 || disruptionsAllowed <= 0) disruptionsAllowed = 0;
  const old = pdb.status;
  const generation = pdb.metadata?.generation ?? 0;
  if (
    old &&
    old.currentHealthy === currentHealthy &&
    old.desiredHealthy === desiredHealthy &&
    old.expectedPods === expectedCount &&
    old.disruptionsAllowed === disruptionsAllowed &&
    jsonEqual(old.disruptedPods ?? {}, disruptedPods) &&
    (old.observedGeneration ?? 0) === generation &&
    conditionsAreUpToDate(pdb)
  )
    return undefined;
  // In PodDisruptionBudgetStatus's field order, empty ones left out as Go's omitempty does.
  const status: PodDisruptionBudgetStatus = {
    ...(generation !== 0 ? { observedGeneration: generation } : {}),
    ...(Object.keys(disruptedPods).length > 0 ? { disruptedPods } : {}),
    disruptionsAllowed,
    currentHealthy,
    desiredHealthy,
    expectedPods: expectedCount,
    conditions: cloneJson(old?.conditions ?? []),
  };
  updateDisruptionAllowedCondition(status, now);
  return status;
}

/**
 * `failSafe`: after a failed sync, at least allow no disruption, saying why in a `SyncFailed` condition; the rest of
 * the status stays as it was.
 */
export function failSafeStatus(pdb: PodDisruptionBudget, error: string, now: number): PodDisruptionBudgetStatus {
  const status: PodDisruptionBudgetStatus = {
    currentHealthy: 0,
    desiredHealthy: 0,
    expectedPods: 0,
    ...cloneJson(pdb.status ?? {}),
    disruptionsAllowed: 0,
  };
  status.conditions ??= [];
  const condition = { type: DISRUPTION_ALLOWED, status: 'False', reason: SYNC_FAILED, message: error };
  setStatusCondition(
    status.conditions,
    status.observedGeneration !== undefined
      ? { ...condition, observedGeneration: status.observedGeneration }
      : condition,
    now,
  );
  return status;
}
