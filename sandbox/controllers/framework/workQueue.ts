/**
 * A work queue of object keys on the injected clock, with client-go's
 * guarantees: a key is queued at most once however often it is added; a key
 * is never processed by two workers at once (one added while it is being
 * processed is processed again afterwards); delayed adds keep the earliest
 * time; failures are retried with per-key exponential back-off.
 */
import type { Clock, TimerHandle } from '../../clock/clock';
import { ItemRateLimiter } from './rateLimiter';

/** What a reconcile may ask for: nothing (done), or to be looked at again later. */
// A reconcile usually returns nothing; `void` in the union lets it do so without `return undefined`.
// eslint-disable-next-line @typescript-eslint/no-invalid-void-type
export type ReconcileResult = void | { requeueAfter: number };

export interface WorkQueueOptions {
  /** Called for each key; a thrown error requeues the key with back-off. */
  reconcile: (key: string) => ReconcileResult;
  /** Told about each failure (for the reconciliation log). */
  onError?: (key: string, error: unknown, retryInMs: number) => void;
  rateLimiter?: ItemRateLimiter;
}

export class WorkQueue {
  private readonly queue: string[] = [];
  private head = 0;
  private readonly dirty = new Set<string>();
  /**
   * The keys being processed: one at a time (a reconcile runs to its end before the next key), so a short list — a
   * nested pass, were a reconcile to run the clock, would add its key above — instead of a `Set` written twice a key
   * (issue 16: the thousand's drain).
   */
  private readonly processing: string[] = [];
  private readonly waiting = new Map<string, { due: number; handle: TimerHandle }>();
  private drainScheduled = false;
  private shutDown = false;
  private readonly limiter: ItemRateLimiter;

  constructor(
    private readonly clock: Clock,
    private readonly options: WorkQueueOptions,
  ) {
    this.limiter = options.rateLimiter ?? new ItemRateLimiter();
  }

  /** Keys queued and not yet processed. */
  get length(): number {
    return this.queue.length - this.head;
  }

  /** Keys waiting for a delayed add. */
  get waitingCount(): number {
    return this.waiting.size;
  }

  add(key: string): void {
    if (this.shutDown || this.dirty.has(key)) return;
    this.dirty.add(key);
    if (this.processing.includes(key)) return;
    this.queue.push(key);
    this.scheduleDrain();
  }

  /** Adds `key` after `delayMs`; if it is already waiting, the earlier time wins. */
  addAfter(key: string, delayMs: number): void {
    if (this.shutDown) return;
    if (delayMs <= 0) return this.add(key);
    const due = this.clock.now() + delayMs;
    const existing = this.waiting.get(key);
    if (existing && existing.due <= due) return;
    if (existing) this.clock.clearTimer(existing.handle);
    const handle = this.clock.setTimer(delayMs, () => {
      this.waiting.delete(key);
      this.add(key);
    });
    this.waiting.set(key, { due, handle });
  }

  /** Adds `key` after its back-off delay (which grows with each call until `forget`). */
  addRateLimited(key: string): number {
    const delay = this.limiter.when(key);
    this.addAfter(key, delay);
    return delay;
  }

  /** Resets `key`'s back-off after a success. */
  forget(key: string): void {
    this.limiter.forget(key);
  }

  /** Stops processing and cancels delayed adds. */
  shutdown(): void {
    this.shutDown = true;
    for (const w of this.waiting.values()) this.clock.clearTimer(w.handle);
    this.waiting.clear();
  }

  private scheduleDrain(): void {
    if (this.drainScheduled) return;
    this.drainScheduled = true;
    this.clock.setTimer(0, () => this.drain());
  }

  /**
   * Processes the keys queued when the pass began, in order. Keys added during
   * the pass wait for a new pass, scheduled behind whatever else is due at this
   * instant — so controllers take turns, as their workers would run
   * concurrently, instead of one controller acting many times on its own
   * writes before the others have seen them.
   */
  private drain(): void {
    this.drainScheduled = false;
    const end = this.queue.length;
    while (!this.shutDown && this.head < end) {
      const key = this.queue[this.head++];
      this.dirty.delete(key);
      this.processing.push(key);
      try {
        const result = this.options.reconcile(key);
        this.limiter.forget(key);
        if (result && result.requeueAfter >= 0) this.addAfter(key, result.requeueAfter);
      } catch (error) {
        const delay = this.addRateLimited(key);
        this.options.onError?.(key, error, delay);
      } finally {
        this.processing.pop();
        if (this.dirty.has(key)) this.queue.push(key);
      }
    }
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    if (!this.shutDown && this.head < this.queue.length) this.scheduleDrain();
  }
}
