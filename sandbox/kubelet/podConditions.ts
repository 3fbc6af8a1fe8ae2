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

function initialized(
  spec: PodSpec,
  init: readonly ContainerStatus[],
  regular: readonly ContainerStatus[],
  phase: PodPhase,
): Bare {
  if (phase === 'Succeeded') return cond('Initialized', true, 'PodCompleted');
  if (anyRegularContainerStarted(spec, regular)) return cond('Initialized', true);
  const incomplete = (spec.initContainers ?? [])
    .filter((c) => !init.find((s) => s.name === c.name)?.ready)
    .map((c) => c.name);
  return incomplete.length > 0
    ? cond('Initialized', false, 'ContainersNotInitialized', `containers with incomplete status: ${list(incomplete)}`)
    : cond('Initialized', true);
}

function containersReady(spec: PodSpec, regular: readonly ContainerStatus[], phase: PodPhase): Bare {
  if (phase === 'Succeeded') return cond('ContainersReady', false, 'PodCompleted');
  const unready = spec.containers.filter((c) => !regular.find((s) => s.name === c.name)?.ready).map((c) => c.name);
  return unready.length > 0
    ? cond('ContainersReady', false, 'ContainersNotReady', `containers with unready status: ${list(unready)}`)
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
  const cr = containersReady(input.spec, input.regular, input.phase);
  const mine: Bare[] = [
    cond('PodReadyToStartContainers', input.sandboxReady),
    initialized(input.spec, input.init, input.regular, input.phase),
    ready(input.spec, cr, old),
    cr,
    cond('PodScheduled', true),
  ];
  const others = old.filter((c) => !KUBELET_CONDITIONS.includes(c.type));
  return [
    ...others,
    ...mine.map((c) => {
      const prev = old.find((o) => o.type === c.type);
      const since =
        prev && prev.status === c.status && prev.lastTransitionTime ? prev.lastTransitionTime : formatTimestamp(now);
      return {
        type: c.type,
        status: c.status,
        lastProbeTime: null,
        lastTransitionTime: since,
        ...(c.reason ? { reason: c.reason } : {}),
        ...(c.message ? { message: c.message } : {}),
      };
    }),
  ];
}
