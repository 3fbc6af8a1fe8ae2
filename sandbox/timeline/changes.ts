/**
 * The API writes on the timeline: one `write` entry per stored change (verb, object, resourceVersion, the field
 * manager of the write when the writer named one), and for pods the transitions a user follows — phase changes and
 * the Ready condition — as `transition` entries (steps in the pod's chain). Fed by the store's change observer, so no
 * component needs a hook for them.
 */
import type { KubeObject } from '../api/types';
import type { ChangeRecord } from '../store/history';
import type { Timeline, TimelineRef } from './timeline';

const VERB = { ADDED: 'create', MODIFIED: 'update', DELETED: 'delete' } as const;

export function refOf(obj: KubeObject): TimelineRef {
  return { kind: obj.kind, namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '' };
}

/** The manager of the newest managedFields entry (by time, the last listed on a tie), if any. */
function lastManager(obj: KubeObject): string | undefined {
  const fields = obj.metadata.managedFields as readonly { manager?: string; time?: string }[] | undefined;
  if (!Array.isArray(fields) || fields.length === 0) return undefined;
  let best = fields[0];
  for (const f of fields) if ((f?.time ?? '') >= (best?.time ?? '')) best = f;
  return typeof best?.manager === 'string' ? best.manager : undefined;
}

interface PodLike {
  spec?: { nodeName?: string; containers?: { readinessProbe?: unknown }[] };
  status?: { phase?: string; conditions?: { type?: string; status?: string }[] };
}

function ready(p: PodLike | undefined): string | undefined {
  return p?.status?.conditions?.find((c) => c.type === 'Ready')?.status;
}

export function recordChange(timeline: Timeline, rec: ChangeRecord, time: number): void {
  const obj = rec.object;
  const subject = refOf(obj);
  const manager = rec.type === 'DELETED' ? undefined : lastManager(obj);
  const verb = VERB[rec.type];
  // The message is left empty and worded when shown (describeEntry): writes are the most frequent entries.
  timeline.record({
    time,
    type: 'write',
    component: 'api-server',
    subject,
    what: verb,
    message: '',
    resourceVersion: obj.metadata.resourceVersion,
    manager,
  });
  // A pod's creation is the decision that made it (its owner's, or an apply); its transitions follow.
  if (obj.kind !== 'Pod' || rec.type !== 'MODIFIED') return;
  const before = rec.previous as PodLike | undefined;
  const after = obj as PodLike;
  const phase = after.status?.phase;
  if (phase !== undefined && phase !== before?.status?.phase) {
    const from = before?.status?.phase;
    timeline.record({
      time,
      type: 'transition',
      component: 'kubelet',
      subject,
      what: 'Phase',
      message: from ? `phase ${from} → ${phase}` : `phase ${phase}`,
      ...(after.spec?.nodeName ? { why: `on ${after.spec.nodeName}` } : {}),
    });
  }
  const r = ready(after);
  if (r !== undefined && r !== ready(before) && (r === 'True' || ready(before) === 'True')) {
    const probed = after.spec?.containers?.some((c) => c.readinessProbe !== undefined) === true;
    timeline.record({
      time,
      type: 'transition',
      component: 'kubelet',
      subject,
      what: 'Ready',
      message: r === 'True' ? 'Ready' : 'not Ready',
      ...(probed ? { why: r === 'True' ? 'readiness probe succeeded' : 'readiness probe failed' } : {}),
    });
  }
}
