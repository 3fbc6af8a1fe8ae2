/**
 * What one sync of one Deployment works on: a private copy of the Deployment
 * (its status and revision annotation are changed in place, as upstream
 * does), the ReplicaSets it owns (kept current as this sync writes them), and
 * the writes that go with them.
 */
import type { Deployment, ReplicaSet } from './objects';
import type { Pod } from 'kubernetes-types/core/v1';
import type { ApiServer } from '../../apiserver/apiServer';
import type { Clock } from '../../clock/clock';
import type { Recorder } from '../../client/component';
import { jsonEqual } from '../../util/json';

/** The controller's long-lived dependencies. */
export interface DeploymentDeps {
  api: ApiServer;
  clock: Clock;
  recorder: Recorder;
  /** The Deployment's pods by the uid of their controlling ReplicaSet (Recreate's "old pods running"). */
  podsByOwner(namespace: string, rsUids: ReadonlySet<string>): Map<string, Pod[]>;
}

export interface SyncContext extends DeploymentDeps {
  /** A mutable copy of the cached Deployment. */
  d: Deployment;
  /** The ReplicaSets this Deployment controls (claimed), updated in place by this sync's writes. */
  rsList: ReplicaSet[];
  /**
   * Set by the progress check: revisit after this many ms to look at the
   * deadline, or null when no check is needed any more (complete, timed out,
   * paused). Undefined: this sync did not look.
   */
  requeueAfter?: number | null;
}

/** Puts a ReplicaSet this sync wrote back into `rsList` (replacing the older copy with the same uid). */
export function rememberReplicaSet(ctx: SyncContext, rs: ReplicaSet): void {
  const i = ctx.rsList.findIndex((x) => x.metadata?.uid === rs.metadata?.uid);
  if (i >= 0) ctx.rsList[i] = rs;
  else ctx.rsList.push(rs);
}

/**
 * Writes the Deployment's status and its annotations, as upstream's
 * `UpdateStatus(d)` does (the Deployment status strategy keeps annotation
 * changes). When the API server drops annotation changes on a status write,
 * the revision annotation is then set with a metadata patch.
 */
export function writeDeploymentStatus(ctx: SyncContext): void {
  const updated = ctx.api.updateStatus(ctx.d);
  let rv = updated.metadata.resourceVersion;
  const wanted = ctx.d.metadata?.annotations ?? {};
  const stored = updated.metadata.annotations ?? {};
  if (!jsonEqual(wanted, stored)) {
    const patch: Record<string, string | null> = {};
    for (const k of Object.keys(stored)) if (!(k in wanted)) patch[k] = null;
    for (const [k, v] of Object.entries(wanted)) if (stored[k] !== v) patch[k] = v;
    rv = ctx.api.patch('deployments', ctx.d.metadata?.namespace, ctx.d.metadata!.name!, 'merge', {
      metadata: { annotations: patch, resourceVersion: rv },
    }).metadata.resourceVersion;
  }
  ctx.d.metadata.resourceVersion = rv;
}
