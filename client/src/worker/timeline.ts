/**
 * The causal timeline in the worker: the applies of saved files recorded as the roots of the chains they start (the
 * GitOps sync loop applies with `kubectl apply` semantics but does not know the timeline), and the `timeline` request
 * — one object's chain, the same selection as `simulate --explain KIND/NAME` (sandbox/timeline), with the manifest
 * `file:line` each step goes back to and, for a pod, the scheduler's per-node results.
 */
import type { ApiServer } from '../../../sandbox/apiserver/apiServer';
import type { KubeObject } from '../../../sandbox/api/types';
import type { Cluster } from '../../../sandbox/cluster/cluster';
import type { SyncResult } from '../../../sandbox/gitops/gitOpsSync';
import { recordApply } from '../../../sandbox/timeline/apply';
import type { ManifestInput, TimelineObject, TimelineReply } from '../sandbox/protocol';
import { BadRequest, record, text } from './params';

/** The most recent steps one reply carries (an object's chain is tens of steps; a crash-looping pod's grows). */
export const TIMELINE_STEP_LIMIT = 200;

export function timelineObjectOf(value: unknown): TimelineObject {
  const p = record(value, 'params');
  if (p.namespace !== undefined && typeof p.namespace !== 'string') throw new BadRequest('namespace must be a string');
  const namespace = p.namespace === undefined || p.namespace === '' ? undefined : p.namespace;
  return { kind: text(p.kind, 'kind'), name: text(p.name, 'name'), ...(namespace ? { namespace } : {}) };
}

/** The stored object a manifest names, if any (namespaced kinds default to `default`, as the sync loop applies). */
function liveOf(api: ApiServer, manifest: KubeObject): KubeObject | undefined {
  try {
    const r = api.resourceOf(manifest);
    const name = manifest.metadata?.name;
    if (!name) return undefined;
    return api.tryGet(r, r.namespaced ? manifest.metadata.namespace || 'default' : undefined, name);
  } catch {
    return undefined;
  }
}

/**
 * Runs `apply` (the sync loop applying `file`'s manifests) and records on the cluster's timeline, when it keeps one,
 * each document it created or configured: the root of the chains that follow, with `file:line` (the document's first
 * line, 1-based) and the fields it changed. Unchanged documents are not steps (a save re-applies the whole file).
 */
export function applyRecorded(
  cluster: Cluster,
  file: string,
  manifests: readonly ManifestInput[],
  apply: () => SyncResult,
): SyncResult {
  const timeline = cluster.timeline;
  if (!timeline) return apply();
  const before = manifests.map((m) => liveOf(cluster.api, m.object));
  const result = apply();
  // One outcome per manifest, in order (GitOpsSync.setSource).
  result.outcomes.forEach((o, i) => {
    const m = manifests[i];
    if (!m || !o.ok || (o.action !== 'created' && o.action !== 'configured')) return;
    const after = liveOf(cluster.api, m.object);
    if (!after) return;
    recordApply(timeline, cluster.clock.now(), o.action, before[i], after, { file, line: m.line + 1 });
  });
  return result;
}

/**
 * After Reset Sandbox applied the whole desired state to a fresh cluster (`GitOpsSync.syncAll`): each declared object
 * that now exists is recorded as created by its file's apply, so that the new cluster's chains start at their files.
 */
export function recordSyncAll(
  cluster: Cluster,
  declared: readonly { source: string; line: number; manifest: KubeObject }[],
): void {
  const timeline = cluster.timeline;
  if (!timeline) return;
  for (const d of declared) {
    const after = liveOf(cluster.api, d.manifest);
    if (after)
      recordApply(timeline, cluster.clock.now(), 'created', undefined, after, { file: d.source, line: d.line + 1 });
  }
}

/**
 * The chain of one object (see the module comment): the most recent `limit` steps, each with the `file:line` of the
 * apply it goes back to; `since` is when the session's recording began.
 */
export function timelineOf(
  cluster: Cluster,
  since: number,
  object: TimelineObject,
  limit = TIMELINE_STEP_LIMIT,
): TimelineReply {
  const timeline = cluster.timeline;
  if (!timeline) return { recording: false, steps: [], truncated: false, capacity: 0 };
  const namespace = object.namespace ?? '';
  const { entries, truncated } = timeline.explain({ kind: object.kind, namespace, name: object.name });
  const kept = entries.length > limit ? entries.slice(-limit) : entries;
  const reply: TimelineReply = {
    recording: true,
    since,
    truncated,
    capacity: timeline.capacity,
    steps: kept.map((e) => {
      const origin = timeline.origin(e.id)?.source;
      return origin ? { ...e, origin } : { ...e };
    }),
  };
  if (kept.length < entries.length) reply.omitted = entries.length - kept.length;
  if (object.kind === 'Pod' && namespace) {
    // The scheduler keeps its last decision per pod: shown under the pod's last scheduling step (as --explain).
    const last = [...kept]
      .reverse()
      .find((e) => (e.what === 'Scheduled' || e.what === 'FailedScheduling') && e.subject.kind === 'Pod');
    const explanation = last ? cluster.explain(namespace, object.name) : undefined;
    if (last && explanation) reply.scheduling = { step: last.id, explanation };
  }
  return reply;
}
