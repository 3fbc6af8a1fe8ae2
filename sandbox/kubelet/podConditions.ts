/**
 * The pod conditions the kubelet owns (pkg/kubelet/status/generate.go), in the
 * order a real kubelet writes them, with lastTransitionTime kept while the
 * status does not change (status manager `updateLastTransitionTime`).
 */
import type { ContainerStatus, PodCondition, PodSpec } from 'kubernetes-types/core/v1';
import type { WirePodCondition } from '../api/types';
import { formatTimestamp } from '../clock/clock';
import { anyRegularContainerStarted } from './phase';
import type { PodPhase } from './phase';

export const KUBELET_CONDITIONS = [
  'PodReadyToStartContainers',
  'Initialized',
  'Ready',
  'ContainersReady',
  'PodScheduled',
];

type Bare = Pick<PodCondition, 'type' | 'status' | 'reason' | 'message'>;

function cond(type: string, ok: boolean, reason?: string, message?: string): Bare {
  const c: Bare = { type, status: ok ? 'True' : 'False' };
  if (reason) c.reason = reason;
  if (message) c.message = message;
  return c;
}

function list(names: string[]): string {
  return `[${names.join(' ')}]`;
}

/** `GeneratePodInitializedCondition`: sidecars count once started, init containers once they succeeded. */
function initialized(
  spec: PodSpec,
  init: readonly ContainerStatus[],
  regular: readonly ContainerStatus[],
  phase: PodPhase,
): Bare {
  const inits = spec.initContainers ?? [];
  const unknown: string[] = [];
  const incomplete: string[] = [];
  for (const c of inits) {
    const s = init.find((x) => x.name === c.name);
    if (!s) unknown.push(c.name);
    else if (c.restartPolicy === 'Always' ? !s.started : !s.ready) incomplete.push(c.name);
  }
  if (phase === 'Succeeded' && unknown.length === 0) return cond('Initialized', true, 'PodCompleted');
  if (anyRegularContainerStarted(spec, regular)) return cond('Initialized', true);
  const messages: string[] = [];
  if (unknown.length > 0) messages.push(`containers with unknown status: ${list(unknown)}`);
  if (incomplete.length > 0) messages.push(`containers with incomplete status: ${list(incomplete)}`);
  return messages.length > 0
    ? cond('Initialized', false, 'ContainersNotInitialized', messages.join(', '))
    : cond('Initialized', true);
}

/** `GenerateContainersReadyCondition`: sidecars and containers. */
function containersReady(
  spec: PodSpec,
  init: readonly ContainerStatus[],
  regular: readonly ContainerStatus[],
  phase: PodPhase,
): Bare {
  const unknown: string[] = [];
  const unready: string[] = [];
  const check = (name: string, statuses: readonly ContainerStatus[]) => {
    const s = statuses.find((x) => x.name === name);
    if (!s) unknown.push(name);
    else if (!s.ready) unready.push(name);
  };
  for (const c of spec.initContainers ?? []) if (c.restartPolicy === 'Always') check(c.name, init);
  for (const c of spec.containers) check(c.name, regular);
  if (phase === 'Succeeded' && unknown.length === 0) return cond('ContainersReady', false, 'PodCompleted');
  if (phase === 'Failed') return cond('ContainersReady', false, 'PodFailed');
  const messages: string[] = [];
  if (unknown.length > 0) messages.push(`containers with unknown status: ${list(unknown)}`);
  if (unready.length > 0) messages.push(`containers with unready status: ${list(unready)}`);
  return messages.length > 0
    ? cond('ContainersReady', false, 'ContainersNotReady', messages.join(', '))
    : cond('ContainersReady', true);
}

function ready(spec: PodSpec, containers: Bare, old: readonly WirePodCondition[]): Bare {
  if (containers.status !== 'True') return { ...containers, type: 'Ready' };
  const problems: string[] = [];
  for (const gate of spec.readinessGates ?? []) {
    const c = old.find((o) => o.type === gate.conditionType);
    if (!c) problems.push(`corresponding condition of pod readiness gate "${gate.conditionType}" does not exist.`);
    else if (c.status !== 'True')
      problems.push(`the status of pod readiness gate "${gate.conditionType}" is not "True", but ${c.status}`);
  }
  return problems.length > 0
    ? cond('Ready', false, 'ReadinessGatesNotReady', problems.join(', '))
    : cond('Ready', true);
}

export interface ConditionInput {
  spec: PodSpec;
  init: readonly ContainerStatus[];
  regular: readonly ContainerStatus[];
  phase: PodPhase;
  sandboxReady: boolean;
}

/** The pod's conditions: the ones others own (kept as they are) first, then the kubelet's five. */
export function podConditions(
  input: ConditionInput,
  old: readonly WirePodCondition[],
  now: number,
): WirePodCondition[] {
  const cr = containersReady(input.spec, input.init, input.regular, input.phase);
  const mine: Bare[] = [
    cond('PodReadyToStartContainers', input.sandboxReady),
    initialized(input.spec, input.init, input.regular, input.phase),
    ready(input.spec, cr, old),
    cr,
    cond('PodScheduled', true),
  ];
  const out: WirePodCondition[] = [];
  for (const c of old) if (!KUBELET_CONDITIONS.includes(c.type)) out.push(c);
  for (const c of mine) {
    let prev: WirePodCondition | undefined;
    for (const o of old)
      if (o.type === c.type) {
        prev = o;
        break;
      }
    const since =
      prev && prev.status === c.status && prev.lastTransitionTime ? prev.lastTransitionTime : formatTimestamp(now);
    // Members in this order: type, status, lastProbeTime, lastTransitionTime, then reason and message when set.
    const next: WirePodCondition = { type: c.type, status: c.status, lastProbeTime: null, lastTransitionTime: since };
    if (c.reason) next.reason = c.reason;
    if (c.message) next.message = c.message;
    out.push(next);
  }
  return out;
}
