/**
 * One sync of a StatefulSet (`updateStatefulSet` in stateful_set_control.go,
 * Kubernetes 1.32 with MaxUnavailableStatefulSet off): pods in the ordinal
 * range are kept, missing ones created — in order, one at a time, each
 * waiting for its predecessors to be Running, Ready and available under
 * OrderedReady ("monotonic"), all at once in slow-start batches under
 * Parallel ("burst") — failed and succeeded ones deleted (the next sync
 * re-creates them once they are gone); then pods outside the range are
 * deleted, highest ordinal first; then, with RollingUpdate, the highest pod
 * not at the update revision (down to the partition) is deleted, one per
 * sync, while every pod is available. OnDelete stops before that.
 */
import type { StatefulSetStatus } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { isApiError } from '../../api/errors';
import type { Typed } from '../../api/types';
import type { Revision } from '../history/controllerHistory';
import { aggregate, claimsMatchRetentionPolicy, podClaimIsStale, updatePodClaimsForRetentionPolicy } from './claims';
import type { Sts } from './identity';
import {
  endOrdinal,
  identityMatches,
  inOrdinalRange,
  newVersionedPod,
  ordinalOf,
  podRevision,
  replicasOf,
  startOrdinal,
  storageMatches,
} from './identity';
import type { PodControl } from './podControl';
import { createMissingClaims, createStatefulPod, deleteStatefulPod, updateStatefulPod } from './podControl';
import { applyRevision } from './revisions';
import {
  countReplicas,
  isCreated,
  isRunningAndAvailable,
  isRunningAndReady,
  isTerminating,
  isUnavailable,
} from './status';

/** Upstream `MaxBatchSize`: the largest slow-start batch under Parallel. */
export const MAX_BATCH_SIZE = 500;

export interface UpdateInput {
  set: Sts;
  pods: readonly Typed<Pod>[];
  current: Revision;
  update: Revision;
  collisionCount: number;
  now: number;
}

export interface UpdateResult {
  status: StatefulSetStatus;
  error?: Error;
}

type Step = (i: number) => boolean;

/**
 * `runForAll`: under OrderedReady, the steps in order until one says to stop; under Parallel, every step in
 * slow-start batches of 1, 2, 4, … (at most `MaxBatchSize`), a batch with failures ending the run with their errors.
 */
function runForAll(count: number, step: Step, monotonic: boolean): boolean {
  if (monotonic) {
    for (let i = 0; i < count; i++) if (step(i)) return true;
    return false;
  }
  let next = 0;
  let remaining = count;
  for (let size = Math.min(remaining, 1); size > 0; size = Math.min(2 * size, remaining, MAX_BATCH_SIZE)) {
    const errors: Error[] = [];
    for (let k = 0; k < size; k++) {
      try {
        step(next++);
      } catch (e) {
        errors.push(e instanceof Error ? e : new Error(String(e)));
      }
    }
    if (errors.length > 0) throw new Error(aggregate(errors.map((e) => e.message)));
    remaining -= size;
  }
  return false;
}

/** `updateStatefulSet`: acts on the set and returns the status to write (and the error, if a step failed). */
export function updateStatefulSet(pc: PodControl, input: UpdateInput): UpdateResult {
  const { set, current, update, collisionCount, now } = input;
  const minReady = set.spec?.minReadySeconds ?? 0;
  const currentSet = applyRevision(set, current);
  const updateSet = applyRevision(set, update);
  const currentName = current.metadata.name ?? '';
  const updateName = update.metadata.name ?? '';
  const status: StatefulSetStatus = {
    replicas: 0,
    observedGeneration: set.metadata.generation,
    currentRevision: currentName,
    updateRevision: updateName,
    collisionCount,
  };
  countReplicas(status, input.pods, minReady, currentName, updateName, now);

  const start = startOrdinal(set);
  const replicas: (Typed<Pod> | undefined)[] = new Array(replicasOf(set)).fill(undefined);
  const condemned: Typed<Pod>[] = [];
  for (const pod of input.pods) {
    if (inOrdinalRange(pod, set)) replicas[ordinalOf(pod) - start] = pod;
    else if (ordinalOf(pod) >= 0) condemned.push(pod);
  }
  for (let ord = start; ord <= endOrdinal(set); ord++) {
    if (!replicas[ord - start])
      replicas[ord - start] = newVersionedPod(currentSet, updateSet, currentName, updateName, ord);
  }
  const live = replicas as Typed<Pod>[];
  condemned.sort((a, b) => ordinalOf(b) - ordinalOf(a));

  let firstUnavailable: Typed<Pod> | undefined;
  for (const pod of live) if (!firstUnavailable && isUnavailable(pod, minReady, now)) firstUnavailable = pod;
  for (let i = condemned.length - 1; i >= 0 && !firstUnavailable; i--)
    if (isUnavailable(condemned[i], minReady, now)) firstUnavailable = condemned[i];

  const finalStatus = (): StatefulSetStatus => {
    countReplicas(status, [...live, ...condemned], minReady, currentName, updateName, now);
    return status;
  };

  if (set.metadata.deletionTimestamp) return { status };

  const monotonic = set.spec?.podManagementPolicy !== 'Parallel';
  try {
    const processReplica = (i: number): boolean => {
      const pod = live[i];
      if (pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded') {
        // Deleted; the next sync, after the pod is gone, creates its replacement (kubernetes#123809).
        if (!isTerminating(pod)) deleteStatefulPod(pc, set, pod);
        return true;
      }
      if (!isCreated(pod)) {
        if (podClaimIsStale(pc, set, pod)) return true;
        createStatefulPod(pc, set, pod);
        if (monotonic) return true;
      }
      if (pod.status?.phase === 'Pending') createMissingClaims(pc, set, pod);
      if (isTerminating(pod) && monotonic) return true;
      if (!isRunningAndReady(pod) && monotonic) return true;
      if (!isRunningAndAvailable(pod, minReady, now) && monotonic) return true;
      if (!isCreated(pod)) return false;
      let retentionMatch = true;
      try {
        retentionMatch = claimsMatchRetentionPolicy(pc, updateSet, pod);
      } catch {
        retentionMatch = true;
      }
      if (identityMatches(set, pod) && storageMatches(set, pod) && retentionMatch) return false;
      updateStatefulPod(pc, updateSet, pod);
      return false;
    };
    if (runForAll(live.length, processReplica, monotonic)) return { status: finalStatus() };

    const fixPodClaim = (i: number): boolean => {
      if (!claimsMatchRetentionPolicy(pc, updateSet, condemned[i]))
        updatePodClaimsForRetentionPolicy(pc, updateSet, condemned[i]);
      return false;
    };
    if (runForAll(condemned.length, fixPodClaim, monotonic)) return { status: finalStatus() };

    const processCondemned = (i: number): boolean => {
      const pod = condemned[i];
      if (isTerminating(pod)) return monotonic;
      if (!isRunningAndReady(pod) && monotonic && pod !== firstUnavailable) return true;
      if (!isRunningAndAvailable(pod, minReady, now) && monotonic && pod !== firstUnavailable) return true;
      deleteStatefulPod(pc, set, pod);
      return true;
    };
    if (runForAll(condemned.length, processCondemned, monotonic)) return { status: finalStatus() };
  } catch (e) {
    return { status: finalStatus(), error: e instanceof Error ? e : new Error(String(e)) };
  }

  finalStatus();
  if (set.spec?.updateStrategy?.type === 'OnDelete') return { status };

  const updateMin = set.spec?.updateStrategy?.rollingUpdate?.partition ?? 0;
  for (let target = live.length - 1; target >= updateMin; target--) {
    const pod = live[target];
    if (podRevision(pod) !== updateName && !isTerminating(pod)) {
      try {
        deleteStatefulPod(pc, set, pod);
      } catch (e) {
        if (!isApiError(e, 404)) return { status, error: e instanceof Error ? e : new Error(String(e)) };
      }
      status.currentReplicas = (status.currentReplicas ?? 0) - 1;
      return { status };
    }
    if (isUnavailable(pod, minReady, now)) return { status };
  }
  return { status };
}
