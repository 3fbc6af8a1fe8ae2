/**
 * `simulate --explain KIND/NAME`: the causal chain of one object from the timeline the run recorded (sandbox/timeline)
 * — from the apply of the manifest that started it to the present — with the scheduler's per-node results on a pod's
 * binding. Unknown kinds and objects get kubectl's errors.
 */
import type { Cluster } from '../../sandbox/cluster/cluster';
import type { SchedulingExplanation } from '../../sandbox/scheduler/scheduler';
import { formatExplain } from '../../sandbox/timeline/format';
import type { TimelineEntry, TimelineRef } from '../../sandbox/timeline/timeline';
import { UsageError } from '../args';

export interface ExplainTarget {
  /** As given: `deployment/web`. */
  text: string;
  type: string;
  name: string;
}

export function parseExplainTarget(value: unknown): ExplainTarget | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  const slash = text.indexOf('/');
  if (slash <= 0 || slash === text.length - 1 || text.indexOf('/', slash + 1) >= 0)
    throw new UsageError(`--explain needs KIND/NAME (e.g. deployment/web or pod/web-7c9f-x2), got "${text}"`);
  return { text, type: text.slice(0, slash), name: text.slice(slash + 1) };
}

/** `(node-1: Insufficient cpu; node-2: score 87, chosen; node-3: score 61)` from the scheduler's explanation. */
export function nodeResults(x: SchedulingExplanation): string | undefined {
  if (!x.nodes || x.nodes.length === 0) return undefined;
  const parts = x.nodes.map((n) => {
    if (n.rejectedBy) return `${n.node}: ${(n.reasons ?? [n.rejectedBy]).join(', ')}`;
    const score = n.total !== undefined ? `score ${n.total}` : 'feasible';
    return `${n.node}: ${score}${n.chosen ? ', chosen' : ''}`;
  });
  return `(${parts.join('; ')})`;
}

/** The lines of the explanation, or throws an Error with kubectl's message for an unknown kind or object. */
export function explainObject(cluster: Cluster, target: ExplainTarget, namespace: string, start: number): string[] {
  const timeline = cluster.timeline;
  if (!timeline) throw new Error('the timeline was not recorded');
  const r = cluster.api.resources.byName(target.type);
  if (!r) throw new Error(`error: the server doesn't have a resource type "${target.type}"`);
  const ns = r.namespaced ? namespace : '';
  const ref: TimelineRef = { kind: r.kind, namespace: ns, name: target.name };
  const { entries, truncated } = timeline.explain(ref);
  if (entries.length === 0) {
    const resource = r.group ? `${r.plural}.${r.group}` : r.plural;
    const exists = cluster.api.tryGet(r, r.namespaced ? ns : undefined, target.name) !== undefined;
    if (!exists) throw new Error(`Error from server (NotFound): ${resource} "${target.name}" not found`);
    return [`${target.text}: nothing recorded about it in this run`];
  }
  // The scheduler keeps its last decision per pod: shown on the pod's last scheduling entry.
  const lastScheduling = [...entries]
    .reverse()
    .find((e) => (e.what === 'Scheduled' || e.what === 'FailedScheduling') && e.subject.kind === 'Pod');
  const detail = (e: TimelineEntry) => {
    if (e !== lastScheduling || r.kind !== 'Pod') return undefined;
    const x = cluster.explain(ns, target.name);
    return x ? nodeResults(x) : undefined;
  };
  return formatExplain(entries, { start, detail }, truncated);
}
