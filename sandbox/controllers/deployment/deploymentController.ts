/**
 * The Deployment controller (pkg/controller/deployment/deployment_controller.go):
 * informers on Deployments, ReplicaSets and pods whose handlers only enqueue
 * the Deployment concerned; `reconcile(key)` reads the caches and runs one
 * level-triggered sync.
 */
import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import type { KubeObject } from '../../api/types';
import { objectKey } from '../../client/cache';
import type { Informer } from '../../client/informer';
import { type Component, type ComponentContext, Recorder } from '../../client/component';
import { cloneJson } from '../../util/json';
import { WorkQueue } from '../framework/workQueue';
import { CONTROLLER_UID_INDEX, ensureControllerIndex, orphanKey } from '../util/controllerIndex';
import { controllerRefOf } from '../util/owners';
import { claimReplicaSets } from './claim';
import { DeadlineTimers } from './deadlineTimers';
import { ownersOfReplicaSet, podsByOwner, type Caches } from './lookups';
import { syncDeployment } from './syncDeployment';
import type { SyncContext } from './syncContext';

export const DEPLOYMENT_CONTROLLER_NAME = 'deployment-controller';

export class DeploymentController implements Component {
  readonly name = DEPLOYMENT_CONTROLLER_NAME;
  private readonly queue: WorkQueue;
  private readonly recorder: Recorder;
  private readonly deadlines: DeadlineTimers;
  private caches: Caches | undefined;

  constructor(private readonly ctx: ComponentContext) {
    this.recorder = new Recorder(ctx, DEPLOYMENT_CONTROLLER_NAME);
    this.queue = new WorkQueue(ctx.clock, {
      reconcile: (key) => this.reconcile(key),
      onError: (key, error, retryInMs) =>
        this.recorder.logOnly(
          key,
          'Warning',
          'SyncError',
          `error syncing deployment: ${error instanceof Error ? error.message : String(error)}; retrying in ${retryInMs}ms`,
        ),
    });
    this.deadlines = new DeadlineTimers(ctx.clock, (key) => this.queue.add(key));
  }

  start(): void {
    const deployments = this.ctx.informers.get<KubeObject>('deployments');
    const replicaSets = this.ctx.informers.get<KubeObject>('replicasets');
    const pods = this.ctx.informers.get<KubeObject>('pods');
    ensureControllerIndex(replicaSets);
    this.caches = { deployments: deployments.cache, replicaSets: replicaSets.cache, pods: pods.cache };
    deployments.addHandlers({
      onAdd: (d) => this.enqueue(d),
      onUpdate: (_old, d) => this.enqueue(d),
      onDelete: (d) => this.enqueue(d),
    });
    this.watchReplicaSets(replicaSets);
    pods.addHandlers({ onDelete: (p) => this.onPodDeleted(p as unknown as Pod) });
  }

  stop(): void {
    this.queue.shutdown();
    this.deadlines.cancelAll();
  }

  private enqueue(obj: KubeObject | Deployment): void {
    this.queue.add(objectKey(obj as KubeObject));
  }

  private enqueueOwners(rs: KubeObject, includeOrphanMatches: boolean): void {
    for (const d of ownersOfReplicaSet(this.caches!, rs as unknown as ReplicaSet, includeOrphanMatches))
      this.enqueue(d);
  }

  private watchReplicaSets(informer: Informer<KubeObject>): void {
    informer.addHandlers({
      onAdd: (rs) => this.enqueueOwners(rs, !rs.metadata.deletionTimestamp),
      onUpdate: (old, cur) => {
        const oldRef = controllerRefOf(old);
        const curRef = controllerRefOf(cur);
        const refChanged = oldRef?.uid !== curRef?.uid;
        if (refChanged && oldRef) this.enqueueOwners(old, false);
        const labelsChanged = JSON.stringify(old.metadata.labels ?? {}) !== JSON.stringify(cur.metadata.labels ?? {});
        this.enqueueOwners(cur, !curRef && (labelsChanged || refChanged));
      },
      onDelete: (rs) => this.enqueueOwners(rs, false),
    });
  }

  /** Recreate waits for old pods to go; a deleted pod may be the last one. */
  private onPodDeleted(pod: Pod): void {
    const ref = controllerRefOf(pod as unknown as KubeObject);
    if (ref?.kind !== 'ReplicaSet') return;
    const rs = this.caches!.replicaSets.get(`${pod.metadata?.namespace}/${ref.name}`);
    if (!rs || rs.metadata.uid !== ref.uid) return;
    for (const d of ownersOfReplicaSet(this.caches!, rs as unknown as ReplicaSet, false)) {
      if (d.spec?.strategy?.type === 'Recreate') this.enqueue(d);
    }
  }

  /**
   * The RSs of the namespace that claiming can act on — the Deployment's own
   * and the orphans — in namespace-list order. Claiming skips every other RS
   * without a side effect, so this is the namespace list with those left out,
   * found through the controller index instead of a scan of every RS.
   */
  private claimCandidates(namespace: string, uid: string): ReplicaSet[] {
    const cache = this.caches!.replicaSets;
    const own = cache.byIndex(CONTROLLER_UID_INDEX, uid).filter((rs) => (rs.metadata.namespace ?? '') === namespace);
    const orphans = cache.byIndex(CONTROLLER_UID_INDEX, orphanKey(namespace));
    return cache.inListOrder([...own, ...orphans]) as unknown as ReplicaSet[];
  }

  private reconcile(key: string): void {
    const cached = this.caches!.deployments.get(key);
    if (!cached) return this.deadlines.cancel(key);
    const d = cloneJson(cached) as unknown as Deployment;
    const namespace = d.metadata?.namespace ?? '';
    const candidates = this.claimCandidates(namespace, cached.metadata.uid ?? '');
    const sync: SyncContext = {
      api: this.ctx.api,
      clock: this.ctx.clock,
      recorder: this.recorder,
      podsByOwner: (ns, uids) => podsByOwner(this.caches!, ns, uids),
      d,
      rsList: claimReplicaSets(this.ctx.api, d, candidates),
    };
    const requeueAfter = syncDeployment(sync);
    if (requeueAfter === null) this.deadlines.cancel(key);
    else if (requeueAfter !== undefined) this.deadlines.schedule(key, requeueAfter);
  }
}
