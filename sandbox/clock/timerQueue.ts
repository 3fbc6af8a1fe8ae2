/**
 * Timers ordered by due time, then by the order they were set, so that timers
 * due at the same instant run first-in first-out. Foreground and background
 * timers live in two heaps, so "when is the next real work due?" is O(1).
 * Shared by the virtual and the real-time clock.
 */

export interface QueuedTimer {
  readonly id: number;
  readonly due: number;
  readonly seq: number;
  readonly fn: () => void;
  readonly background: boolean;
}

class TimerHeap {
  private heap: QueuedTimer[] = [];

  get length(): number {
    return this.heap.length;
  }

  push(t: QueuedTimer): void {
    this.heap.push(t);
    this.up(this.heap.length - 1);
  }

  peek(): QueuedTimer | undefined {
    return this.heap[0];
  }

  pop(): QueuedTimer | undefined {
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

export class TimerQueue {
  private readonly foreground = new TimerHeap();
  private readonly background = new TimerHeap();
  /** Ids of timers set and neither run nor cancelled, with whether they are foreground. */
  private readonly live = new Map<number, boolean>();
  private foregroundLive = 0;
  private seq = 0;
  private nextId = 1;

  get size(): number {
    return this.live.size;
  }

  /** Timers that are not background housekeeping. */
  get foregroundSize(): number {
    return this.foregroundLive;
  }

  push(due: number, fn: () => void, background = false): number {
    const timer: QueuedTimer = { id: this.nextId++, due, seq: this.seq++, fn, background };
    (background ? this.background : this.foreground).push(timer);
    this.live.set(timer.id, !background);
    if (!background) this.foregroundLive++;
    return timer.id;
  }

  cancel(id: number): void {
    const fg = this.live.get(id);
    if (fg === undefined) return;
    this.live.delete(id);
    if (fg) this.foregroundLive--;
  }

  /** When the earliest foreground timer is due. */
  nextForegroundDue(): number | undefined {
    return this.livePeek(this.foreground)?.due;
  }

  /** The earliest live timer, without removing it. */
  peek(): QueuedTimer | undefined {
    const f = this.livePeek(this.foreground);
    const b = this.livePeek(this.background);
    if (!f) return b;
    if (!b) return f;
    return f.due < b.due || (f.due === b.due && f.seq < b.seq) ? f : b;
  }

  /** Removes and returns the earliest live timer. */
  pop(): QueuedTimer | undefined {
    const top = this.peek();
    if (!top) return undefined;
    (top.background ? this.background : this.foreground).pop();
    this.live.delete(top.id);
    if (!top.background) this.foregroundLive--;
    return top;
  }

  /** Drops cancelled timers from the top of `heap`, then peeks. */
  private livePeek(heap: TimerHeap): QueuedTimer | undefined {
    for (let t = heap.peek(); t; t = heap.peek()) {
      if (this.live.has(t.id)) return t;
      heap.pop();
    }
    return undefined;
  }
}
