/** scheduling.k8s.io defaults (upstream: pkg/apis/scheduling/v1/defaults.go). */
import type { KubeObject } from '../../api/types';

/** `SetDefaults_PriorityClass`: `preemptionPolicy` defaults to PreemptLowerPriority. */
export function defaultPriorityClass(pc: KubeObject): void {
  const o = pc as KubeObject & { preemptionPolicy?: unknown };
  if (o.preemptionPolicy === undefined || o.preemptionPolicy === null) o.preemptionPolicy = 'PreemptLowerPriority';
}
