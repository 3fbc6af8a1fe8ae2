/**
 * The ReplicaSet controller (pkg/controller/replicaset/replica_set.go):
 * keeps `spec.replicas` active pods matching each ReplicaSet's selector —
 * claiming, creating, deleting — and reports what it sees in `status`.
 * The same code runs ReplicationControllers, as upstream's replication
 * manager does (pkg/controller/replication: `NewReplicationManager` wraps the
 * ReplicaSet controller; the RC's map selector reads as `matchLabels`).
 */
import type { Pod } from 'kubernetes-types/core/v1';
import type { LabelSelector } from 'kubernetes-types/meta/v1';
import type { ObjectsByResource } from '../../api/resourceObjects';
import { labelSelectorFromObject } from '../../api/selectors/labelSelector';
import type { OwnerReference } from '../../api/types';
import { objectKey } from '../../client/cache';
import type { ComponentContext } from '../../client/component';
import type { Informer } from '../../client/informer';
import { Controller, type ReconcileResult, type Watches } from '../framework/controller';
import { Expectations } from '../framework/expectations';
import { enqueueOwnerObserving, resolveOwner } from '../framework/handlers';
import { PerOwnerMemo, controlledBy, ensureControllerIndex, orphansIn } from '../util/controllerIndex';
import { controllerRefOf } from '../util/owners';
import { podFacts } from '../util/podFacts';
import { claimPods } from '../util/claim';
import { BURST_REPLICAS, manageReplicas } from './manage';
import { writeStatus } from './statusWriter';

export interface ReplicaSetControllerOptions {
  /** Creates or deletes per sync (default 500, upstream `BurstReplicas`). */
  burstReplicas?: number;
  /** `ReplicationController`: run as upstream's replication manager (`replication-controller`). */
  kind?: 'ReplicaSet' | 'ReplicationController';
}

/** What the controller manages: ReplicaSets, or ReplicationControllers read as ReplicaSets. */
const KINDS = {
  ReplicaSet: { resource: 'replicasets', group: 'apps', name: 'replicaset-controller' },
  ReplicationController: { resource: 'replicationcontrollers', group: '', name: 'replication-controller' },
} as const;

type Rs = ObjectsByResource['replicasets'];

/** The label selector of a ReplicaSet, or of a ReplicationController (its map as `matchLabels`). */
function selectorObjectOf(rs: Rs): LabelSelector | undefined {
  if ((rs.kind as string) !== 'ReplicationController') return rs.spec?.selector;
  const sel: unknown = rs.spec?.selector;
  return sel && typeof sel === 'object' ? { matchLabels: sel as Record<string, string> } : undefined;
}
type CachedPod = ObjectsByResource['pods'];

export class ReplicaSetController extends Controller {
  /** Exposed for tests and the cluster's "what is pending" report. */
  readonly expectations: Expectations;
  private rsInformer!: Informer<Rs>;
  private podInformer!: Informer<CachedPod>;
  /** Each ReplicaSet's active candidate pods, kept while its pods and its namespace's orphans are unchanged. */
  private activeCandidates!: PerOwnerMemo<CachedPod, readonly CachedPod[]>;

  constructor(
    ctx: ComponentContext,
    private readonly options: ReplicaSetControllerOptions = {},
  ) {
    super(ctx, { name: KINDS[options.kind ?? 'ReplicaSet'].name });
    this.expectations = new Expectations(ctx.clock);
  }

  /**
   * ReplicaSets by key (a re-created or deleted one forgets its expectations); pods wake their controlling
   * ReplicaSet, observing expectations, and orphans wake the ReplicaSets that would adopt them.
   */
  protected watch(w: Watches): void {
    const rsInformer = (this.rsInformer = w.informer(
      KINDS[this.options.kind ?? 'ReplicaSet'].resource,
    ) as Informer<Rs>);
    const podInformer = (this.podInformer = w.informer('pods'));
    ensureControllerIndex(rsInformer);
    ensureControllerIndex(podInformer);
    this.activeCandidates = new PerOwnerMemo(podInformer);
    w.watch(rsInformer, {
      onAdd: (rs, enqueue) => enqueue(objectKey(rs)),
      onUpdate: (old, cur, enqueue) => {
        if (old.metadata.uid !== cur.metadata.uid) this.expectations.forget(objectKey(old));
        enqueue(objectKey(cur));
      },
      onDelete: (rs, enqueue) => {
        this.expectations.forget(objectKey(rs));
        enqueue(objectKey(rs));
      },
    });
    // Upstream also enqueues after minReadySeconds when a pod turns Ready; here the sync itself
    // requeues at the exact instant the pod becomes available.
    w.watch(
      podInformer,
      enqueueOwnerObserving({
        expectations: this.expectations,
        resolve: (ns, ref) => this.resolveControllerRef(ns, ref),
        adopters: (pod) => this.replicaSetsFor(pod),
      }),
    );
  }

  private resolveControllerRef(namespace: string, ref: OwnerReference): Rs | undefined {
    const kind = this.options.kind ?? 'ReplicaSet';
    return resolveOwner(this.rsInformer, namespace, ref, { kind, group: KINDS[kind].group });
  }

  /** ReplicaSets in the pod's namespace whose (non-empty) selector matches it (`GetPodReplicaSets`). */
  private replicaSetsFor(pod: Pod): Rs[] {
    const out: Rs[] = [];
    for (const rs of this.rsInformer.cache.list(pod.metadata?.namespace ?? '')) {
      try {
        const sel = labelSelectorFromObject(selectorObjectOf(rs));
        if (!sel.empty && sel.matches(pod.metadata?.labels)) out.push(rs);
      } catch {
        // An invalid selector matches nothing.
      }
    }
    return out;
  }

  /** `syncReplicaSet`. */
  protected reconcile(key: string): ReconcileResult {
    const rs = this.rsInformer.cache.get(key);
    if (!rs) {
      this.expectations.forget(key);
      this.activeCandidates.forget(key);
      return;
    }
    const needsSync = this.expectations.satisfied(key);
    let selector;
    try {
      selector = labelSelectorFromObject(selectorObjectOf(rs));
    } catch {
      return;
    }
    const candidates = this.activeCandidates.get(key, rs.metadata.uid!, rs.metadata.namespace ?? '', (own, orphans) =>
      [...own, ...orphans].filter((pod) => podFacts(pod).active),
    );
    const { claimed, errors } = claimPods(candidates, {
      api: this.ctx.api,
      owner: rs,
      matches: (pod) => selector.matches(pod.metadata?.labels),
      onChange: (pod, change) =>
        this.recorder.logOnly(
          rs,
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
        relatedPods: () => this.relatedPods(rs),
      });
    }
    const requeue = writeStatus(this.ctx.api, this.recorder, rs, claimed, manageError, this.ctx.clock.now());
    if (manageError) throw manageError;
    return requeue === undefined ? undefined : { requeueAfter: requeue };
  }

  /** Pods this RS controls plus the orphans of its namespace (what it may claim). */
  private candidatePods(rs: Rs): CachedPod[] {
    return [
      ...controlledBy(this.podInformer, rs.metadata.uid!),
      ...orphansIn(this.podInformer, rs.metadata.namespace ?? ''),
    ];
  }

  /**
   * Pods matching the selectors of every ReplicaSet with the same controller
   * (`getIndirectlyRelatedPods`). Upstream scans the namespace; here only the
   * siblings' own pods and orphans are looked at, which is the same set
   * unless another controller's pods match a sibling's selector.
   */
  private relatedPods(rs: Rs): Pod[] {
    const owner = controllerRefOf(rs);
    if (!owner) return [];
    const seen = new Set<string>();
    const out: Pod[] = [];
    for (const sibling of controlledBy(this.rsInformer, owner.uid)) {
      let sel;
      try {
        sel = labelSelectorFromObject(selectorObjectOf(sibling));
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
