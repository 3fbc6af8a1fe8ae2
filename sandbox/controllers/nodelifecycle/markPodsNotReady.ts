/**
 * `MarkPodsNotReady` (pkg/controller/util/node): the pods of a node that
 * stopped reporting get their Ready condition set to False, and a Warning
 * `NodeNotReady` "Node is not ready" event each.
 */
import type { Pod } from 'kubernetes-types/core/v1';
import type { ApiServer } from '../../apiserver/apiServer';
import { isApiError } from '../../api/errors';
import type { Typed } from '../../api/types';
import { formatTimestamp } from '../../clock/clock';
import type { Recorder } from '../../client/component';
import { cloneJson } from '../../util/json';

/**
 * Marks each of `pods` bound to `nodeName` not ready; pods already not ready (or without a Ready condition) are left
 * alone.
 */
export function markPodsNotReady(
  api: ApiServer,
  recorder: Recorder,
  pods: readonly Typed<Pod>[],
  nodeName: string,
  now: number,
): void {
  for (const pod of pods) {
    if (pod.spec?.nodeName !== nodeName) continue;
    const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
    if (!ready || ready.status === 'False') continue;
    const copy = cloneJson(pod);
    const cond = copy.status!.conditions!.find((c) => c.type === 'Ready')!;
    cond.status = 'False';
    cond.lastTransitionTime = formatTimestamp(now);
    try {
      api.updateStatus(copy);
    } catch (e) {
      if (isApiError(e, 404)) continue;
      throw e;
    }
    recorder.event(pod, 'Warning', 'NodeNotReady', 'Node is not ready');
  }
}
