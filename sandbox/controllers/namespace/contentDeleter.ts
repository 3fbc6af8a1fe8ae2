/**
 * Deletes everything in a terminating namespace
 * (pkg/controller/namespace/deletion/namespaced_resources_deleter.go), kind
 * by kind in discovery order, with Background propagation, and reports what
 * is left and how long to wait before looking again.
 */
import type { ApiServer } from '../../apiserver/apiServer';
import { isApiError } from '../../api/errors';
import type { ResourceType } from '../../api/resources';
import { parseTimestamp } from '../../clock/clock';
import type { DeletionOutcome } from './conditions';

/** Upstream's wait for objects held by finalizers. */
export const FINALIZER_ESTIMATE_SECONDS = 15;

export interface ContentResult extends DeletionOutcome {
  /** Seconds the remaining content is expected to take; 0 when nothing is left to wait for. */
  estimate: number;
}

/** `pods.` / `deployments.apps`: the resource.group form upstream's messages use. */
function label(r: ResourceType): string {
  return `${r.plural}.${r.group}`;
}

/** Longest grace period of non-terminal pods, or 0 once the namespace has been terminating that long. */
function podEstimate(api: ApiServer, namespace: string, deletedAt: number, now: number): number {
  let estimate = 0;
  for (const pod of api.list('pods', { namespace }).items) {
    const p = pod as { status?: { phase?: string }; spec?: { terminationGracePeriodSeconds?: number } };
    if (p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed') continue;
    estimate = Math.max(estimate, p.spec?.terminationGracePeriodSeconds ?? 0);
  }
  return now - deletedAt >= estimate * 1000 ? 0 : estimate;
}

function deleteAllOf(
  api: ApiServer,
  r: ResourceType,
  namespace: string,
  result: ContentResult,
  deletedAt: number,
  now: number,
): void {
  const estimate = r.kind === 'Pod' && r.group === '' ? podEstimate(api, namespace, deletedAt, now) : 0;
  for (const obj of api.list(r, { namespace }).items) {
    if (obj.metadata.deletionTimestamp) continue;
    try {
      api.delete(r, namespace, obj.metadata.name!, { propagationPolicy: 'Background' });
    } catch (e) {
      if (!isApiError(e, 404)) throw e;
    }
  }
  const left = api.list(r, { namespace }).items;
  if (left.length === 0) return;
  result.remaining.set(label(r), left.length);
  for (const obj of left)
    for (const f of obj.metadata.finalizers ?? []) result.finalizers.set(f, (result.finalizers.get(f) ?? 0) + 1);
  if (estimate > 0) result.estimate = Math.max(result.estimate, estimate);
  else if (left.some((o) => (o.metadata.finalizers ?? []).length > 0))
    result.estimate = Math.max(result.estimate, FINALIZER_ESTIMATE_SECONDS);
  else
    result.errors.push(
      `unexpected items still remain in namespace: ${namespace} for gvr: ${r.group}/${r.version}, Resource=${r.plural}`,
    );
}

/** One pass over every namespaced kind. */
export function deleteAllContent(
  api: ApiServer,
  namespace: string,
  deletionTimestamp: string,
  now: number,
): ContentResult {
  const result: ContentResult = { remaining: new Map(), finalizers: new Map(), errors: [], estimate: 0 };
  const deletedAt = parseTimestamp(deletionTimestamp);
  // Every namespaced kind the server stores, custom resources included (upstream: discovery's deletable resources).
  for (const r of api.resources.storedKinds()) {
    if (!r.namespaced) continue;
    try {
      deleteAllOf(api, r, namespace, result, deletedAt, now);
    } catch (e) {
      result.errors.push(e instanceof Error ? e.message : String(e));
    }
  }
  return result;
}
