/**
 * The scheduling queue (`backend/queue/scheduling_queue.go`): an active
 * queue ordered by priority then arrival, a back-off queue for pods whose
 * last attempt failed (1 s doubling to 10 s per pod), and the unschedulable
 * pods, which wait for a cluster event that may help them — or, at the
 * latest, 5 minutes.
 *
 * Back-off expiry is a foreground timer (a retry is pending work); the
 * 5-minute flush is a background one (nothing is known to have changed).
 */
import type { Clock, TimerHandle } from '../clock/clock';
import type { ObjectsByResource } from '../api/resourceObjects';
import type { PodInfo } from './podInfo';
import { Nominator } from './nominator';
import { Heap } from './podHeap';

export type QueueState = 'active' | 'backoff' | 'unschedulable' | 'inflight' | 'gone';

export interface QueuedPod {
  readonly key: string;
  pod: ObjectsByResource['pods'];
  /** Parsed on first attempt; dropped when the pod's spec changes. */
  info: PodInfo | undefined;
  priority: number;
  /** When the pod last entered the queue or last failed. */
  timestamp: number;
  attempts: number;
  unschedulableCount: number;
  /** Bits (1 << plugin id) of the filter plugins that rejected some node in the last attempt. */
  rejectedBy: number;
  state: QueueState;
  seq: number;
  /**
   * The plugins concerned by cluster events during its attempt: a failure those plugins caused goes to back-off, not to
   * wait (upstream's in-flight events checked by the queueing hints).
   */
  inflightInterest: number;
}

export interface QueueOptions {
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  maxUnschedulableMs?: number;
}

export class SchedulingQueue {
  private readonly pods = new Map<string, QueuedPod>();
  /** Queued pods nominated to a node by preemption. */
  readonly nominator = new Nominator();
  private readonly active = new Heap<QueuedPod>((a, b) =>
    a.priority !== b.priority
      ? a.priority > b.priority
      : a.timestamp !== b.timestamp
        ? a.timestamp < b.timestamp
        : a.seq < b.seq,
  );
  private readonly backoff = new Map<string, QueuedPod>();
  private readonly waiting = new Map<string, QueuedPod>();
  private backoffTimer: { handle: TimerHandle; due: number } | undefined;
  private flushTimer: TimerHandle | undefined;
  private seq = 0;
  /** Pods popped and not yet settled (one at a time in practice). */
  private readonly inflight = new Set<QueuedPod>();
  private readonly initialBackoff: number;
  private readonly maxBackoff: number;
  private readonly maxUnschedulable: number;

  constructor(
    private readonly clock: Clock,
    /** Told whenever a pod becomes active (the scheduler arranges a cycle). */
    private readonly onActive: () => void,
    options: QueueOptions = {},
  ) {
    this.initialBackoff = options.initialBackoffMs ?? 1000;
    this.maxBackoff = options.maxBackoffMs ?? 10_000;
    this.maxUnschedulable = options.maxUnschedulableMs ?? 5 * 60_000;
  }

  get(key: string): QueuedPod | undefined {
    return this.pods.get(key);
  }

  /** Counts by state, for tests and status displays. */
  counts(): { active: number; backoff: number; unschedulable: number } {
    let active = 0;
    for (const p of this.pods.values()) if (p.state === 'active') active++;
    return { active, backoff: this.backoff.size, unschedulable: this.waiting.size };
  }

  /** A new pending pod, or a newer version of one already queued. `specChanged` re-activates a waiting pod. */
  addOrUpdate(key: string, pod: ObjectsByResource['pods'], priority: number, specChanged: boolean): void {
    this.nominator.update(key, pod);
    const qp = this.pods.get(key);
    if (!qp) {
      const fresh: QueuedPod = {
        key,
        pod,
        info: undefined,
        priority,
        timestamp: this.clock.now(),
        attempts: 0,
        unschedulableCount: 0,
        rejectedBy: 0,
        state: 'active',
        seq: this.seq++,
        inflightInterest: 0,
      };
      this.pods.set(key, fresh);
      this.pushActive(fresh);
      return;
    }
    qp.pod = pod;
    if (!specChanged) return;
    qp.info = undefined;
    if (qp.state === 'unschedulable') this.reactivate(qp);
  }

  delete(key: string): void {
    this.nominator.remove(key);
    const qp = this.pods.get(key);
    if (!qp) return;
    this.pods.delete(key);
    this.backoff.delete(key);
    this.waiting.delete(key);
    this.inflight.delete(qp);
    qp.state = 'gone';
  }

  /**
   * The next pod to schedule, or undefined. It stays known to the queue (in flight) until `done`, `unschedulable` or
   * `retry`.
   */
  pop(): QueuedPod | undefined {
    for (;;) {
      const qp = this.active.pop();
      if (!qp) return undefined;
      if (qp.state !== 'active' || this.pods.get(qp.key) !== qp) continue;
      qp.state = 'inflight';
      qp.attempts++;
      qp.inflightInterest = 0;
      this.inflight.add(qp);
      return qp;
    }
  }

  /** The pod was bound. */
  done(qp: QueuedPod): void {
    this.nominator.remove(qp.key);
    this.inflight.delete(qp);
    if (this.pods.get(qp.key) === qp) this.pods.delete(qp.key);
    qp.state = 'gone';
  }

  /** The pod fits nowhere: it waits for an event that involves one of `rejectedBy`'s plugins. */
  unschedulable(qp: QueuedPod, rejectedBy: number): void {
    this.inflight.delete(qp);
    if (this.pods.get(qp.key) !== qp) return;
    qp.unschedulableCount++;
    qp.rejectedBy = rejectedBy;
    qp.timestamp = this.clock.now();
    if ((qp.inflightInterest & rejectedBy) !== 0 || (rejectedBy === 0 && qp.inflightInterest !== 0))
      return this.toBackoff(qp);
    qp.state = 'unschedulable';
    this.waiting.set(qp.key, qp);
    this.armFlush();
  }

  /** The attempt failed for another reason (an API error): retry after back-off. */
  retry(qp: QueuedPod): void {
    this.inflight.delete(qp);
    if (this.pods.get(qp.key) !== qp) return;
    qp.unschedulableCount++;
    qp.timestamp = this.clock.now();
    this.toBackoff(qp);
  }

  /** A cluster event that may help pods rejected by the plugins in `interest` (a bit mask). */
  moveAll(interest: number): void {
    for (const qp of this.inflight) qp.inflightInterest |= interest;
    for (const qp of [...this.waiting.values()])
      if ((qp.rejectedBy & interest) !== 0 || qp.rejectedBy === 0) this.reactivate(qp);
  }

  /** Cancels the queue's timers (the scheduler stopped). */
  shutdown(): void {
    if (this.backoffTimer) this.clock.clearTimer(this.backoffTimer.handle);
    if (this.flushTimer) this.clock.clearTimer(this.flushTimer);
    this.backoffTimer = undefined;
    this.flushTimer = undefined;
  }

  backoffDuration(qp: QueuedPod): number {
    let d = this.initialBackoff;
    for (let i = 1; i < qp.unschedulableCount; i++) {
      d *= 2;
      if (d >= this.maxBackoff) return this.maxBackoff;
    }
    return d;
  }

  private reactivate(qp: QueuedPod): void {
    this.waiting.delete(qp.key);
    if (this.clock.now() < qp.timestamp + this.backoffDuration(qp)) this.toBackoff(qp);
    else this.pushActive(qp);
  }

  private pushActive(qp: QueuedPod): void {
    qp.state = 'active';
    this.active.push(qp);
    this.onActive();
  }

  private toBackoff(qp: QueuedPod): void {
    qp.state = 'backoff';
    this.backoff.set(qp.key, qp);
    this.armBackoff();
  }

  private armBackoff(): void {
    let due = Infinity;
    for (const qp of this.backoff.values()) due = Math.min(due, qp.timestamp + this.backoffDuration(qp));
    if (due === Infinity || (this.backoffTimer && this.backoffTimer.due <= due)) return;
    if (this.backoffTimer) this.clock.clearTimer(this.backoffTimer.handle);
    const handle = this.clock.setTimer(due - this.clock.now(), () => this.flushBackoff());
    this.backoffTimer = { handle, due };
  }

  private flushBackoff(): void {
    this.backoffTimer = undefined;
    const now = this.clock.now();
    for (const qp of [...this.backoff.values()]) {
      if (qp.timestamp + this.backoffDuration(qp) > now) continue;
      this.backoff.delete(qp.key);
      this.pushActive(qp);
    }
    this.armBackoff();
  }

  private armFlush(): void {
    if (this.flushTimer) return;
    const oldest = this.waiting.values().next().value;
    if (!oldest) return;
    const delay = Math.max(0, oldest.timestamp + this.maxUnschedulable - this.clock.now());
    this.flushTimer = this.clock.setTimer(delay, () => this.flushUnschedulable(), { background: true });
  }

  private flushUnschedulable(): void {
    this.flushTimer = undefined;
    const now = this.clock.now();
    for (const qp of [...this.waiting.values()]) {
      if (qp.timestamp + this.maxUnschedulable > now) break;
      this.reactivate(qp);
    }
    this.armFlush();
  }
}
