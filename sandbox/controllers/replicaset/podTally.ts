/**
 * Each ReplicaSet's own pods counted as a sync's claim and `calculateStatus` would count them, kept up to date from
 * the pod informer's add/update/delete deltas instead of walking the ReplicaSet's pods on every sync.
 *
 * Upstream (`syncReplicaSet` in pkg/controller/replicaset/replica_set.go, `calculateStatus` in replica_set_utils.go)
 * walks every pod of the ReplicaSet on every sync; a pod status write wakes its ReplicaSet, so a ReplicaSet of N pods
 * costs N² pod visits to bring up. The counts here are the walk's counts exactly, for the pods the ReplicaSet
 * controls (the controller-uid index's entries): how many are active and match the selector (claimed, the status's
 * `replicas`), how many of those carry the template's labels, are Ready, are available at a given time — and how many
 * active ones no longer match the selector (a sync would release them, so it takes the walk). Availability under
 * `minReadySeconds` depends on the time of the sync: a Ready pod waits in `pending` until a sync's clock reaches its
 * available-at instant, and the earliest such instant is the sync's requeue, as the walk's `nextAvailableIn` says.
 */
import type { ReplicaSet } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import type { LabelSelector } from 'kubernetes-types/meta/v1';
import type { Selector } from '../../api/selectors/labelSelector';
import { parseTimestamp } from '../../clock/clock';
import { isPodActive, readyCondition } from '../util/pods';

/** The counts of `calculateStatus`. */
export interface PodCounts {
  replicas: number;
  fullyLabeled: number;
  ready: number;
  available: number;
}

/**
 * What a ReplicaSet's counts depend on besides its pods: compared as one string, cached per stored (frozen) spec when
 * the selector is the spec's own — every part then comes from the spec, which status writes keep (the stored
 * ReplicaSet changes on each status write, its spec does not) — else per stored object.
 */
const signatures = new WeakMap<object, string>();

export function tallySignature(rs: ReplicaSet, selector: LabelSelector | undefined): string {
  const spec = rs.spec;
  const holder: object = spec !== undefined && selector === spec.selector ? spec : rs;
  let s = signatures.get(holder);
  if (s === undefined) {
    s = JSON.stringify([selector ?? null, spec?.template?.metadata?.labels ?? {}, spec?.minReadySeconds ?? 0]);
    if (Object.isFrozen(holder)) signatures.set(holder, s);
  }
  return s;
}

/** True when `labels` has every template label with its value (`FullyLabeledReplicas`). */
export function hasTemplateLabels(
  template: Record<string, string>,
  keys: readonly string[],
  labels: Record<string, string> | undefined,
): boolean {
  for (let i = 0; i < keys.length; i++) if (labels?.[keys[i]] !== template[keys[i]]) return false;
  return true;
}

/** One active pod's share of the counts, as it was added (removal takes back exactly this). */
interface Entry {
  matches: boolean;
  fullyLabeled: boolean;
  ready: boolean;
  /** When it counts as available (ms); NaN when it never will (Ready without a parsable transition time). */
  at: number;
  /** Counted in `available` (else waiting in `pending`, or never). */
  available: boolean;
  /** What the entry was computed from: the pod's labels (by identity) and its Ready condition's transition time. */
  labels: Record<string, string> | undefined;
  since: string | undefined;
}

export class PodTally {
  /** Active pods by key. */
  private readonly entries = new Map<string, Entry>();
  /** Ready claimed pods not yet available, with a finite available-at instant. */
  private readonly pending = new Set<Entry>();
  private readonly templateKeys: readonly string[];
  private readonly minReady: number;
  claimed = 0;
  /** Active pods that no longer match the selector (a sync releases them). */
  unmatched = 0;
  private fullyLabeled = 0;
  private ready = 0;
  private available = 0;
  /** The latest clock time counted at: available pods were available then, and time only moves forward. */
  private countedAt = Number.NEGATIVE_INFINITY;

  constructor(
    readonly uid: string,
    readonly signature: string,
    private readonly selector: Selector,
    private readonly templateLabels: Record<string, string>,
    minReadySeconds: number,
  ) {
    this.templateKeys = Object.keys(templateLabels);
    this.minReady = minReadySeconds;
  }

  /** Counts `pod` under `key` (replacing what was counted for that key). */
  put(key: string, pod: Pod): void {
    const prev = this.entries.get(key);
    const active = isPodActive(pod);
    const ready = readyCondition(pod);
    const labels = pod.metadata?.labels;
    // A change that leaves what the entry says as it was (a status write keeps the stored, frozen labels object and,
    // while Ready, the condition's transition time) keeps the entry: taking and giving it back would count the same,
    // as an entry waiting in `pending` is still after the last count and an available one still before it.
    if (
      prev &&
      active &&
      prev.labels === labels &&
      (labels === undefined || Object.isFrozen(labels)) &&
      prev.ready === (ready !== undefined) &&
      prev.since === ready?.lastTransitionTime
    )
      return;
    if (prev) this.take(prev);
    if (!active) {
      this.entries.delete(key);
      return;
    }
    const since = ready?.lastTransitionTime ? parseTimestamp(ready.lastTransitionTime) : Number.NaN;
    const e: Entry = {
      matches: this.selector.matches(labels),
      fullyLabeled: hasTemplateLabels(this.templateLabels, this.templateKeys, labels),
      ready: ready !== undefined,
      at: Number.isFinite(since) ? since + this.minReady * 1000 : Number.NaN,
      available: false,
      labels,
      since: ready?.lastTransitionTime,
    };
    this.entries.set(key, e);
    this.give(e);
  }

  /** Stops counting the pod under `key`. */
  remove(key: string): void {
    const prev = this.entries.get(key);
    if (!prev) return;
    this.entries.delete(key);
    this.take(prev);
  }

  /**
   * Brings availability to clock time `now`; false when the clock went back (the counts then no longer say what a
   * walk at `now` would, and the caller builds a new tally).
   */
  advance(now: number): boolean {
    if (now < this.countedAt) return false;
    this.countedAt = now;
    for (const e of this.pending) {
      if (e.at > now) continue;
      this.pending.delete(e);
      e.available = true;
      this.available++;
    }
    return true;
  }

  /** The counts as of the last `advance`. */
  counts(): PodCounts {
    return { replicas: this.claimed, fullyLabeled: this.fullyLabeled, ready: this.ready, available: this.available };
  }

  /** `nextAvailableIn` as of the last `advance(now)`. */
  nextAvailableIn(now: number): number | undefined {
    let next: number | undefined;
    for (const e of this.pending) if (next === undefined || e.at < next) next = e.at;
    return next === undefined ? undefined : next - now;
  }

  private give(e: Entry): void {
    if (!e.matches) {
      this.unmatched++;
      return;
    }
    this.claimed++;
    if (e.fullyLabeled) this.fullyLabeled++;
    if (!e.ready) return;
    this.ready++;
    // `isReadyConditionAvailable`: without minReadySeconds a Ready pod is available; with it, once its time came.
    if (this.minReady <= 0 || e.at <= this.countedAt) {
      e.available = true;
      this.available++;
    } else if (Number.isFinite(e.at)) this.pending.add(e);
  }

  private take(e: Entry): void {
    if (!e.matches) {
      this.unmatched--;
      return;
    }
    this.claimed--;
    if (e.fullyLabeled) this.fullyLabeled--;
    if (!e.ready) return;
    this.ready--;
    if (e.available) this.available--;
    else this.pending.delete(e);
  }
}
