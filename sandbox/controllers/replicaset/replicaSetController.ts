/**
 * The ReplicaSet controller (pkg/controller/replicaset/replica_set.go):
 * keeps `spec.replicas` active pods matching each ReplicaSet's selector —
 * claiming, creating, deleting — and reports what it sees in `status`.
 */
import type { ReplicaSet } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import type { KubeObject, OwnerReference } from '../../api/types';
import type { LabelSelector } from '../../api/selectors/labelSelector';
import { labelSelectorFromObject } from '../../api/selectors/labelSelector';
import type { Informer } from '../../client/informer';
import { objectKey } from '../../client/cache';
import type { Component, ComponentContext } from '../../client/component';
import { Recorder } from '../../client/component';
import { Expectations } from '../framework/expectations';
import type { ReconcileResult } from '../framework/workQueue';
import { WorkQueue } from '../framework/workQueue';
import { controlledBy, ensureControllerIndex, orphansIn } from '../util/controllerIndex';
import { controllerRefOf } from '../util/owners';
import { podFacts } from '../util/podFacts';
import { claimPods } from './claim';
import { BURST_REPLICAS, manageReplicas } from './manage';
import { podEventHandlers } from './podEvents';
import { writeStatus } from './statusWriter';

export interface ReplicaSetControllerOptions {
  /** Creates or deletes per sync (default 500, upstream `BurstReplicas`). */
  burstReplicas?: number;
}

export class ReplicaSetController implements Component {
  readonly name = 'replicaset-controller';
  /** Exposed for tests and the cluster's "what is pending" report. */
  readonly expectations: Expectations;
  private readonly recorder: Recorder;
  private readonly queue: WorkQueue;
  private rsInformer: Informer | undefined;
  private podInformer: Informer | undefined;
  private running = false;

  constructor(
    private readonly ctx: ComponentContext,
    private readonly options: ReplicaSetControllerOptions = {},
  ) {
    this.expectations = new Expectations(ctx.clock);
    this.recorder = new Recorder(ctx, this.name);
    this.queue = new WorkQueue(ctx.clock, {
      reconcile: (key) => this.sync(key),
      onError: (key, error, retry) => this.recorder.syncFailed(key, error, retry),
    });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    const rsInformer = (this.rsInformer = this.ctx.informers.get('replicasets'));
    const podInformer = (this.podInformer = this.ctx.informers.get('pods'));
    ensureControllerIndex(rsInformer);
    ensureControllerIndex(podInformer);
    rsInformer.addHandlers({
      onAdd: (rs) => this.enqueue(rs),
      onUpdate: (old, cur) => {
        if (old.metadata.uid !== cur.metadata.uid) this.expectations.forget(objectKey(old));
        this.enqueue(cur);
      },
      onDelete: (rs) => {
        this.expectations.forget(objectKey(rs));
        this.enqueue(rs);
      },
    });
    const handlers = podEventHandlers({
      expectations: this.expectations,
      resolve: (ns, ref) => this.resolveControllerRef(ns, ref),
      matching: (pod) => this.replicaSetsFor(pod),
      enqueue: (rs) => this.enqueue(rs as unknown as KubeObject),
    });
    podInformer.addHandlers({
      onAdd: (o) => this.running && handlers.onAdd?.(o),
      onUpdate: (o, n) => this.running && handlers.onUpdate?.(o, n),
      onDelete: (o) => this.running && handlers.onDelete?.(o),
    });
  }

  stop(): void {
    this.running = false;
    this.queue.shutdown();
  }

  private enqueue(rs: KubeObject): void {
    if (this.running) this.queue.add(objectKey(rs));
  }

  private resolveControllerRef(namespace: string, ref: OwnerReference): ReplicaSet | undefined {
    if (ref.kind !== 'ReplicaSet' || !ref.apiVersion.startsWith('apps/')) return undefined;
    const rs = this.rsInformer?.cache.get(`${namespace}/${ref.name}`);
    return rs && rs.metadata.uid === ref.uid ? (rs as unknown as ReplicaSet) : undefined;
  }

  /** ReplicaSets in the pod's namespace whose (non-empty) selector matches it (`GetPodReplicaSets`). */
  private replicaSetsFor(pod: Pod): ReplicaSet[] {
    const out: ReplicaSet[] = [];
    for (const obj of this.rsInformer?.cache.list(pod.metadata?.namespace ?? '') ?? []) {
      const rs = obj as unknown as ReplicaSet;
      try {
        const sel = labelSelectorFromObject(rs.spec?.selector as LabelSelector | undefined);
        if (!sel.empty && sel.matches(pod.metadata?.labels)) out.push(rs);
      } catch {
        // An invalid selector matches nothing.
      }
    }
    return out;
  }

  /** `syncReplicaSet`. */
  private sync(key: string): ReconcileResult {
    const cached = this.rsInformer?.cache.get(key);
    if (!cached) {
      this.expectations.forget(key);
      return;
    }
    const rs = cached as unknown as ReplicaSet;
    const needsSync = this.expectations.satisfied(key);
    let selector;
    try {
      selector = labelSelectorFromObject(rs.spec?.selector as LabelSelector | undefined);
    } catch {
      return;
    }
    const candidates = this.candidatePods(cached, true);
    const { claimed, errors } = claimPods(candidates, {
      api: this.ctx.api,
      owner: cached,
      matches: (pod) => selector.matches(pod.metadata?.labels),
      onChange: (pod, change) =>
        this.recorder.logOnly(
          cached,
          'Normal',
          change === 'adopted' ? 'Adopted' : 'Released',
          `${change === 'adopted' ? 'Adopted' : 'Released'} pod ${pod.metadata?.name}`,
        ),
    });
    if (errors.length > 0) throw errors[0];
    let manageError: Error | undefined;
    if (needsSync && !rs.metadata?.deletionTimestamp) {
      manageError = manageReplicas(key, rs, claimed, {
        api: this.ctx.api,
        expectations: this.expectations,
        recorder: this.recorder,
        burstReplicas: this.options.burstReplicas ?? BURST_REPLICAS,
        now: this.ctx.clock.now(),
        relatedPods: () => this.relatedPods(cached),
      });
    }
    const requeue = writeStatus(this.ctx.api, this.recorder, rs, claimed, manageError, this.ctx.clock.now());
    if (manageError) throw manageError;
    return requeue === undefined ? undefined : { requeueAfter: requeue };
  }

  /**
   * Pods this RS controls plus the orphans of its namespace (what it may claim); only the active ones when
   * `activeOnly`.
   */
  private candidatePods(rs: KubeObject, activeOnly = false): Pod[] {
    const inf = this.podInformer!;
    const out: Pod[] = [];
    for (const group of [controlledBy(inf, rs.metadata.uid!), orphansIn(inf, rs.metadata.namespace ?? '')]) {
      for (const obj of group) {
        const pod = obj as unknown as Pod;
        if (!activeOnly || podFacts(pod).active) out.push(pod);
      }
    }
    return out;
  }

  /**
   * Pods matching the selectors of every ReplicaSet with the same controller
   * (`getIndirectlyRelatedPods`). Upstream scans the namespace; here only the
   * siblings' own pods and orphans are looked at, which is the same set
   * unless another controller's pods match a sibling's selector.
   */
  private relatedPods(rs: KubeObject): Pod[] {
    const owner = controllerRefOf(rs);
    if (!owner) return [];
    const seen = new Set<string>();
    const out: Pod[] = [];
    for (const sibling of controlledBy(this.rsInformer!, owner.uid)) {
      let sel;
      try {
        sel = labelSelectorFromObject((sibling as unknown as ReplicaSet).spec?.selector as LabelSelector | undefined);
      } catch {
        continue;
      }
      for (const pod of this.candidatePods(sibling)) {
        const uid = pod.metadata?.uid ?? '';
        if (seen.has(uid) || !sel.matches(pod.metadata?.labels)) continue;
        seen.add(uid);
        out.push(pod);
      }
    }
    return out;
  }
}
