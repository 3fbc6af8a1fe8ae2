/**
 * POST `pods/<name>/eviction` (pkg/registry/core/pod/storage/eviction.go):
 * a delete that respects the PodDisruptionBudget selecting the pod. The
 * sandbox runs no disruption controller, so the budget's numbers are computed
 * here from the live pods: desired healthy from minAvailable / maxUnavailable
 * (percentages against the owners' replicas), healthy = Ready and not being
 * deleted. None allowed → 429 with a DisruptionBudget cause; allowed → the
 * pod is deleted with the Eviction's deleteOptions, answered 201 Success.
 */
import { badRequest, internalError, tooManyRequests } from '../../api/errors';
import { labelSelectorMatches } from '../../api/selectors/labelSelector';
import type { LabelSelector } from '../../api/selectors/labelSelector';
import type { KubeObject } from '../../api/types';
import type { ApiServer } from '../../apiserver/apiServer';
import { controllerRefOf } from '../../controllers/util/owners';
import type { RequestContext } from '../context';
import { deleteOptions } from '../query';
import { successStatus } from '../respond';
import { decodeTyped } from './decode';

const EVICTION = { apiVersion: 'policy/v1', kind: 'Eviction', also: ['policy/v1beta1'] } as const;

interface PdbSpec {
  selector?: LabelSelector | null;
  minAvailable?: number | string;
  maxUnavailable?: number | string;
  unhealthyPodEvictionPolicy?: 'IfHealthyBudget' | 'AlwaysAllow';
}

interface Budget {
  name: string;
  desiredHealthy: number;
  currentHealthy: number;
  disruptionsAllowed: number;
  unhealthyPodEvictionPolicy?: string;
}

function isReady(pod: KubeObject): boolean {
  const conditions =
    (pod.status as { conditions?: { type?: string; status?: string }[] } | undefined)?.conditions ?? [];
  return conditions.some((c) => c.type === 'Ready' && c.status === 'True');
}

function phaseOf(pod: KubeObject): string | undefined {
  return (pod.status as { phase?: string } | undefined)?.phase;
}

/** Pods a PDB need not be asked about: finished, not started, or already going (canIgnorePDB). */
function canIgnoreBudget(pod: KubeObject): boolean {
  const phase = phaseOf(pod);
  return (
    phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || pod.metadata.deletionTimestamp !== undefined
  );
}

/** `intstr.GetScaledValueFromIntOrPercent`, rounding up. */
function scaled(value: number | string, total: number): number {
  if (typeof value === 'number') return value;
  const m = /^(\d+)%$/.exec(value);
  return m ? Math.ceil((Number(m[1]) * total) / 100) : Number(value) || 0;
}

/** An owner by kind name; undefined when it is gone or of a kind the server does not serve. */
function lookup(api: ApiServer, kind: string, namespace: string | undefined, name: string): KubeObject | undefined {
  try {
    return api.tryGet(kind, namespace, name);
  } catch {
    return undefined;
  }
}

/**
 * The replicas the pods' controllers want (a Deployment's, not its ReplicaSet's); the pod count for pods without one.
 */
function expectedCount(api: ApiServer, pods: readonly KubeObject[]): number {
  const seen = new Map<string, number>();
  let orphans = 0;
  for (const pod of pods) {
    let owner = controllerRefOf(pod);
    if (!owner) {
      orphans++;
      continue;
    }
    const ns = pod.metadata.namespace;
    let ownerObj = lookup(api, owner.kind, ns, owner.name);
    const grand = ownerObj && owner.kind === 'ReplicaSet' ? controllerRefOf(ownerObj) : undefined;
    if (grand?.kind === 'Deployment') {
      owner = grand;
      ownerObj = lookup(api, 'deployments', ns, grand.name);
    }
    const replicas = (ownerObj?.spec as { replicas?: number } | undefined)?.replicas;
    seen.set(owner.uid, typeof replicas === 'number' ? replicas : 1);
  }
  let total = orphans;
  for (const n of seen.values()) total += n;
  return total;
}

function budgetOf(api: ApiServer, pdb: KubeObject, pods: readonly KubeObject[]): Budget {
  const spec = (pdb.spec ?? {}) as PdbSpec;
  let desiredHealthy = 0;
  if (spec.maxUnavailable !== undefined) {
    const expected = expectedCount(api, pods);
    desiredHealthy = Math.max(0, expected - scaled(spec.maxUnavailable, expected));
  } else if (typeof spec.minAvailable === 'number') desiredHealthy = spec.minAvailable;
  else if (spec.minAvailable !== undefined) desiredHealthy = scaled(spec.minAvailable, expectedCount(api, pods));
  const currentHealthy = pods.filter((p) => isReady(p) && p.metadata.deletionTimestamp === undefined).length;
  return {
    name: pdb.metadata.name!,
    desiredHealthy,
    currentHealthy,
    disruptionsAllowed: Math.max(0, currentHealthy - desiredHealthy),
    unhealthyPodEvictionPolicy: spec.unhealthyPodEvictionPolicy,
  };
}

/** The one budget that applies to `pod`; 500 when more than one does, as upstream refuses to choose. */
function budgetFor(api: ApiServer, pod: KubeObject): Budget | undefined {
  const ns = pod.metadata.namespace;
  const labels = pod.metadata.labels ?? {};
  const pdbs = api.list('poddisruptionbudgets', { namespace: ns }).items.filter((pdb) => {
    const sel = (pdb.spec as PdbSpec | undefined)?.selector;
    return sel !== undefined && sel !== null && labelSelectorMatches(sel, labels);
  });
  if (pdbs.length === 0) return undefined;
  if (pdbs.length > 1)
    throw internalError(
      'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
    );
  const sel = (pdbs[0].spec as PdbSpec).selector!;
  const pods = api
    .list('pods', { namespace: ns })
    .items.filter((p) => labelSelectorMatches(sel, p.metadata.labels ?? {}));
  return budgetOf(api, pdbs[0], pods);
}

/**
 * Whether evicting `pod` is within its budget (unhealthy pods may go when the budget is met, or always with
 * AlwaysAllow).
 */
function allowed(pod: KubeObject, budget: Budget): boolean {
  if (!isReady(pod)) {
    if (budget.unhealthyPodEvictionPolicy === 'AlwaysAllow') return true;
    if (budget.currentHealthy >= budget.desiredHealthy && budget.desiredHealthy > 0) return true;
  }
  return budget.disruptionsAllowed > 0;
}

export async function evictPod(ctx: RequestContext): Promise<void> {
  const namespace = ctx.info.namespace!;
  const name = ctx.info.name!;
  const eviction = await decodeTyped(ctx, EVICTION);
  const meta = (eviction.metadata ?? {}) as KubeObject['metadata'];
  if (meta.name !== undefined && meta.name !== name)
    throw badRequest('name in URL does not match name in Eviction object');
  if (meta.namespace && meta.namespace !== namespace)
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  const rawOptions = eviction.deleteOptions;
  const options = deleteOptions(
    ctx.query,
    rawOptions && typeof rawOptions === 'object' && !Array.isArray(rawOptions)
      ? (rawOptions as Record<string, unknown>)
      : undefined,
  );
  if (ctx.query.getAll('dryRun').includes('All')) options.dryRun = true;

  const pod = ctx.api.get('pods', namespace, name);
  if (!canIgnoreBudget(pod)) {
    const budget = budgetFor(ctx.api, pod);
    if (budget && !allowed(pod, budget)) {
      throw tooManyRequests("Cannot evict pod as it would violate the pod's disruption budget.", 0, [
        {
          reason: 'DisruptionBudget',
          message: `The disruption budget ${budget.name} needs ${budget.desiredHealthy} healthy pods and has ${budget.currentHealthy} currently`,
        },
      ]);
    }
  }
  ctx.api.delete('pods', namespace, name, options);
  ctx.send(201, successStatus(undefined, 201));
}
