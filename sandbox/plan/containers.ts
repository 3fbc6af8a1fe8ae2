/**
 * Containers that would not run as their workload wants, read at the end of a plan from what the kubelet wrote: a
 * container waiting in CrashLoopBackOff (its waiting message, the last termination's exit code and reason, the last
 * line the previous instance logged), or a probe still failing (the kubelet's Unhealthy event:
 * `Readiness probe failed: …`, upstream pkg/kubelet/prober/prober.go: runProbeWithRetries' recorder event) for a
 * container that is not ready (readiness), or that has been restarted (liveness, startup). One entry per owner,
 * container and problem, counting its pods.
 */
import type { ContainerStatus, Event, Pod } from 'kubernetes-types/core/v1';
import type { KubeObject } from '../api/types';
import type { Cluster } from '../cluster/cluster';
import type { PlanContainerProblem, PlanObject } from './types';

/** The owner names the plan uses (`Deployment default/web`, `Pod default/one`) of the objects applied or changed. */
export function appliedOwners(objects: readonly PlanObject[], namespace: string): Set<string> {
  const kinds: Record<string, string> = {
    'deployment.apps': 'Deployment',
    'replicaset.apps': 'ReplicaSet',
    'statefulset.apps': 'StatefulSet',
    'daemonset.apps': 'DaemonSet',
    'job.batch': 'Job',
    pod: 'Pod',
  };
  const out = new Set<string>();
  for (const o of objects) {
    if (o.action !== 'created' && o.action !== 'configured') continue;
    const slash = o.ref.indexOf('/');
    const kind = kinds[o.ref.slice(0, slash)];
    if (kind) out.add(`${kind} ${o.namespace ?? namespace}/${o.ref.slice(slash + 1)}`);
  }
  return out;
}

type Probe = 'readiness' | 'liveness' | 'startup';
const PROBES: readonly Probe[] = ['startup', 'liveness', 'readiness'];
const PROBE_FIELD: Record<Probe, 'readinessProbe' | 'livenessProbe' | 'startupProbe'> = {
  readiness: 'readinessProbe',
  liveness: 'livenessProbe',
  startup: 'startupProbe',
};
const PROBE_WORD: Record<Probe, string> = { readiness: 'Readiness', liveness: 'Liveness', startup: 'Startup' };

/** The last line of a container's previous instance's log, if it logged any (the API may refuse: then none). */
function lastLogLine(cluster: Cluster, pod: Pod & KubeObject, container: string): string | undefined {
  try {
    const text = cluster.podLogs(pod.metadata.namespace!, pod.metadata.name!, { container, previous: true });
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    return lines.length > 0 ? lines[lines.length - 1] : undefined;
  } catch {
    return undefined;
  }
}

/** The newest Unhealthy event message per probe kind for a pod. */
function probeFailures(events: readonly (Event & KubeObject)[], uid: string): Map<Probe, string> {
  const newest = new Map<Probe, { at: string; message: string }>();
  for (const e of events) {
    if (e.reason !== 'Unhealthy' || e.involvedObject?.uid !== uid || !e.message) continue;
    const kind = PROBES.find((k) => e.message!.startsWith(`${PROBE_WORD[k]} probe failed`));
    if (!kind) continue;
    const at = e.lastTimestamp ?? e.eventTime ?? '';
    const was = newest.get(kind);
    if (!was || at >= was.at) newest.set(kind, { at, message: e.message });
  }
  return new Map([...newest].map(([k, v]) => [k, v.message]));
}

/**
 * The container problems of `pods` (those of the workloads the apply changed), each named by `ownerOf` (the plan's
 * owner, `Pod ns/name` for a pod of its own).
 */
export function containerProblems(
  cluster: Cluster,
  pods: readonly (Pod & KubeObject)[],
  ownerOf: (pod: Pod & KubeObject) => string,
): PlanContainerProblem[] {
  const events = cluster.api.list('events').items as (Event & KubeObject)[];
  const found = new Map<string, PlanContainerProblem>();
  const add = (pod: Pod & KubeObject, p: Omit<PlanContainerProblem, 'owner' | 'pods' | 'pod'>) => {
    const owner = ownerOf(pod);
    const k = `${owner}\0${p.container}\0${p.problem}`;
    const was = found.get(k);
    if (was) was.pods++;
    else found.set(k, { ...p, owner, pods: 1, pod: `${pod.metadata.namespace}/${pod.metadata.name}` });
  };
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp || pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') continue;
    const failures = probeFailures(events, pod.metadata.uid!);
    const statuses: [ContainerStatus, boolean][] = [
      ...(pod.status?.initContainerStatuses ?? []).map((s): [ContainerStatus, boolean] => [s, true]),
      ...(pod.status?.containerStatuses ?? []).map((s): [ContainerStatus, boolean] => [s, false]),
    ];
    for (const [status, init] of statuses) {
      const spec = (init ? pod.spec?.initContainers : pod.spec?.containers)?.find((c) => c.name === status.name);
      if (!spec) continue;
      const base = init ? { container: status.name, init: true } : { container: status.name };
      // A probe whose failures make the kubelet restart the container: the probe is the cause, the crash loop follows.
      const killer = (['startup', 'liveness'] as const).find(
        (k) => spec[PROBE_FIELD[k]] && failures.has(k) && status.restartCount > 0,
      );
      const waiting = status.state?.waiting;
      if (waiting?.reason === 'CrashLoopBackOff' || killer) {
        const last = status.lastState?.terminated;
        const crash: Partial<PlanContainerProblem> = { restarts: status.restartCount };
        if (last) {
          crash.exitCode = last.exitCode;
          if (last.reason) crash.reason = last.reason;
        }
        const line = lastLogLine(cluster, pod, status.name);
        if (line !== undefined) crash.lastLogLine = line;
        if (killer) add(pod, { problem: killer, ...base, message: failures.get(killer)!, ...crash });
        else add(pod, { problem: 'crashloop', ...base, message: waiting!.message ?? 'CrashLoopBackOff', ...crash });
        continue;
      }
      // A failing readiness probe matters while the container runs and is not ready.
      const readiness = failures.get('readiness');
      if (readiness && spec.readinessProbe && status.state?.running && !status.ready)
        add(pod, { problem: 'readiness', ...base, message: readiness });
    }
  }
  return [...found.values()];
}
