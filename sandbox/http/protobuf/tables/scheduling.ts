/** k8s.io/api/scheduling/v1: PriorityClass (`kubectl create priorityclass`). */
import type { MessageTable } from '../schema';

export const SCHEDULING: MessageTable = {
  pkg: 'io.k8s.api.scheduling.v1',
  messages: {
    PriorityClass: 'metadata=1:ObjectMeta value=2:i32! globalDefault=3:b description=4:s preemptionPolicy=5:s?',
  },
};
