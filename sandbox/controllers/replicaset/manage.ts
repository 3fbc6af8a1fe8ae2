/**
 * `manageReplicas` (pkg/controller/replicaset/replica_set.go): create or
 * delete pods so the claimed active pods number `spec.replicas`, at most
 * `burstReplicas` per sync, creates in slow-start batches, with expectations
 * recorded before acting so a stale cache never acts twice.
 */
import type { ReplicaSet } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import type { ApiServer } from '../../apiserver/apiServer';
import { isApiError } from '../../api/errors';
import type { KubeObject, Typed } from '../../api/types';
import type { Recorder } from '../../client/component';
import type { Expectations } from '../framework/expectations';
import { isNamespaceTerminatingError } from '../util/namespaceTerminating';
import { newControllerRef } from '../util/owners';
import { podFromTemplate } from './podTemplate';
import { podsToDelete } from './ranking';
import { SLOW_START_INITIAL_BATCH_SIZE, slowStartBatch } from './slowStart';
import { rsReplicasOf } from './status';

/** Upstream `BurstReplicas`. */
export const BURST_REPLICAS = 500;

export interface ManageDeps {
  api: ApiServer;
  expectations: Expectations;
  recorder: Recorder;
  burstReplicas: number;
  now: number;
  /** Pods of every ReplicaSet with the same controller (for the scale-down rank). */
  relatedPods: () => Pod[];
}

/**
 * Acts on the difference between `claimedCount` (the claimed active pods) and `spec.replicas`; `claimed()` lists
 * those pods when some are to be deleted. Returns the first error (after recording what succeeded).
 */
export function manageReplicas(
  rsKey: string,
  rs: Typed<ReplicaSet>,
  claimedCount: number,
  claimed: () => readonly Pod[],
  deps: ManageDeps,
): Error | undefined {
  const diff = claimedCount - rsReplicasOf(rs);
  if (diff < 0) return createPods(rsKey, rs, Math.min(-diff, deps.burstReplicas), deps);
  if (diff > 0) return deletePods(rsKey, rs, claimed(), Math.min(diff, deps.burstReplicas), deps);
  return undefined;
}

function createPods(rsKey: string, owner: Typed<ReplicaSet>, count: number, deps: ManageDeps): Error | undefined {
  const { api, expectations, recorder } = deps;
  deps.expectations.expectCreations(rsKey, count);
  recorder.logOnly(
    owner,
    'Normal',
    'TooFewReplicas',
    `Too few replicas: need ${rsReplicasOf(owner)}, creating ${count}`,
  );
  const template = owner.spec?.template ?? {};
  const result = slowStartBatch(count, SLOW_START_INITIAL_BATCH_SIZE, () => {
    const body = podFromTemplate(template, owner, newControllerRef(owner), { shareSpec: true });
    if (Object.keys(body.metadata.labels ?? {}).length === 0) throw new Error('unable to create pods, no labels');
    try {
      const created = api.create(body);
      recorder.event(owner, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`, {
        target: created,
      });
    } catch (e) {
      // Any create in a terminating namespace fails; upstream treats that as nothing to do.
      if (isNamespaceTerminatingError(e)) return;
      const message = e instanceof Error ? e.message : String(e);
      recorder.event(owner, 'Warning', 'FailedCreate', `Error creating: ${message}`);
      throw e;
    }
  });
  const skipped = count - result.successes;
  if (skipped > 0) {
    recorder.logOnly(
      owner,
      'Normal',
      'SlowStartFailure',
      `Slow-start failure. Skipping creation of ${skipped} pods, decrementing expectations`,
    );
    expectations.lowerCreations(rsKey, skipped);
  }
  return result.error === undefined ? undefined : asError(result.error);
}

function deletePods(
  rsKey: string,
  owner: Typed<ReplicaSet>,
  pods: readonly Pod[],
  count: number,
  deps: ManageDeps,
): Error | undefined {
  const { api, expectations, recorder } = deps;
  recorder.logOnly(
    owner,
    'Normal',
    'TooManyReplicas',
    `Too many replicas: need ${rsReplicasOf(owner)}, deleting ${count}`,
  );
  const victims = podsToDelete(pods, deps.relatedPods(), count, deps.now);
  const keys = victims.map(podKey);
  expectations.expectDeletions(rsKey, keys);
  let first: Error | undefined;
  for (const pod of victims) {
    try {
      api.delete('pods', pod.metadata?.namespace, pod.metadata?.name ?? '');
      recorder.event(owner, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata?.name}`, {
        target: { ...(pod as KubeObject), kind: 'Pod' },
      });
    } catch (e) {
      // The informer will never see this deletion.
      expectations.deletionObserved(rsKey, podKey(pod));
      if (isApiError(e, 404)) continue;
      recorder.event(owner, 'Warning', 'FailedDelete', `Error deleting: ${asError(e).message}`);
      first ??= asError(e);
    }
  }
  return first;
}

export function podKey(pod: Pod): string {
  return `${pod.metadata?.namespace}/${pod.metadata?.name}`;
}

function asError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}
