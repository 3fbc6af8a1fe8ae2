/** A hand-driven timer for the tree's throttle and refresh pacer tests. */
import type { Timer } from '../../../client/src/model/throttle';

/** A timer driven by hand: `advance(ms)` runs what falls due, in order. */
export class ManualTimer implements Timer {
  private time = 0;
  private next = 1;
  private readonly due = new Map<number, { at: number; callback: () => void }>();

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.next++;
    this.due.set(id, { at: this.time + ms, callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.due.delete(handle as number);
  }

  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const first = [...this.due.entries()]
        .filter(([, t]) => t.at <= end)
        .sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
      if (!first) break;
      this.due.delete(first[0]);
      this.time = first[1].at;
      first[1].callback();
    }
    this.time = end;
  }

  get pending(): number {
    return this.due.size;
  }
}
