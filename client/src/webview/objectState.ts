/**
 * Builds the Desired vs Actual view of one object from what the host has:
 * the mirrored cache, the `desired` reply, and the scheduler's explanation.
 * vscode-free so that it is tested without VS Code.
 */
import { resourceByName } from '../../../sandbox/api/resources';
import type { KubeObject } from '../../../sandbox/api/types';
import { yamlText } from '../../../sandbox/util/yamlText';
import type { SchedulingExplanation } from '../../../sandbox/scheduler/explanation';
import { diffObjects } from '../health/diff';
import { formatAmount, resourceFit } from '../health/resourceFit';
import type { FitCell, NodeFit } from '../health/resourceFit';
import { resourceHealth } from '../health/resourceHealth';
import type { SyncStatus } from '../health/syncStatus';
import { ownerTemplate } from '../health/template';
import type { MirrorCache } from '../sandbox/mirror';
import type { ObjectRef, Requests } from '../sandbox/protocol';
import { eventRows } from './events';
import type { Comparison, ObjectViewState, PendingWhy } from './protocol';

export interface ObjectStateInput {
  ref: ObjectRef;
  cache: MirrorCache;
  desired: Requests['desired']['result'];
  /** Turns the manifest's absolute file into the label shown (workspace-relative). */
  fileLabel: (file: string) => string;
  scheduling?: SchedulingExplanation;
  /** The object's sync status against its own saved file (not an owner's), when it has one. */
  sync?: SyncStatus;
  /** Sandbox clock time, for event ages. */
  now: number;
}

/** The kind for a plural resource name (`deployments` → `Deployment`), or the name itself when unknown. */
export function kindOf(ref: ObjectRef, live?: KubeObject): string {
  return live?.kind ?? resourceByName(ref.resource)?.kind ?? ref.resource;
}

/** `deployment/web`, as kubectl names objects. */
export function titleOf(ref: ObjectRef, kind: string): string {
  return `${kind.toLowerCase()}/${ref.name}`;
}

/** True when the object is a pod the scheduler has not placed: the view then asks for its explanation. */
export function needsSchedulingExplanation(live: KubeObject | undefined): boolean {
  if (live?.kind !== 'Pod') return false;
  const spec = live.spec as { nodeName?: string } | undefined;
  const status = live.status as { phase?: string } | undefined;
  return !spec?.nodeName && (status?.phase ?? 'Pending') === 'Pending';
}

/** True when the manifest the worker found declares this very object (not its owner). */
function declaresItself(manifest: KubeObject, ref: ObjectRef, kind: string): boolean {
  return manifest.kind === kind && manifest.metadata?.name === ref.name;
}

/** Why an object without a saved manifest has no desired state. */
function noDesiredState(kind: string, live: KubeObject | undefined): string {
  if (kind === 'Node')
    return "not declared in a saved manifest: nodes are the cluster's own (their kubelets register them)";
  if (
    kind === 'Namespace' &&
    live &&
    ['default', 'kube-system', 'kube-public', 'kube-node-lease'].includes(live.metadata.name ?? '')
  )
    return 'not declared in a saved manifest: the API server creates this namespace';
  if (kind === 'Event') return 'not declared in a saved manifest: components record events';
  const owner = live?.metadata.ownerReferences?.find((r) => r.controller);
  if (owner) return `not declared in a saved manifest: ${owner.kind.toLowerCase()}/${owner.name} manages it`;
  return 'not declared in a saved manifest (created by hand or by kubectl)';
}

export function objectState(input: ObjectStateInput): ObjectViewState {
  const { ref, cache, desired } = input;
  const live = cache.get(ref.resource, ref.namespace, ref.name);
  const kind = kindOf(ref, live ?? desired.manifest);
  const own = desired.manifest !== undefined && declaresItself(desired.manifest, ref, kind);
  // An owned object is compared with the template its controller made it from, never with the owner's manifest.
  const template = own ? undefined : ownerTemplate(live, cache);
  let comparedWith: Comparison;
  if (own) comparedWith = { kind: 'manifest' };
  else if (template)
    comparedWith = {
      kind: 'template',
      owner: titleOf(template.owner, template.ownerKind),
      managedBy: template.managedBy.map((m) => titleOf(m.ref, m.kind)),
    };
  else comparedWith = { kind: 'none', why: noDesiredState(kind, live) };
  const state: ObjectViewState = {
    view: 'object',
    ref,
    title: titleOf(ref, kind),
    kind,
    comparedWith,
    diff: own ? diffObjects(desired.manifest!, live) : template ? diffObjects(template.desired, live) : [],
    events: eventRows(cache, kind, ref.namespace, ref.name, input.now),
  };
  // An object nobody declared and nobody created has no health to show; a declared one that is gone is Missing.
  const health = live || desired.manifest ? resourceHealth(live) : undefined;
  if (health) state.health = health;
  if (input.sync) state.sync = { status: input.sync.status, message: input.sync.message };
  if (desired.manifest && desired.file !== undefined) {
    state.manifest = {
      yaml: yamlText(own || !template ? desired.manifest : template.desired),
      label: input.fileLabel(desired.file),
      line: (desired.line ?? 0) + 1,
    };
  }
  if (live) state.liveYaml = yamlText(live);
  if (input.scheduling && needsSchedulingExplanation(live)) state.scheduling = input.scheduling;
  if (live && needsSchedulingExplanation(live)) state.why = pendingWhy(live, cache);
  return state;
}

function cellText(resource: 'cpu' | 'memory', c: FitCell): string {
  const free = Math.max(0, c.allocatable - c.requested);
  return `${formatAmount(resource, c.allocatable)} allocatable − ${formatAmount(resource, c.requested)} requested = ${formatAmount(resource, free)} free`;
}

function verdict(n: NodeFit): string {
  if (n.unschedulable) return n.unschedulable;
  if (n.short.length === 0) return 'fits';
  return `too little ${n.short.join(' and ')}`;
}

/** The numbers behind "Insufficient cpu": the pod's requests and every node's room. */
export function pendingWhy(pod: KubeObject, cache: MirrorCache): PendingWhy {
  const fit = resourceFit(pod, cache.list('nodes'), cache.list('pods'));
  const asks = [
    fit.requests.cpu > 0 ? `${formatAmount('cpu', fit.requests.cpu)} CPU` : '',
    fit.requests.memory > 0 ? `${formatAmount('memory', fit.requests.memory)} memory` : '',
  ].filter(Boolean);
  const fitting = fit.nodes.filter((n) => !n.unschedulable && n.short.length === 0);
  const lead =
    asks.length === 0
      ? 'This pod requests no CPU or memory: resources are not what keeps it Pending.'
      : fitting.length === 0
        ? `This pod requests ${asks.join(' and ')}; no schedulable node has that much free.`
        : `This pod requests ${asks.join(' and ')}; ${fitting.map((n) => n.node).join(', ')} ${fitting.length === 1 ? 'has' : 'have'} room, so something else keeps it Pending (see the scheduler's words below).`;
  return {
    lead,
    rows: fit.nodes.map((n) => ({
      node: n.node,
      cpu: cellText('cpu', n.cpu),
      memory: cellText('memory', n.memory),
      verdict: verdict(n),
      fits: !n.unschedulable && n.short.length === 0,
    })),
  };
}
