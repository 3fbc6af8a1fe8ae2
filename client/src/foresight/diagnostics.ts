/**
 * Scheduler-backed diagnostics: what the plan of a document finds wrong, placed on the field that causes it — pods
 * that would stay Pending at the workload's `replicas` (or at the container's `resources.requests` when the scheduler
 * says Insufficient cpu/memory) with the scheduler's message verbatim, a rollout that would get stuck, a Job that
 * would fail, a Service left without ready endpoints, a document the API server would refuse. Pure: the plan and the
 * document's text in, diagnostics out (positions from the same parser as the language server's).
 */
import { manifestObjects } from '../../../sandbox/manifests/parseManifests';
import type { ManifestToApply } from '../../../sandbox/manifests/parseManifests';
import type { PlanObject, PlanReport } from '../../../sandbox/plan/types';
import { lineOfSource } from './lenses';

export const FORESIGHT_SOURCE = 'kube-reconcile plan';

/** A single-line range: 0-based line and characters. */
export interface Span {
  line: number;
  character: number;
  endCharacter: number;
}

/** A quick fix: replace `span` with `text`. */
export interface ForesightFix {
  title: string;
  span: Span;
  text: string;
}

export interface ForesightDiagnostic extends Span {
  code: 'pending' | 'stuck' | 'failed' | 'endpoints' | 'refused';
  message: string;
  /** Shown under the message in the hover: each Pending pod with its scheduler message. */
  related: string[];
  fix?: ForesightFix;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The key of `field` in the document (or the nearest enclosing key), on one line. */
function keySpan(doc: ManifestToApply, field: (string | number)[]): Span {
  const s = doc.fieldSpan(field);
  return { line: s.line, character: s.character, endCharacter: s.line === s.endLine ? s.endCharacter : s.character };
}

/** The value of a `replicas: N` line, to replace. */
function replicasValue(lines: readonly string[], line: number): Span | undefined {
  const m = /^(\s*replicas:\s*)(\d+)\s*(#.*)?$/.exec(lines[line] ?? '');
  return m ? { line, character: m[1].length, endCharacter: m[1].length + m[2].length } : undefined;
}

/** The first container (regular, then init) whose requests name `resource`, as a path to its `resources.requests`. */
function requestsPath(object: unknown, podSpec: string[], resource: string): (string | number)[] | undefined {
  let spec: unknown = object;
  for (const k of podSpec) spec = (spec as Record<string, unknown> | undefined)?.[k];
  for (const list of ['containers', 'initContainers']) {
    const containers = (spec as Record<string, unknown> | undefined)?.[list];
    if (!Array.isArray(containers)) continue;
    const i = containers.findIndex(
      (c) =>
        (c as { resources?: { requests?: Record<string, unknown> } })?.resources?.requests?.[resource] !== undefined,
    );
    if (i >= 0) return [...podSpec, list, i, 'resources', 'requests'];
  }
  return undefined;
}

/** Most Pending pods the hover names one by one. */
export const MAX_RELATED_PODS = 5;

/** The hover's lines: each node's reasons for the first pod (when the scheduler said), then the pods. */
function relatedOf(pods: PlanReport['pending'], nodeReasons: Readonly<Record<string, readonly string[]>>): string[] {
  const nodes = nodeReasons[pods[0].pod] ?? [];
  const named = pods.slice(0, MAX_RELATED_PODS).map((p) => `${p.pod}: ${p.message}`);
  const more = pods.length > MAX_RELATED_PODS ? [`… and ${pods.length - MAX_RELATED_PODS} more Pending pods`] : [];
  return [...nodes, ...named, ...more];
}

/** Where the pod spec is in a workload, by kind. */
function podSpecPath(kind: string): string[] {
  if (kind === 'Pod') return ['spec'];
  if (kind === 'CronJob') return ['spec', 'jobTemplate', 'spec', 'template', 'spec'];
  return ['spec', 'template', 'spec'];
}

/** The plan object for `Kind ns/name` (a Pending pod's owner), among the document's objects. */
function objectOf(objects: readonly PlanObject[], kind: string, name: string): PlanObject | undefined {
  const [ns, n] = name.includes('/') ? name.split('/', 2) : [undefined, name];
  return objects.find((o) => {
    const slash = o.ref.indexOf('/');
    const refKind = o.ref.slice(0, slash).split('.')[0];
    return refKind === kind.toLowerCase() && o.ref.slice(slash + 1) === n && (ns === undefined || o.namespace === ns);
  });
}

/**
 * The diagnostics of a document's plan. `text` is the text that was planned: documents are found by the line each
 * plan object's `source` names, so a finding about an object of another file (or none) is left out.
 */
export function foresightDiagnostics(
  report: PlanReport,
  text: string,
  nodeReasons: Readonly<Record<string, readonly string[]>> = {},
): ForesightDiagnostic[] {
  const { manifests } = manifestObjects(text);
  const lines = text.split(/\r?\n/);
  const docAt = (o: PlanObject | undefined): ManifestToApply | undefined => {
    const line = o && o.action !== 'pruned' ? lineOfSource(o.source) : undefined;
    return line === undefined ? undefined : manifests.find((m) => m.line === line);
  };
  const out: ForesightDiagnostic[] = [];

  // Pending pods, by the workload (or bare pod) that declared them.
  const byOwner = new Map<string, typeof report.pending>();
  for (const p of report.pending) {
    const owner = p.owner ?? `Pod ${p.pod}`;
    byOwner.set(owner, [...(byOwner.get(owner) ?? []), p]);
  }
  for (const [owner, pods] of byOwner) {
    const space = owner.indexOf(' ');
    const kind = owner.slice(0, space);
    const name = owner.slice(space + 1);
    const object = objectOf(report.objects, kind, name);
    const doc = docAt(object);
    if (!object || !doc) continue;
    const message = pods[0].message;
    const spec = (doc.object as { spec?: { replicas?: unknown } }).spec;
    const replicas =
      report.rollouts.find((r) => r.deployment === name)?.replicas ??
      (typeof spec?.replicas === 'number' ? spec.replicas : undefined);
    const head =
      kind === 'Pod'
        ? 'The pod would stay Pending'
        : replicas !== undefined
          ? `${pods.length} of ${plural(replicas, 'replica')} would stay Pending`
          : `${plural(pods.length, 'pod')} would stay Pending`;
    const insufficient = /Insufficient (cpu|memory)/.exec(message)?.[1];
    const requests = insufficient ? requestsPath(doc.object, podSpecPath(kind), insufficient) : undefined;
    const at = keySpan(doc, requests ?? (kind === 'Pod' ? ['spec'] : ['spec', 'replicas']));
    const diagnostic: ForesightDiagnostic = {
      ...at,
      code: 'pending',
      message: `${head}: ${message}`,
      related: relatedOf(pods, nodeReasons),
    };
    if (replicas !== undefined && kind !== 'Pod' && kind !== 'DaemonSet') {
      const value = replicasValue(lines, keySpan(doc, ['spec', 'replicas']).line);
      const fits = replicas - pods.length;
      if (value && fits >= 0)
        diagnostic.fix = { title: `Lower replicas to ${fits} (what fits)`, span: value, text: String(fits) };
    }
    out.push(diagnostic);
  }

  for (const r of report.rollouts) {
    if (r.outcome !== 'stuck' || byOwner.has(`Deployment ${r.deployment}`)) continue;
    const doc = docAt(objectOf(report.objects, 'Deployment', r.deployment));
    if (!doc) continue;
    out.push({
      ...keySpan(doc, ['spec', 'template']),
      code: 'stuck',
      message: `The rollout would get stuck: ${r.message ?? 'ProgressDeadlineExceeded'}`,
      related: [],
    });
  }
  for (const w of report.workloads) {
    if (w.outcome !== 'failed') continue;
    const doc = docAt(objectOf(report.objects, w.kind, w.workload));
    if (!doc) continue;
    out.push({
      ...keySpan(doc, ['spec', 'template']),
      code: 'failed',
      message: `The Job would fail${w.message ? `: ${w.message}` : ''}`,
      related: [],
    });
  }
  for (const s of report.services) {
    const lost = s.after === 0 || ((s.before ?? 0) > 0 && s.min === 0);
    if (!lost) continue;
    const doc = docAt(objectOf(report.objects, 'Service', s.service));
    if (!doc) continue;
    const now = s.before === undefined ? '' : ` (${s.before} now)`;
    out.push({
      ...keySpan(doc, ['spec', 'selector']),
      code: 'endpoints',
      message:
        s.after === 0
          ? `Service ${s.service} would have no ready endpoints${now}`
          : `Service ${s.service} drops to 0 ready endpoints during the rollout${now}, ${s.after} after`,
      related: [],
    });
  }
  for (const o of report.objects) {
    if (o.action !== 'refused') continue;
    const line = lineOfSource(o.source);
    if (line === undefined) continue;
    out.push({
      line,
      character: 0,
      endCharacter: (lines[line] ?? '').length,
      code: 'refused',
      message: `The API server would refuse this: ${o.message ?? ''}`.trim(),
      related: [],
    });
  }
  return out.sort((a, b) => a.line - b.line || a.character - b.character);
}
