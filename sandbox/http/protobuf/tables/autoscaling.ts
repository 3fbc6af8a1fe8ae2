/** k8s.io/api/autoscaling/v1: the HorizontalPodAutoscaler `kubectl autoscale` creates. */
import type { MessageTable } from '../schema';

export const AUTOSCALING: MessageTable = {
  pkg: 'io.k8s.api.autoscaling.v1',
  messages: {
    HorizontalPodAutoscaler:
      'metadata=1:ObjectMeta spec=2:HorizontalPodAutoscalerSpec status=3:HorizontalPodAutoscalerStatus',
    HorizontalPodAutoscalerSpec:
      'scaleTargetRef=1:CrossVersionObjectReference minReplicas=2:i32? maxReplicas=3:i32! ' +
      'targetCPUUtilizationPercentage=4:i32?',
    CrossVersionObjectReference: 'kind=1:s! name=2:s! apiVersion=3:s',
    HorizontalPodAutoscalerStatus:
      'observedGeneration=1:i64? lastScaleTime=2:Time? currentReplicas=3:i32! desiredReplicas=4:i32! ' +
      'currentCPUUtilizationPercentage=5:i32?',
  },
};
