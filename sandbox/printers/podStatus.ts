/**
 * The READY, STATUS and RESTARTS columns of `kubectl get pods`, computed as
 * upstream `printPod` (pkg/printers/internalversion/printers.go) does,
 * including init containers, sidecars (restartable init containers),
 * `SchedulingGated`, `status.reason` (Evicted, OutOfcpu…), Terminating and
 * Unknown (NodeLost).
 */
import type { Container, ContainerStatus, Pod } from 'kubernetes-types/core/v1';
import { parseTimestamp } from '../clock/clock';
import { humanDuration } from './duration';

/** `status.reason` the node controller sets on pods of an unreachable node (pkg/util/node). */
const NODE_UNREACHABLE_POD_REASON = 'NodeLost';

export interface PodSummary {
  /** Ready containers (plus started, ready sidecars). */
  ready: number;
  /** Containers plus sidecars. */
  total: number;
  /** The STATUS column. */
  status: string;
  restarts: number;
  /** Epoch ms of the latest `lastState.terminated.finishedAt` counted in `restarts`, or undefined. */
  lastRestartAt: number | undefined;
}

interface Tally {
  ready: number;
  restarts: number;
  lastRestartAt: number | undefined;
}

function isSidecar(c: Container | undefined): boolean {
  return c?.restartPolicy === 'Always';
}

function noteRestarts(t: Tally, s: ContainerStatus): void {
  t.restarts += s.restartCount ?? 0;
  const finished = s.lastState?.terminated?.finishedAt;
  if (finished) {
    const at = parseTimestamp(finished);
    if (Number.isFinite(at) && (t.lastRestartAt === undefined || at > t.lastRestartAt)) t.lastRestartAt = at;
  }
}

function terminatedText(
  prefix: string,
  reason: string | undefined,
  signal: number | undefined,
  exitCode: number,
): string {
  if (reason) return `${prefix}${reason}`;
  return signal ? `${prefix}Signal:${signal}` : `${prefix}ExitCode:${exitCode}`;
}

/**
 * The init-container pass: the STATUS while initializing (undefined once done), and the sidecars' part of
 * READY/RESTARTS.
 */
function initPass(pod: Pod, all: Tally, sidecars: Tally): string | undefined {
  const specs = new Map<string, Container>();
  for (const c of pod.spec?.initContainers ?? []) specs.set(c.name, c);
  const statuses = pod.status?.initContainerStatuses ?? [];
  const count = pod.spec?.initContainers?.length ?? 0;
  for (let i = 0; i < statuses.length; i++) {
    const s = statuses[i];
    noteRestarts(all, s);
    const sidecar = isSidecar(specs.get(s.name));
    if (sidecar) noteRestarts(sidecars, s);
    const term = s.state?.terminated;
    if (term && term.exitCode === 0) continue;
    if (sidecar && s.started === true) {
      if (s.ready) sidecars.ready++;
      continue;
    }
    if (term) return terminatedText('Init:', term.reason, term.signal, term.exitCode);
    const waiting = s.state?.waiting?.reason;
    if (waiting && waiting !== 'PodInitializing') return `Init:${waiting}`;
    return `Init:${i}/${count}`;
  }
  return undefined;
}

/** The container pass, last to first so the first container's state wins. */
function containerPass(pod: Pod, tally: Tally, start: string): string {
  let reason = start;
  let hasRunning = false;
  const statuses = pod.status?.containerStatuses ?? [];
  for (let i = statuses.length - 1; i >= 0; i--) {
    const s = statuses[i];
    noteRestarts(tally, s);
    const waiting = s.state?.waiting?.reason;
    const term = s.state?.terminated;
    if (waiting) reason = waiting;
    else if (term) reason = terminatedText('', term.reason, term.signal, term.exitCode);
    else if (s.ready && s.state?.running) {
      hasRunning = true;
      tally.ready++;
    }
  }
  if (reason === 'Completed' && hasRunning) reason = hasCondition(pod, 'Ready') ? 'Running' : 'NotReady';
  return reason;
}

function hasCondition(pod: Pod, type: string): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
}

/** READY, STATUS and RESTARTS of a pod, as `kubectl get pods` computes them. */
export function podSummary(pod: Pod): PodSummary {
  const phase = pod.status?.phase ?? '';
  let reason = pod.status?.reason || phase;
  if ((pod.status?.conditions ?? []).some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated'))
    reason = 'SchedulingGated';
  const sidecarCount = (pod.spec?.initContainers ?? []).filter(isSidecar).length;
  const total = (pod.spec?.containers?.length ?? 0) + sidecarCount;
  const all: Tally = { ready: 0, restarts: 0, lastRestartAt: undefined };
  const sidecars: Tally = { ready: 0, restarts: 0, lastRestartAt: undefined };
  const initializing = initPass(pod, all, sidecars);
  let tally = all;
  if (initializing === undefined || hasCondition(pod, 'Initialized')) {
    tally = sidecars;
    reason = containerPass(pod, sidecars, initializing ?? reason);
  } else {
    reason = initializing;
  }
  if (pod.metadata?.deletionTimestamp && pod.status?.reason === NODE_UNREACHABLE_POD_REASON) reason = 'Unknown';
  else if (pod.metadata?.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed') reason = 'Terminating';
  return {
    ready: tally.ready + (tally === all ? sidecars.ready : 0),
    total,
    status: reason,
    restarts: tally.restarts,
    lastRestartAt: tally.lastRestartAt,
  };
}

/** The STATUS column: `Running`, `ContainerCreating`, `CrashLoopBackOff`, `Init:0/1`, `Terminating`… */
export function podStatusText(pod: Pod): string {
  return podSummary(pod).status;
}

/** The READY column: `1/1`. */
export function podReadyText(pod: Pod): string {
  const s = podSummary(pod);
  return `${s.ready}/${s.total}`;
}

/** The RESTARTS column: `0`, or `3 (2m ago)` from the latest termination. */
export function podRestartsText(pod: Pod, now: number): string {
  const s = podSummary(pod);
  return formatRestarts(s, now);
}

/** RESTARTS from a summary. */
export function formatRestarts(s: PodSummary, now: number): string {
  if (s.restarts === 0 || s.lastRestartAt === undefined) return String(s.restarts);
  return `${s.restarts} (${humanDuration(now - s.lastRestartAt)} ago)`;
}
