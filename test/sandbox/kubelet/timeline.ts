/** Watches one pod and records, at each change, the time and a one-line summary — to check when transitions happen. */
import type { ContainerStatus, Pod } from 'kubernetes-types/core/v1';
import { podSummary } from '../../../sandbox/printers/podStatus';
import type { KubeletFixture } from './setup';

export interface Step {
  at: number;
  phase: string;
  /** `running` / `terminated:<reason>:<code>` / `<waiting reason>` per container, `,`-joined. */
  containers: string;
  /** The same for init containers (sidecars included). */
  inits: string;
  ready: string;
  restarts: number;
  /** `kubectl get pods`' READY, STATUS and RESTARTS (without the "(2m ago)" part): `2/2 Running 0`. */
  kubectl: string;
}

function state(s: ContainerStatus): string {
  return s.state?.running
    ? 'running'
    : s.state?.terminated
      ? `terminated:${s.state.terminated.reason}:${s.state.terminated.exitCode}`
      : (s.state?.waiting?.reason ?? '?');
}

export function summarize(pod: Pod): Omit<Step, 'at'> {
  const statuses = pod.status?.containerStatuses ?? [];
  const s = podSummary(pod);
  return {
    phase: pod.status?.phase ?? '',
    containers: statuses.map(state).join(','),
    inits: (pod.status?.initContainerStatuses ?? []).map(state).join(','),
    ready: pod.status?.conditions?.find((c) => c.type === 'Ready')?.status ?? '',
    restarts: statuses.reduce((n, c) => n + (c.restartCount ?? 0), 0),
    kubectl: `${s.ready}/${s.total} ${s.status} ${s.restarts}`,
  };
}

/** Records every change to pod `name`, with elapsed ms since the fixture started; `DELETED` as phase for the delete. */
export function timeline(f: KubeletFixture, name: string): Step[] {
  const steps: Step[] = [];
  f.h.api.watch('pods', { namespace: 'default', resourceVersion: f.h.api.resourceVersion }, (ev) => {
    if (ev.object.metadata.name !== name || ev.type === 'ADDED') return;
    const pod = ev.object;
    if (ev.type === 'DELETED') steps.push({ at: f.elapsed(), ...summarize(pod), phase: 'DELETED' });
    else steps.push({ at: f.elapsed(), ...summarize(pod) });
  });
  return steps;
}

/** `kubectl get pods -w`: the READY/STATUS/RESTARTS at each change, consecutive repeats dropped. */
export function kubectlWatch(steps: readonly Step[]): [number, string][] {
  const out: [number, string][] = [];
  for (const s of steps) {
    const line = s.phase === 'DELETED' ? 'DELETED' : s.kubectl;
    if (out.length === 0 || out[out.length - 1][1] !== line) out.push([s.at, line]);
  }
  return out;
}
