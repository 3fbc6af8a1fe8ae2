/**
 * The pod a Job creates (`GetPodFromTemplate` + the Job's additions): the
 * template's labels, annotations and spec, `generateName: <job>-`, a
 * controller reference, the tracking finalizer, and — in Indexed mode — the
 * completion index as annotation, label, hostname and `JOB_COMPLETION_INDEX`.
 */
import type { Job } from 'kubernetes-types/batch/v1';
import type { Container, Pod } from 'kubernetes-types/core/v1';
import type { Typed } from '../../api/types';
import { cloneJson } from '../../util/json';
import { newControllerRef } from '../util/owners';
import { COMPLETION_INDEX_KEY, INDEX_FAILURE_COUNT_KEY, INDEX_IGNORED_FAILURE_COUNT_KEY } from './indexed';
import { JOB_TRACKING_FINALIZER } from './trackingFinalizer';

const INDEX_ENV = 'JOB_COMPLETION_INDEX';

/**
 * The pod to create for `job`; `index` is the completion index (Indexed mode) or undefined; `failureCounts` the
 * index's [counted, ignored] failures so far, with `backoffLimitPerIndex`.
 */
export function podForJob(
  job: Typed<Job>,
  index: number | undefined,
  failureCounts?: readonly [number, number],
): Typed<Pod> {
  const template = cloneJson(job.spec?.template ?? {});
  const meta = template.metadata ?? {};
  const labels = { ...(meta.labels ?? {}) };
  const annotations = { ...(meta.annotations ?? {}) };
  const finalizers = [...(meta.finalizers ?? [])];
  if (!finalizers.includes(JOB_TRACKING_FINALIZER)) finalizers.push(JOB_TRACKING_FINALIZER);
  const spec = template.spec ?? { containers: [] };
  const name = job.metadata!.name!;
  let generateName = `${name}-`;
  if (index !== undefined) {
    annotations[COMPLETION_INDEX_KEY] = String(index);
    labels[COMPLETION_INDEX_KEY] = String(index);
    spec.hostname = `${name}-${index}`;
    generateName = `${name}-${index}-`;
    for (const c of [...(spec.initContainers ?? []), ...spec.containers]) addIndexEnv(c);
    if (failureCounts) {
      annotations[INDEX_FAILURE_COUNT_KEY] = String(failureCounts[0]);
      if (failureCounts[1] > 0) annotations[INDEX_IGNORED_FAILURE_COUNT_KEY] = String(failureCounts[1]);
    }
  }
  const pod: Typed<Pod> = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName,
      namespace: job.metadata!.namespace,
      ...(Object.keys(labels).length > 0 ? { labels } : {}),
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
      finalizers,
      ownerReferences: [newControllerRef(job)],
    },
    spec,
  };
  return pod;
}

function addIndexEnv(c: Container): void {
  if ((c.env ?? []).some((e) => e.name === INDEX_ENV)) return;
  c.env = [
    ...(c.env ?? []),
    // PodIndexLabel (GA in 1.32): the index is read from the pod's label.
    { name: INDEX_ENV, valueFrom: { fieldRef: { fieldPath: `metadata.labels['${COMPLETION_INDEX_KEY}']` } } },
  ];
}
