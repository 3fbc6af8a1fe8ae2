/**
 * Creating and deleting a Job's pods with the events upstream's
 * `RealPodControl` records: `SuccessfulCreate` "Created pod: x",
 * `FailedCreate` "Error creating: …", `SuccessfulDelete` "Deleted pod: x",
 * `FailedDelete` "Error deleting: …".
 */
import type { Job } from 'kubernetes-types/batch/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import type { ApiServer } from '../../apiserver/apiServer';
import { isApiError } from '../../api/errors';
import type { Typed } from '../../api/types';
import type { Recorder } from '../../client/component';

export interface PodControl {
  api: ApiServer;
  recorder: Recorder;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Creates `pod` for `job`; throws the API error after recording `FailedCreate`. */
export function createJobPod(pc: PodControl, job: Typed<Job>, pod: Typed<Pod>): void {
  try {
    const created = pc.api.create(pod);
    pc.recorder.event(job, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`, { target: created });
  } catch (e) {
    pc.recorder.event(job, 'Warning', 'FailedCreate', `Error creating: ${message(e)}`);
    throw e;
  }
}

/** Deletes `pod` (default grace period); a 404 is thrown without an event, as upstream. */
export function deleteJobPod(pc: PodControl, job: Typed<Job>, pod: Pod): void {
  try {
    pc.api.delete('pods', pod.metadata?.namespace, pod.metadata!.name!);
  } catch (e) {
    if (!isApiError(e, 404)) pc.recorder.event(job, 'Warning', 'FailedDelete', `Error deleting: ${message(e)}`);
    throw e;
  }
  pc.recorder.event(job, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata!.name}`);
}
