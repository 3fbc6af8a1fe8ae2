/**
 * The save-impact lenses: one line above each workload of a document saying what saving it would do, worded from
 * the plan's findings (sandbox/plan/types.ts) — "Save: rolling update, 3 pods replaced (surge 1, unavailable 0),
 * ~24 s", "Save: scale 3 → 5", "Save: creates 3 pods", "Save: no change". Pure: the plan in, lines and titles out.
 */
import type { PlanObject, PlanReport, PlanRollout, PlanWorkload } from '../../../sandbox/plan/types';

/** A lens: the 0-based line it stands above, and its title. */
export interface SaveLens {
  line: number;
  title: string;
}

/** The kinds a lens stands above (kubectl's `kind.group`), with the plan's word for them. */
const WORKLOADS: Record<string, PlanWorkload['kind'] | 'Deployment'> = {
  'deployment.apps': 'Deployment',
  'statefulset.apps': 'StatefulSet',
  'daemonset.apps': 'DaemonSet',
  'job.batch': 'Job',
};

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Virtual time as a person reads it: `~24 s`, `~2 min 5 s`. */
export function about(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `~${s} s`;
  const m = Math.floor(s / 60);
  return s % 60 === 0 ? `~${m} min` : `~${m} min ${s % 60} s`;
}

/** The 0-based line a plan object's document starts on (`source` is `file:line`, 1-based), if it names one. */
export function lineOfSource(source: string): number | undefined {
  const m = /:(\d+)$/.exec(source);
  return m ? Number(m[1]) - 1 : undefined;
}

/** `default/web` for an object of the plan (its namespace, or "default" for a namespaced one that names none). */
function nameOf(o: PlanObject): string {
  const name = o.ref.slice(o.ref.indexOf('/') + 1);
  return o.namespace ? `${o.namespace}/${name}` : name;
}

/** spec.replicas before and after a `configured` apply, from the kubectl diff of the object (spec-level key only). */
export function replicasChange(diff: string | undefined): { before: number; after: number } | undefined {
  if (!diff) return undefined;
  const lines = diff.split('\n');
  const at = (sign: '-' | '+'): number | undefined => {
    let inSpec = false;
    for (const l of lines) {
      const body = l.slice(1);
      if (/^\S/.test(body)) inSpec = body.startsWith('spec:');
      const m = /^ {2}replicas: (\d+)$/.exec(body);
      if (inSpec && l.startsWith(sign) && m) return Number(m[1]);
    }
    return undefined;
  };
  const before = at('-');
  const after = at('+');
  return before !== undefined && after !== undefined ? { before, after } : undefined;
}

/** What the plan's findings add for one workload: pods left Pending, containers crash-looping or failing a probe. */
function findingsFor(report: PlanReport, kind: string, name: string): string[] {
  const owner = `${kind} ${name}`;
  const pending = report.pending.filter((p) => p.owner === owner).length;
  const out = pending > 0 ? [`${plural(pending, 'pod')} would stay Pending`] : [];
  for (const c of report.containers ?? []) {
    if (c.owner !== owner) continue;
    out.push(
      c.problem === 'crashloop' ? `${c.container} would crash-loop` : `${c.container}'s ${c.problem} probe fails`,
    );
  }
  return out;
}

function deploymentTitle(o: PlanObject, r: PlanRollout | undefined): string {
  if (o.action === 'unchanged') return 'no change';
  if (!r) return o.action;
  if (o.action === 'created') return `creates ${plural(r.replicas, 'pod')}`;
  const parts: string[] = [];
  const replaced = Math.min(r.podsCreated, r.podsDeleted);
  const scale = replicasChange(o.diff);
  if (replaced > 0)
    parts.push(
      r.strategy === 'Recreate'
        ? `recreate, ${plural(replaced, 'pod')} replaced, ${about(r.durationMs)}`
        : `rolling update, ${plural(replaced, 'pod')} replaced (surge ${r.peakSurge}, unavailable ` +
            `${r.peakUnavailable}), ${about(r.durationMs)}`,
    );
  if (scale && scale.before !== scale.after) parts.push(`scale ${scale.before} → ${scale.after}`);
  if (parts.length === 0) parts.push('configured, no pods replaced');
  if (r.outcome === 'stuck') parts.push(`rollout would get stuck${r.message ? ` (${r.message})` : ''}`);
  else if (r.outcome === 'progressing') parts.push(`still rolling out after ${about(r.durationMs).slice(1)}`);
  return parts.join(' · ');
}

function workloadTitle(o: PlanObject, w: PlanWorkload | undefined): string {
  if (o.action === 'unchanged') return 'no change';
  if (!w) return o.action;
  if (o.action === 'created')
    return w.kind === 'DaemonSet'
      ? `creates ${plural(w.podsCreated, 'pod')} (one per node)`
      : `creates ${plural(w.podsCreated, 'pod')}`;
  const parts: string[] = [];
  const replaced = Math.min(w.podsCreated, w.podsDeleted);
  const scale = replicasChange(o.diff);
  if (replaced > 0)
    parts.push(
      `rolling update, ${plural(replaced, 'pod')} replaced${w.kind === 'StatefulSet' ? ' (highest ordinal first)' : ''}` +
        `, ${about(w.durationMs)}`,
    );
  else if (w.kind === 'Job' && w.podsCreated > 0) parts.push(`creates ${plural(w.podsCreated, 'pod')}`);
  if (scale && scale.before !== scale.after) parts.push(`scale ${scale.before} → ${scale.after}`);
  if (parts.length === 0) parts.push('configured, no pods replaced');
  if (w.outcome === 'failed') parts.push(`Job would fail${w.message ? ` (${w.message})` : ''}`);
  return parts.join(' · ');
}

/**
 * The lenses of a document's plan: above each workload (Deployment, StatefulSet, DaemonSet, Job) what saving does
 * to it, above each refused document the API server's refusal, above a Service that would lose its ready endpoints
 * that finding, and at the top what the save would prune. In the order of the document.
 */
export function saveImpactLenses(report: PlanReport): SaveLens[] {
  const lenses: SaveLens[] = [];
  const pruned: string[] = [];
  for (const o of report.objects) {
    if (o.action === 'pruned') {
      pruned.push(o.ref);
      continue;
    }
    const line = lineOfSource(o.source);
    if (line === undefined) continue;
    if (o.action === 'refused') {
      lenses.push({ line, title: `Save: refused by the API server: ${o.message ?? ''}`.trim() });
      continue;
    }
    const kindGroup = o.ref.slice(0, o.ref.indexOf('/'));
    const name = nameOf(o);
    if (kindGroup === 'service') {
      const s = report.services.find((x) => x.service === name);
      if (s && s.after === 0) lenses.push({ line, title: `Save: ${name} would have no ready endpoints` });
      else if (s && (s.before ?? 0) > 0 && s.min === 0)
        lenses.push({ line, title: `Save: ${name} drops to 0 ready endpoints during the rollout` });
      continue;
    }
    const kind = WORKLOADS[kindGroup];
    if (!kind) continue;
    const title =
      kind === 'Deployment'
        ? deploymentTitle(
            o,
            report.rollouts.find((r) => r.deployment === name),
          )
        : workloadTitle(
            o,
            report.workloads.find((w) => w.kind === kind && w.workload === name),
          );
    const extra = o.action === 'unchanged' ? [] : findingsFor(report, kind, name);
    lenses.push({ line, title: `Save: ${[title, ...extra].join(' · ')}` });
  }
  if (pruned.length > 0) lenses.unshift({ line: 0, title: `Save: deletes ${pruned.join(', ')} (no longer declared)` });
  return lenses.sort((a, b) => a.line - b.line);
}
