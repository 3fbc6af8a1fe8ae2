/** Pod health as Argo CD judges it (gitops-engine `health_pod.go`). */
import type { ContainerStatus, Pod } from 'kubernetes-types/core/v1';
import { health, type HealthStatus } from './types';

/**
 * Waiting reasons that mean the container cannot start on its own: ErrImagePull, CrashLoopBackOff,
 * CreateContainerConfigError…
 */
function isBadWaitingReason(reason: string): boolean {
  return reason.startsWith('Err') || reason.endsWith('Error') || reason.endsWith('BackOff');
}

function failMessage(c: ContainerStatus): string {
  const t = c.state?.terminated;
  if (!t) return '';
  if (t.message) return t.message;
  if (t.reason === 'OOMKilled') return t.reason;
  if (t.exitCode !== 0) return `container "${c.name}" failed with exit code ${t.exitCode}`;
  return '';
}

function isReady(pod: Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

export function podHealth(pod: Pod): HealthStatus {
  // The API server defaults restartPolicy to Always; a bare manifest without it means the same.
  const restartPolicy = pod.spec?.restartPolicy ?? 'Always';
  const status = pod.status ?? {};
  const message = status.message ?? '';
  const containers = status.containerStatuses ?? [];
  // Only for restartPolicy Always: a hook pod (OnFailure/Never) waiting on an image must not fail its sync early.
  if (restartPolicy === 'Always') {
    const stuck = containers.filter((c) => c.state?.waiting && isBadWaitingReason(c.state.waiting.reason ?? ''));
    if (stuck.length > 0) return health('Degraded', stuck.map((c) => c.state!.waiting!.message ?? '').join(', '));
  }
  switch (status.phase) {
    case 'Pending': {
      // Argo CD shows status.message only; a pod the scheduler cannot place says why in its PodScheduled condition.
      const unscheduled = status.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False');
      return health('Progressing', message || unscheduled?.message || '');
    }
    case 'Succeeded':
      return health('Healthy', message);
    case 'Failed': {
      if (message) return health('Degraded', message);
      const failed = [...(status.initContainerStatuses ?? []), ...containers].map(failMessage).find((m) => m !== '');
      return health('Degraded', failed ?? '');
    }
    case 'Running':
      if (restartPolicy !== 'Always') return health('Progressing', message);
      if (isReady(pod)) return health('Healthy', message);
      if (containers.some((c) => c.lastState?.terminated)) return health('Degraded', message);
      return health('Progressing', message);
  }
  return health('Unknown', message);
}
