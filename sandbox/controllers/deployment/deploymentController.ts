/**
 * The Deployment controller (pkg/controller/deployment/deployment_controller.go):
 * informers on Deployments, ReplicaSets and pods whose handlers only enqueue
 * the Deployment concerned; `reconcile(key)` reads the caches and runs one
 * level-triggered sync.
 */
import type { LabelSelector } from 'kubernetes-types/meta/v1';
import { objectKey } from '../../client/cache';
import type { ComponentContext } from '../../client/component';
import { cloneJson, jsonEqual } from '../../util/json';
import { Controller, type Watches } from '../framework/controller';
import type { Enqueue } from '../framework/handlers';
import { enqueueObject } from '../framework/handlers';
import { ensureControllerIndex, PerOwnerMemo } from '../util/controllerIndex';
import { controllerRefOf } from '../util/owners';
import { claimReplicaSets, type Claim } from './claim';
import { ownersOfReplicaSet, podsByOwner, type Caches } from './lookups';
import type { Deployment, ReplicaSet } from './objects';
import { syncDeployment } from './syncDeployment';
import type { SyncContext } from './syncContext';

export const DEPLOYMENT_CONTROLLER_NAME = 'deployment-controller';

export class DeploymentController extends Controller {
  private caches!: Caches;
  /**
   * One pending progress-deadline check per Deployment, on foreground timers (a rollout that may still time out is
   * pending work), withdrawn as soon as the rollout completes, times out or is paused.
   */
  private readonly deadlines = this.newTimers((key) => this.queue.add(key));
  /**
   * Per Deployment key, its last claim that wrote nothing, kept while what that claim was a function of stays: the
   * controller index's stamps of its own ReplicaSets and of its namespace's orphans, its uid, and (the signature) its
   * frozen selector, compared by value (a metadata patch stores a new, equal spec), and whether it is being deleted.
   * Upstream claims from the informer's indexer on every sync; while none of these changed the answer is the same,
   * so it is reused (a Deployment's own status writes wake it with its ReplicaSets unchanged).
   */
  private claims!: PerOwnerMemo<ReplicaSet, Claim, ClaimSignature>;

  constructor(ctx: ComponentContext) {
    super(ctx, { name: DEPLOYMENT_CONTROLLER_NAME });
  }

  /**
   * Deployments by key; a ReplicaSet wakes the Deployment that controls it (an orphan, those that would adopt it); a
   * deleted pod wakes the Recreate Deployment waiting for it.
   */
  protected watch(w: Watches): void {
    const deployments = w.informer('deployments');
    const replicaSets = w.informer('replicasets');
    const pods = w.informer('pods');
    ensureControllerIndex(replicaSets);
    this.claims = new PerOwnerMemo(replicaSets, {
      sameSignature: (last, cur) =>
        last.deleting === cur.deleting && (last.selector === cur.selector || jsonEqual(last.selector, cur.selector)),
      // A claim that wrote changed what it read; an unfrozen selector could change under the same object.
      keep: (claim, signature) => !claim.wrote && Object.isFrozen(signature.selector),
    });
    this.caches = { deployments: deployments.cache, replicaSets: replicaSets.cache, pods: pods.cache };
    w.watch(deployments, enqueueObject());
    w.watch(replicaSets, {
      onAdd: (rs, enqueue) => this.enqueueOwners(rs, !rs.metadata.deletionTimestamp, enqueue),
      onUpdate: (old, cur, enqueue) => {
        const oldRef = controllerRefOf(old);
        const curRef = controllerRefOf(cur);
        const refChanged = oldRef?.uid !== curRef?.uid;
        if (refChanged && oldRef) this.enqueueOwners(old, false, enqueue);
        const labelsChanged = !jsonEqual(old.metadata.labels ?? {}, cur.metadata.labels ?? {});
        this.enqueueOwners(cur, !curRef && (labelsChanged || refChanged), enqueue);
      },
      onDelete: (rs, enqueue) => this.enqueueOwners(rs, false, enqueue),
    });
    w.watch(pods, {
      // Recreate waits for old pods to go; a deleted pod may be the last one.
      onDelete: (pod, enqueue) => {
        const ref = controllerRefOf(pod);
        if (ref?.kind !== 'ReplicaSet') return;
        const rs = this.caches.replicaSets.get(`${pod.metadata.namespace}/${ref.name}`);
        if (!rs || rs.metadata.uid !== ref.uid) return;
        for (const d of ownersOfReplicaSet(this.caches, rs, false))
          if (d.spec?.strategy?.type === 'Recreate') enqueue(objectKey(d));
      },
    });
  }

  private enqueueOwners(rs: ReplicaSet, includeOrphanMatches: boolean, enqueue: Enqueue): void {
    for (const d of ownersOfReplicaSet(this.caches, rs, includeOrphanMatches))
      enqueue(this.caches.deployments.keyOf(d));
  }

  /**
   * `claimReplicaSets` over the RSs of the namespace that claiming can act on — the Deployment's own and the
   * orphans — in namespace-list order (claiming skips every other RS without a side effect, so this is the namespace
   * list with those left out, found through the controller index instead of a scan of every RS); or the last claim's
   * answer while nothing it read has changed.
   */
  private claim(key: string, d: Deployment): ReplicaSet[] {
    const namespace = d.metadata?.namespace ?? '';
    const signature = { selector: d.spec?.selector, deleting: d.metadata?.deletionTimestamp !== undefined };
    const { claimed } = this.claims.get(
      key,
      d.metadata?.uid ?? '',
      namespace,
      (own, orphans) =>
        claimReplicaSets(
          this.ctx.api,
          d,
          this.caches.replicaSets.inListOrder([
            ...own.filter((rs) => (rs.metadata.namespace ?? '') === namespace),
            ...orphans,
          ]),
        ),
      signature,
    );
    // The sync may change the list it is given; the memo keeps its own.
    return claimed.slice();
  }

  protected reconcile(key: string): void {
    const cached = this.caches.deployments.get(key);
    if (!cached) {
      this.claims.forget(key);
      return this.deadlines.cancel(key);
    }
    // A sync changes the Deployment's status and, of its metadata, the annotations (revision) and resourceVersion in
    // place, never its spec: the cached, frozen spec is shared, and so are the other metadata members (labels, owner
    // references, managed fields…). The status writes then send them as stored, checked once rather than per write.
    const meta = cached.metadata;
    const metadata = { ...meta };
    if (meta.annotations !== undefined) metadata.annotations = { ...meta.annotations };
    const d = { ...cached, metadata };
    if (cached.status !== undefined) d.status = cloneJson(cached.status);
    const sync: SyncContext = {
      api: this.ctx.api,
      clock: this.ctx.clock,
      recorder: this.recorder,
      podsByOwner: (ns, uids) => podsByOwner(this.caches, ns, uids),
      d,
      rsList: this.claim(key, d),
    };
    const requeueAfter = syncDeployment(sync);
    if (requeueAfter === null) this.deadlines.cancel(key);
    else if (requeueAfter !== undefined) this.deadlines.schedule(key, requeueAfter);
  }
}

/** What a Deployment's claim depends on besides its ReplicaSets and its namespace's orphans. */
interface ClaimSignature {
  selector: LabelSelector | undefined;
  deleting: boolean;
}
