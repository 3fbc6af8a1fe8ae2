/**
 * Compaction of the change history in time, as kube-apiserver compacts etcd: every interval it compacts at the
 * revision it saw at the previous tick, so a watch can resume from any revision of the last one to two intervals and
 * older ones answer 410 Gone (the client re-lists). Without it the history keeps its capacity's worth of changes
 * (50,000 object versions) whatever their age: what made a long soak's heap grow for hours.
 *
 * upstream: staging/src/k8s.io/apiserver/pkg/storage/etcd3/compact.go: compactor (`compact` with the revision of the
 * previous cycle); cmd/kube-apiserver: --etcd-compaction-interval (default 5m).
 */
import type { Clock, TimerHandle } from '../clock/clock';
import type { ObjectStore } from '../store/objectStore';

/** kube-apiserver's default `--etcd-compaction-interval`. */
export const COMPACTION_INTERVAL_MS = 5 * 60 * 1000;

export class Compactor {
  private timer: TimerHandle | undefined;
  /** The store's revision at the previous tick: what the next tick compacts at. */
  private seen: number;

  constructor(
    private readonly clock: Clock,
    private readonly store: ObjectStore,
    private readonly intervalMs = COMPACTION_INTERVAL_MS,
  ) {
    this.seen = store.revision;
    this.arm();
  }

  stop(): void {
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    // Housekeeping, like a kubelet's heartbeat: no pending work when deciding whether the cluster has settled.
    this.timer = this.clock.setTimer(this.intervalMs, () => this.tick(), { background: true });
  }

  private tick(): void {
    if (this.seen > this.store.compactedRevision) this.store.compact(this.seen);
    this.seen = this.store.revision;
    this.arm();
  }
}
