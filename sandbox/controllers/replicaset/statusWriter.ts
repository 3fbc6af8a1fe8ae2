/**
 * Writes a ReplicaSet's status through `/status` when it changed
 * (`updateReplicaSetStatus`: one retry against a fresh read on conflict),
 * and says when to look again for pods that become available later.
 */
import type { ReplicaSet, ReplicaSetStatus } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import type { ApiServer } from '../../apiserver/apiServer';
import { isApiError } from '../../api/errors';
import type { Typed } from '../../api/types';
import type { Recorder } from '../../client/component';
import type { PodCounts } from './podTally';
import {
  countPods,
  nextAvailableIn,
  rsReplicasOf,
  statusFromCounts,
  statusNeedsUpdate,
  statusUnchanged,
} from './status';

/**
 * The pods a sync claimed, as the status needs them: their counts and the next availability requeue for a
 * ReplicaSet (the synced one, or a fresher read of it after a conflict, whose spec may differ).
 */
export interface ClaimedPods {
  counts(rs: ReplicaSet, now: number): PodCounts;
  nextAvailableIn(rs: ReplicaSet, now: number): number | undefined;
}

/** The walk over the claimed pods (`calculateStatus` as upstream computes it). */
export function walkedPods(pods: readonly Pod[]): ClaimedPods {
  return {
    counts: (rs, now) => countPods(rs, pods, now),
    nextAvailableIn: (rs, now) => nextAvailableIn(rs, pods, now),
  };
}

/** Returns ms until a Ready pod becomes available (the requeue), or undefined. Throws when the write fails twice. */
export function writeStatus(
  api: ApiServer,
  recorder: Recorder,
  rs: Typed<ReplicaSet>,
  pods: ClaimedPods,
  manageError: Error | undefined,
  now: number,
): number | undefined {
  let current = rs;
  for (let attempt = 0; ; attempt++) {
    const counts = pods.counts(current, now);
    if (statusUnchanged(current, counts, manageError)) break;
    const status = statusFromCounts(current, counts, manageError, now);
    if (!statusNeedsUpdate(current, status)) break;
    status.observedGeneration = current.metadata?.generation;
    const prev: ReplicaSetStatus = current.status ?? { replicas: 0 };
    recorder.logOnly(
      current,
      'Normal',
      'UpdatingStatus',
      `replicas ${prev.replicas ?? 0}->${status.replicas} (need ${rsReplicasOf(current)}), fullyLabeledReplicas ${prev.fullyLabeledReplicas ?? 0}->${status.fullyLabeledReplicas ?? 0}, readyReplicas ${prev.readyReplicas ?? 0}->${status.readyReplicas ?? 0}, availableReplicas ${prev.availableReplicas ?? 0}->${status.availableReplicas ?? 0}, sequence No: ${current.status?.observedGeneration ?? 0}->${status.observedGeneration ?? 0}`,
    );
    try {
      current = api.updateStatus({ ...current, status });
      break;
    } catch (e) {
      if (attempt > 0 || !isApiError(e, 409)) throw e;
      const resource = (rs.kind as string) === 'ReplicationController' ? 'replicationcontrollers' : 'replicasets';
      current = api.get(resource, rs.metadata.namespace, rs.metadata.name ?? '') as Typed<ReplicaSet>;
    }
  }
  return manageError ? undefined : pods.nextAvailableIn(current, now);
}
