/**
 * How much CPU and memory a simulated container uses — what cAdvisor would
 * measure on a real node. A pod chooses it with the behaviour annotations
 * (docs/behaviors.md):
 *
 *     sandbox.kube-reconcile.dev/usage: cpu=250m,memory=100Mi          every regular container
 *     sandbox.kube-reconcile.dev/usage.<container>: cpu=1,memory=1Gi    one container (its keys win)
 *
 * Without them a container idles at `IDLE_USAGE`. Load from the fault action
 * `load=SELECTOR:cpu=…` comes on top (see `loadTable.ts`).
 */
import type { Pod } from 'kubernetes-types/core/v1';
import { parseQuantity } from '../../api/quantity';

export const USAGE_ANNOTATION = 'sandbox.kube-reconcile.dev/usage';

/** Usage of one container: CPU in millicores, memory in bytes. */
export interface Usage {
  cpuMilli: number;
  memoryBytes: number;
}

/** What an idle container uses: a few millicores and a few MiB, as an idle server process shows in `kubectl top`. */
export const IDLE_USAGE: Readonly<Usage> = Object.freeze({ cpuMilli: 2, memoryBytes: 12 * 1024 * 1024 });

/** A partial usage as written (`cpu=250m` alone leaves memory as it was). */
export type UsageSpec = Partial<Usage>;

/** Parses `cpu=250m,memory=100Mi` (commas or spaces between); throws an Error naming the bad part. */
export function parseUsage(text: string): UsageSpec {
  const out: UsageSpec = {};
  const parts = text
    .split(/[,\s]+/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (parts.length === 0) throw new Error('expected cpu=QUANTITY and/or memory=QUANTITY, got nothing');
  for (const part of parts) {
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq);
    const value = eq < 0 ? '' : part.slice(eq + 1);
    if (key !== 'cpu' && key !== 'memory')
      throw new Error(`unknown resource "${key}" in "${part}" (known: cpu, memory)`);
    const q = value === '' ? undefined : parseQuantity(value);
    if (!q || q.nanos < 0n) throw new Error(`invalid quantity "${value}" for ${key} (e.g. cpu=250m, memory=100Mi)`);
    if (key === 'cpu') out.cpuMilli = q.milli();
    else out.memoryBytes = q.value();
  }
  return out;
}

export interface ContainerUsage extends Usage {
  name: string;
}

/**
 * Each regular container's own usage (before load): idle, overridden by the pod-wide annotation, overridden by the
 * container's own. Bad annotations are ignored here (the container idles) and reported by `usageProblems`.
 */
export function containerUsages(pod: Pod): ContainerUsage[] {
  const annotations = pod.metadata?.annotations ?? {};
  const podWide = tryParse(annotations[USAGE_ANNOTATION]);
  return (pod.spec?.containers ?? []).map((c) => ({
    name: c.name,
    ...IDLE_USAGE,
    ...podWide,
    ...tryParse(annotations[`${USAGE_ANNOTATION}.${c.name}`]),
  }));
}

function tryParse(text: string | undefined): UsageSpec {
  if (text === undefined) return {};
  try {
    return parseUsage(text);
  } catch {
    return {};
  }
}

/** `annotation: problem` for each usage annotation of the pod that cannot be read. */
export function usageProblems(pod: Pod): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(pod.metadata?.annotations ?? {})) {
    if (key !== USAGE_ANNOTATION && !key.startsWith(`${USAGE_ANNOTATION}.`)) continue;
    try {
      parseUsage(value);
    } catch (e) {
      out.push(`${key}: ${(e as Error).message}`);
    }
  }
  return out;
}
