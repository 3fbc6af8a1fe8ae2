/**
 * Creating, updating and deleting a StatefulSet's pods (`StatefulPodControl`
 * in stateful_pod_control.go), each with the set's Event in upstream's words:
 * `create Pod web-0 in StatefulSet web successful`, `create Claim www-web-0
 * Pod web-0 in StatefulSet web success`, `delete Pod web-2 in StatefulSet web
 * failed error: …`.
 */
import type { Pod } from 'kubernetes-types/core/v1';
import type { ApiServer } from '../../apiserver/apiServer';
import { isApiError } from '../../api/errors';
import type { KubeObject, Typed } from '../../api/types';
import type { Recorder } from '../../client/component';
import { cloneJson } from '../../util/json';
import type { ClaimDeps } from './claims';
import { claimsMatchRetentionPolicy, createClaims, updatePodClaimsForRetentionPolicy } from './claims';
import type { Sts } from './identity';
import { identityMatches, storageMatches, updateIdentity, updateStorage } from './identity';

export interface PodControl extends ClaimDeps {
  api: ApiServer;
  recorder: Recorder;
}

type Verb = 'create' | 'update' | 'delete';

const TITLE: Record<Verb, string> = { create: 'Create', update: 'Update', delete: 'Delete' };

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** `recordPodEvent`. */
export function recordPodEvent(pc: PodControl, verb: Verb, set: Sts, pod: Pod, error?: unknown): void {
  const name = pod.metadata?.name ?? '';
  if (error === undefined)
    pc.recorder.event(
      set,
      'Normal',
      `Successful${TITLE[verb]}`,
      `${verb} Pod ${name} in StatefulSet ${set.metadata.name} successful`,
      { target: { ...(pod as KubeObject), kind: 'Pod' } },
    );
  else
    pc.recorder.event(
      set,
      'Warning',
      `Failed${TITLE[verb]}`,
      `${verb} Pod ${name} in StatefulSet ${set.metadata.name} failed error: ${message(error)}`,
    );
}

/** `createPersistentVolumeClaims` with `recordClaimEvent` for each create. */
function createClaimsRecorded(pc: PodControl, set: Sts, pod: Typed<Pod>): Error | undefined {
  const { outcomes, error } = createClaims(pc, set, pod);
  const podName = pod.metadata.name ?? '';
  for (const o of outcomes) {
    if (o.error)
      pc.recorder.event(
        set,
        'Warning',
        'FailedCreate',
        `create Claim ${o.claim} for Pod ${podName} in StatefulSet ${set.metadata.name} failed error: ${o.error.message}`,
      );
    else
      pc.recorder.event(
        set,
        'Normal',
        'SuccessfulCreate',
        `create Claim ${o.claim} Pod ${podName} in StatefulSet ${set.metadata.name} success`,
      );
  }
  return error;
}

/** `CreateStatefulPod`: the claims first, then the pod, then the claims' owners. Throws what failed. */
export function createStatefulPod(pc: PodControl, set: Sts, pod: Typed<Pod>): void {
  const claimError = createClaimsRecorded(pc, set, pod);
  if (claimError) {
    recordPodEvent(pc, 'create', set, pod, claimError);
    throw claimError;
  }
  let created: Typed<Pod>;
  try {
    created = pc.api.create(pod);
  } catch (e) {
    // An AlreadyExists is returned without an event.
    if (!isApiError(e, 409)) recordPodEvent(pc, 'create', set, pod, e);
    throw e;
  }
  try {
    updatePodClaimsForRetentionPolicy(pc, set, created);
  } catch (e) {
    recordPodEvent(pc, 'update', set, pod, e);
    throw e;
  }
  recordPodEvent(pc, 'create', set, pod);
}

/** `createMissingPersistentVolumeClaims`: a Pending pod's claims, re-created if they went missing. */
export function createMissingClaims(pc: PodControl, set: Sts, pod: Typed<Pod>): void {
  const error = createClaimsRecorded(pc, set, pod);
  if (error) throw error;
  try {
    updatePodClaimsForRetentionPolicy(pc, set, pod);
  } catch (e) {
    recordPodEvent(pc, 'update', set, pod, e);
    throw e;
  }
}

/**
 * `UpdateStatefulPod`: restores the pod's identity labels and claim volumes and its claims' owners, and writes the
 * pod when anything changed (retrying against a fresh read on conflict).
 */
export function updateStatefulPod(pc: PodControl, set: Sts, cached: Typed<Pod>): void {
  let pod = cloneJson(cached);
  let attempted = false;
  for (let attempt = 0; ; attempt++) {
    let consistent = true;
    try {
      if (!identityMatches(set, pod)) {
        updateIdentity(set, pod);
        consistent = false;
      }
      if (!storageMatches(set, pod)) {
        updateStorage(set, pod);
        consistent = false;
        const claimError = createClaims(pc, set, pod).error;
        if (claimError) throw claimError;
      }
      if (!claimsMatchRetentionPolicy(pc, set, pod)) {
        updatePodClaimsForRetentionPolicy(pc, set, pod);
        consistent = false;
      }
    } catch (e) {
      recordPodEvent(pc, 'update', set, pod, e);
      throw e;
    }
    if (consistent) break;
    attempted = true;
    try {
      pc.api.update(pod);
      break;
    } catch (e) {
      if (attempt >= 4 || !isApiError(e, 409)) {
        recordPodEvent(pc, 'update', set, pod, e);
        throw e;
      }
      const fresh = pc.api.tryGet('pods', set.metadata.namespace, pod.metadata.name ?? '');
      if (fresh) pod = cloneJson(fresh);
    }
  }
  if (attempted) recordPodEvent(pc, 'update', set, pod);
}

/** `DeleteStatefulPod`. */
export function deleteStatefulPod(pc: PodControl, set: Sts, pod: Pod): void {
  try {
    pc.api.delete('pods', pod.metadata?.namespace, pod.metadata?.name ?? '');
  } catch (e) {
    recordPodEvent(pc, 'delete', set, pod, e);
    throw e;
  }
  recordPodEvent(pc, 'delete', set, pod);
}
