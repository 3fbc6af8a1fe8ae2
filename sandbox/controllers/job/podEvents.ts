/**
 * The Job controller's pod handlers (`addPod`/`updatePod`/`deletePod`): they
 * observe expectations, wake the owning Job after the batching delay, and
 * send pods that still carry the tracking finalizer but have no live,
 * unfinished Job to the orphan queue.
 */
import type { Job } from 'kubernetes-types/batch/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import type { OwnerReference, Typed } from '../../api/types';
import type { InformerHandlers } from '../../client/informer';
import type { Expectations } from '../framework/expectations';
import { controllerRefOf } from '../util/owners';
import { isJobFinished } from './conditions';
import type { FinalizerExpectations } from './finalizerExpectations';
import { hasTrackingFinalizer } from './trackingFinalizer';

export interface PodEventDeps {
  expectations: Expectations;
  finalizers: FinalizerExpectations;
  resolve(namespace: string, ref: OwnerReference): Typed<Job> | undefined;
  enqueueBatched(jobKey: string): void;
  enqueueOrphan(podKey: string): void;
}

const keyOf = (o: { metadata?: { namespace?: string; name?: string } }): string =>
  `${o.metadata?.namespace}/${o.metadata?.name}`;

export function jobPodHandlers(deps: PodEventDeps): InformerHandlers<Typed<Pod>> {
  const deleted = (pod: Typed<Pod>, final: boolean): void => {
    const ref = controllerRefOf(pod);
    const tracked = hasTrackingFinalizer(pod);
    const job = ref ? deps.resolve(pod.metadata?.namespace ?? '', ref) : undefined;
    if (!job || isJobFinished(job)) {
      if (tracked) deps.enqueueOrphan(keyOf(pod));
      return;
    }
    const jobKey = keyOf(job);
    deps.expectations.deletionObserved(jobKey, keyOf(pod));
    if (final || !tracked) deps.finalizers.removalObserved(jobKey, pod.metadata?.uid ?? '');
    deps.enqueueBatched(jobKey);
  };
  return {
    onAdd(pod) {
      if (pod.metadata.deletionTimestamp) return deleted(pod, false);
      const ref = controllerRefOf(pod);
      const job = ref ? deps.resolve(pod.metadata?.namespace ?? '', ref) : undefined;
      if (job) {
        deps.expectations.creationObserved(keyOf(job));
        deps.enqueueBatched(keyOf(job));
      } else if (!ref && hasTrackingFinalizer(pod)) deps.enqueueOrphan(keyOf(pod));
    },
    onUpdate(oldPod, pod) {
      if (pod.metadata.deletionTimestamp) return deleted(pod, false);
      const removed = !hasTrackingFinalizer(pod);
      const uid = pod.metadata?.uid ?? '';
      const oldRef = controllerRefOf(oldPod);
      const ref = controllerRefOf(pod);
      for (const r of oldRef && oldRef.uid !== ref?.uid ? [oldRef, ref] : [ref]) {
        const job = r ? deps.resolve(pod.metadata?.namespace ?? '', r) : undefined;
        if (!job) continue;
        if (removed) deps.finalizers.removalObserved(keyOf(job), uid);
        deps.enqueueBatched(keyOf(job));
      }
      if (!ref && !removed) deps.enqueueOrphan(keyOf(pod));
    },
    onDelete(pod) {
      deleted(pod, true);
    },
  };
}
