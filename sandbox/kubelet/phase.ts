/**
 * A pod's phase from its container statuses (pkg/kubelet/kubelet_pods.go
 * `getPhase`), sidecars included: a running sidecar counts as running (a
 * Job's pod stays Running until its sidecars have stopped), a stopped one is
 * ignored, one not yet started keeps an uninitialized pod Pending.
 */
import type { ContainerStatus, PodSpec } from 'kubernetes-types/core/v1';

export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed';

function find(statuses: readonly ContainerStatus[], name: string): ContainerStatus | undefined {
  return statuses.find((s) => s.name === name);
}

/** `HasAnyRegularContainerStarted`: a regular container runs or ran (the pod was initialized, whatever sidecars do). */
export function anyRegularContainerStarted(spec: PodSpec, statuses: readonly ContainerStatus[]): boolean {
  return spec.containers.some((c) => {
    const s = find(statuses, c.name);
    return !!s && (s.state?.running !== undefined || s.state?.terminated !== undefined);
  });
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
  let pendingRegularInit = 0;
  let pendingSidecars = 0;
  let failedInit = 0;
  let unknown = 0;
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;
  for (const c of spec.initContainers ?? []) {
    const s = find(initStatuses, c.name);
    if (c.restartPolicy === 'Always') {
      if (!s) unknown++;
      else if (s.state?.running) {
        if (!s.started) pendingSidecars++;
        running++;
      } else if (s.state?.terminated) {
        // A stopped sidecar does not count.
      } else if (s.state?.waiting) {
        if (!s.lastState?.terminated) pendingSidecars++;
      } else pendingSidecars++;
      continue;
    }
    if (!s || s.state?.running) pendingRegularInit++;
    else if (s.state?.terminated) failedInit += s.state.terminated.exitCode !== 0 ? 1 : 0;
    else if (s.state?.waiting && s.lastState?.terminated) failedInit += s.lastState.terminated.exitCode !== 0 ? 1 : 0;
    else pendingRegularInit++;
  }
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
  if (failedInit > 0 && restartPolicy === 'Never') return 'Failed';
  const initialized = anyRegularContainerStarted(spec, statuses);
  if (pendingRegularInit > 0 || (pendingSidecars > 0 && !initialized) || waiting > 0) return 'Pending';
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
