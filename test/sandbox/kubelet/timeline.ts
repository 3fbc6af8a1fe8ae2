/** Watches one pod and records, at each change, the time and a one-line summary — to check when transitions happen. */
import type { Pod } from 'kubernetes-types/core/v1';
import type { KubeletFixture } from './setup';

export interface Step {
  at: number;
  phase: string;
  /** `running` / `terminated:<reason>:<code>` / `<waiting reason>` per container, `,`-joined. */
  containers: string;
  ready: string;
  restarts: number;
}

export function summarize(pod: Pod): Omit<Step, 'at'> {
  const statuses = pod.status?.containerStatuses ?? [];
  return {
    phase: pod.status?.phase ?? '',
    containers: statuses
      .map((s) =>
        s.state?.running
          ? 'running'
          : s.state?.terminated
            ? `terminated:${s.state.terminated.reason}:${s.state.terminated.exitCode}`
            : (s.state?.waiting?.reason ?? '?'),
      )
      .join(','),
    ready: pod.status?.conditions?.find((c) => c.type === 'Ready')?.status ?? '',
    restarts: statuses.reduce((n, s) => n + (s.restartCount ?? 0), 0),
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
