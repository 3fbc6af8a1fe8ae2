/**
 * Builds the Desired vs Actual view of one object from what the host has:
 * the mirrored cache, the `desired` reply, and the scheduler's explanation.
 * vscode-free so that it is tested without VS Code.
 */
import { stringify } from 'yaml';
import { resourceByName } from '../../../sandbox/api/resources';
import type { KubeObject } from '../../../sandbox/api/types';
import type { SchedulingExplanation } from '../../../sandbox/scheduler/explanation';
import { diffObjects } from '../health/diff';
import { resourceHealth } from '../health/resourceHealth';
import type { SyncStatus } from '../health/syncStatus';
import type { MirrorCache } from '../sandbox/mirror';
import type { ObjectRef, Requests } from '../sandbox/protocol';
import { eventRows } from './events';
import type { ObjectViewState } from './protocol';

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

export function objectState(input: ObjectStateInput): ObjectViewState {
  const { ref, cache, desired } = input;
  const live = cache.get(ref.resource, ref.namespace, ref.name);
  const kind = kindOf(ref, live ?? desired.manifest);
  const state: ObjectViewState = {
    view: 'object',
    ref,
    title: titleOf(ref, kind),
    kind,
    diff: desired.manifest ? diffObjects(desired.manifest, live) : [],
    events: eventRows(cache, kind, ref.namespace, ref.name, input.now),
  };
  // An object nobody declared and nobody created has no health to show; a declared one that is gone is Missing.
  const health = live || desired.manifest ? resourceHealth(live) : undefined;
  if (health) state.health = health;
  if (input.sync) state.sync = { status: input.sync.status, message: input.sync.message };
  if (desired.manifest && desired.file !== undefined) {
    state.manifest = {
      yaml: stringify(desired.manifest),
      label: input.fileLabel(desired.file),
      line: (desired.line ?? 0) + 1,
    };
  }
  if (live) state.liveYaml = stringify(live);
  if (input.scheduling && needsSchedulingExplanation(live)) state.scheduling = input.scheduling;
  return state;
}
