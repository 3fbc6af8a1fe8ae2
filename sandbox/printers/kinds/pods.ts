/** `kubectl get pods` (upstream `printPod`). */
import type { Pod } from 'kubernetes-types/core/v1';
import type { Typed } from '../../api/types';
import { formatRestarts, podSummary } from '../podStatus';
import type { KindPrinter, TableCell } from '../table';
import { AGE_COLUMN, NAME_COLUMN, age, col, wide } from '../table';

function readinessGates(pod: Pod): string {
  const gates = pod.spec?.readinessGates ?? [];
  if (gates.length === 0) return '<none>';
  const conditions = pod.status?.conditions ?? [];
  const satisfied = gates.filter((g) => conditions.find((c) => c.type === g.conditionType)?.status === 'True').length;
  return `${satisfied}/${gates.length}`;
}

export const podPrinter: KindPrinter<Typed<Pod>> = {
  columns: [
    NAME_COLUMN,
    col('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.'),
    col('Status', 'string', 'The aggregate status of the containers in this pod.'),
    col(
      'Restarts',
      'string',
      'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.',
    ),
    AGE_COLUMN,
    wide('IP', 'string', 'podIP address allocated to the pod.'),
    wide('Node', 'string', 'NodeName indicates in which node this pod is scheduled.'),
    wide('Nominated Node', 'string', 'nominatedNodeName is set only when this pod preempts other pods on the node.'),
    wide('Readiness Gates', 'string', 'If specified, all readiness gates will be evaluated for pod readiness.'),
  ],
  row(pod: Typed<Pod>, now: number): TableCell[] {
    const s = podSummary(pod);
    const ip = pod.status?.podIPs?.[0]?.ip || pod.status?.podIP || '<none>';
    return [
      pod.metadata.name ?? '',
      `${s.ready}/${s.total}`,
      s.status,
      formatRestarts(s, now),
      age(pod, now),
      ip,
      pod.spec?.nodeName || '<none>',
      pod.status?.nominatedNodeName || '<none>',
      readinessGates(pod),
    ];
  },
};
