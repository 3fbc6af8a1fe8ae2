/**
 * A min-heap of timers ordered by due time, then by the order they were set,
 * so that timers due at the same instant run first-in first-out. Shared by the
 * virtual and the real-time clock.
 */

export interface QueuedTimer {
  readonly id: number;
  readonly due: number;
  readonly seq: number;
  readonly fn: () => void;
  readonly background: boolean;
}

export class TimerQueue {
  private heap: QueuedTimer[] = [];
  private cancelled = new Set<number>();
  private live = new Set<number>();
  private liveForeground = new Set<number>();
  private seq = 0;
  private nextId = 1;

  get size(): number {
    return this.live.size;
  }

  /** Timers that are not background housekeeping. */
  get foregroundSize(): number {
    return this.liveForeground.size;
  }

  push(due: number, fn: () => void, background = false): number {
    const timer: QueuedTimer = { id: this.nextId++, due, seq: this.seq++, fn, background };
    this.heap.push(timer);
    this.live.add(timer.id);
    if (!background) this.liveForeground.add(timer.id);
    this.up(this.heap.length - 1);
    return timer.id;
  }

  cancel(id: number): void {
    if (this.live.delete(id)) this.cancelled.add(id);
    this.liveForeground.delete(id);
  }

  /** When the earliest foreground timer is due (scans the heap: O(n)). */
  nextForegroundDue(): number | undefined {
    let best: number | undefined;
    for (const t of this.heap) if (this.liveForeground.has(t.id) && (best === undefined || t.due < best)) best = t.due;
    return best;
  }

  /** The earliest live timer, without removing it. */
  peek(): QueuedTimer | undefined {
    this.dropCancelled();
    return this.heap[0];
  }

  /** Removes and returns the earliest live timer. */
  pop(): QueuedTimer | undefined {
    this.dropCancelled();
    const top = this.take();
    if (top) {
      this.live.delete(top.id);
      this.liveForeground.delete(top.id);
    }
    return top;
  }

  private dropCancelled(): void {
    while (this.heap.length > 0 && this.cancelled.has(this.heap[0].id)) {
      this.cancelled.delete(this.heap[0].id);
      this.take();
    }
  }

  private take(): QueuedTimer | undefined {
    const heap = this.heap;
    if (heap.length === 0) return undefined;
    const top = heap[0];
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      this.down(0);
    }
    return top;
  }

  private less(a: QueuedTimer, b: QueuedTimer): boolean {
    return a.due < b.due || (a.due === b.due && a.seq < b.seq);
  }

  private up(i: number): void {
    const heap = this.heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(heap[i], heap[parent])) break;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
  }

  private down(i: number): void {
    const heap = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && this.less(heap[l], heap[m])) m = l;
      if (r < heap.length && this.less(heap[r], heap[m])) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m], heap[i]];
      i = m;
    }
  }
}
