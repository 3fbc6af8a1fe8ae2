/**
 * The StatefulSet controller (pkg/controller/statefulset/stateful_set.go):
 * StatefulSets by key; a pod wakes the set that controls it (an orphan, the
 * sets whose selector matches it). A sync adopts orphaned revisions, claims
 * the set's pods (selector and name both must match), finds the current and
 * update revisions, runs `updateStatefulSet`, writes the status, and trims
 * the revision history to `revisionHistoryLimit`.
 */
import type { Pod } from 'kubernetes-types/core/v1';
import type { ObjectsByResource } from '../../api/resourceObjects';
import type { Selector } from '../../api/selectors/labelSelector';
import { labelSelectorFromObject } from '../../api/selectors/labelSelector';
import type { Typed } from '../../api/types';
import { objectKey } from '../../client/cache';
import type { ComponentContext } from '../../client/component';
import type { Informer } from '../../client/informer';
import { Controller, type ReconcileResult, type Watches } from '../framework/controller';
import { enqueueMapped, enqueueObject, enqueueOwner } from '../framework/handlers';
import type { Revision } from '../history/controllerHistory';
import { deleteControllerRevision, listControllerRevisions } from '../history/controllerHistory';
import { sortRevisions } from '../history/revisions';
import { claimPods, claimControllerRevisions } from '../util/claim';
import { controlledBy, ensureControllerIndex, orphansIn } from '../util/controllerIndex';
import { controllerRefOf } from '../util/owners';
import { availableAt } from '../util/pods';
import { updateStatefulSet } from './control';
import type { Sts } from './identity';
import { isMemberOf, podRevision, replicasOf } from './identity';
import type { PodControl } from './podControl';
import { setRevisions } from './revisions';
import { writeSetStatus } from './status';

export const STATEFULSET_CONTROLLER_NAME = 'statefulset-controller';

type CachedPod = ObjectsByResource['pods'];

export class StatefulSetController extends Controller {
  private sets!: Informer<Sts>;
  private pods!: Informer<CachedPod>;
  private revisions!: Informer<Revision>;
  private podControl!: PodControl;

  constructor(ctx: ComponentContext) {
    super(ctx, { name: STATEFULSET_CONTROLLER_NAME });
  }

  protected watch(w: Watches): void {
    this.sets = w.informer('statefulsets');
    this.pods = w.informer('pods');
    this.revisions = w.informer('controllerrevisions');
    const claims = w.informer('persistentvolumeclaims');
    ensureControllerIndex(this.pods);
    this.podControl = { api: this.ctx.api, recorder: this.recorder, claims };
    w.watch(this.sets, enqueueObject());
    w.watch(this.pods, enqueueOwner(this.sets, { kind: 'StatefulSet', group: 'apps' }));
    // Orphans wake the sets that would adopt them (`getStatefulSetsForPod`).
    w.watch(
      this.pods,
      enqueueMapped((pod) => this.adopters(pod).map(objectKey), {
        when: (pod) => !controllerRefOf(pod),
        update: 'both',
      }),
    );
  }

  /** Sets in the pod's namespace whose (non-empty, valid) selector matches it. */
  private adopters(pod: Pod): Sts[] {
    const out: Sts[] = [];
    for (const set of this.sets.cache.list(pod.metadata?.namespace ?? '')) {
      const selector = selectorOf(set);
      if (selector && !selector.empty && selector.matches(pod.metadata?.labels)) out.push(set);
    }
    return out;
  }

  /** `sync` + `syncStatefulSet`. */
  protected reconcile(key: string): ReconcileResult {
    const set = this.sets.cache.get(key);
    if (!set) return;
    const selector = selectorOf(set);
    if (!selector) return;
    this.adoptOrphanRevisions(set, selector);
    const pods = this.claimedPods(set, selector);
    const revisions = sortRevisions(listControllerRevisions(this.revisions, set, selector));
    const now = this.ctx.clock.now();
    const { current, update, collisionCount } = setRevisions(this.ctx.api, set, revisions);
    const result = updateStatefulSet(this.podControl, { set, pods, current, update, collisionCount, now });
    let error = result.error;
    try {
      writeSetStatus(this.ctx.api, set, result.status);
    } catch (e) {
      error ??= e instanceof Error ? e : new Error(String(e));
    }
    this.truncateHistory(set, pods, revisions, current, update);
    if (error) throw error;
    return this.availabilityCheck(set, pods, now);
  }

  /** `adoptOrphanRevisions`: revisions matching the selector without a controller are adopted. */
  private adoptOrphanRevisions(set: Sts, selector: Selector): void {
    const orphans = listControllerRevisions(this.revisions, set, selector).filter((r) => !controllerRefOf(r));
    if (orphans.length === 0) return;
    const { errors } = claimControllerRevisions(orphans, { api: this.ctx.api, owner: set, matches: () => true });
    if (errors.length > 0) throw new Error(`can't adopt ControllerRevisions: ${errors[0].message}`);
  }

  /** `getPodsForStatefulSet`: the set's pods and matching orphans, claimed when both selector and name match. */
  private claimedPods(set: Sts, selector: Selector): Typed<Pod>[] {
    const candidates = [
      ...controlledBy(this.pods, set.metadata.uid!),
      ...orphansIn(this.pods, set.metadata.namespace ?? ''),
    ];
    const { claimed, errors } = claimPods(candidates, {
      api: this.ctx.api,
      owner: set,
      matches: (pod) => selector.matches(pod.metadata?.labels) && isMemberOf(set, pod),
    });
    if (errors.length > 0) throw errors[0];
    return claimed as Typed<Pod>[];
  }

  /**
   * `truncateHistory`: revisions no pod uses, and neither current nor update, are deleted oldest first beyond
   * `revisionHistoryLimit`.
   */
  private truncateHistory(
    set: Sts,
    pods: readonly Pod[],
    revisions: readonly Revision[],
    current: Revision,
    update: Revision,
  ): void {
    const live = new Set<string>([current.metadata.name ?? '', update.metadata.name ?? '']);
    for (const pod of pods) live.add(podRevision(pod));
    const history = revisions.filter((r) => !live.has(r.metadata.name ?? ''));
    const limit = set.spec?.revisionHistoryLimit ?? 10;
    if (limit < 0 || history.length <= limit) return;
    for (const r of history.slice(0, history.length - limit)) deleteControllerRevision(this.ctx.api, r);
  }

  /**
   * With `minReadySeconds`, upstream looks again after that long while not every replica is available; here the sync
   * comes back at the instant the next Ready pod becomes available.
   */
  private availabilityCheck(set: Sts, pods: readonly Pod[], now: number): ReconcileResult {
    const minReady = set.spec?.minReadySeconds ?? 0;
    if (minReady <= 0) return undefined;
    let next: number | undefined;
    for (const pod of pods) {
      const at = availableAt(pod, minReady);
      if (at !== undefined && at > now && (next === undefined || at < next)) next = at;
    }
    return next === undefined || replicasOf(set) === 0 ? undefined : { requeueAfter: next - now };
  }
}

function selectorOf(set: Sts): Selector | undefined {
  try {
    return labelSelectorFromObject(set.spec?.selector);
  } catch {
    return undefined;
  }
}
