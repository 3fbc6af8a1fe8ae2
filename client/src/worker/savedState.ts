/**
 * What the worker saves for a window reload: the API server's snapshot plus
 * the GitOps desired state and the self-heal setting. Restoring refuses a
 * malformed one whole (the caller then starts fresh and says why).
 */
import type { ApiServer } from '../../../sandbox/apiserver/apiServer';
import { restoreSnapshot, snapshotFailedNodes, takeSnapshot } from '../../../sandbox/apiserver/snapshot';
import type { Snapshot } from '../../../sandbox/apiserver/snapshot';
import type { Clock } from '../../../sandbox/clock/clock';
import { checkDesiredState } from '../../../sandbox/gitops/checkDesiredState';
import type { DesiredStateData } from '../../../sandbox/gitops/desiredState';
import { isPlainObject } from '../../../sandbox/util/json';

export const SAVED_STATE_KIND = 'SandboxState';
export const SAVED_STATE_API_VERSION = 'sandbox.kube-reconcile.dev/v1alpha1';

export interface SavedState {
  apiVersion: typeof SAVED_STATE_API_VERSION;
  kind: typeof SAVED_STATE_KIND;
  cluster: Snapshot;
  desired: DesiredStateData;
  selfHeal: boolean;
}

/** `failedNodes`: nodes whose kubelet Fail Node stopped, restored stopped. */
export function saveState(
  api: ApiServer,
  desired: DesiredStateData,
  selfHeal: boolean,
  failedNodes: readonly string[] = [],
): SavedState {
  return {
    apiVersion: SAVED_STATE_API_VERSION,
    kind: SAVED_STATE_KIND,
    cluster: takeSnapshot(api, { failedNodes }),
    desired,
    selfHeal,
  };
}

/** The clock time a saved state was taken at, when it looks like one (to start the clock there). */
export function savedTime(data: unknown): number | undefined {
  const time = isPlainObject(data) && isPlainObject(data.cluster) ? data.cluster.time : undefined;
  return typeof time === 'number' && Number.isFinite(time) ? time : undefined;
}

export interface RestoredState {
  api: ApiServer;
  desired: DesiredStateData;
  selfHeal?: boolean;
  /** Nodes whose kubelet was stopped when saved (none in states saved before they were recorded). */
  failedNodes: string[];
}

/** Restores a saved state; throws (SnapshotError, DesiredStateError, Error) when it is not one. */
export function restoreState(
  data: unknown,
  options: { clock: Clock; seed: number; onWatchError: (e: unknown) => void },
): RestoredState {
  if (!isPlainObject(data) || data.kind !== SAVED_STATE_KIND || data.apiVersion !== SAVED_STATE_API_VERSION) {
    throw new Error(`invalid snapshot: expected apiVersion ${SAVED_STATE_API_VERSION}, kind ${SAVED_STATE_KIND}`);
  }
  const desired = checkDesiredState(data.desired);
  const api = restoreSnapshot(data.cluster, {
    clock: options.clock,
    random: options.seed,
    onWatchError: options.onWatchError,
  });
  return {
    api,
    desired,
    selfHeal: typeof data.selfHeal === 'boolean' ? data.selfHeal : undefined,
    failedNodes: snapshotFailedNodes(data.cluster),
  };
}
