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
import { type Selector, labelSelectorFromObject } from '../../api/selectors/labelSelector';
import type { OwnerReference } from '../../api/types';
import { objectKey } from '../../client/cache';
import type { ComponentContext } from '../../client/component';
import type { Informer } from '../../client/informer';
import { Controller, type ReconcileResult, type Watches } from '../framework/controller';
import { Expectations } from '../framework/expectations';
import { enqueueOwnerObserving, resolveOwner } from '../framework/handlers';
import {
  CONTROLLER_UID_INDEX,
  PerOwnerMemo,
  controlledBy,
  ensureControllerIndex,
  orphanKey,
  orphansIn,
} from '../util/controllerIndex';
import { controllerRefOf } from '../util/owners';
import { isPodActive } from '../util/pods';
import { claimPods } from '../util/claim';
import { BURST_REPLICAS, manageReplicas } from './manage';
import { PodTally, tallySignature } from './podTally';
import { countPods, nextAvailableIn, rsReplicasOf } from './status';
import { type ClaimedPods, walkedPods, writeStatus } from './statusWriter';

export interface ReplicaSetControllerOptions {
  /** Creates or deletes per sync (default 500, upstream `BurstReplicas`). */
  burstReplicas?: number;
  /** `ReplicationController`: run as upstream's replication manager (`replication-controller`). */
  kind?: 'ReplicaSet' | 'ReplicationController';
  /**
   * How a sync counts the ReplicaSet's pods: `incremental` (default) from per-ReplicaSet counts kept from the pod
   * informer's deltas, taking upstream's walk over every pod only when the sync acts on pods (adopts, releases or
   * deletes); `walk` always walks, as upstream does; `verify` counts incrementally and also walks, and fails the
   * sync when the two differ (tests).
   */
  podCounts?: 'incremental' | 'walk' | 'verify';
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
  /** Each synced ReplicaSet's pod counts, by ReplicaSet key and by uid (the pods' controller references). */
  private readonly talliesByKey = new Map<string, PodTally>();
  private readonly talliesByUid = new Map<string, PodTally>();
  /** The tally each pod is counted in, by pod key. */
  private readonly tallyOfPod = new Map<string, PodTally>();
  /** Syncs in `verify` mode whose counts differed from the walk's (always 0 unless the tally is wrong). */
  verifyMismatches = 0;
  /** Syncs that took the counts rather than the walk (tests). */
  countedSyncs = 0;

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
    if ((this.options.podCounts ?? 'incremental') !== 'walk') {
      // Registered before any sync, so every change to the cache reaches the tallies before a sync reads them.
      w.handle(podInformer, {
        onAdd: (pod) => this.podChanged(pod),
        onUpdate: (_old, pod) => this.podChanged(pod),
        onDelete: (pod) => this.podGone(pod),
      });
    }
    w.watch(rsInformer, {
      onAdd: (rs, enqueue) => enqueue(rsInformer.cache.keyOf(rs)),
      onUpdate: (old, cur, enqueue) => {
        if (old.metadata.uid !== cur.metadata.uid) this.expectations.forget(objectKey(old));
        enqueue(rsInformer.cache.keyOf(cur));
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
        keyOf: (rs) => this.rsInformer.cache.keyOf(rs),
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
      this.dropTally(key);
      return;
    }
    const needsSync = this.expectations.satisfied(key);
    let selector;
    try {
      selector = labelSelectorFromObject(selectorObjectOf(rs));
    } catch {
      return;
    }
    if ((this.options.podCounts ?? 'incremental') !== 'walk') {
      const result = this.syncCounted(key, rs, selector, needsSync);
      if (result !== false) return result;
    }
    const candidates = this.activeCandidates.get(key, rs.metadata.uid!, rs.metadata.namespace ?? '', (own, orphans) =>
      [...own, ...orphans].filter((pod) => isPodActive(pod)),
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
      manageError = manageReplicas(key, rs, claimed.length, () => claimed, {
        api: this.ctx.api,
        expectations: this.expectations,
        recorder: this.recorder,
        burstReplicas: this.options.burstReplicas ?? BURST_REPLICAS,
        now: this.ctx.clock.now(),
        relatedPods: () => this.relatedPods(rs),
      });
    }
    const requeue = writeStatus(
      this.ctx.api,
      this.recorder,
      rs,
      walkedPods(claimed),
      manageError,
      this.ctx.clock.now(),
    );
    if (manageError) throw manageError;
    return requeue === undefined ? undefined : { requeueAfter: requeue };
  }

  /**
   * The sync from the ReplicaSet's tally when the claim would do nothing (no orphan in the namespace to adopt, no
   * owned pod to release) and the manage step deletes nothing (its ranking needs the pods): the same writes, the
   * same status and requeue as the walk, without visiting the pods. False when the walk must run.
   */
  private syncCounted(key: string, rs: Rs, selector: Selector, needsSync: boolean): ReconcileResult | false {
    if (this.wouldAdopt(rs, selector)) return false;
    const now = this.ctx.clock.now();
    const tally = this.tallyFor(key, rs, selector, now);
    if (tally.unmatched > 0) return false;
    const manage = needsSync && !rs.metadata?.deletionTimestamp;
    const diff = tally.claimed - rsReplicasOf(rs);
    if (manage && diff > 0) return false;
    this.countedSyncs++;
    const uid = rs.metadata.uid!;
    // The claimed pods, listed only when a status retry reads a ReplicaSet whose spec changed meanwhile; listed
    // before the manage step when it creates pods (the walk's list is the pods claimed before the creates).
    let listed = manage && diff < 0 ? this.claimedByWalk(uid, selector) : undefined;
    const list = (): readonly CachedPod[] => (listed ??= this.claimedByWalk(uid, selector));
    if (this.options.podCounts === 'verify') this.verify(key, rs, tally, list(), now);
    const counts = tally.counts();
    const next = tally.nextAvailableIn(now);
    const same = (r: Rs, t: number): boolean => t === now && tallySignature(r, selectorObjectOf(r)) === tally.signature;
    const claimed: ClaimedPods = {
      counts: (r, t) => (same(r as Rs, t) ? counts : countPods(r, list(), t)),
      nextAvailableIn: (r, t) => (same(r as Rs, t) ? next : nextAvailableIn(r, list(), t)),
    };
    let manageError: Error | undefined;
    if (manage) {
      manageError = manageReplicas(key, rs, tally.claimed, list, {
        api: this.ctx.api,
        expectations: this.expectations,
        recorder: this.recorder,
        burstReplicas: this.options.burstReplicas ?? BURST_REPLICAS,
        now,
        relatedPods: () => this.relatedPods(rs),
      });
    }
    const requeue = writeStatus(this.ctx.api, this.recorder, rs, claimed, manageError, now);
    if (manageError) throw manageError;
    return requeue === undefined ? undefined : { requeueAfter: requeue };
  }

  /**
   * True when the claim would adopt: an active orphan in the namespace matches the selector (of a ReplicaSet not
   * being deleted). Orphans that do not match are skipped by the claim, as here.
   */
  private wouldAdopt(rs: Rs, selector: Selector): boolean {
    const namespace = rs.metadata.namespace ?? '';
    if (rs.metadata.deletionTimestamp) return false;
    if (this.podInformer.cache.indexStamp(CONTROLLER_UID_INDEX, orphanKey(namespace)) === 0) return false;
    for (const pod of orphansIn(this.podInformer, namespace))
      if (isPodActive(pod) && selector.matches(pod.metadata?.labels)) return true;
    return false;
  }

  /** What the walk claims when there is nothing to adopt or release: the owned active pods matching the selector. */
  private claimedByWalk(uid: string, selector: Selector): CachedPod[] {
    return controlledBy(this.podInformer, uid).filter(
      (pod) => isPodActive(pod) && selector.matches(pod.metadata?.labels),
    );
  }

  /** `verify`: the walk's counts and requeue must equal the tally's. */
  private verify(key: string, rs: Rs, tally: PodTally, claimed: readonly CachedPod[], now: number): void {
    const own = controlledBy(this.podInformer, rs.metadata.uid!).filter((pod) => isPodActive(pod));
    const walked = { ...countPods(rs, claimed, now), unmatched: own.length - claimed.length };
    const counted = { ...tally.counts(), unmatched: tally.unmatched };
    const walkedNext = nextAvailableIn(rs, claimed, now);
    const countedNext = tally.nextAvailableIn(now);
    if (JSON.stringify(walked) === JSON.stringify(counted) && walkedNext === countedNext) return;
    this.verifyMismatches++;
    throw new Error(
      `pod counts of ${key} differ: walked ${JSON.stringify(walked)} next ${walkedNext}, kept ${JSON.stringify(counted)} next ${countedNext}`,
    );
  }

  /** The ReplicaSet's tally as of `now`, built by walking its pods when it has none for this uid and spec. */
  private tallyFor(key: string, rs: Rs, selector: Selector, now: number): PodTally {
    const uid = rs.metadata.uid!;
    const signature = tallySignature(rs, selectorObjectOf(rs));
    const kept = this.talliesByKey.get(key);
    if (kept && kept.uid === uid && kept.signature === signature && kept.advance(now)) return kept;
    this.dropTally(key);
    const labels = rs.spec?.template?.metadata?.labels ?? {};
    const tally = new PodTally(uid, signature, selector, labels, rs.spec?.minReadySeconds ?? 0);
    for (const pod of controlledBy(this.podInformer, uid)) {
      const podKey = objectKey(pod);
      tally.put(podKey, pod);
      this.tallyOfPod.set(podKey, tally);
    }
    tally.advance(now);
    this.talliesByKey.set(key, tally);
    this.talliesByUid.set(uid, tally);
    return tally;
  }

  private dropTally(key: string): void {
    const tally = this.talliesByKey.get(key);
    if (!tally) return;
    this.talliesByKey.delete(key);
    if (this.talliesByUid.get(tally.uid) === tally) this.talliesByUid.delete(tally.uid);
    // The pods counted in it are the ones its uid controls (podChanged moves a pod whose controller changed), so
    // their entries go with it rather than waiting for each pod's next change.
    for (const pod of controlledBy(this.podInformer, tally.uid)) {
      const podKey = objectKey(pod);
      if (this.tallyOfPod.get(podKey) === tally) this.tallyOfPod.delete(podKey);
    }
  }

  /** How many pods are counted in some tally (tests: a dropped tally leaves none behind). */
  get countedPods(): number {
    return this.tallyOfPod.size;
  }

  /** A pod stored or replaced: counted in its controller's tally (and no longer in another's). */
  private podChanged(pod: CachedPod): void {
    const podKey = this.podInformer.cache.keyOf(pod);
    const uid = controllerRefOf(pod)?.uid;
    const tally = uid === undefined ? undefined : this.talliesByUid.get(uid);
    const was = this.tallyOfPod.get(podKey);
    if (was && was !== tally) was.remove(podKey);
    if (tally) {
      tally.put(podKey, pod);
      this.tallyOfPod.set(podKey, tally);
    } else if (was) this.tallyOfPod.delete(podKey);
  }

  private podGone(pod: CachedPod): void {
    const podKey = objectKey(pod);
    this.tallyOfPod.get(podKey)?.remove(podKey);
    this.tallyOfPod.delete(podKey);
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
