/**
 * The Timeline section of Desired vs Actual, built from the worker's `timeline` reply: one row per step of the
 * object's causal chain (virtual time, the actor, what and why), the manifest `file:line` of the apply each step goes
 * back to, the scheduler's per-node results under its decision, and what the sandbox could not record — said, never
 * left out silently. vscode-free so that it is tested without VS Code.
 */
import type { KubeObject } from '../../../sandbox/api/types';
import type { NodeExplanation } from '../../../sandbox/scheduler/explanation';
import type { TimelineReply, TimelineStep } from '../sandbox/protocol';
import type { TimelineNodeRow, TimelineRow, TimelineView } from './protocol';

/** The object the view shows, as the timeline names objects (namespace '' when cluster-scoped). */
export interface TimelineSubject {
  kind: string;
  namespace?: string;
  name: string;
}

/** Who acted, in a reader's words: the component names (`deployment-controller`) stay in the row's tooltip. */
export function actorOf(component: string): string {
  if (component === 'apply') return 'Apply';
  if (component === 'api-server') return 'API server';
  if (component === 'kubelet') return 'Kubelet';
  if (component.endsWith('scheduler')) return 'Scheduler';
  if (component.endsWith('controller') || component.endsWith('-controller-manager')) return 'Controller';
  if (component === 'gitops-sync') return 'GitOps sync';
  return component;
}

function seconds(ms: number): string {
  return `+${(Math.max(0, ms) / 1000).toFixed(3)}s`;
}

function refText(r: { kind: string; name: string }): string {
  return `${r.kind.toLowerCase()}/${r.name}`;
}

function isAbout(step: TimelineStep, subject: TimelineSubject): boolean {
  const about = (r: { kind: string; namespace: string; name: string }) =>
    r.kind === subject.kind && r.name === subject.name && r.namespace === (subject.namespace ?? '');
  return about(step.subject) || (step.target !== undefined && about(step.target));
}

/** What the step did, in the words `simulate --explain` prints (sandbox/timeline/format.ts), without its why. */
function textOf(e: TimelineStep): string {
  switch (e.type) {
    case 'apply': {
      const rv = e.resourceVersion ? ` (resourceVersion ${e.resourceVersion})` : '';
      // A revert (self-heal, Revert Live to Manifest) says what it put back after its what:
      // `reverted spec.replicas 5 → 3 from web.yaml:16`.
      if (e.what === 'self-heal') return `${e.message.replace(/^self-heal: /, '')}${rv}`;
      if (e.what === 'revert') return `${e.message.replace(/^Revert Live to Manifest: /, '')}${rv}`;
      // `created` is the row's what: `created deployment/web (resourceVersion 64)`.
      return `${refText(e.subject)}${rv}`;
    }
    case 'write': {
      const text = e.message || `${e.what} ${refText(e.subject)}`;
      return `${text}${e.resourceVersion ? ` (resourceVersion ${e.resourceVersion})` : ''}${e.manager ? ` by ${e.manager}` : ''}`;
    }
    case 'transition':
      return `${refText(e.subject)} ${e.message}`;
    case 'decision':
      return e.message;
  }
}

/** One node's result: `rejected by NodeResourcesFit: Insufficient cpu`, `score 693, chosen`. */
export function nodeRow(n: NodeExplanation): TimelineNodeRow {
  if (n.rejectedBy)
    return {
      node: n.node,
      verdict: `rejected by ${n.rejectedBy}: ${(n.reasons ?? []).join('; ') || 'no reason given'}`,
      chosen: false,
      rejected: true,
    };
  const score = n.total !== undefined ? `score ${n.total}` : 'feasible';
  return { node: n.node, verdict: `${score}${n.chosen ? ', chosen' : ''}`, chosen: n.chosen === true, rejected: false };
}

/** `Wed, 02 Dec 2026 03:40:12 GMT`-free: `2026-12-02 03:40:12` (sandbox clock, UTC), for notes. */
function clockText(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
}

/**
 * The section's model. `reply` undefined: the worker could not answer (the row list is empty and a note says so).
 * `live` is the object as the host's cache has it (its creation time tells whether it predates the recording).
 */
export function timelineView(
  reply: TimelineReply | undefined,
  subject: TimelineSubject,
  live: KubeObject | undefined,
): TimelineView {
  if (!reply) return { rows: [], notes: ['The timeline could not be read from the sandbox.'] };
  if (!reply.recording)
    return {
      rows: [],
      notes: ['The sandbox is not recording its timeline (it was started with it off): no steps to show.'],
    };
  const notes: string[] = [];
  if (reply.truncated)
    notes.push(
      `Earlier steps were dropped: the sandbox's timeline keeps its most recent ${reply.capacity.toLocaleString('en-US')} entries, and this chain starts before them.`,
    );
  if (reply.omitted)
    notes.push(
      `${reply.omitted} earlier step${reply.omitted === 1 ? ' is' : 's are'} not shown: the most recent ${reply.steps.length} are.`,
    );
  const created = Date.parse(live?.metadata.creationTimestamp ?? '');
  // creationTimestamp has whole seconds: an object created in the second the recording began is not "before".
  if (reply.since !== undefined && Number.isFinite(created) && created + 1000 <= reply.since)
    notes.push(
      `Steps before ${clockText(reply.since)} were not recorded: the timeline starts with the sandbox, and this object is older (restored from a saved sandbox, or reset since).`,
    );
  if (reply.steps.length === 0 && notes.length === 0) notes.push('Nothing has been recorded about this object yet.');
  const start = reply.steps[0]?.time ?? 0;
  const rows = reply.steps.map((e): TimelineRow => {
    const row: TimelineRow = {
      id: e.id,
      time: seconds(e.time - start),
      at: new Date(e.time).toISOString(),
      actor: actorOf(e.component),
      component: e.component,
      // A transition's text says it whole (`pod/web-x phase Pending → Running`): no what before it.
      what: e.type === 'transition' ? '' : e.what,
      text: textOf(e),
      warning: e.level === 'Warning',
    };
    if (e.why) row.why = e.why;
    if (!isAbout(e, subject)) row.about = refText(e.subject);
    if (e.origin) row.link = e.origin;
    if (reply.scheduling?.step === e.id && reply.scheduling.explanation.nodes?.length)
      row.nodes = reply.scheduling.explanation.nodes.map(nodeRow);
    return row;
  });
  return { rows, notes };
}

/** The file and 1-based line of a step's link (`app/web.yaml:9`), or undefined when it is not one. */
export function stepSource(link: string): { file: string; line: number } | undefined {
  const colon = link.lastIndexOf(':');
  if (colon <= 0) return undefined;
  const line = Number(link.slice(colon + 1));
  if (!Number.isInteger(line) || line < 1) return undefined;
  return { file: link.slice(0, colon), line };
}
