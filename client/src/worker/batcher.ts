/**
 * Batches what the worker pushes to the host — watch changes and log lines —
 * into at most one `changes` and one `log` notification per interval (100 ms:
 * at most 10 batches a second). Changes keep resourceVersion order; repeated
 * changes to one object within a batch collapse into its latest state.
 */
import type { LogEntry } from '../../../sandbox/client/reconcileLog';
import type { Notification, WatchChange } from '../sandbox/protocol';

export const BATCH_INTERVAL_MS = 100;

export interface HostTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const nodeTimers: HostTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

function changeKey(c: WatchChange): string {
  return `${c.resource}|${c.object.metadata.namespace ?? ''}|${c.object.metadata.name ?? ''}`;
}

export class Batcher {
  private changes: (WatchChange | undefined)[] = [];
  /** Object key → index in `changes` of its latest change in this batch. */
  private latest = new Map<string, number>();
  private logs: LogEntry[] = [];
  private timer: unknown = undefined;

  constructor(
    private readonly send: (n: Notification) => void,
    private readonly intervalMs = BATCH_INTERVAL_MS,
    private readonly timers: HostTimers = nodeTimers,
  ) {}

  change(c: WatchChange): void {
    const key = changeKey(c);
    const i = this.latest.get(key);
    let next = c;
    const prev = i === undefined ? undefined : this.changes[i];
    if (prev && prev.type !== 'DELETED') {
      // The host has not seen `prev` yet: only the latest state matters, at the latest position.
      this.changes[i!] = undefined;
      if (prev.type === 'ADDED' && c.type === 'DELETED') {
        this.latest.delete(key);
        return;
      }
      if (prev.type === 'ADDED') next = { ...c, type: 'ADDED' };
    }
    this.latest.set(key, this.changes.push(next) - 1);
    this.arm();
  }

  log(entry: LogEntry): void {
    this.logs.push(entry);
    this.arm();
  }

  /** Sends what is pending now (changes first, then log lines). */
  flush(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    const changes = this.changes.filter((c): c is WatchChange => c !== undefined);
    const logs = this.logs;
    this.changes = [];
    this.latest = new Map();
    this.logs = [];
    if (changes.length > 0) this.send({ kind: 'changes', changes });
    if (logs.length > 0) this.send({ kind: 'log', entries: logs });
  }

  /** Drops everything pending (after a reset, a fresh `list` replaces it). */
  discard(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.changes = [];
    this.latest = new Map();
    this.logs = [];
  }

  private arm(): void {
    if (this.timer === undefined) this.timer = this.timers.setTimeout(() => this.flush(), this.intervalMs);
  }
}
