/**
 * HorizontalPodAutoscalers that cannot do their job, for the settled report (`describeUnsettled`): an HPA whose
 * `AbleToScale` or `ScalingActive` condition is False, with the condition's reason and upstream's message (no
 * metrics-server, missing requests, a target that does not exist…). An HPA whose target was scaled to zero
 * (`ScalingDisabled`) is at rest by choice and not listed; one at its `maxReplicas` (`ScalingLimited`) is working.
 */
import type { HorizontalPodAutoscaler } from 'kubernetes-types/autoscaling/v2';
import type { ApiServer } from '../../apiserver/apiServer';

export function unsettledAutoscalers(api: ApiServer): string[] {
  const lines: string[] = [];
  for (const obj of api.list('horizontalpodautoscalers').items) {
    const hpa = obj as HorizontalPodAutoscaler;
    const name = `horizontalpodautoscaler ${obj.metadata.namespace}/${obj.metadata.name}`;
    const conditions = hpa.status?.conditions ?? [];
    const failed = conditions.find(
      (c) =>
        (c.type === 'AbleToScale' || c.type === 'ScalingActive') &&
        c.status === 'False' &&
        c.reason !== 'ScalingDisabled',
    );
    if (failed)
      lines.push(`${name}: unable to scale: ${failed.type}=False (${failed.reason ?? ''}): ${failed.message ?? ''}`);
  }
  return lines;
}
