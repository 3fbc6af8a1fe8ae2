/**
 * The reconciliation log: one line per thing a component did or saw, in
 * clock order — what the extension's output channel and `simulate --log`
 * show. Lines read like
 * `00:00:05.120 deployment-controller Normal ScalingReplicaSet default/web: Scaled up replica set web-7d9f8b6c4d from 0
 * to 3`.
 */

export interface LogEntry {
  /** Clock time, ms since epoch. */
  time: number;
  component: string;
  level: 'Normal' | 'Warning';
  reason: string;
  /** `namespace/name` or `name` of the object concerned. */
  object: string;
  message: string;
}

export type LogListener = (entry: LogEntry) => void;

export class ReconcileLog {
  private readonly entries: LogEntry[] = [];
  private readonly listeners = new Set<LogListener>();

  constructor(private readonly capacity = 10_000) {}

  append(entry: LogEntry): void {
    this.entries.push(entry);
    // Trimmed in one go once twice the capacity, so appending stays O(1) amortized.
    if (this.entries.length >= 2 * this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
    for (const l of this.listeners) l(entry);
  }

  /** The most recent entries (up to the capacity), oldest first. */
  recent(): readonly LogEntry[] {
    return this.entries.length > this.capacity ? this.entries.slice(this.entries.length - this.capacity) : this.entries;
  }

  subscribe(listener: LogListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** `HH:MM:SS.mmm` of the clock time (UTC), then the fields. */
export function formatLogEntry(e: LogEntry): string {
  const t = new Date(e.time).toISOString().slice(11, 23);
  const obj = e.object ? ` ${e.object}:` : ':';
  return `${t} ${e.component} ${e.level} ${e.reason}${obj} ${e.message}`;
}
