/** k8s.io/api/policy/v1: PodDisruptionBudget and the Eviction subresource body. */
import type { MessageTable } from '../schema';

export const POLICY: MessageTable = {
  pkg: 'io.k8s.api.policy.v1',
  messages: {
    PodDisruptionBudget: 'metadata=1:ObjectMeta spec=2:PodDisruptionBudgetSpec status=3:PodDisruptionBudgetStatus',
    PodDisruptionBudgetSpec:
      'minAvailable=1:IntOrString? selector=2:LabelSelector? maxUnavailable=3:IntOrString? unhealthyPodEvictionPolicy=4:s?',
    PodDisruptionBudgetStatus:
      'observedGeneration=1:i64 disruptedPods=2:{}Time disruptionsAllowed=3:i32! currentHealthy=4:i32! ' +
      'desiredHealthy=5:i32! expectedPods=6:i32! conditions=7:[]Condition',
    Eviction: 'metadata=1:ObjectMeta deleteOptions=2:DeleteOptions?',
  },
};
