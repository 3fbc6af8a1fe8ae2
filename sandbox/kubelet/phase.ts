/** A pod's phase from its container statuses (pkg/kubelet/kubelet_pods.go `getPhase`). */
import type { ContainerStatus, PodSpec } from 'kubernetes-types/core/v1';

export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed';

function find(statuses: readonly ContainerStatus[], name: string): ContainerStatus | undefined {
  return statuses.find((s) => s.name === name);
}

/** True when a regular container has run (the pod was initialized even if a sidecar now restarts). */
export function anyRegularContainerStarted(spec: PodSpec, statuses: readonly ContainerStatus[]): boolean {
  return spec.containers.some((c) => {
    const s = find(statuses, c.name);
    return (
      !!s &&
      (s.state?.running !== undefined || s.state?.terminated !== undefined || s.lastState?.terminated !== undefined)
    );
  });
}

function initProgress(spec: PodSpec, statuses: readonly ContainerStatus[]): { pending: number; failed: number } {
  let pending = 0;
  let failed = 0;
  for (const c of spec.initContainers ?? []) {
    if (c.restartPolicy === 'Always') continue;
    const s = find(statuses, c.name);
    if (!s || s.state?.running) pending++;
    else if (s.state?.terminated) failed += s.state.terminated.exitCode !== 0 ? 1 : 0;
    else if (s.lastState?.terminated) failed += s.lastState.terminated.exitCode !== 0 ? 1 : 0;
    else pending++;
  }
  return { pending, failed };
}

/**
 * `podIsTerminal`: the kubelet has stopped the pod for good (deleted, or its
 * containers will not restart), so stopped containers mean a terminal phase
 * whatever the restart policy.
 */
export function podPhase(
  spec: PodSpec,
  initStatuses: readonly ContainerStatus[],
  statuses: readonly ContainerStatus[],
  podIsTerminal: boolean,
): PodPhase {
  const init = initProgress(spec, initStatuses);
  let unknown = 0;
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;
  for (const c of spec.containers) {
    const s = find(statuses, c.name);
    if (!s) unknown++;
    else if (s.state?.running) running++;
    else if (s.state?.terminated) {
      stopped++;
      if (s.state.terminated.exitCode === 0) succeeded++;
    } else if (s.state?.waiting && s.lastState?.terminated) stopped++;
    else if (s.state?.waiting) waiting++;
    else unknown++;
  }
  const restartPolicy = spec.restartPolicy ?? 'Always';
  if (init.failed > 0 && restartPolicy === 'Never') return 'Failed';
  if ((init.pending > 0 && !anyRegularContainerStarted(spec, statuses)) || waiting > 0) return 'Pending';
  if (running > 0 && unknown === 0) return 'Running';
  if (running === 0 && stopped > 0 && unknown === 0) {
    if (podIsTerminal) return stopped === succeeded ? 'Succeeded' : 'Failed';
    if (restartPolicy === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    if (restartPolicy === 'Never') return 'Failed';
    return 'Running';
  }
  return 'Pending';
}
