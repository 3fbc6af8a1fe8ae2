/**
 * Timers ordered by due time, then by the order they were set, so that timers
 * due at the same instant run first-in first-out. Foreground and background
 * timers live in two heaps, so "when is the next real work due?" is O(1).
 * Shared by the virtual and the real-time clock.
 */

const NOTHING = (): void => undefined;

/**
 * A timer in the queue, and the handle `push` returns: it is cancelled through itself (no map of ids is kept), and
 * lets go of its function once it has run or been cancelled (a handle kept afterwards does not keep what the function
 * closed over).
 */
export class QueuedTimer {
  /** Neither run (popped) nor cancelled. */
  pending = true;

  constructor(
    readonly queue: TimerQueue,
    readonly id: number,
    readonly due: number,
    readonly seq: number,
    public fn: () => void,
    readonly background: boolean,
  ) {}
}

/**
 * A binary min-heap of timers by (due, seq). The keys sit in two typed arrays beside the timers, so a sift compares
 * numbers next to each other in memory instead of loading each timer object (the envelope's clock holds thousands of
 * timers, and the loads were most of a pop). Elements move into a hole rather than being swapped.
 */
class TimerHeap {
  private timers: (QueuedTimer | undefined)[] = [];
  private dues = new Float64Array(64);
  private seqs = new Float64Array(64);
  private size = 0;

  get length(): number {
    return this.size;
  }

  push(t: QueuedTimer): void {
    if (this.size === this.dues.length) this.grow();
    this.up(this.size++, t);
  }

  peek(): QueuedTimer | undefined {
    return this.size > 0 ? this.timers[0] : undefined;
  }

  pop(): QueuedTimer | undefined {
    if (this.size === 0) return undefined;
    const top = this.timers[0];
    const n = --this.size;
    const last = this.timers[n]!;
    this.timers[n] = undefined;
    if (n > 0) this.down(last);
    return top;
  }

  private grow(): void {
    const dues = new Float64Array(this.dues.length * 2);
    dues.set(this.dues);
    this.dues = dues;
    const seqs = new Float64Array(this.seqs.length * 2);
    seqs.set(this.seqs);
    this.seqs = seqs;
  }

  /** Places `t` at the hole `i` or above it. */
  private up(i: number, t: QueuedTimer): void {
    const { timers, dues, seqs } = this;
    const due = t.due;
    const seq = t.seq;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pd = dues[parent];
      if (!(due < pd || (due === pd && seq < seqs[parent]))) break;
      timers[i] = timers[parent];
      dues[i] = pd;
      seqs[i] = seqs[parent];
      i = parent;
    }
    timers[i] = t;
    dues[i] = due;
    seqs[i] = seq;
  }

  /** Places `t` at the hole at the root or below it. */
  private down(t: QueuedTimer): void {
    const { timers, dues, seqs, size } = this;
    const due = t.due;
    const seq = t.seq;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= size) break;
      let m = l;
      let md = dues[l];
      let ms = seqs[l];
      const r = l + 1;
      if (r < size) {
        const rd = dues[r];
        if (rd < md || (rd === md && seqs[r] < ms)) {
          m = r;
          md = rd;
          ms = seqs[r];
        }
      }
      if (!(md < due || (md === due && ms < seq))) break;
      timers[i] = timers[m];
      dues[i] = md;
      seqs[i] = ms;
      i = m;
    }
    timers[i] = t;
    dues[i] = due;
    seqs[i] = seq;
  }
}

export class TimerQueue {
  private readonly foreground = new TimerHeap();
  private readonly background = new TimerHeap();
  /** Timers set and neither run nor cancelled, and how many of them are foreground. */
  private live = 0;
  private foregroundLive = 0;
  private seq = 0;
  private nextId = 1;

  get size(): number {
    return this.live;
  }

  /** Timers that are not background housekeeping. */
  get foregroundSize(): number {
    return this.foregroundLive;
  }

  push(due: number, fn: () => void, background = false): QueuedTimer {
    const timer = new QueuedTimer(this, this.nextId++, due, this.seq++, fn, background);
    (background ? this.background : this.foreground).push(timer);
    this.live++;
    if (!background) this.foregroundLive++;
    return timer;
  }

  /** Cancels a timer of this queue that has not run; anything else is ignored. */
  cancel(timer: QueuedTimer): void {
    if (timer.queue !== this || !timer.pending) return;
    this.settle(timer);
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

  /** Removes the earliest live timer (the one `peek` returns) and returns its function, which the timer lets go of. */
  pop(): (() => void) | undefined {
    const top = this.peek();
    if (!top) return undefined;
    (top.background ? this.background : this.foreground).pop();
    const fn = top.fn;
    this.settle(top);
    return fn;
  }

  private settle(timer: QueuedTimer): void {
    timer.pending = false;
    timer.fn = NOTHING;
    this.live--;
    if (!timer.background) this.foregroundLive--;
  }

  /** Drops cancelled timers from the top of `heap`, then peeks. */
  private livePeek(heap: TimerHeap): QueuedTimer | undefined {
    for (let t = heap.peek(); t; t = heap.peek()) {
      if (t.pending) return t;
      heap.pop();
    }
    return undefined;
  }
}
